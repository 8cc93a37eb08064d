"""Proof-number search from Python: the answer for the side to move, its strategy tree, and an
independent check of that tree by replaying every defence."""

from __future__ import annotations

import time
from typing import Any

from attrs import frozen

from alfabeta.core import Position, Result
from alfabeta.solvers.graph import SolverError
from alfabeta.solvers.pns import DfPn

WIN, LOSS, DRAW, UNKNOWN = "win", "loss", "draw", "unknown"
NO_WIN = "no win"  # the side to move cannot force a win within the ply bound


@frozen(eq=False)
class ProofResult:
    """What df-pn established for the side to move: ``value`` is win, loss, draw or unknown;
    ``strategy`` the winner's strategy tree (None for a draw or unknown, or when the tree
    would be too large: a proof is a DAG); ``plies`` the longest line the proof allows (an
    upper bound on the distance to the end);
    ``move`` a move that keeps the value (the strategy's first move for a win; for a draw a
    move that is not lost; None when every move loses or nothing is known)."""

    value: str
    strategy: dict | None
    plies: int | None
    move: int | None
    nodes: int
    seconds: float
    cycles: bool


def verify(
    position: Position, tree: dict, attacker: int, max_plies: int = 0, evaluator: Any = None
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


def replay_proof(
    position: Position, search: DfPn, attacker: int, max_plies: int = 0, evaluator: Any = None
) -> tuple[int, int | None] | None:
    """Check a proof against the game's own rules: from ``position``, the attacker's moves
    that ``search`` marked proven, and every defence, must reach a won end (within
    ``max_plies``). The proof is walked as the DAG it is (each position once; its tree can be
    exponentially larger), never through a position already on the line. Returns the longest
    line's plies and the attacker's first move (None at a defender's turn), or None if the
    proof does not hold."""
    replay = _ProofReplay(position, search, attacker, max_plies, evaluator)
    if position.is_over():
        return (0, None) if replay.won_end() else None
    replay.line.add(position.key())
    plies, first = replay.choose(0)
    return None if plies is None else (plies, first)


class _ProofReplay:
    """The walk of ``replay_proof``: the longest proven line below each position, memoised by
    (key, plies left), with the positions of the current line to refuse cycles."""

    def __init__(
        self, position: Position, search: DfPn, attacker: int, max_plies: int, evaluator: Any
    ) -> None:
        self.position = position
        self.search = search
        self.attacker = attacker
        self.max_plies = max_plies
        self.evaluator = evaluator
        self.memo: dict[tuple[int, int], int | None] = {}
        self.line: set[int] = set()

    def won_end(self) -> bool:
        """Whether the finished game is won for the attacker."""
        position = self.position
        status, mover = position.outcome(), position.side_to_move
        if status == Result.LEAF and self.evaluator is not None:
            score = self.evaluator.evaluate(position)
            return (score if mover == self.attacker else -score) > 0
        won = status == Result.WIN
        return status in (Result.WIN, Result.LOSS) and won == (mover == self.attacker)

    def longest(self, ply: int) -> int | None:
        """The longest proven line from here in plies, or None if the proof fails here."""
        position = self.position
        if position.is_over():
            return 0 if self.won_end() else None
        if self.max_plies and ply >= self.max_plies:
            return None
        key = position.key()
        memo_key = (key, self.max_plies - ply if self.max_plies else 0)
        if memo_key in self.memo:
            return self.memo[memo_key]
        if key in self.line:
            return None
        self.line.add(key)
        try:
            result = self.choose(ply)[0]
        finally:
            self.line.discard(key)
        self.memo[memo_key] = result
        return result

    def choose(self, ply: int) -> tuple[int | None, int | None]:
        """(plies, move): the attacker's first proven move that holds, or the defender's
        longest reply line (move None); (None, None) if the proof fails."""
        position = self.position
        if position.side_to_move == self.attacker:
            for move in position.legal_moves():
                position.push(move)
                try:
                    numbers = self.search.numbers(ply + 1)
                    length = self.longest(ply + 1) if numbers and numbers[0] == 0 else None
                finally:
                    position.pop()
                if length is not None:
                    return length + 1, move
            return None, None
        worst = 0
        for move in position.legal_moves():
            position.push(move)
            try:
                length = self.longest(ply + 1)
            finally:
                position.pop()
            if length is None:
                return None, None
            worst = max(worst, length + 1)
        return worst, None


def prove(
    position: Position,
    *,
    nodes: int = 0,
    seconds: float = 0.0,
    max_plies: int = 0,
    evaluator: Any = None,
    forcing_first: bool = False,
    tree_limit: int = 20_000,
    progress: Any = None,
) -> ProofResult:
    """Is the side to move won, lost or drawn? df-pn for the side to move, then for its
    opponent; a proof counts only once :func:`replay_proof` has checked it by the game's
    rules. ``strategy`` is the proof as a tree when it has at most ``tree_limit`` nodes.
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
            progress=progress,
        )
        answer, _, _ = search.run()
        expanded += search.expanded
        cycles = cycles or search.cycle_seen
        if answer == "proved":
            try:
                checked = replay_proof(position, search, attacker, max_plies, evaluator)
            except RecursionError:  # a proof line deeper than Python's stack: not checked
                checked = None
            if checked is None:
                answer = "unknown"  # never report a proof that does not replay
            else:
                plies, first = checked
                won = attacker == mover
                return ProofResult(
                    WIN if won else LOSS,
                    search.proof_tree(tree_limit),
                    plies,
                    first if won else None,
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
