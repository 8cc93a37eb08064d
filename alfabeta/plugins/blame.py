"""Who raised: the plugin behind an unexpected exception, for an error a person can act on.

Plugin code runs inside alfabeta's searches and games (a plain-Python game's ``push``, an
evaluator called per node, an observer). When it raises, the command reports the plugin's
name, its distribution and version, and the method that raised — found by walking the
traceback for the innermost frame of a loaded plugin's module that is not alfabeta's own.
"""

from __future__ import annotations

import traceback
from typing import TYPE_CHECKING

from attrs import frozen

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog

OWN_PACKAGE = "alfabeta"


@frozen
class Culprit:
    """The plugin whose code raised: its entry-point name, distribution, version and the method."""

    plugin: str
    distribution: str
    version: str
    method: str

    def __str__(self) -> str:
        origin = f"{self.distribution} {self.version}".strip()
        return f"plugin {self.plugin!r} ({origin}), in {self.method}"


def _package(module: str) -> str:
    return module.split(".", 1)[0]


def blame(error: BaseException, catalog: Catalog | None) -> Culprit | None:
    """The plugin whose code raised ``error`` (the innermost such frame), or None when the
    traceback holds no third-party plugin code."""
    if catalog is None:
        return None
    packages = {
        _package(info.module): info
        for info in catalog.plugins
        if _package(info.module) != OWN_PACKAGE
    }
    found = None
    for frame, _ in traceback.walk_tb(error.__traceback__):
        module = frame.f_globals.get("__name__", "")
        info = packages.get(_package(module))
        if info is not None:
            owner = frame.f_locals.get("self")
            method = frame.f_code.co_name
            if owner is not None:
                method = f"{type(owner).__name__}.{method}"
            found = Culprit(
                info.name,
                info.distribution,
                info.version,
                f"{module}.{method}" if owner is None else method,
            )
    return found
