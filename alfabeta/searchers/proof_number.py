"""``pn``: depth-first proof-number search (``alfabeta.solvers.pns``) as a searcher, so a
proof can be asked for anywhere a searcher is named (``play``, ``prove --searcher pn``, the
arena).

It proves or disproves a win for the side to move, then for its opponent. ``value`` is a
proven win or loss (``±(WIN - plies)``, plies being the winner's strategy's longest line) or
0 for a draw or when the budget ran out (``complete=False``). ``move`` keeps the value: the
strategy's first move for a win, a move that is not lost for a draw, else the first legal
move. ``depth`` bounds the proof's length in plies (a win beyond it is not sought).
"""

from __future__ import annotations

from typing import Any

from attrs import define, field

from alfabeta.core import (
    Limit,
    Position,
    SearchResult,
    UnsupportedLimitError,
    loss_in,
    win_in,
)
from alfabeta.core.evaluator import as_evaluator
from alfabeta.searchers.base import Searcher
from alfabeta.solvers.proof import DRAW, LOSS, WIN, prove


def _epsilon(instance: Any, attribute: Any, value: Any) -> None:
    from alfabeta.core import InvalidOptionError

    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 10:
        raise InvalidOptionError(f"pn option epsilon={value!r}: expected 0 … 10")


def main_line(tree: dict | None) -> tuple[int, ...]:
    """The strategy's moves along its first defence at each turn."""
    line = []
    while tree:
        if "move" in tree:
            line.append(tree["move"])
            tree = tree["then"]
        else:
            move, tree = next(iter(tree["replies"].items()))
            line.append(move)
    return tuple(line)


@define
class ProofNumber(Searcher):
    """Depth-first proof-number search with a transposition table and the 1+ε trick."""

    name = "pn"
    compiled = True
    epsilon: float = field(default=0.25, validator=_epsilon, kw_only=True)

    def limit_for(self, limit: Limit | None) -> Limit:
        """The limit; a clock is refused (a proof search answers a question, it does not deepen)."""
        own = Limit(depth=self.depth, nodes=self.nodes, time=self.time)
        merged = own.merged(limit)
        if merged.uses_clock or merged.movestogo is not None:
            raise UnsupportedLimitError(
                "pn answers a question rather than deepening: give it nodes or time, not a clock"
            )
        return merged

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None
    ) -> SearchResult:
        """Prove the position's value (win, loss or draw) within the limit."""
        evaluator = as_evaluator(evaluator)
        limit = self.limit_for(limit)
        evaluator.prepare(position)
        result = prove(
            position,
            nodes=limit.nodes or 0,
            seconds=limit.time or 0.0,
            max_plies=limit.depth or 0,
            evaluator=evaluator,
        )
        moves = position.legal_moves()
        move = result.move if result.move is not None else (moves[0] if moves else None)
        plies = result.plies or 0  # a proven result comes with its length
        if result.value == WIN:
            value = win_in(plies)
        elif result.value == LOSS:
            value = loss_in(plies)
        else:
            value = 0
        return SearchResult(
            move=move,
            value=value,
            depth=result.plies or 0,
            nodes=result.nodes,
            leaves=0,
            pv=main_line(result.strategy) or ((move,) if move is not None else ()),
            elapsed=result.seconds,
            complete=result.value in (WIN, LOSS, DRAW),
        )
