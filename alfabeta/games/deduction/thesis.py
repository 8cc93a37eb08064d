"""α-β deduction exactly as the 1991 thesis runs it (ABDED, seed-004 §5.4): the AND/OR graph
of the rules unfolded into a tree with copy numbers (GRA-ARB), made alternated (AR-AA-2), its
leaves fixed to the right parity with the winning set G and the losing set P (AA-AAJ), then the
proof driver CICLO4, which asks the shallow α-β (VALOR-A/VALOR-B with h = +1 on G, −1 on P and
MEJOR = the last maximum) for each move and prints the trace.

Nodes are ``(atom, copy number)``; every ordering rule of §5.4 is kept, so the traces of the
thesis's examples 4.1–4.10 come out line for line, copy numbers included.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from attrs import field, frozen

from alfabeta.core.errors import KnowledgeBaseError
from alfabeta.core.thesis_kernel import mejor, valor
from alfabeta.games.deduction.kb import KnowledgeBase

Node = tuple[str, int]
Arc = tuple[Node, tuple[Node, ...]]

WORDING = {
    "es": {
        "step": "para demostrar {} hay que demostrar {}",
        "datum": "{} es un dato",
        "done": "Fin de la demostracion",
        "fail": "no puedo hacer la demostracion",
    },
    "en": {
        "step": "to prove {} we must prove {}",
        "datum": "{} is a datum",
        "done": "End of the proof",
        "fail": "I cannot make the proof",
    },
}


def node_text(node: Node) -> str:
    """``(pd 1)``: the thesis's printed form of a node, lower case."""
    return f"({node[0].lower()} {node[1]})"


def nodes_text(nodes: Iterable[Node]) -> str:
    """``((bs 1) (mc 1))``: a list of nodes as the thesis prints it."""
    return "(" + " ".join(node_text(n) for n in nodes) + ")"


@frozen
class Pipeline:
    """Every stage of ABDED: E′/S′ (GRA-ARB), E″/S″ with depths (AR-AA-2), the final arcs
    S_j, and G and P (AA-AAJ)."""

    goal: Node
    tree_nodes: tuple[Node, ...]
    tree_arcs: tuple[Arc, ...]
    alternated_nodes: tuple[tuple[int, Node], ...]
    arcs: tuple[Arc, ...]
    won: frozenset[Node]
    lost: frozenset[Node]
    _index: dict = field(factory=dict, init=False, eq=False, repr=False, hash=False)

    def successors(self, node: Node) -> list[Node]:
        """SUCES3: the bodies of ``node``'s arcs, each prepended in S_j order (so several arcs
        come out in reverse order, each body in its own order)."""
        return list(self._successors.get(node, ()))

    @property
    def _successors(self) -> dict[Node, tuple[Node, ...]]:
        if not self._index:
            for head, body in self.arcs:
                self._index[head] = tuple(body) + self._index.get(head, ())
        return self._index


def g_path(
    kb: KnowledgeBase, data: Iterable[str], goal: str
) -> tuple[set[str], list[tuple[str, tuple[str, ...]]]] | None:
    """A g-path (solution graph, Def II.2.8) from ``goal`` to the data: its nodes and arcs,
    taking the first k-arc (in clause order) whose members all have g-paths; None if none."""
    data = set(data)

    def path(atom: str) -> tuple[set[str], list] | None:
        if atom in data:
            return {atom}, []
        for clause in kb.rules_for(atom):
            parts = [path(p) for p in clause.premises]
            if all(part is not None for part in parts):
                nodes, arcs = {atom}, [(atom, clause.premises)]
                for part_nodes, part_arcs in parts:  # type: ignore[misc]  # none is None
                    nodes |= part_nodes
                    arcs += [arc for arc in part_arcs if arc not in arcs]
                return nodes, arcs
        return None

    return path(goal)


def gra_arb(kb: KnowledgeBase, goal: str) -> tuple[list[Node], list[Arc]]:
    """GRA-ARB: unfold the AND/OR graph into a tree, breadth first from (goal, 1)."""
    nodes: list[Node] = [(goal, 1)]
    highest = {goal: 1}
    arcs: list[Arc] = []
    queue = deque([(goal, 1)])
    while queue:
        current = queue.popleft()
        for clause in kb.rules_for(current[0]):
            body = tuple((m, highest.get(m, 0) + 1) for m in clause.premises)
            for name, number in body:  # E′ is updated once the whole arc is built
                highest[name] = number
            nodes.extend(body)
            queue.extend(body)
            arcs.append((current, body))
    return nodes, arcs


