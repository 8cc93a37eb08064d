"""``alfabeta new game|evaluator|searcher NAME``: a small installable plugin package.

It writes ``alfabeta-NAME/`` with a ``pyproject.toml`` whose ``alfabeta`` entry point names
the plugin module, the module (the hook and a minimal working implementation), a test that
runs the conformance kit on it, and a README. ``pip install -e alfabeta-NAME`` and then
``pytest alfabeta-NAME`` pass at once. ``--cython`` (games) writes the game as a Cython
extension type that reaches the C-level position contract (``alfabeta.core.position``);
it builds with ``pip install --no-build-isolation -e``, against the installed alfabeta.
"""

from __future__ import annotations

import re
from pathlib import Path

from alfabeta.core import InvalidOptionError

KINDS = ("game", "evaluator", "searcher")
NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*\Z")

PYPROJECT = """\
[build-system]
requires = [{requires}]
build-backend = "setuptools.build_meta"

[project]
name = "alfabeta-{name}"
version = "0.1.0"
description = "{description}"
requires-python = ">=3.10"
dependencies = ["alfabeta"]

[project.optional-dependencies]
test = ["pytest>=8"]

# the line that makes alfabeta find the plugin
[project.entry-points.alfabeta]
{name} = "{package}.plugin"

[tool.setuptools]
packages = ["{package}"]
{package_data}
[tool.pytest.ini_options]
testpaths = ["tests"]
"""

README = """\
# alfabeta-{name}

{description}. Written by `alfabeta new {kind} {name}{cython_flag}`.

```sh
pip install {install_flags}-e .            # registers the plugin through the alfabeta entry point
alfabeta plugins --kind {kind}            # it is listed
pytest                                    # the conformance kit checks it
pytest --alfabeta-{kind} {name}{on}      # the same kit, through alfabeta's pytest plugin
```
"""

GAME = '''\
"""{title}: a pile of ``n`` stones, each move takes 1 to ``k``; taking the last wins.

A plain-Python game: the host wraps it so every compiled searcher runs on it. Change the
rules, keep the methods: that is the whole game contract (docs/plugins.md).
"""

from __future__ import annotations

from alfabeta.core import IllegalMoveError, InvalidOptionError, InvalidPositionError, Result
from alfabeta.plugins import hookimpl


class {cls}:
    name = "{name}"
    default_evaluator = "{name}-exact"
    max_game_length = None  # unbounded as far as the kit knows; an int bounds every game

    def __init__(self, n: int = 21, k: int = 3) -> None:
        if not (isinstance(n, int) and isinstance(k, int) and n >= 0 and k >= 1):
            raise InvalidOptionError(f"{name} needs n >= 0 and k >= 1, got n={{n!r}} k={{k!r}}")
        self.start, self.n, self.k = n, n, k
        self.side_to_move = 0
        self.history: list[int] = []
        self.max_moves = k

    def options(self) -> dict:
        return {{"n": self.start, "k": self.k}}

    def legal_moves(self) -> list[int]:
        return list(range(1, min(self.k, self.n) + 1))

    def push(self, move: int) -> None:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"cannot take {{move!r}} of {{self.n}} stones")
        self.n -= move
        self.side_to_move ^= 1
        self.history.append(move)

    def pop(self) -> int:
        move = self.history.pop()
        self.n += move
        self.side_to_move ^= 1
        return move

    def outcome(self) -> Result:
        return Result.LOSS if self.n == 0 else Result.ONGOING  # the mover took the last

    def key(self) -> int:
        return (self.n << 1) | self.side_to_move

    def copy(self) -> {cls}:
        twin = {cls}(self.start, self.k)
        twin.n, twin.side_to_move, twin.history = self.n, self.side_to_move, list(self.history)
        return twin

    def to_string(self) -> str:
        return f"{{self.n}} {{self.side_to_move}}"

    def from_string(self, text: str) -> {cls}:
        try:
            n, side = (int(x) for x in text.split())
        except ValueError:
            raise InvalidPositionError(f"{name} position {{text!r}}: expected 'n side'") from None
        if n < 0 or side not in (0, 1):
            raise InvalidPositionError(f"{name} position {{text!r}}: n >= 0, side 0 or 1")
        twin = {cls}(max(n, self.start), self.k)
        twin.n, twin.side_to_move = n, side
        return twin

    def move_str(self, move: int) -> str:
        return str(move)

    def parse_move(self, text: str) -> int:
        if not str(text).strip().isdigit() or int(text) not in self.legal_moves():
            raise IllegalMoveError(f"{{text!r}}: take 1..{{min(self.k, self.n)}} stones")
        return int(text)


def exact(position) -> int:
    """Lost for the side to move exactly when the pile is a multiple of k + 1."""
    n = int(position.to_string().split()[0])
    k = position.options()["k"]
    return -1000 if n % (k + 1) == 0 else 1000


@hookimpl
def register_games(register):
    register("{name}", {cls}, description="{description}")


@hookimpl
def register_evaluators(register):
    register("{name}-exact", exact, games=("{name}",), description="the pile's exact value")
'''

