# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Explicit game trees (seed-003 §5, seed-004 §4.5, anchors-perf): a root MAX, levels
alternating, integer leaf values given from the root player's side.

Sources (exactly one):

* ``nodes``: nested lists, a leaf being a number, e.g. ``tree(nodes=[[8,12,10],[6,15,9]])``;
* ``file``: a JSON file holding such nested lists;
* ``branching``, ``depth`` (and ``seed``, default 20240607): the uniform random tree of
  anchors-perf.md, leaf values ``numpy.random.default_rng(seed).integers(-10000, 10001,
  size=branching**depth, dtype=int32)``, the children of node p being p*branching+i.

``order`` (``index`` | ``best`` | ``worst``) sorts every node's children by their true minimax
value, best-for-the-mover first (``best`` gives the Knuth–Moore minimal tree), stably.
Non-integer leaves are scaled to integers: ``scale`` (default: the smallest power of ten that
makes every leaf whole) multiplies them; ``position.scale`` tells it.

Move ``i`` (1-based) is the i-th child, so move numbers read as Dewey labels ("1.2" is the
second child of the first child); ``to_string()`` is the Dewey label of the current node, the
root being ``"ε"``. Leaves report ``Result.LEAF``: the ``tree-leaves`` evaluator scores them.
"""

import json
import math
from pathlib import Path

import numpy as np

from libc.stdint cimport uint64_t

from alfabeta.core.position cimport RESULT_LEAF, RESULT_ONGOING, Position, splitmix64

from alfabeta.core.errors import IllegalMoveError, InvalidOptionError, InvalidPositionError

ROOT_LABEL = "ε"
DEFAULT_SEED = 20240607
MAX_UNIFORM_LEAVES = 1 << 27
ORDERS = ("index", "best", "worst")


def _leaf_scale(leaves, scale):
    if scale is not None:
        if isinstance(scale, bool) or not isinstance(scale, int) or scale < 1:
            raise InvalidOptionError(f"tree option scale={scale!r}: expected a whole number >= 1")
        return scale
    for exponent in range(7):
        candidate = 10 ** exponent
        if all(abs(v * candidate - round(v * candidate)) < 1e-9 for v in leaves):
            return candidate
    raise InvalidOptionError("tree leaves need more than 6 decimals; give scale explicitly")


def _validate(nodes, path="root"):
    if isinstance(nodes, bool) or not isinstance(nodes, (int, float, list, tuple)):
        raise InvalidOptionError(f"tree node at {path} is {nodes!r}: expected a number or a list")
    if isinstance(nodes, float) and not math.isfinite(nodes):
        raise InvalidOptionError(f"tree leaf at {path} is {nodes!r}: expected a finite number")
    if isinstance(nodes, (list, tuple)):
        if not nodes:
            raise InvalidOptionError(f"tree node at {path} is an empty list: a node needs children")
        for i, child in enumerate(nodes):
            _validate(child, f"{path}.{i + 1}" if path != "root" else str(i + 1))


def _minimax(nodes, maximizing):
    if not isinstance(nodes, (list, tuple)):
        return nodes
    values = [_minimax(child, not maximizing) for child in nodes]
    return max(values) if maximizing else min(values)


def _ordered(nodes, order, maximizing=True):
    """``nodes`` with every node's children sorted by true value, best for its mover first."""
    if not isinstance(nodes, (list, tuple)):
        return nodes
    children = [_ordered(child, order, not maximizing) for child in nodes]
    if order == "index":
        return children
    best_first = sorted(children, key=lambda c: _minimax(c, not maximizing),
                        reverse=maximizing)  # sorted() is stable
    return best_first if order == "best" else best_first[::-1]


def _uniform_leaves(branching, depth, seed, order):
    leaves = np.random.default_rng(seed).integers(
        -10000, 10001, size=branching ** depth, dtype=np.int32)
    if order == "index":
        return leaves
    for level in range(depth):
        # values of the nodes one level below `level`, from the root player's side
        values = leaves.reshape(branching ** (level + 1), -1)
        for below in range(depth - 1, level, -1):
            shaped = values.reshape(values.shape[0], -1, branching)
            values = shaped.max(axis=2) if below % 2 == 0 else shaped.min(axis=2)
            values = values.reshape(values.shape[0], -1)
        child_values = values.reshape(branching ** level, branching)
        maximizing = level % 2 == 0
        key = -child_values if maximizing else child_values
        permutation = np.argsort(key, axis=1, kind="stable")
        if order == "worst":
            permutation = permutation[:, ::-1]
        blocks = leaves.reshape(branching ** level, branching, -1)
        leaves = np.take_along_axis(blocks, permutation[:, :, None], axis=1).reshape(-1)
    return np.ascontiguousarray(leaves)