def ar_aa(tree_nodes: list[Node], tree_arcs: list[Arc]) -> tuple[list[tuple[int, Node]], list[Arc]]:
    """AR-AA-2: make the tree alternated (1-arcs at even depth, one k-arc at odd depth)."""
    highest: dict[str, int] = {}
    for name, number in tree_nodes:
        highest[name] = max(highest.get(name, 0), number)

    def copy_of(node: Node) -> Node:
        highest[node[0]] += 1
        return (node[0], highest[node[0]])

    out_nodes: list[tuple[int, Node]] = []
    out_arcs: list[Arc] = []
    bodies: dict[Node, list[tuple[Node, ...]]] = {}
    for head, body in tree_arcs:
        bodies.setdefault(head, []).append(body)
    queue = deque([(0, tree_nodes[0])])
    while queue:
        depth, x = queue.popleft()
        out_nodes.append((depth, x))
        arcs = bodies.get(x, [])
        if not arcs:
            continue
        if depth % 2 == 0:
            for body in arcs:
                if len(body) == 1:
                    out_arcs.append((x, body))
                    queue.append((depth + 1, body[0]))
                else:
                    c = copy_of(x)
                    out_arcs.extend([(x, (c,)), (c, body)])
                    out_nodes.append((depth + 1, c))
                    queue.extend((depth + 2, m) for m in body)
        else:
            out_arcs.append((x, arcs[0]))
            for body in arcs[1:]:
                c = copy_of(x)
                out_nodes.append((depth, c))
                parent = next(head for head, b in out_arcs if x in b)
                out_arcs.extend([(parent, (c,)), (c, body)])
            queue.extend((depth + 1, m) for body in arcs for m in body)
    return out_nodes, out_arcs


def aa_aaj(
    data: set[str], alternated: list[tuple[int, Node]], arcs: list[Arc]
) -> tuple[list[Arc], set[Node], set[Node]]:
    """AA-AAJ: leaves at the right parity; G (data reached by MAX) and P (MAX stuck)."""
    heads = {head for head, _ in arcs}
    highest: dict[str, int] = {}
    for _, (name, number) in alternated:
        highest[name] = max(highest.get(name, 0), number)
    arcs = list(arcs)
    won: set[Node] = set()
    lost: set[Node] = set()
    for depth, leaf in reversed([(d, n) for d, n in alternated if n not in heads]):
        is_datum = leaf[0] in data
        if is_datum == (depth % 2 == 1):  # datum at odd depth, or non-datum at even depth
            (won if is_datum else lost).add(leaf)
            continue
        highest[leaf[0]] += 1
        fresh = (leaf[0], highest[leaf[0]])
        arcs.append((leaf, (fresh,)))
        (won if is_datum else lost).add(fresh)
    return arcs, won, lost


class TooLargeForThesis(KnowledgeBaseError):
    """The thesis's procedure would unfold this base into a tree too large or too deep to
    run (its size grows with every shared sub-goal); ``size`` and ``depth`` say how much."""

    def __init__(self, size: int, depth: int) -> None:
        super().__init__(
            f"the thesis's procedure unfolds this base into {size:,} nodes, {depth} deep "
            f"(it runs up to {THESIS_MAX_NODES:,} nodes and {THESIS_MAX_DEPTH} levels)"
        )
        self.size, self.depth = size, depth


THESIS_MAX_NODES = 50_000  # GRA-ARB copies a shared sub-goal once per use: trees explode
THESIS_MAX_DEPTH = 300  # levels of the alternated tree: VALOR recurses once per level


def unfolded_size(rules: KnowledgeBase, goal: str) -> tuple[int, int]:
    """The node count and depth of GRA-ARB's tree for ``goal``, computed over the rule graph
    (each atom once, premises first) without building it."""
    size: dict[str, int] = {}
    depth: dict[str, int] = {}
    for atom in rules.premises_first(goal):
        clauses = rules.rules_for(atom)
        size[atom] = 1 + sum(size[p] for c in clauses for p in c.premises)
        depth[atom] = 1 + max((depth[p] for c in clauses for p in c.premises), default=0)
    return size[goal], depth[goal]