GAME_CYTHON = '''\
# cython: language_level=3
"""{title}: a pile of ``n`` stones, each move takes 1 to ``k``; taking the last wins.

A compiled game: the class derives from ``alfabeta.core.position.Position`` and implements
its C-level methods, so searchers call it with no Python object per node. The Python API
(``to_string``, ``parse_move`` …) completes the contract (docs/plugins.md).
"""

from alfabeta.core.position cimport RESULT_LOSS, RESULT_ONGOING, Position, splitmix64
from libc.stdint cimport uint64_t

from alfabeta.core import IllegalMoveError, InvalidOptionError, InvalidPositionError


cdef class {cls}(Position):
    cdef readonly int n, k, start

    name = "{name}"
    default_evaluator = "{name}-exact"

    def __init__(self, n=21, k=3):
        if not (isinstance(n, int) and isinstance(k, int) and n >= 0 and k >= 1):
            raise InvalidOptionError(f"{name} needs n >= 0 and k >= 1, got n={{n!r}} k={{k!r}}")
        self.start, self.n, self.k = n, n, k
        self.side_to_move = 0
        self.max_moves = k

    cdef int generate(self, int* out) except -1:
        cdef int m, most = self.k if self.k < self.n else self.n
        for m in range(most):
            out[m] = m + 1
        return most

    cdef int make(self, int move) except -1:
        self.n -= move
        self.side_to_move ^= 1
        return 0

    cdef int unmake(self, int move) except -1:
        self.n += move
        self.side_to_move ^= 1
        return 0

    cdef int c_outcome(self) except -1:
        return RESULT_LOSS if self.n == 0 else RESULT_ONGOING

    cdef uint64_t c_key(self) except? 0:
        return splitmix64((<uint64_t> self.n << 1) | <uint64_t> self.side_to_move)

    def options(self):
        return {{"n": self.start, "k": self.k}}

    def to_string(self):
        return f"{{self.n}} {{self.side_to_move}}"

    def from_string(self, text):
        try:
            n, side = (int(x) for x in text.split())
        except ValueError:
            raise InvalidPositionError(f"{name} position {{text!r}}: expected 'n side'") from None
        if n < 0 or side not in (0, 1):
            raise InvalidPositionError(f"{name} position {{text!r}}: n >= 0, side 0 or 1")
        twin = {cls}(max(n, self.start), self.k)
        twin.start, twin.n, twin.side_to_move = self.start, n, side
        return twin

    def move_str(self, move):
        return str(move)

    def parse_move(self, text):
        if not str(text).strip().isdigit() or int(text) not in self.legal_moves():
            raise IllegalMoveError(f"{{text!r}}: take 1..{{min(self.k, self.n)}} stones")
        return int(text)
'''

GAME_CYTHON_PLUGIN = '''\
"""Registers the compiled {name} game and its exact evaluator."""

from alfabeta.plugins import hookimpl

from {package}.game import {cls}


def exact(position) -> int:
    """Lost for the side to move exactly when the pile is a multiple of k + 1."""
    return -1000 if position.n % (position.k + 1) == 0 else 1000


@hookimpl
def register_games(register):
    register("{name}", {cls}, description="{description}")


@hookimpl
def register_evaluators(register):
    register("{name}-exact", exact, games=("{name}",), description="the pile's exact value")
'''

