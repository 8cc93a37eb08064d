"""Propositional Horn-clause knowledge bases.

Text format, one clause per line, ``#`` starting a comment::

    bs & ba -> af        # premises joined by &, then -> and the conclusion
    af & cu -> pe
    pe -> pd

``∧``, ``^`` and ``,`` also join premises, ``→`` also implies. Atoms are names (letters, digits,
``_``; case matters). Facts are not clauses: they are given separately as data. The rule set
must be acyclic (the thesis's construction needs it): a cycle is rejected and spelled out.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Sequence
from pathlib import Path

from attrs import field, frozen

from alfabeta.core.errors import KnowledgeBaseError, excerpt

ATOM = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
IMPLIES = re.compile(r"->|→")
AND = re.compile(r"&|∧|\^|,")


@frozen
class Clause:
    """``premises[0] ∧ … → head``; ``line`` is where it was read (0 when given as data)."""

    head: str
    premises: tuple[str, ...]
    line: int = 0

    def __str__(self) -> str:
        return f"{' & '.join(self.premises)} -> {self.head}"


def _atom(text: str, line: int, column: int) -> str:
    name = text.strip()
    if not ATOM.match(name):
        what = f"{excerpt(name)} is not an atom name" if name else "an atom is missing"
        raise KnowledgeBaseError(
            f"line {line}, column {column}: {what} (letters, digits and _, starting with a letter)"
        )
    return name


def _parse_line(raw: str, number: int) -> Clause | None:
    text = raw.split("#", 1)[0]
    if not text.strip():
        return None
    arrows = list(IMPLIES.finditer(text))
    if len(arrows) != 1:
        column = arrows[1].start() + 1 if arrows else len(text.rstrip()) + 1
        problem = "more than one '->'" if arrows else "no '->' between premises and conclusion"
        raise KnowledgeBaseError(f"line {number}, column {column}: {problem}")
    arrow = arrows[0]
    body, head_text = text[: arrow.start()], text[arrow.end() :]
    if not body.strip():
        raise KnowledgeBaseError(
            f"line {number}, column {arrow.start() + 1}: a clause needs at least one premise; "
            "give facts as data"
        )
    premises, start = [], 0
    for part in AND.split(body):
        column = start + len(part) - len(part.lstrip()) + 1
        premises.append(_atom(part, number, column))
        start += len(part) + 1
    head = _atom(head_text, number, arrow.end() + len(head_text) - len(head_text.lstrip()) + 1)
    if len(set(premises)) != len(premises):
        raise KnowledgeBaseError(f"line {number}: a premise is repeated in {excerpt(raw.strip())}")
    return Clause(head, tuple(premises), number)


def parse_knowledge_base(text: str) -> KnowledgeBase:
    """Read a knowledge base from text (see the module docstring)."""
    clauses = []
    for number, raw in enumerate(text.splitlines(), start=1):
        clause = _parse_line(raw, number)
        if clause is not None:
            clauses.append(clause)
    return KnowledgeBase(tuple(clauses))


def read_knowledge_base(path: str | Path) -> KnowledgeBase:
    """Read a knowledge base file; an unreadable file is a KnowledgeBaseError."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise KnowledgeBaseError(f"cannot read knowledge base {str(path)!r}: {error}") from None
    return parse_knowledge_base(text)


def parse_atoms(text: str | Iterable[str], what: str = "data") -> tuple[str, ...]:
    """Atoms from ``"a,b,c"`` (or an iterable of names), validated."""
    items = text.split(",") if isinstance(text, str) else list(text)
    atoms = []
    for item in items:
        name = str(item).strip()
        if not name:
            continue
        if not ATOM.match(name):
            raise KnowledgeBaseError(f"{what}: {name!r} is not an atom name")
        atoms.append(name)
    return tuple(dict.fromkeys(atoms))


