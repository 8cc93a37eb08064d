# cython: language_level=3, boundscheck=False, wraparound=False
"""The deductive game (seed-004 §5.3, built lazily as §5.5 describes).

MAX, the prover, stands on an atom and chooses a rule that concludes it, or claims the atom is
a datum (which wins at once). MIN, the sceptic, stands on the chosen rule and chooses which
premise MAX must prove next. An atom that is neither a datum nor the conclusion of a rule is
a loss for MAX. MAX has a winning strategy exactly when the goal follows from the data
(Thm IV.2.3): the game has the value of the thesis's J(A) without its copy numbering.

Options: ``file`` (a knowledge base file) or ``rules`` (its text, ``;`` or newlines between
clauses), ``data`` (``"bs,bp"`` or a list) and ``goal``. Moves read ``datum``, a rule as
``bs & mc -> pd`` (or ``#5`` for the 5th clause), and a premise by its name.
``to_string()`` is the path from the goal, e.g. ``"pd / bs & mc -> pd / mc"``.
"""

import numpy as np

from libc.stdint cimport uint64_t

from alfabeta.core.position cimport RESULT_LOSS, RESULT_ONGOING, Position, splitmix64

from alfabeta.core.errors import (
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    KnowledgeBaseError,
)
from alfabeta.games.deduction.kb import (
    parse_atoms,
    parse_knowledge_base,
    read_knowledge_base,
)

DATUM = "datum"
SEPARATOR = " / "


