# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The state graph of a game, enumerated over the C-level contract, and retrograde analysis
on it.

``state_graph(root)`` walks every position reachable from ``root`` (depth first, make/unmake,
no Python object per state) and names each by its 64-bit ``key()``: a game whose outcome
depends on the position alone (not on the path: no repetition or move-count rule) has one
value per key. It returns the keys, each state's ``outcome()`` code and the edges (from,
to, move).

``retrograde(graph)`` labels every state from the side to move's view: +1 won, −1 lost, 0
drawn, with the plies to the end under best play (the winner hastening, the loser delaying).
Finished positions are labelled by their outcome; then, in order of distance, a state with a
move to a lost state is won, and a state all of whose moves lead to won states is lost. What is
never labelled is a draw: neither side can force the end (a cycle, or a drawn ending).
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc

from alfabeta.core.buffers cimport doubled
from alfabeta.core.position cimport (
    RESULT_DRAW,
    RESULT_LEAF,
    RESULT_LOSS,
    RESULT_ONGOING,
    RESULT_WIN,
    Position,
)

import numpy as np

from alfabeta.core.errors import AlfabetaError

UNKNOWN_DISTANCE = -1


class SolverError(AlfabetaError, ValueError):
    """A game or position the solver cannot take, or a state space beyond the limit."""


cdef class _KeyIndex:
    """Open-addressing map from a 64-bit key to a state number (linear probing)."""
    cdef uint64_t* keys
    cdef int64_t* values      # state + 1; 0 is an empty slot
    cdef int64_t capacity, size

    def __cinit__(self):
        self.capacity = 1 << 12
        self.size = 0
        self.keys = <uint64_t*> calloc(self.capacity, sizeof(uint64_t))
        self.values = <int64_t*> calloc(self.capacity, sizeof(int64_t))
        if self.keys == NULL or self.values == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.keys)
        free(self.values)

    cdef int64_t find(self, uint64_t key) noexcept:
        cdef int64_t mask = self.capacity - 1, slot = <int64_t> (key & <uint64_t> mask)
        while self.values[slot]:
            if self.keys[slot] == key:
                return self.values[slot] - 1
            slot = (slot + 1) & mask
        return -1

    cdef int add(self, uint64_t key, int64_t state) except -1:
        cdef int64_t mask, slot
        if 2 * (self.size + 1) > self.capacity:
            self.grow()
        mask = self.capacity - 1
        slot = <int64_t> (key & <uint64_t> mask)
        while self.values[slot]:
            slot = (slot + 1) & mask
        self.keys[slot] = key
        self.values[slot] = state + 1
        self.size += 1
        return 0

    cdef int grow(self) except -1:
        cdef uint64_t* old_keys = self.keys
        cdef int64_t* old_values = self.values
        cdef int64_t old_capacity = self.capacity, i, slot, mask
        self.capacity *= 2
        self.keys = <uint64_t*> calloc(self.capacity, sizeof(uint64_t))
        self.values = <int64_t*> calloc(self.capacity, sizeof(int64_t))
        if self.keys == NULL or self.values == NULL:
            raise MemoryError()
        mask = self.capacity - 1
        for i in range(old_capacity):
            if old_values[i]:
                slot = <int64_t> (old_keys[i] & <uint64_t> mask)
                while self.values[slot]:
                    slot = (slot + 1) & mask
                self.keys[slot] = old_keys[i]
                self.values[slot] = old_values[i]
        free(old_keys)
        free(old_values)
        return 0


cdef class _Growing:
    """A growable C array of int64 (the edges and the walk's frames)."""
    cdef int64_t* data
    cdef int64_t size, capacity

    def __cinit__(self):
        self.capacity = 1 << 12
        self.size = 0
        self.data = <int64_t*> malloc(self.capacity * sizeof(int64_t))
        if self.data == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.data)

    cdef int push(self, int64_t value) except -1:
        if self.size == self.capacity:
            self.data = <int64_t*> doubled(self.data, self.capacity, sizeof(int64_t))
            self.capacity *= 2
        self.data[self.size] = value
        self.size += 1
        return 0

    def array(self):
        result = np.empty(self.size, dtype=np.int64)
        cdef int64_t[::1] view = result
        cdef int64_t i
        for i in range(self.size):
            view[i] = self.data[i]
        return result


