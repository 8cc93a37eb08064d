"""The typed vocabulary: the aliases, the ``py.typed`` marker, and mypy clean on every Python
module (``[tool.mypy]`` in pyproject.toml)."""

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import alfabeta
from alfabeta.core import Move, Score, Side
from alfabeta.plugins import hookspecs

ROOT = Path(__file__).parent.parent


def test_the_vocabulary_names_ints_and_the_hooks_use_it():
    assert Move is int and Side is int and Score is int
    parameters = inspect.signature(hookspecs.move_played).parameters
    assert parameters["move"].annotation == "Move" and parameters["side"].annotation == "Side"


def test_the_package_says_it_is_typed():
    assert (Path(alfabeta.__file__).parent / "py.typed").is_file()


@pytest.mark.slow
def test_mypy_passes_on_the_python_modules():
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
