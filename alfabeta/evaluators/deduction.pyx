# cython: language_level=3, boundscheck=False, wraparound=False
"""The deductive game's evaluator: how close the current atom or rule is to the data."""

from alfabeta.core.evaluator cimport EVAL_ERROR, Evaluator
from alfabeta.core.position cimport Position
from alfabeta.games.deduction.game cimport NODE_ATOM, NODE_CLAIMED, Deduction

PROVED = 100


cdef int _atom_value(Deduction game, int atom) noexcept:
    """+100 for a datum, −100 for an atom nothing proves, else the best rule's share of
    premises that are data (0..50): an optimistic look one rule deep."""
    cdef int best = -PROVED, i, clause
    if game.datum[atom]:
        return PROVED
    for i in range(game.rule_start[atom], game.rule_start[atom + 1]):
        clause = game.rule_clause[i]
        best = max(best, _clause_value(game, clause) // 2)
    return best


cdef int _clause_value(Deduction game, int clause) noexcept:
    """From the prover's side: 100 × the share of premises that are data, −100 if a premise
    is a dead end (neither a datum nor concluded by a rule)."""
    cdef int start = game.premise_start[clause], stop = game.premise_start[clause + 1]
    cdef int data = 0, i, atom
    for i in range(start, stop):
        atom = game.premise_atom[i]
        if game.datum[atom]:
            data += 1
        elif game.rule_start[atom] == game.rule_start[atom + 1]:
            return -PROVED
    return PROVED * data // (stop - start)


cdef class DeductionH(Evaluator):
    """Scores the unresolved atom (or rule) under play from the side to move: data count for
    the prover, dead ends against it. Exact on data and dead ends, a guess in between."""

    name = "deduction-h"
    games = ("deduction",)

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        cdef Deduction game = <Deduction?> position
        cdef int kind = game.kind_stack[game.top], node = game.id_stack[game.top]
        cdef int prover_view
        if kind == NODE_CLAIMED:
            prover_view = PROVED
        elif kind == NODE_ATOM:
            prover_view = _atom_value(game, node)
        else:
            prover_view = _clause_value(game, node)
        return prover_view if game.side_to_move == 0 else -prover_view

    def explain(self, Position position):
        return {"closeness to the data": self.evaluate(position)}