@frozen
class KnowledgeBase:
    """An acyclic set of Horn clauses, in the order given (the order matters to the thesis's
    traces). Build one from text with ``parse_knowledge_base`` or from data with
    ``KnowledgeBase.from_rules([("pd", ["pe"]), ...])``."""

    clauses: tuple[Clause, ...]
    _index: dict = field(factory=dict, init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        cycle = self._find_cycle()
        if cycle:
            order = {atom: i for i, atom in enumerate(self.atoms)}
            ring = cycle[:-1]
            start = min(range(len(ring)), key=lambda i: order[ring[i]])
            cycle = ring[start:] + ring[:start] + [ring[start]]
            raise KnowledgeBaseError(
                "the rules are cyclic (the thesis's construction needs acyclic rules): "
                + " -> ".join(cycle)
            )

    @classmethod
    def from_rules(cls, rules: Iterable[tuple[str, Sequence[str]]]) -> KnowledgeBase:
        """A knowledge base from (head, body) pairs."""
        clauses = []
        for index, (head, premises) in enumerate(rules, start=1):
            if not premises:
                raise KnowledgeBaseError(f"rule {index}: a clause needs at least one premise")
            for name in (head, *premises):
                if not isinstance(name, str) or not ATOM.match(name):
                    raise KnowledgeBaseError(f"rule {index}: {name!r} is not an atom name")
            clauses.append(Clause(head, tuple(premises)))
        return cls(tuple(clauses))

    def _find_cycle(self) -> list[str] | None:
        """A cycle of the relation 'premise of a clause concluding', as atoms, or None
        (depth-first with an explicit stack: any depth of rules)."""
        uses: dict[str, list[str]] = {}
        for clause in self.clauses:
            uses.setdefault(clause.head, []).extend(clause.premises)
        state: dict[str, int] = {}  # 1 on the current path, 2 done
        for clause in self.clauses:
            if clause.head in state:
                continue
            path: list[str] = [clause.head]
            stack = [iter(uses.get(clause.head, ()))]
            state[clause.head] = 1
            while stack:
                premise = next(stack[-1], None)
                if premise is None:
                    state[path.pop()] = 2
                    stack.pop()
                    continue
                if state.get(premise) == 1:
                    return list(reversed([*path[path.index(premise) :], premise]))
                if premise not in state:
                    state[premise] = 1
                    path.append(premise)
                    stack.append(iter(uses.get(premise, ())))
        return None

    @property
    def atoms(self) -> tuple[str, ...]:
        """Every atom, in order of first appearance."""
        seen: dict[str, None] = {}
        for clause in self.clauses:
            for atom in (*clause.premises, clause.head):
                seen.setdefault(atom)
        return tuple(seen)

    def for_data(self, data: Iterable[str]) -> KnowledgeBase:
        """CL of Def IV.1.2: the clauses whose conclusion is not a datum (they are useless)."""
        data = set(data)
        return KnowledgeBase(tuple(c for c in self.clauses if c.head not in data))

    def rules_for(self, atom: str) -> list[Clause]:
        """The clauses concluding ``atom``, in order (indexed once)."""
        return self._by_head.get(atom, [])

    @property
    def _by_head(self) -> dict[str, list[Clause]]:
        if not self._index and self.clauses:
            for clause in self.clauses:
                self._index.setdefault(clause.head, []).append(clause)
        return self._index

    def premises_first(self, goal: str, leaves: Iterable[str] = ()) -> list[str]:
        """Every atom the rules reach from ``goal``, each once, premises before the atoms
        they prove (an explicit stack: any depth); atoms in ``leaves`` are not expanded."""
        leaves = set(leaves)
        order: list[str] = []
        seen: set[str] = set()
        stack: list[tuple[str, bool]] = [(goal, False)]
        while stack:
            atom, expanded = stack.pop()
            if expanded:
                order.append(atom)
                continue
            if atom in seen:
                continue
            seen.add(atom)
            stack.append((atom, True))
            if atom not in leaves:
                for clause in reversed(self.rules_for(atom)):
                    stack.extend((p, False) for p in reversed(clause.premises) if p not in seen)
        return order

    def derivable(self, data: Iterable[str]) -> set[str]:
        """Everything that follows from ``data`` by forward chaining."""
        return set(self.first_rules(data))

    def first_rules(self, data: Iterable[str]) -> dict[str, Clause | None]:
        """Forward chaining in linear time (Dowling and Gallier's counters): every atom that
        follows from ``data``, in the order it was derived, with the rule that derived it
        first (None for a datum). Each atom's premises come before it."""
        derived: dict[str, Clause | None] = dict.fromkeys(data)
        missing = [len(set(c.premises)) for c in self.clauses]
        waiting: dict[str, list[int]] = {}
        for i, clause in enumerate(self.clauses):
            for premise in set(clause.premises):
                waiting.setdefault(premise, []).append(i)
        queue = deque(derived)
        while queue:
            atom = queue.popleft()
            for i in waiting.get(atom, ()):
                missing[i] -= 1
                head = self.clauses[i].head
                if missing[i] == 0 and head not in derived:
                    derived[head] = self.clauses[i]
                    queue.append(head)
        return derived

    def blocking_atoms(self, data: Iterable[str], goal: str) -> list[str]:
        """The dead ends below ``goal``: atoms reachable through rule premises that are
        neither data nor the conclusion of any rule. Every attempted proof of an unprovable
        goal ends at one of them."""
        data = set(data)
        heads = {c.head for c in self.clauses}
        seen, order, work = set(), [], [goal]
        while work:
            atom = work.pop()
            if atom in seen or atom in data:
                continue
            seen.add(atom)
            if atom not in heads:
                order.append(atom)
            for clause in reversed(self.rules_for(atom)):
                work.extend(reversed(clause.premises))
        return order

    def __str__(self) -> str:
        return "\n".join(str(c) for c in self.clauses)
