"""``best-first``: best-first minimax search (Korf and Chickering, 1996) as a plugin.

The tree grows one node at a time where it matters: from the root, follow the principal
variation — at each node the child whose backed-up value is best for the side to move —
to its leaf, expand that leaf (every child scored by the evaluator, or by the game's end),
and back the values up the path. The search stops when the principal leaf is a finished
game or at the depth limit, or when the expansion budget (``nodes``) is spent; the move is
the root's best child. Selective, so its value can differ from full-width minimax at the
same depth.
"""

from __future__ import annotations

import time

from alfabeta.core import WIN, Limit, Result, SearchResult, UnsupportedLimitError
from alfabeta.plugins import hookimpl

FINISHED = {Result.WIN: 1, Result.LOSS: -1, Result.DRAW: 0}


class _Node:
    __slots__ = ("children", "move", "over", "value")

    def __init__(self, move: int | None, value: int, over: bool) -> None:
        self.move, self.value, self.over = move, value, over
        self.children: list[_Node] | None = None


class BestFirst:
    """Options: ``nodes`` (positions created, default 5000) and ``depth`` (the deepest
    expansion, default 32); a search's Limit may lower either."""

    name = "best-first"

    def __init__(self, nodes: int = 5000, depth: int = 32) -> None:
        for option, value in (("nodes", nodes), ("depth", depth)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"best-first {option}={value!r}: a whole number >= 1")
        self.nodes, self.depth = nodes, depth

    def search(self, position, evaluator, limit: Limit | None = None) -> SearchResult:
        limit = limit or Limit()
        if any(getattr(limit, k) is not None for k in ("time", "wtime", "btime")):
            raise UnsupportedLimitError("best-first takes a node or depth limit, not a clock")
        budget = min(self.nodes, limit.nodes or self.nodes)
        depth = min(self.depth, limit.depth or self.depth)
        began = time.perf_counter()
        evaluator.prepare(position)
        self.created = self.leaves = 0
        root = self._node(position, evaluator, None, 0)
        deepest = 0
        while not root.over and self.created < budget:
            path, node = [root], root
            while node.children:
                node = max(node.children, key=lambda child: -child.value)
                position.push(node.move)
                path.append(node)
            if node.over or len(path) - 1 >= depth:
                self._unwind(position, path)
                break
            ply = len(path)
            node.children = [
                self._child(position, evaluator, move, ply) for move in position.legal_moves()
            ]
            deepest = max(deepest, ply)
            for parent in reversed(path):
                if parent.children:
                    parent.value = max(-child.value for child in parent.children)
            self._unwind(position, path)
        best = max(root.children, key=lambda c: -c.value) if root.children else None
        line, node = [], root
        while node.children:
            node = max(node.children, key=lambda c: -c.value)
            line.append(node.move)
        return SearchResult(
            move=None if best is None else best.move,
            value=root.value,
            depth=deepest,
            nodes=self.created,
            leaves=self.leaves,
            pv=tuple(line),
            elapsed=time.perf_counter() - began,
            complete=self.created < budget,
        )

    def _child(self, position, evaluator, move: int, ply: int) -> _Node:
        position.push(move)
        try:
            return self._node(position, evaluator, move, ply)
        finally:
            position.pop()

    def _node(self, position, evaluator, move: int | None, ply: int) -> _Node:
        self.created += 1
        status = position.outcome()
        if status in FINISHED:
            return _Node(move, FINISHED[status] * (WIN - ply) if status != Result.DRAW else 0, True)
        self.leaves += 1
        return _Node(move, evaluator.evaluate(position), not position.legal_moves())

    @staticmethod
    def _unwind(position, path) -> None:
        for _ in range(len(path) - 1):
            position.pop()


@hookimpl
def register_searchers(register):
    register("best-first", BestFirst, description="best-first minimax (example plugin)")