cdef class Deduction(Position):
    """The deductive game over a Horn knowledge base; see the module docstring."""

    name = "deduction"
    default_evaluator = "deduction-h"

    def __init__(self, file=None, rules=None, data=(), goal=None):
        if (file is None) == (rules is None):
            raise InvalidOptionError("deduction needs exactly one of file=PATH or rules=TEXT")
        try:
            if file is not None:
                kb = read_knowledge_base(file)
            else:
                kb = parse_knowledge_base(str(rules).replace(";", "\n"))
            data = parse_atoms(data, "data")
            if not goal or not str(goal).strip():
                raise KnowledgeBaseError("no goal: name the atom to prove (goal=...)")
            goal = parse_atoms([goal], "goal")[0]
        except KnowledgeBaseError as error:
            raise InvalidOptionError(f"deduction: {error}") from None
        self._options = {"file": file} if file is not None else {"rules": rules}
        self._options.update(data=",".join(data), goal=goal)
        self._build(kb.for_data(data), data, goal)

    def _build(self, kb, data, goal):
        self._kb, self._data = kb, tuple(data)
        atoms = list(dict.fromkeys((goal, *kb.atoms, *data)))
        self._atoms = tuple(atoms)
        self._atom_index = {a: i for i, a in enumerate(atoms)}
        index = self._atom_index
        clauses = kb.clauses
        self.n_clauses = len(clauses)
        self.clause_head = np.array([index[c.head] for c in clauses] or [0], dtype=np.int32)
        starts, flat = [0], []
        for c in clauses:
            flat.extend(index[p] for p in c.premises)
            starts.append(len(flat))
        self.premise_start = np.array(starts, dtype=np.int32)
        self.premise_atom = np.array(flat or [0], dtype=np.int32)
        rule_starts, rules = [0], []
        for a in atoms:
            rules.extend(i for i, c in enumerate(clauses) if c.head == a)
            rule_starts.append(len(rules))
        self.rule_start = np.array(rule_starts, dtype=np.int32)
        self.rule_clause = np.array(rules or [0], dtype=np.int32)
        self.datum = np.array([a in data for a in atoms], dtype=np.int32)
        depth = 2 * len(atoms) + 3  # rules are acyclic: an atom appears once on any path
        self.kind_stack = np.zeros(depth, dtype=np.int32)
        self.id_stack = np.zeros(depth, dtype=np.int32)
        self.goal = index[goal]
        self.id_stack[0] = self.goal
        most_rules = max((rule_starts[i + 1] - rule_starts[i] for i in range(len(atoms))),
                         default=0)
        most_premises = max((len(c.premises) for c in clauses), default=0)
        self.max_moves = max(1, most_rules + 1, most_premises)
        self.top = 0
        self.side_to_move = 0

    cdef int _datum_move(self) noexcept:
        return self.n_clauses

    cdef int generate(self, int* out) except -1:
        cdef int kind = self.kind_stack[self.top], node = self.id_stack[self.top]
        cdef int count = 0, i
        if kind == NODE_ATOM:
            if self.datum[node]:
                out[0] = self._datum_move()
                return 1  # claiming the datum wins at once: no other move is worth making
            for i in range(self.rule_start[node], self.rule_start[node + 1]):
                out[count] = self.rule_clause[i]
                count += 1
            return count
        if kind == NODE_CLAUSE:
            for i in range(self.premise_start[node + 1] - self.premise_start[node]):
                out[i] = i
            return self.premise_start[node + 1] - self.premise_start[node]
        return 0

    cdef int make(self, int move) except -1:
        cdef int kind = self.kind_stack[self.top], node = self.id_stack[self.top]
        self.top += 1
        if kind == NODE_ATOM:
            if move == self._datum_move():
                self.kind_stack[self.top], self.id_stack[self.top] = NODE_CLAIMED, node
            else:
                self.kind_stack[self.top], self.id_stack[self.top] = NODE_CLAUSE, move
        else:
            self.kind_stack[self.top] = NODE_ATOM
            self.id_stack[self.top] = self.premise_atom[self.premise_start[node] + move]
        self.side_to_move ^= 1
        return 0

    cdef int unmake(self, int move) except -1:
        self.top -= 1
        self.side_to_move ^= 1
        return 0

    cdef int c_outcome(self) except -1:
        cdef int kind = self.kind_stack[self.top], node = self.id_stack[self.top]
        if kind == NODE_CLAIMED:
            return RESULT_LOSS  # MIN to move, MAX has proved the atom
        if kind == NODE_ATOM and not self.datum[node] and \
                self.rule_start[node] == self.rule_start[node + 1]:
            return RESULT_LOSS  # MAX to move on an atom nothing proves
        return RESULT_ONGOING

    cdef uint64_t c_key(self) except? 0:
        # the subgame depends on the current node only
        return splitmix64((<uint64_t> self.kind_stack[self.top] << 32)
                          ^ <uint64_t> self.id_stack[self.top] ^ 0x6465647563ULL)

    # ---- Python API -------------------------------------------------------------------------
    def options(self):
        return dict(self._options)

    @property
    def knowledge_base(self):
        """The rules in play (those concluding a datum removed, Def IV.1.2)."""
        return self._kb

    @property
    def data(self):
        return self._data

    def node(self):
        """``("atom", name)``, ``("rule", Clause)`` or ``("datum", name)``: where play stands."""
        kind, node = self.kind_stack[self.top], self.id_stack[self.top]
        if kind == NODE_ATOM:
            return ("atom", self._atoms[node])
        if kind == NODE_CLAUSE:
            return ("rule", self._kb.clauses[node])
        return ("datum", self._atoms[node])

    def is_datum_move(self, move):
        return move == self.n_clauses and self.kind_stack[self.top] == NODE_ATOM

    def move_str(self, move):
        kind, node = self.kind_stack[self.top], self.id_stack[self.top]
        if kind == NODE_ATOM:
            if move == self.n_clauses:
                return DATUM
            if 0 <= move < self.n_clauses:
                return str(self._kb.clauses[move])
        elif kind == NODE_CLAUSE and 0 <= move < self.premise_start[node + 1] - \
                self.premise_start[node]:
            return self._atoms[self.premise_atom[self.premise_start[node] + move]]
        raise IllegalMoveError(f"{move!r} is not a move at {self.to_string()!r}")

    def parse_move(self, text):
        text = " ".join(str(text).split())
        legal = self.legal_moves()
        for move in legal:
            if self.move_str(move) == text:
                return move
        kind = self.kind_stack[self.top]
        if kind == NODE_ATOM and text.startswith("#") and text[1:].isdigit():
            move = int(text[1:]) - 1
            if move in legal:
                return move
        choices = " | ".join(self.move_str(m) for m in legal) or "none: the game is over"
        raise IllegalMoveError(f"{text!r} is not a move here; choose one of: {choices}")

    def to_string(self):
        parts = [self._atoms[self.goal]]
        for depth in range(1, self.top + 1):
            kind, node = self.kind_stack[depth], self.id_stack[depth]
            if kind == NODE_CLAUSE:
                parts.append(str(self._kb.clauses[node]))
            elif kind == NODE_CLAIMED:
                parts.append(DATUM)
            else:
                parts.append(self._atoms[node])
        return SEPARATOR.join(parts)

    def from_string(self, text):
        """The position reached by the path ``text`` (as ``to_string`` writes it)."""
        cdef Deduction twin = Deduction.__new__(Deduction)
        twin._options = self._options
        twin._build(self._kb, self._data, self._atoms[self.goal])
        parts = [p.strip() for p in text.split(SEPARATOR.strip())]
        if parts[0] != self._atoms[self.goal]:
            raise InvalidPositionError(
                f"deduction position {text!r}: it must start at the goal "
                f"{self._atoms[self.goal]!r}"
            )
        for part in parts[1:]:
            try:
                twin.make(twin.parse_move(part))
            except IllegalMoveError as error:
                raise InvalidPositionError(f"deduction position {text!r}: {error}") from None
        return twin

    def copy(self):
        twin = self.from_string(self.root_string())
        for move in self._stack:
            twin.push(move)
        return twin

    def __reduce__(self):
        from alfabeta.core.position import _rebuild

        return (_rebuild, (Deduction, self.options(), self.root_string(), tuple(self._stack)))

    def __str__(self):
        kind, value = self.node()
        path = self.to_string()
        if kind == "atom":
            return f"{path}\nprover to move: how is {value} proved?"
        if kind == "rule":
            return f"{path}\nsceptic to move: which premise of {value} must be proved?"
        return f"{path}\n{value} is a datum: proved"