def build(kb: KnowledgeBase, data: Iterable[str], goal: str) -> Pipeline:
    """The thesis's pipeline for ``goal`` from ``data`` (clauses concluding a datum dropped);
    TooLargeForThesis when its tree would be too large or deep to run."""
    if not goal:
        raise KnowledgeBaseError("no goal: name the atom to prove")
    data = set(data)
    rules = kb.for_data(data)
    size, depth = unfolded_size(rules, goal)
    if size > THESIS_MAX_NODES or 2 * depth > THESIS_MAX_DEPTH:
        raise TooLargeForThesis(size, depth)
    tree_nodes, tree_arcs = gra_arb(rules, goal)
    alternated, alt_arcs = ar_aa(tree_nodes, tree_arcs)
    arcs, won, lost = aa_aaj(data, alternated, alt_arcs)
    return Pipeline(
        (goal, 1),
        tuple(tree_nodes),
        tuple(tree_arcs),
        tuple(alternated),
        tuple(arcs),
        frozenset(won),
        frozenset(lost),
    )


class _AlphaBeta:
    """VALOR-A / VALOR-B (``core.thesis_kernel.valor``) over the pipeline's tree: h = +1 on G,
    −1 on P, 0 elsewhere; no depth bound."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self.nodes = 0

    def h(self, node: Node) -> int:
        return 1 if node in self.pipeline.won else -1 if node in self.pipeline.lost else 0

    def expand(self, node: Node, at_max: bool) -> Any:
        """For ``valor``: h at a leaf, else the successors (SUCES3 order)."""
        self.nodes += 1
        successors = self.pipeline.successors(node)
        if not successors:
            return self.h(node)
        return (child for child in successors)

    def jugada(self, node: Node) -> Node | None:
        """The move at a MAX node: MEJOR of (VALOR-B(x, NIL), x), the last maximum."""
        options = [
            (child, valor(self.expand, child, False, None))
            for child in self.pipeline.successors(node)
        ]
        best, _ = mejor(options)
        return best


@frozen
class Trace:
    """What CICLO4 printed, whether the proof was completed, and its steps: (target, the node
    JUGADA chose for it, that node's successors) in the order printed."""

    lines: tuple[str, ...]
    proved: bool
    pipeline: Pipeline
    steps: tuple[tuple[Node, Node, tuple[Node, ...]], ...] = ()

    def __str__(self) -> str:
        return "\n".join(self.lines)


def deduce(kb: KnowledgeBase, data: Iterable[str], goal: str, lang: str = "en") -> Trace:
    """ABDED: run the proof driver CICLO4 and return its trace in ``lang`` ("es" gives the
    thesis's own wording). Goals are kept last in, first out, so the last premise of a rule is
    proved first, as in the thesis."""
    if lang not in WORDING:
        raise KnowledgeBaseError(f"unknown language {lang!r}: choose es or en")
    words = WORDING[lang]
    pipeline = build(kb, data, goal)
    search = _AlphaBeta(pipeline)
    lines: list[str] = []
    steps: list[tuple[Node, Node, tuple[Node, ...]]] = []
    goals = [pipeline.goal]
    while goals:
        target = goals.pop(0)
        choice = search.jugada(target)
        if choice is None:  # nothing proves the target: it is in P
            lines.append(words["fail"])
            return Trace(tuple(lines), False, pipeline, tuple(steps))
        premises = pipeline.successors(choice)
        steps.append((target, choice, tuple(premises)))
        lines.append(words["step"].format(node_text(target), node_text(choice)))
        if not premises and choice in pipeline.won:
            lines.append(words["datum"].format(node_text(choice)))
        else:
            lines.append(words["step"].format(node_text(choice), nodes_text(premises)))
        for premise in premises:
            if premise in pipeline.lost:
                lines.append(words["fail"])
                return Trace(tuple(lines), False, pipeline, tuple(steps))
            goals.insert(0, premise)
    lines.append(words["done"])
    return Trace(tuple(lines), True, pipeline, tuple(steps))
