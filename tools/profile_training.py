"""The training run of the profile-guided build: the work whose branch and call counts gcc's
``-fprofile-use`` lays the compiled modules out for (``setup.py`` says when and why).

``setup.py`` runs it between the instrumented build and the final one, in a fresh interpreter::

    python tools/profile_training.py BUILT.json

BUILT.json maps each compiled module's name to the file the instrumented build wrote. The
package's Python modules and data come from the source tree beside this script, its compiled
modules from those files (never from copies an earlier build left in the tree). Only the
package's own plugins are loaded. Every command must succeed: a failure exits non-zero, and
``setup.py`` then builds without a profile.

The chess engine's default search and evaluator get most of the counts (its speed in play is
why the build is profile-guided); every other compiled path a user times runs too, so that
gcc optimises none of them as code that never runs: each chess evaluator, each compiled
searcher on the small games, MCTS, both solvers and perft.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent

SEARCHERS = (
    "minimax,negamax,alphabeta,negascout,scout,sss*,dual*,mtdf,mt-sss*,mt-dual*,"
    "null-move,aspiration,alphabeta(tt=on, iterative=on, killers=on, history=on)"
)
"""Every compiled searcher of the family, for the cross-algorithm benchmarks' games."""

SMALL_GAMES = (
    "connect-four",
    "trgd",
    "fibonacci-nim",
    "tree(branching=4, depth=6, seed=1)",
    "deduction(rules='bs & ba -> af; af & cu -> pe; pe -> pd; bs & bp -> mc; bs & mc -> pd;"
    " bp -> ba', data='bs,bp,cu', goal='pd')",
)

CHESS_SEARCHER = "negascout(tt=on, iterative=on, quiescence=on, captures=on)"
"""A plain searcher for timing the chess evaluators."""

CHESS_EVALUATORS = ("standard", "cpw", "emotional", "bayeschess", "material", "tuned")

MATE_IN_TWO = "8/8/8/8/8/K2Q4/8/2k5 w - - 0 1"


def commands(default_searcher: str, default_evaluator: str) -> list[list[str]]:
    """The training's ``alfabeta`` commands, the engine's default search first."""
    quick = ["--min-time", "0", "--signature"]
    engine = ["--searchers", default_searcher, "--evaluator", default_evaluator]
    run = [["bench", "chess", *engine, "--depth", "11", *quick]]
    run += [
        [
            "bench",
            "chess",
            "--searchers",
            CHESS_SEARCHER,
            "--evaluator",
            name,
            "--depth",
            "4",
            *quick,
        ]
        for name in CHESS_EVALUATORS
    ]
    run += [
        ["bench", game, "--searchers", SEARCHERS, "--depth", "4", *quick] for game in SMALL_GAMES
    ]
    run += [
        [
            "play",
            "connect-four",
            "--first",
            "mcts(iterations=300, seed=1)",
            "--second",
            "mcts(iterations=300, seed=2)",
            "--quiet",
        ],
        ["solve", "connect-four(width=4, height=4)"],
        ["solve", "chess", MATE_IN_TWO, "--mate", "2"],
        ["perft", "startpos", "4"],
    ]
    return run


class BuiltModules(importlib.abc.MetaPathFinder):
    """Finds each compiled module at the file the build wrote."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The spec of ``name``'s built file; None for any module the build did not write."""
        file = self.files.get(name)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(
            name, file, loader=importlib.machinery.ExtensionFileLoader(name, file)
        )


def main(argv: Sequence[str]) -> int:
    """Run every training command; the first to fail ends the run with its exit status."""
    if len(argv) != 1:
        print("usage: profile_training.py BUILT.json", file=sys.stderr)
        return 2
    files = json.loads(Path(argv[0]).read_text())
    sys.meta_path.insert(0, BuiltModules(files))
    sys.path.insert(0, str(ROOT))
    os.environ["ALFABETA_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    from alfabeta.cli import main as alfabeta
    from alfabeta.uci import DEFAULT_EVALUATOR, DEFAULT_SEARCHER

    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        for command in commands(DEFAULT_SEARCHER, DEFAULT_EVALUATOR):
            status = alfabeta(command)
            if status:
                print(
                    f"profile training: alfabeta {' '.join(command)}: exit {status}",
                    file=sys.stderr,
                )
                return status
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
