"""Proof-number search from Python: the answer for the side to move, its strategy tree, and an
independent check of that tree by replaying every defence."""

from __future__ import annotations

import time

from attrs import frozen

from alfabeta.core import Position, Result
from alfabeta.solvers.graph import SolverError
from alfabeta.solvers.pns import DfPn

WIN, LOSS, DRAW, UNKNOWN = "win", "loss", "draw", "unknown"
NO_WIN = "no win"  # the side to move cannot force a win within the ply bound


@frozen(eq=False)
class ProofResult:
    """What df-pn established for the side to move: ``value`` is win, loss, draw or unknown;
    ``strategy`` the winner's strategy tree (None for a draw or unknown); ``plies`` its
    length (the longest line it allows, an upper bound on the distance to the end);
    ``move`` a move that keeps the value (the strategy's first move for a win; for a draw a
    move that is not lost; None when every move loses or nothing is known)."""

    value: str
    strategy: dict | None
    plies: int | None
    move: int | None
    nodes: int
    seconds: float
    cycles: bool


def strategy_length(tree: dict) -> int:
    """The plies of the longest line a strategy tree allows."""
    if "move" in tree:
        return 1 + strategy_length(tree["then"])
    if "replies" in tree:
        return 1 + max(strategy_length(t) for t in tree["replies"].values())
    return 0


def verify(
    position: Position, tree: dict, attacker: int, max_plies: int = 0, evaluator=None
) -> bool:
    """True when ``tree`` wins for ``attacker`` from ``position`` against every defence, by
    the game's own rules (legal moves, outcome, history), within ``max_plies`` if given; an
    explicit tree's leaf is won when ``evaluator`` scores it above 0 for the attacker."""

    def check(node: dict, ply: int) -> bool:
        if max_plies and ply > max_plies:
            return False
        if not node:
            status = position.outcome()
            mover = position.side_to_move
            if status == Result.LEAF and evaluator is not None:
                score = evaluator.evaluate(position)
                return (score if mover == attacker else -score) > 0
            if status not in (Result.WIN, Result.LOSS):
                return False
            return (status == Result.WIN) == (mover == attacker)
        if position.is_over():
            return False
        moves = position.legal_moves()
        if "move" in node:
            if position.side_to_move != attacker or node["move"] not in moves:
                return False
            position.push(node["move"])
            try:
                return check(node["then"], ply + 1)
            finally:
                position.pop()
        if position.side_to_move == attacker or set(node["replies"]) != set(moves):
            return False
        for move, subtree in node["replies"].items():
            position.push(move)
            try:
                if not check(subtree, ply + 1):
                    return False
            finally:
                position.pop()
        return True

    return check(tree, 0)


def prove(
    position: Position,
    *,
    nodes: int = 0,
    seconds: float = 0.0,
    max_plies: int = 0,
    evaluator=None,
    forcing_first: bool = False,
    tree_limit: int = 200_000,
) -> ProofResult:
    """Is the side to move won, lost or drawn? df-pn for the side to move, then for its
    opponent; a proof counts only once its strategy tree has been replayed and verified.
    ``nodes`` and ``seconds`` bound each of the two searches. With ``max_plies`` only the
    side to move's win within that many plies is asked (a mate in N is 2N − 1 plies): the
    answer is then win, no win or unknown."""
    if position.is_over():
        raise SolverError(f"{position.to_string()!r}: the game is over")
    start = time.perf_counter()
    mover = position.side_to_move
    expanded, cycles = 0, False
    for attacker in (mover, 1 - mover):
        search = DfPn(
            position,
            attacker,
            max_plies=max_plies,
            nodes=nodes,
            seconds=seconds,
            evaluator=evaluator,
            forcing_first=forcing_first,
        )
        answer, _, _ = search.run()
        expanded += search.expanded
        cycles = cycles or search.cycle_seen
        if answer == "proved":
            tree = search.proof_tree(tree_limit)
            if tree is None or not verify(position, tree, attacker, max_plies, evaluator):
                answer = "unknown"  # never report a proof that does not replay
            else:
                won = attacker == mover
                return ProofResult(
                    WIN if won else LOSS,
                    tree,
                    strategy_length(tree),
                    tree["move"] if won else None,
                    expanded,
                    time.perf_counter() - start,
                    cycles,
                )
        if answer == "unknown":
            break
        if max_plies:
            return ProofResult(
                NO_WIN, None, None, None, expanded, time.perf_counter() - start, cycles
            )
        if attacker != mover:  # neither side can force a win: a draw
            return ProofResult(
                DRAW,
                None,
                None,
                search.refuting_move(),
                expanded,
                time.perf_counter() - start,
                cycles,
            )
    return ProofResult(UNKNOWN, None, None, None, expanded, time.perf_counter() - start, cycles)
