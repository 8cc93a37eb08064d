"""Proofs: found by any searcher playing the deductive game, the smallest one, or the one the
thesis's trace follows; checked as derivations and drawn as trees."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from attrs import frozen

from alfabeta.core import Limit, is_proven
from alfabeta.games.deduction.kb import Clause, KnowledgeBase

if TYPE_CHECKING:
    from alfabeta.core import Position


@frozen
class ProofNode:
    """``atom`` holds because it is a datum (``rule`` None) or by ``rule`` from ``premises``."""

    atom: str
    rule: Clause | None = None
    premises: tuple[ProofNode, ...] = ()

    def rule_applications(self) -> int:
        """Rule applications of the proof as a tree (a lemma used twice counts twice),
        counted once per shared sub-proof, with an explicit stack: any depth, any sharing."""
        counts: dict[int, int] = {}
        for node in _post_order(self):
            counts[id(node)] = (node.rule is not None) + sum(counts[id(p)] for p in node.premises)
        return counts[id(self)]

    def steps(self) -> list[tuple[str, Clause | None]]:
        """(atom, rule) in derivation order: every premise before the atom it proves, each
        sub-proof once."""
        return [(node.atom, node.rule) for node in _post_order(self)]


def _post_order(root: ProofNode) -> list[ProofNode]:
    """Every distinct node below ``root`` (by identity), premises first, iteratively."""
    seen: set[int] = set()
    order: list[ProofNode] = []
    stack: list[tuple[ProofNode, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        stack.extend((p, False) for p in reversed(node.premises) if id(p) not in seen)
    return order


@frozen
class SearchedProof:
    """The result of playing the deductive game with a searcher: the proof, or the atom where
    every attempt failed and the line of play that shows it; and the searches' totals."""

    proof: ProofNode | None
    failed_atom: str | None
    refutation: tuple[str, ...]
    searches: int
    nodes: int
    leaves: int
    elapsed: float

    @property
    def proved(self) -> bool:
        """Whether a proof was found."""
        return self.proof is not None


def is_valid_derivation(proof: ProofNode, kb: KnowledgeBase, data: Iterable[str]) -> bool:
    """True when each step uses a rule of ``kb`` whose premises are data or proved earlier,
    and each datum step names a datum."""
    data, proved = set(data), set()
    for atom, rule in proof.steps():
        if rule is None:
            if atom not in data:
                return False
        elif (
            rule not in kb.clauses
            or rule.head != atom
            or not all(p in proved or p in data for p in rule.premises)
        ):
            return False
        proved.add(atom)
    return True


def smallest_proof(kb: KnowledgeBase, data: Iterable[str], goal: str) -> ProofNode | None:
    """A proof with the fewest rule applications (a lemma used twice counts twice), or None
    when ``goal`` does not follow. Rules are acyclic, so each atom's best is computed once,
    premises first (``KnowledgeBase.premises_first``); ties keep the earlier
    rule. Sub-proofs are shared, so the result stays small whatever its size as a tree."""
    data = set(data)
    best: dict[str, tuple[int, ProofNode] | None] = {}
    for atom in kb.premises_first(goal, leaves=data):
        if atom in data:
            best[atom] = (0, ProofNode(atom))
            continue
        chosen = None
        for rule in kb.rules_for(atom):
            found_parts = [best[p] for p in rule.premises]
            parts = [part for part in found_parts if part is not None]
            if len(parts) < len(found_parts):
                continue
            cost = 1 + sum(part[0] for part in parts)
            if chosen is None or cost < chosen[0]:
                chosen = (cost, ProofNode(atom, rule, tuple(part[1] for part in parts)))
        best[atom] = chosen
    found = best[goal]
    return None if found is None else found[1]


def derived_proof(kb: KnowledgeBase, data: Iterable[str], goal: str) -> ProofNode | None:
    """The proof forward chaining finds (each atom by the rule that derived it first), in
    linear time, sub-proofs shared; None when ``goal`` does not follow."""
    first = kb.first_rules(data)
    if goal not in first:
        return None
    nodes: dict[str, ProofNode] = {}
    for atom, rule in first.items():  # derivation order: premises before conclusions
        premises = () if rule is None else tuple(nodes[p] for p in rule.premises)
        nodes[atom] = ProofNode(atom, rule, premises)
    return nodes[goal]


