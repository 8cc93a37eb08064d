"""The shallow α-β kernel of Márquez's 1991 thesis (seed-004 §4, L3041–3104 and L3380–3384),
kept apart from both its users: the thesis searchers (``searchers/thesis.py``) run it over a
game's positions, the deduction game (``games/deduction/thesis.py``) over its proof tree. It
knows nothing of either: the caller's ``expand`` supplies the tree, h and any bound.

Values are MAX's, and None is the thesis's NIL: a provisional value not yet set, with which
every comparison is false.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any, TypeVar

M = TypeVar("M")

Expand = Callable[[Any, bool], "int | Generator[Any, None, None]"]
"""``expand(node, at_max)``: a leaf's value, or a generator of the node's children (closing it
undoes any move it made)."""


def valor(expand: Expand, node: Any, at_max: bool, bound: int | None) -> int | None:
    """VALOR-A (``at_max``) or VALOR-B of ``node``: the thesis's shallow α-β, in which each
    child receives only its parent's provisional value. ``bound`` is the parent's provisional
    value (None = NIL): a MAX node stops once its value reaches it, a MIN node once its value
    falls to it."""
    found = expand(node, at_max)
    if isinstance(found, int):
        return found
    vp = None
    try:
        for child in found:
            value = valor(expand, child, not at_max, vp)
            if at_max and not le(value, vp):
                vp = value
                if ge(vp, bound):
                    break
            elif not at_max and not ge(value, vp):
                vp = value
                if le(vp, bound):
                    break
    finally:
        found.close()
    return vp


def mejor(values: Sequence[tuple[M, int | None]]) -> tuple[M | None, int | None]:
    """MEJOR (L3380–3384): scanning pairwise, drop the first if its value ≤ the second's,
    else drop the second — so the last (move, value) of maximum value survives."""
    if not values:
        return None, None
    pending = list(values)
    while len(pending) > 1:
        first, second = pending[0], pending[1]
        if le(first[1], second[1]):
            pending.pop(0)
        else:
            pending.pop(1)
    return pending[0]


def le(a: int | None, b: int | None) -> bool:
    """MENOR-IGUAL: a ≤ b, false when either side is NIL."""
    return a is not None and b is not None and a <= b


def ge(a: int | None, b: int | None) -> bool:
    """MAYOR-IGUAL: a ≥ b, false when either side is NIL."""
    return a is not None and b is not None and a >= b