def state_graph(Position root, long long max_states=50_000_000, progress=None):
    """Every position reachable from ``root``: a dict of numpy arrays ``keys`` (uint64),
    ``status`` (int8 outcome codes), ``edge_from``, ``edge_to`` (int64 state numbers) and
    ``edge_move`` (int64 moves). State 0 is the root; ``root`` is unchanged afterwards.
    ``progress(states)`` is called every 65,536 new states."""
    cdef _KeyIndex index = _KeyIndex()
    cdef _Growing statuses = _Growing(), keys = _Growing()
    cdef _Growing edge_from = _Growing(), edge_to = _Growing(), edge_move = _Growing()
    cdef _Growing frame_state = _Growing(), frame_next = _Growing(), frame_count = _Growing()
    cdef _Growing frame_in = _Growing(), moves = _Growing()
    cdef int* buffer = <int*> malloc(max(root.max_moves, 1) * sizeof(int))
    cdef int64_t state, child, top, base
    cdef int move, status, pending = -1
    cdef uint64_t key
    cdef bint fresh, finished = False
    if buffer == NULL:
        raise MemoryError()
    try:
        status = _add_state(root, index, keys, statuses)
        if status == RESULT_ONGOING:
            _push_frame(root, 0, -1, buffer, frame_state, frame_next, frame_count, frame_in,
                        moves)
        while frame_state.size:
            top = frame_state.size - 1
            state = frame_state.data[top]
            if frame_next.data[top] < frame_count.data[top]:
                base = moves.size - frame_count.data[top]
                move = <int> moves.data[base + frame_next.data[top]]
                frame_next.data[top] += 1
                root.make(move)
                pending = move
                key = root.c_key()
                child = index.find(key)
                fresh = child < 0
                if fresh:
                    if index.size >= max_states:
                        raise SolverError(
                            f"{root.name}: more than {max_states:,} states; give a larger "
                            "limit or solve a later position")
                    child = index.size
                    status = _add_state(root, index, keys, statuses)
                    if progress is not None and child % 65536 == 0:
                        progress(child)
                    if child % 4096 == 0:
                        PyErr_CheckSignals()
                edge_from.push(state)
                edge_to.push(child)
                edge_move.push(move)
                if fresh and status == RESULT_ONGOING:
                    _push_frame(root, child, move, buffer, frame_state, frame_next,
                                frame_count, frame_in, moves)
                else:
                    root.unmake(move)
                pending = -1
            else:  # every move of this state tried: back to its parent
                moves.size -= frame_count.data[top]
                move = <int> frame_in.data[top]
                frame_state.size -= 1
                frame_next.size -= 1
                frame_count.size -= 1
                frame_in.size -= 1
                if move >= 0:
                    root.unmake(move)
        finished = True
    finally:
        if not finished:  # interrupted or refused: unmake the path back to the root
            if pending >= 0:  # made, but neither entered nor unmade yet
                root.unmake(pending)
            while frame_in.size:
                frame_in.size -= 1
                if frame_in.data[frame_in.size] >= 0:
                    root.unmake(<int> frame_in.data[frame_in.size])
        free(buffer)
    return {
        "keys": keys.array().view(np.uint64),
        "status": statuses.array().astype(np.int8),
        "edge_from": edge_from.array(),
        "edge_to": edge_to.array(),
        "edge_move": edge_move.array(),
    }


cdef int _add_state(Position position, _KeyIndex index, _Growing keys, _Growing statuses) \
        except -1:
    cdef int status = position.c_outcome()
    if status == RESULT_LEAF:
        raise SolverError(
            f"{position.name}: a position scored by an evaluator (an explicit tree's leaf) "
            "has no game value to propagate")
    index.add(position.c_key(), index.size)
    keys.push(<int64_t> position.c_key())
    statuses.push(status)
    return status


cdef int _push_frame(Position position, int64_t state, int move_in, int* buffer,
                     _Growing frame_state, _Growing frame_next, _Growing frame_count,
                     _Growing frame_in, _Growing moves) except -1:
    cdef int count = position.generate(buffer), i
    if count == 0:
        raise SolverError(
            f"{position.name}: no legal move in {position.to_string()!r} but the game is not "
            "over")
    for i in range(count):
        moves.push(buffer[i])
    frame_state.push(state)
    frame_next.push(0)
    frame_count.push(count)
    frame_in.push(move_in)
    return 0


def retrograde(graph):
    """Label every state of ``graph`` (from :func:`state_graph`): ``value`` (int8, +1 won,
    −1 lost, 0 drawn, for the side to move) and ``distance`` (int32 plies to the end under
    best play; −1 for a draw no side can force to an end)."""
    cdef int8_t[::1] status = graph["status"]
    cdef int64_t[::1] edge_from = graph["edge_from"]
    cdef int64_t n = status.shape[0], i, s, p, head = 0, tail = 0, k
    order = np.argsort(graph["edge_to"], kind="stable")
    cdef int64_t[::1] by_target = order
    starts = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(graph["edge_to"], minlength=n), out=starts[1:])
    cdef int64_t[::1] first = starts
    remaining_array = np.bincount(graph["edge_from"], minlength=n).astype(np.int64)
    cdef int64_t[::1] remaining = remaining_array
    value_array = np.zeros(n, dtype=np.int8)
    distance_array = np.full(n, -1, dtype=np.int32)
    cdef int8_t[::1] value = value_array
    cdef int32_t[::1] distance = distance_array
    queue_array = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] queue = queue_array
    for i in range(n):
        if status[i] == RESULT_LOSS or status[i] == RESULT_WIN:
            value[i] = -1 if status[i] == RESULT_LOSS else 1
            distance[i] = 0
            queue[tail] = i
            tail += 1
        elif status[i] == RESULT_DRAW:
            distance[i] = 0
    while head < tail:
        s = queue[head]
        head += 1
        for k in range(first[s], first[s + 1]):
            p = edge_from[by_target[k]]
            if distance[p] >= 0:
                continue  # labelled already (by a shorter win, or finished)
            if value[s] < 0:  # a move to a lost state: p wins, as soon as it can
                value[p] = 1
                distance[p] = distance[s] + 1
                queue[tail] = p
                tail += 1
            else:
                remaining[p] -= 1
                if remaining[p] == 0:  # every move leads to a won state: p loses, late
                    value[p] = -1
                    distance[p] = distance[s] + 1
                    queue[tail] = p
                    tail += 1
    return value_array, distance_array
