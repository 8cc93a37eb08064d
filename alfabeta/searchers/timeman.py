"""Time management: how much of a game clock one move may spend. One rule for every searcher
that keeps to a clock (the alpha-beta family, MCTS, the UCI engine's ``searchmoves``).

A move gets a **soft** budget, after which an iterative search starts no new iteration, and a
**hard** limit, at which any search stops. Each constant below says why it has its value.
"""

from __future__ import annotations

from typing import Any

from attrs import define, field, frozen

from alfabeta.core import Limit, UnsupportedLimitError

MOVES_TO_GO = 30
"""Moves assumed left in the game when the clock gives no ``movestogo``: a sudden-death game
is then spent evenly over the next 30 moves, and every later move gets a share of what is left
(the usual assumption of UCI engines; a game rarely lasts exactly that long, so the reserve
shrinks geometrically instead of running out)."""

INCREMENT_SHARE = 0.8
"""Of the increment, the part spent on this move: the rest covers the time that passes outside
the search (the GUI's transport, the process's own bookkeeping), so the clock never shrinks
through increments alone."""

SOFT_SHARE = 0.5
"""The soft budget is half the move's share: an iteration of alpha-beta costs about as much as
all earlier ones together, so one started after half the share would finish far past it."""

HARD_FACTOR = 3
"""A move may run over its share this many times (an iteration in progress is worth finishing
when the position is hard), but never past ``MAX_SHARE`` of the clock."""

MAX_SHARE = 0.4
"""No move spends more than this part of the time left: even a hard position must leave the
rest of the game time to be played."""

MIN_HARD = 0.01
"""The shortest hard limit in seconds: below it a search cannot complete even depth 1."""


@frozen
class MoveBudget:
    """The seconds one move may spend: ``soft`` (start no new iteration after it) and ``hard``
    (stop the search)."""

    soft: float
    hard: float


def moves_left(position: Any, moves_to_go: int = MOVES_TO_GO, horizon: int = 0) -> int:
    """The moves a clock that does not say is spent over at ``position``: ``moves_to_go``; with a
    ``horizon``, that move number less the position's own (its ``fullmove``), never fewer than
    ``moves_to_go``, so that the clock is spent about evenly until the horizon and the reserve
    a geometric schedule keeps is used up by then (a game that numbers no moves keeps
    ``moves_to_go``)."""
    number = getattr(position, "fullmove", None) if horizon else None
    if not isinstance(number, int):
        return moves_to_go
    return max(moves_to_go, horizon - number)


def move_budget(limit: Limit, side: int, moves_to_go: int = MOVES_TO_GO) -> MoveBudget:
    """The budget for a move by ``side`` (0 = white/first) under ``limit``'s game clock, with
    ``moves_to_go`` moves assumed left when the clock does not say; a clock with no time left
    for the side raises UnsupportedLimitError."""
    remaining = (limit.wtime if side == 0 else limit.btime) or 0.0
    increment = (limit.winc if side == 0 else limit.binc) or 0.0
    if remaining <= 0:
        raise UnsupportedLimitError("the clock has no time left for this move")
    share = remaining / (limit.movestogo or moves_to_go) + INCREMENT_SHARE * increment
    hard = max(MIN_HARD, min(remaining * MAX_SHARE, share * HARD_FACTOR))
    return MoveBudget(soft=min(share, hard) * SOFT_SHARE, hard=hard)


def uses_clock(limit: Limit) -> bool:
    """Whether ``limit`` describes a game clock (rather than a fixed time per move)."""
    return limit.uses_clock or limit.movestogo is not None


def for_move(limit: Limit, side: int, moves_to_go: int = MOVES_TO_GO) -> tuple[Limit, float | None]:
    """``limit`` turned into a fixed budget for one move by ``side``: a limit without a game
    clock comes back unchanged with no soft budget; with a clock, the hard limit becomes the
    move's ``time`` (the smaller of the two when both are given) and the soft budget is
    returned beside it (``moves_to_go`` as in ``move_budget``)."""
    if not uses_clock(limit):
        return limit, None
    budget = move_budget(limit, side, moves_to_go)
    timed = Limit(
        depth=limit.depth,
        nodes=limit.nodes,
        time=min(budget.hard, limit.time) if limit.time else budget.hard,
        stop=limit.stop,
        infinite=limit.infinite,
    )
    return timed, budget.soft


BEST_MOVE_CHANGE = 0.6
"""How much longer (as a share of the soft budget) a search may go on per recent change of its
best move: a move that keeps changing has not been understood yet. Changes fade by half each
iteration, so only the recent ones count."""

SCORE_DROP = 30
"""A drop of the score by this many points from the previous iteration is trouble found late:
the search may then spend ``SCORE_DROP_FACTOR`` times its budget to find the way out."""

SCORE_DROP_FACTOR = 1.5

NODE_SHARE_BASE = 1.5
NODE_SHARE_SCALE = 1.35
"""With ``node_share``: the soft budget is also scaled by (``NODE_SHARE_BASE`` − s) ×
``NODE_SHARE_SCALE``, s being the share of the last iteration's nodes the best move took: a
move that took 90 % of them is clear (×0.81), one that took half shares the work with rivals
(×1.35). The usual constants of engines that spend by node share."""

MOST_STRETCH = 2.5
"""The soft budget never grows beyond this many times its size (the hard limit still holds)."""


@define
class IterationClock:
    """Whether an iterative search under a game clock starts another iteration, decided after
    each completed one. ``soft`` is the move's soft budget (``for_move``). ``adaptive`` adds the
    rules: a forced move (one legal reply) is played after the first iteration; the budget
    stretches while the best move changes (``BEST_MOVE_CHANGE``) and when the score drops
    (``SCORE_DROP``), up to ``MOST_STRETCH``; off, the soft budget is fixed. ``node_share``
    (with ``adaptive``) scales it by the best move's share of the nodes (``NODE_SHARE_BASE``)."""

    soft: float
    legal_moves: int = 0
    adaptive: bool = False
    node_share: bool = False
    _move: Any = field(default=None, init=False)
    _value: int | None = field(default=None, init=False)
    _instability: float = field(default=0.0, init=False)

    def budget(self, move: Any, value: int, best_share: float | None = None) -> float:
        """The soft budget after an iteration that chose ``move`` with ``value``, the move
        having taken ``best_share`` (0 to 1; None: unknown) of the iteration's nodes."""
        if not self.adaptive:
            return self.soft
        self._instability /= 2
        if self._move is not None and move != self._move:
            self._instability += 1
        stretch = 1 + BEST_MOVE_CHANGE * self._instability
        if self._value is not None and value <= self._value - SCORE_DROP:
            stretch *= SCORE_DROP_FACTOR
        if self.node_share and best_share is not None:
            stretch *= (NODE_SHARE_BASE - min(max(best_share, 0.0), 1.0)) * NODE_SHARE_SCALE
        self._move, self._value = move, value
        return self.soft * min(stretch, MOST_STRETCH)

    def stop_after(
        self, move: Any, value: int, elapsed: float, best_share: float | None = None
    ) -> bool:
        """True when no new iteration should start, ``elapsed`` seconds into the search
        (``best_share`` as in ``budget``)."""
        if self.adaptive and self.legal_moves == 1:
            return True
        return elapsed >= self.budget(move, value, best_share)