SETUP_CYTHON = '''\
"""Builds the Cython game against the installed alfabeta (its .pxd files come with it)."""

from pathlib import Path

import alfabeta
from Cython.Build import cythonize
from setuptools import setup

# where the alfabeta package lives (also for an editable install), so `cimport` finds it
ALFABETA = str(Path(alfabeta.__file__).resolve().parent.parent)

setup(ext_modules=cythonize(["{package}/game.pyx"], include_path=[ALFABETA], language_level=3))
'''

EVALUATOR = '''\
"""{title}: a tic-tac-toe evaluator that counts the lines still open to each side.

An evaluator is a plain function ``f(position) -> int`` (or an ``alfabeta.core.Evaluator``),
scoring from the side to move's point of view.
"""

from alfabeta.plugins import hookimpl

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def open_lines(position) -> int:
    """Lines the side to move can still complete minus the opponent's."""
    cells, side = position.to_string().split()
    mine, theirs = side, "o" if side == "x" else "x"
    own = sum(all(cells[c] != theirs for c in line) for line in LINES)
    other = sum(all(cells[c] != mine for c in line) for line in LINES)
    return own - other


@hookimpl
def register_evaluators(register):
    register("{name}", open_lines, games=("tictactoe",), description="{description}")
'''

SEARCHER = '''\
"""{title}: plain negamax to a fixed depth, as a searcher plugin.

A searcher is an object with ``search(position, evaluator, limit) -> SearchResult``. It
calls ``evaluator.prepare(root)`` once, leaves the position as it found it, and honours the
limit's depth (others it may refuse with UnsupportedLimitError).
"""

from __future__ import annotations

import time

from alfabeta.core import Limit, Result, SearchResult, UnsupportedLimitError, WIN
from alfabeta.plugins import hookimpl


class {cls}:
    name = "{name}"

    def __init__(self, depth: int = 3) -> None:
        self.depth = depth

    def search(self, position, evaluator, limit: Limit | None = None) -> SearchResult:
        limit = limit or Limit()
        if any(getattr(limit, k) is not None for k in ("nodes", "time", "wtime", "btime")):
            raise UnsupportedLimitError("{name} searches to a depth only")
        depth = limit.depth or self.depth
        began = time.perf_counter()
        evaluator.prepare(position)
        self.nodes = self.leaves = 0
        best, value = None, -WIN - 1
        for move in position.legal_moves():
            position.push(move)
            score = -self._negamax(position, evaluator, depth - 1, 1)
            position.pop()
            if score > value:
                best, value = move, score
        return SearchResult(
            move=best, value=value, pv=() if best is None else (best,), depth=depth,
            nodes=self.nodes, leaves=self.leaves, elapsed=time.perf_counter() - began,
        )

    def _negamax(self, position, evaluator, depth: int, ply: int) -> int:
        self.nodes += 1
        status = position.outcome()
        if status == Result.LOSS:
            return -(WIN - ply)
        if status == Result.WIN:
            return WIN - ply
        if status == Result.DRAW:
            return 0
        moves = position.legal_moves()
        if depth <= 0 or not moves:  # the horizon, or a leaf the evaluator scores
            self.leaves += 1
            return evaluator.evaluate(position)
        best = -WIN - 1
        for move in moves:
            position.push(move)
            best = max(best, -self._negamax(position, evaluator, depth - 1, ply + 1))
            position.pop()
        return best


@hookimpl
def register_searchers(register):
    register("{name}", {cls}, description="{description}")
'''