cdef class Tree(Position):
    """An explicit or generated game tree; see the module docstring."""

    name = "tree"
    bench_positions = ("ε",)
    default_evaluator = "tree-leaves"

    def __init__(self, nodes=None, file=None, branching=None, depth=None, seed=DEFAULT_SEED,
                 order="index", scale=None):
        if order not in ORDERS:
            raise InvalidOptionError(f"tree option order={order!r}: expected one of {ORDERS}")
        sources = [nodes is not None, file is not None, branching is not None or depth is not None]
        if sum(sources) != 1:
            raise InvalidOptionError(
                "tree needs exactly one source: nodes=[...], file=PATH, or branching=B, depth=D"
            )
        self._options = {"order": order}
        if file is not None:
            try:
                nodes = json.loads(Path(file).read_text())
            except (OSError, ValueError) as error:
                raise InvalidOptionError(f"tree option file={file!r}: {error}") from None
        if nodes is not None:
            self._build_explicit(nodes, order, scale)
            self._options["nodes"] = nodes
            if scale is not None:
                self._options["scale"] = scale
        else:
            self._build_uniform(branching, depth, seed, order)
            self._options.update(branching=branching, depth=depth, seed=seed)
        self.node = 0
        self.index = 0
        self.depth = 0
        self.side_to_move = 0

    def _build_explicit(self, nodes, order, scale):
        _validate(nodes)
        if not isinstance(nodes, (list, tuple)):
            raise InvalidOptionError("tree option nodes: the root must be a list of children")
        leaves = []

        def collect(n):
            if isinstance(n, (list, tuple)):
                for child in n:
                    collect(child)
            else:
                leaves.append(n)

        collect(nodes)
        self.scale = _leaf_scale(leaves, scale)
        ordered = _ordered(nodes, order)
        first_child, child_count, parent, value = [], [], [], []
        queue, head = [(ordered, -1)], 0
        while head < len(queue):
            item, up = queue[head]
            parent.append(up)
            if isinstance(item, (list, tuple)):
                first_child.append(len(queue))
                child_count.append(len(item))
                value.append(0)
                queue.extend((child, head) for child in item)
            else:
                first_child.append(-1)
                child_count.append(0)
                scaled = round(item * self.scale)
                if abs(scaled) > 100_000_000:
                    raise InvalidOptionError(f"tree leaf {item!r} is too large (|v| <= 1e8)")
                value.append(scaled)
            head += 1

        def as_array(xs):
            return np.asarray(xs, dtype=np.int32)

        self.first_child, self.child_count = as_array(first_child), as_array(child_count)
        self.parent, self.node_value = as_array(parent), as_array(value)
        self.uniform = False
        self._point()
        self.max_moves = max(child_count)

    def _build_uniform(self, branching, depth, seed, order):
        for option, value in (("branching", branching), ("depth", depth)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidOptionError(f"tree option {option}={value!r}: expected an int >= 1")
        if branching < 2 or branching ** depth > MAX_UNIFORM_LEAVES:
            raise InvalidOptionError(
                f"tree branching={branching}, depth={depth}: needs branching >= 2 and at most "
                f"{MAX_UNIFORM_LEAVES} leaves"
            )
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise InvalidOptionError(f"tree option seed={seed!r}: expected an int >= 0")
        self.leaf_values = _uniform_leaves(branching, depth, seed, order)
        self.uniform = True
        self._point()
        offset, width = 0, 1
        for level in range(depth + 1):
            self.level_offset[level] = offset
            offset, width = offset + width, width * branching
        self.uniform = True
        self.branching, self.height = branching, depth
        self.scale = 1
        self.max_moves = branching

    def _point(self):
        """Set the raw pointers to the arrays of this tree's kind."""
        if self.uniform:
            self.p_leaf_values = &self.leaf_values[0]
        else:
            self.p_first_child = &self.first_child[0]
            self.p_child_count = &self.child_count[0]
            self.p_parent = &self.parent[0]
            self.p_node_value = &self.node_value[0]

    cdef long long node_id(self) noexcept:
        """Level-order number of the current node (the root is 0)."""
        if not self.uniform:
            return self.node
        return self.level_offset[self.depth] + self.index

    cdef int leaf_value(self) noexcept:
        """The current node's value from the root player's side (0 at inner nodes)."""
        if self.uniform:
            return self.p_leaf_values[self.index] if self.depth == self.height else 0
        return self.p_node_value[self.node]

    cdef int generate(self, int* out) except -1:
        cdef int count = self.branching if self.uniform else self.p_child_count[self.node]
        cdef int i
        if self.uniform and self.depth == self.height:
            return 0
        for i in range(count):
            out[i] = i + 1
        return count

    cdef int make(self, int move) except -1:
        if self.uniform:
            self.index_stack[self.depth] = self.index
            self.index = self.index * self.branching + move - 1
        else:
            self.node = self.p_first_child[self.node] + move - 1
        self.depth += 1
        self.side_to_move ^= 1
        return 0

    cdef int unmake(self, int move) except -1:
        self.depth -= 1
        if self.uniform:
            self.index = self.index_stack[self.depth]
        else:
            self.node = self.p_parent[self.node]
        self.side_to_move ^= 1
        return 0

    cdef int c_outcome(self) except -1:
        if self.uniform:
            return RESULT_LEAF if self.depth == self.height else RESULT_ONGOING
        return RESULT_LEAF if self.p_child_count[self.node] == 0 else RESULT_ONGOING

    cdef uint64_t c_key(self) except? 0:
        return splitmix64(<uint64_t> self.node_id() + 1)

    # ---- Python API -------------------------------------------------------------------------
    def options(self):
        return dict(self._options)

    def _twin(self):
        """A position on the same (shared, immutable) tree, at the root."""
        cdef Tree twin = Tree.__new__(Tree)
        if self.uniform:
            twin.leaf_values = self.leaf_values
        else:
            twin.first_child, twin.child_count = self.first_child, self.child_count
            twin.parent, twin.node_value = self.parent, self.node_value
        twin.uniform, twin.branching, twin.height = self.uniform, self.branching, self.height
        twin._point()
        twin.scale, twin.max_moves, twin._options = self.scale, self.max_moves, self._options
        twin.level_offset = self.level_offset
        return twin

    def copy(self):
        twin = self._twin().from_string(self.root_string())
        for move in self._stack:
            twin.push(move)
        return twin

    def label(self):
        """The Dewey label of the current node ("ε" at the root)."""
        return self.to_string()

    def value(self):
        """The current node's leaf value from the root player's side (0 at inner nodes)."""
        return self.leaf_value()

    def id(self):
        """Level-order number of the current node; ``label_of(id)`` turns it back into a label."""
        return self.node_id()

    def label_of(self, long long node_id):
        """The Dewey label of the node numbered ``node_id`` (see ``id()``)."""
        path = []
        if self.uniform:
            depth, first = 0, 0
            while node_id >= first + self.branching ** depth:
                first += self.branching ** depth
                depth += 1
            index = node_id - first
            for _ in range(depth):
                path.append(index % self.branching + 1)
                index //= self.branching
            path.reverse()
        else:
            if not 0 <= node_id < len(self.parent):
                raise ValueError(f"no node {node_id} in this tree")
            while self.parent[node_id] >= 0:
                up = self.parent[node_id]
                path.append(node_id - self.first_child[up] + 1)
                node_id = up
            path.reverse()
        return ".".join(map(str, path)) if path else ROOT_LABEL

    def to_string(self):
        return self.label_of(self.node_id())

    def from_string(self, text):
        """The node with Dewey label ``text`` ("ε", "" or "root" for the root)."""
        cdef Tree twin = self._twin()
        label = text.strip()
        if label in (ROOT_LABEL, "", "root"):
            return twin
        for part in label.split("."):
            if not part.isdigit():
                raise InvalidPositionError(f"tree label {text!r}: {part!r} is not a child number")
            try:
                twin.push(int(part))
            except IllegalMoveError:
                raise InvalidPositionError(f"tree label {text!r}: no such node") from None
        twin._stack = []
        return twin

    def move_str(self, move):
        """The child's number, from 1; IllegalMoveError for anything else."""
        if not isinstance(move, int) or move < 1:
            raise IllegalMoveError(f"{move!r} is not a tree move: a child's number, from 1")
        return str(move)

    def parse_move(self, text):
        text = str(text).strip()
        count = len(self.legal_moves())
        if not text.isdigit() or not 1 <= int(text) <= count:
            raise IllegalMoveError(
                f"{text!r} is not a move here: choose a child 1..{count}" if count
                else f"{text!r} is not a move: {self.to_string()} is a leaf"
            )
        return int(text)

    def __str__(self):
        if self.c_outcome() == RESULT_LEAF:
            return f"leaf {self.to_string()} = {self.leaf_value() / self.scale:g}"
        mover = "MIN" if self.side_to_move else "MAX"
        return f"node {self.to_string()} ({mover} to move, {len(self.legal_moves())} children)"

    def __reduce__(self):
        return (_rebuild_tree, (self.options(), self.root_string(), tuple(self._stack)))


def _rebuild_tree(options, root, moves):
    position = Tree(**options).from_string(root)
    for move in moves:
        position.push(move)
    return position
