# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled walks over the C-level contract: perft (move-path counting) and a make/unmake
checker. They exercise every game, compiled or adapted, exactly as a searcher does."""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc

from alfabeta.core.position cimport RESULT_ONGOING, Position

from alfabeta.core.errors import AlfabetaError


class ContractViolation(AlfabetaError, AssertionError):
    """A game broke the position contract (e.g. unmake did not restore the key)."""


cdef class _Walk:
    """A perft's state: a signal caught during the walk waits here until it has unwound."""
    cdef object interrupted


cdef long long _perft(Position p, int depth, int* buffer, bint check, bint bulk,
                      _Walk walk) except -1:
    cdef int count, i
    cdef long long total = 0
    cdef uint64_t before
    cdef int side
    if depth == 0:
        return 1
    if depth >= 2:  # Ctrl-C: stop at once, but unmake every move on the way out
        try:
            PyErr_CheckSignals()
        except BaseException as error:
            walk.interrupted = error
        if walk.interrupted is not None:
            return 0
    count = p.generate(buffer) if check else p.generate_all(buffer)
    if count == 0 and check and p.c_outcome() == RESULT_ONGOING:
        raise ContractViolation(f"{p.name}: no legal move but the game is not over")
    if count > 0 and check and p.c_outcome() != RESULT_ONGOING:
        raise ContractViolation(f"{p.name}: legal moves in a finished game")
    if depth == 1 and bulk and not check:
        return count
    for i in range(count):
        before = p.c_key()
        side = p.side_to_move
        p.make(buffer[i])
        total += _perft(p, depth - 1, buffer + p.max_moves, check, bulk, walk)
        p.unmake(buffer[i])
        if check and (p.c_key() != before or p.side_to_move != side):
            raise ContractViolation(
                f"{p.name}: unmake({p.move_str(buffer[i])}) did not restore the position"
            )
    return total


def perft(Position position, int depth, bint check=False, bint bulk=False):
    """Number of move paths of length ``depth``, standard perft: draw rules (repetition, the
    fifty-move rule, insufficient material) do not end a path (``generate_all``); a path
    that ends early at a won or lost position is not counted. Every leaf is made and unmade
    unless ``bulk``, which counts the moves of the last ply instead. With ``check``, walks
    the legal moves and verifies at every node that unmake restores key and side and that
    legal moves exist exactly while the game is ongoing. Ctrl-C ends the walk with the
    position restored and raises KeyboardInterrupt."""
    if depth < 0:
        raise ValueError("perft depth must be >= 0")
    cdef int* buffer = <int*> malloc((depth + 1) * position.max_moves * sizeof(int))
    if buffer == NULL:
        raise MemoryError()
    cdef _Walk walk = _Walk()
    try:
        total = _perft(position, depth, buffer, check, bulk, walk)
    finally:
        free(buffer)
    if walk.interrupted is not None:
        raise walk.interrupted
    return total


def divide(Position position, int depth, bint bulk=False):
    """perft below each move (``generate_all``): a list of (move, count) in generation
    order."""
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    counts = []
    cdef int* buffer = <int*> malloc(position.max_moves * sizeof(int))
    if buffer == NULL:
        raise MemoryError()
    try:
        moves = [buffer[i] for i in range(position.generate_all(buffer))]
    finally:
        free(buffer)
    for move in moves:
        position.make(move)
        try:
            counts.append((move, perft(position, depth - 1, bulk=bulk)))
        finally:
            position.unmake(move)
    return counts
