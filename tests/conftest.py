import random
import signal
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from hypothesis import strategies as st

from alfabeta import load_catalog
from alfabeta.games.chess.board import ChessGame


def default_sigint() -> None:
    """``preexec_fn`` for a child that a test interrupts: SIGINT at its default, as a
    terminal gives it, even when the tests were started in the background (where the shell
    hands every child SIGINT ignored and Python then installs no KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def random_game_positions(games: int, plies: int, seed: int) -> list[ChessGame]:
    """Every position after each move of ``games`` random chess games of up to ``plies``
    plies (each game stops at its end), in the order played."""
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        position = ChessGame()
        for _ in range(plies):
            moves = position.legal_moves()
            if not moves or position.is_over():
                break
            position.push(rng.choice(moves))
            positions.append(position.copy())
    return positions


def run_ok(argv, cwd) -> str:
    """Run a command; its output, or a failure showing the end of what it printed."""
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def install_and_check(python: Path, package: Path, kit: list[str], workdir: Path) -> None:
    """Install ``package`` into the fresh environment of ``python``, run its own tests (when
    it has some) and the conformance kit with the ``kit`` options in an empty folder."""
    run_ok(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-e",
            str(package),
        ],
        workdir,
    )
    if (package / "tests").exists():
        out = run_ok([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider"], package)
        assert " passed" in out and "failed" not in out
    empty = workdir / "empty"
    empty.mkdir()
    out = run_ok([str(python), "-m", "pytest", *kit, "-q", "-p", "no:cacheprovider"], empty)
    assert "1 passed" in out


@pytest.fixture(scope="session")
def fresh_python(tmp_path_factory) -> Path:
    """The interpreter of a new virtual environment that sees this one's packages (alfabeta,
    pytest, setuptools, Cython) but no plugin package until one is installed into it."""
    root = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = root / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    host = sysconfig.get_paths()["purelib"]
    (Path(purelib) / "_host.pth").write_text(f"import site; site.addsitedir({host!r})\n")
    return python


@pytest.fixture(scope="session")
def catalog():
    """alfabeta's own plugins only, whatever else is installed."""
    return load_catalog(autoload=False, block=())


T1 = [[8, 12, 10], [6, 15, 9], [14, 11, 5]]
T2 = [[3, 5, 7], [3.1, 4, 6]]
T3 = [[-5, 10], [-4, -2]]
T4 = [[[3, 17], [2, 12]], [[15, 25], [0, 2]]]
T5 = [[[3, 4], [8, 2]], [[5, 1], [6, 7]], [[9, 0], [2, 6]]]
T6 = [[[[7, 1], [2, 4]], [[9, 1], [1, 9]]], [[[1, 2], [3, 9]], [[6, 6], [2, 9]]]]


def random_trees(leaf_range=20, max_leaves=50):
    """Hypothesis strategy: nested-list game trees with integer leaves."""
    leaf = st.integers(-leaf_range, leaf_range)
    return st.recursive(
        leaf, lambda children: st.lists(children, min_size=1, max_size=4), max_leaves=max_leaves
    ).filter(lambda t: isinstance(t, list))


# every searcher that must return the exact minimax value at a given depth
EXACT_SEARCHERS = [
    "minimax",
    "negamax",
    "alphabeta",
    "alphabeta(fail=soft)",
    "negascout",
    "negascout(research_leaves=off)",
    "scout",
    "sss*",
    "dual*",
    "mtdf(iterative=off)",
    "mt-sss*(iterative=off)",
    "mt-dual*(iterative=off)",
    "alphabeta(tt=on)",
    "alphabeta(iterative=on, tt=on, killers=on, history=on)",
    "alphabeta(iterative=on, tt=on, killers=on, history=on, malus=on, countermove=on)",
    "alphabeta(iterative=on, aspiration=3)",
    "py-minimax",
    "py-alphabeta",
]


def search_tree(catalog, searcher, tree, **tree_options):
    """Search an explicit tree with leaf logging: (result, evaluated Dewey labels, position).
    Also checks that the search left the position at the root."""
    options = "".join(f", {k}={v!r}" for k, v in tree_options.items())
    position = catalog.game(f"tree(nodes={tree!r}{options})")
    evaluator = catalog.evaluator("tree-leaves(log=true)")
    result = catalog.searcher(searcher).search(position, evaluator)
    assert position.to_string() == "ε"
    return result, evaluator.visited(), position