TESTS = {
    "game": '''\
"""The conformance kit on {name}: the position contract, then a search."""

from alfabeta import Limit, load_catalog
from alfabeta.testing import check_evaluator, check_game


def test_the_game_keeps_the_position_contract():
    catalog = load_catalog()
    assert check_game(catalog.game("{name}"), playouts=8) > 0
    assert check_game(catalog.game("{name}(n=10, k=4)"), playouts=8) > 0


def test_its_evaluator_keeps_the_evaluator_contract():
    catalog = load_catalog()
    position = catalog.game("{name}")
    assert check_evaluator(catalog.evaluator("{name}-exact", position), position) > 0


def test_a_compiled_searcher_plays_it():
    catalog = load_catalog()
    position = catalog.game("{name}(n=21, k=3)")
    result = catalog.searcher("alphabeta").search(position, catalog.evaluator("{name}-exact"),
                                                  Limit(depth=4))
    assert result.move == 1  # 21 - 1 = 20, a multiple of 4: the opponent is lost
''',
    "evaluator": '''\
"""The conformance kit on the {name} evaluator."""

from alfabeta import load_catalog
from alfabeta.testing import check_evaluator


def test_the_evaluator_keeps_the_evaluator_contract():
    catalog = load_catalog()
    position = catalog.game("tictactoe")
    assert check_evaluator(catalog.evaluator("{name}", position), position, playouts=6) > 0


def test_it_scores_from_the_side_to_moves_view():
    catalog = load_catalog()
    position = catalog.game("tictactoe")
    position.push_str("b2")  # x takes the centre: o, to move, has fewer open lines
    assert catalog.evaluator("{name}", position).evaluate(position) < 0
''',
    "searcher": '''\
"""The conformance kit on the {name} searcher, exact on random trees."""

from alfabeta import Limit, load_catalog
from alfabeta.testing import check_searcher


def test_the_searcher_keeps_the_searcher_contract():
    catalog = load_catalog()
    cases = []
    for seed in range(5):
        tree = catalog.game(f"tree(branching=3, depth=4, seed={{seed}})")
        leaves = catalog.default_evaluator(tree)
        value = catalog.searcher("py-minimax").search(tree, leaves, Limit(depth=64)).value
        cases.append((tree, leaves, value))
    position = catalog.game("tictactoe")
    assert check_searcher(lambda: catalog.searcher("{name}"), position,
                          catalog.default_evaluator(position), exact_cases=cases) > 0
''',
}

DESCRIPTIONS = {
    "game": "a take-away game plugin for alfabeta",
    "evaluator": "a tic-tac-toe evaluator plugin for alfabeta",
    "searcher": "a negamax searcher plugin for alfabeta",
}


def new_plugin(kind: str, name: str, where: str | Path = ".", cython: bool = False) -> Path:
    """Write the package ``alfabeta-NAME`` under ``where``; returns its folder."""
    if kind not in KINDS:
        raise InvalidOptionError(f"plugin kind {kind!r}: expected game, evaluator or searcher")
    if not NAME.match(name):
        raise InvalidOptionError(
            f"plugin name {name!r}: lowercase letters and digits, words joined by '-' "
            "(e.g. my-game)"
        )
    if cython and kind != "game":
        raise InvalidOptionError("--cython is for games (the compiled position contract)")
    root = Path(where) / f"alfabeta-{name}"
    if root.exists():
        raise InvalidOptionError(f"{str(root)!r} already exists: choose another name or place")
    package = "alfabeta_" + name.replace("-", "_")
    cls = "".join(part.capitalize() for part in name.split("-"))
    fields = {
        "name": name,
        "package": package,
        "cls": cls,
        "kind": kind,
        "title": name.replace("-", " ").capitalize(),
        "description": DESCRIPTIONS[kind],
        "cython_flag": " --cython" if cython else "",
        "install_flags": "--no-build-isolation " if cython else "",
        "on": " --alfabeta-on tictactoe" if kind == "searcher" else "",
    }
    files = {
        "README.md": README,
        f"{package}/__init__.py": f'"""{fields["description"]}."""\n',
        f"tests/test_{package}.py": TESTS[kind],
    }
    if cython:
        files[f"{package}/game.pyx"] = GAME_CYTHON
        files[f"{package}/plugin.py"] = GAME_CYTHON_PLUGIN
        files["setup.py"] = SETUP_CYTHON
        requires = '"setuptools>=77", "Cython>=3.0", "alfabeta"'
        package_data = f'\n[tool.setuptools.package-data]\n{package} = ["*.pyx"]\n'
    else:
        files[f"{package}/plugin.py"] = {
            "game": GAME,
            "evaluator": EVALUATOR,
            "searcher": SEARCHER,
        }[kind]
        requires = '"setuptools>=77"'
        package_data = ""
    files["pyproject.toml"] = PYPROJECT.replace("{requires}", requires).replace(
        "{package_data}", package_data
    )
    for relative, template in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.format(**fields))
    return root