def prove_with(
    position: Position, searcher: Any, evaluator: Any, limit: Limit | None = None
) -> SearchedProof:
    """Play the deductive game from its goal: at every atom the searcher chooses the rule (or
    the datum); every premise of a chosen rule is then proved the same way (the sceptic may
    pick any of them). The attempt fails at an atom whose search proves a loss, or where a
    depth-limited searcher's choice leads to a dead end. ``position`` is a Deduction at its
    goal; it is left unchanged."""
    totals: dict[str, Any] = {"searches": 0, "nodes": 0, "leaves": 0, "elapsed": 0.0}
    kb = position.knowledge_base
    game = position.copy()

    def search() -> Any:
        result = searcher.search(game, evaluator, limit)
        totals["searches"] += 1
        totals["nodes"] += result.nodes
        totals["leaves"] += result.leaves
        totals["elapsed"] += result.elapsed
        return result

    def at_atom() -> tuple[ProofNode | None, str | None, tuple[str, ...]]:
        atom = game.node()[1]
        if game.is_over():
            return None, atom, ()
        result = search()
        if result.move is None or (is_proven(result.value) and result.value < 0):
            return None, *_refutation(game, result.pv)  # a proven loss: no rule can work
        if game.is_datum_move(result.move):
            return ProofNode(atom), None, ()
        rule = kb.clauses[result.move]
        game.push(result.move)
        try:
            parts = []
            for index in range(len(rule.premises)):
                game.push(index)
                try:
                    part, failed, line = at_atom()
                finally:
                    game.pop()
                if part is None:
                    return None, failed, (atom, str(rule), *line)
                parts.append(part)
        finally:
            game.pop()
        return ProofNode(atom, rule, tuple(parts)), None, ()

    proof, failed, line = at_atom()
    return SearchedProof(
        proof,
        failed,
        line,
        totals["searches"],
        totals["nodes"],
        totals["leaves"],
        totals["elapsed"],
    )


def _refutation(game: Any, pv: Any) -> tuple[str | None, tuple[str, ...]]:
    """Replay the principal variation: the atoms and rules it passes, and the last atom."""
    line, made = [game.node()[1]], []
    try:
        for move in pv:
            if move not in game.legal_moves():
                break
            game.push(move)
            made.append(move)
            _kind, value = game.node()
            line.append(str(value))
    finally:
        for _ in made:
            game.pop()
    atoms = [item for item in line if " -> " not in item]
    return atoms[-1], tuple(line)


def proof_from_trace(trace: Any, kb: KnowledgeBase) -> ProofNode | None:
    """The proof tree that a successful thesis trace follows (copy numbers dropped).

    At an atom the trace chooses either a copy of the atom (a datum, or a rule of several
    premises, which are the copy's successors) or, for a rule with one premise, that premise's
    node itself, whose successors prove the premise in turn."""
    if not trace.proved:
        return None
    step_of = {target: (choice, premises) for target, choice, premises in trace.steps}

    def rule(head: str, premises: tuple[str, ...]) -> Clause:
        return next(c for c in kb.rules_for(head) if c.premises == premises)

    def by(name: str, premises: Any) -> ProofNode:
        if not premises:
            return ProofNode(name)
        names = tuple(p[0] for p in premises)
        return ProofNode(name, rule(name, names), tuple(build(p) for p in premises))

    def build(target: Any) -> ProofNode:
        choice, premises = step_of[target]
        if choice[0] == target[0]:
            return by(target[0], premises)
        return ProofNode(target[0], rule(target[0], (choice[0],)), (by(choice[0], premises),))

    return build(trace.pipeline.goal)


def render_tree(proof: ProofNode) -> list[str]:
    """The proof as a terminal tree; a sub-proof used again is drawn once, then referred to.

    For example::

    pd  <=  bs & mc -> pd
    ├── bs  (datum)
    └── mc  <=  bs & bp -> mc
    """

    def label(node: ProofNode) -> str:
        return f"{node.atom}  (datum)" if node.rule is None else f"{node.atom}  <=  {node.rule}"

    lines = [label(proof)]
    drawn = {id(proof)}
    stack = [(proof, "", iter(enumerate(proof.premises)))]
    while stack:
        node, prefix, children = stack[-1]
        step = next(children, None)
        if step is None:
            stack.pop()
            continue
        i, child = step
        last = i == len(node.premises) - 1
        branch = "└── " if last else "├── "
        if id(child) in drawn and child.premises:
            lines.append(f"{prefix}{branch}{child.atom}  (proved above)")
            continue
        drawn.add(id(child))
        lines.append(f"{prefix}{branch}{label(child)}")
        stack.append(
            (child, prefix + ("    " if last else "│   "), iter(enumerate(child.premises)))
        )
    return lines


def render_steps(proof: ProofNode) -> list[str]:
    """One line per atom, premises first: which rule proves it, or that it is a datum."""
    lines, seen = [], set()
    for atom, rule in proof.steps():
        text = f"{atom}: datum" if rule is None else f"{atom}: by {rule}"
        if text not in seen:
            seen.add(text)
            lines.append(text)
    return lines
