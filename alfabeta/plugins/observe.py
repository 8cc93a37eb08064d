"""The one way a search is run with the observer hooks around it.

``observed_search`` fires ``search_started`` before and ``search_finished`` after a search;
:class:`Observed` wraps a searcher so that every ``search`` does so (``Catalog.observed``
makes one). ``play``, the arena, ``bench``, ``epd``, ``prove --searcher`` and the UCI engine
all search through it, so a plugin sees every search alfabeta runs.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

Notify = Callable[..., Any]


def observed_search(
    notify: Notify, searcher: Any, position: Any, evaluator: Any, limit: Any, **options: Any
) -> Any:
    """``searcher.search(position, evaluator, limit, **options)`` between the two hooks."""
    notify("search_started", position=position, searcher=searcher, evaluator=evaluator, limit=limit)
    result = searcher.search(position, evaluator, limit, **options)
    notify(
        "search_finished", position=position, searcher=searcher, evaluator=evaluator, result=result
    )
    return result


class Observed:
    """``searcher`` with the observer hooks around each search; everything else (options,
    ``new_game``, ``compiled``…) is the searcher's own."""

    def __init__(self, searcher: Any, notify: Notify) -> None:
        self.searcher = searcher
        self.notify = notify

    def search(self, position: Any, evaluator: Any, limit: Any = None, **options: Any) -> Any:
        """Search with the wrapped searcher, the observer hooks before and after."""
        return observed_search(self.notify, self.searcher, position, evaluator, limit, **options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.searcher, name)

    def __str__(self) -> str:
        return str(self.searcher)

    def __repr__(self) -> str:
        return repr(self.searcher)


_TAKES_INFO: dict[type, bool] = {}  # by searcher class: does its ``search`` take ``on_info``?


def takes_info(searcher: Any) -> bool:
    """Whether ``searcher.search`` streams its iterations (an ``on_info`` argument), seen
    through an Observed wrapper; asked once per searcher class (a UCI engine asks at every
    ``go``)."""
    inner = searcher.searcher if isinstance(searcher, Observed) else searcher
    kind = type(inner)
    if kind not in _TAKES_INFO:
        _TAKES_INFO[kind] = "on_info" in inspect.signature(kind.search).parameters
    return _TAKES_INFO[kind]
