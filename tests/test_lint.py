"""The lint CI runs: ruff (with docstring, annotation, complexity and RUF rules on the package)
and its formatter on the Python code, cython-lint on the compiled modules' .pyx/.pxd."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON_PATHS = ["alfabeta", "tests", "benchmarks", "examples", "tools", "docs/conf.py", "setup.py"]


def run(*command: str) -> subprocess.CompletedProcess:
    bin_dir = str(Path(sys.executable).parent)  # cython-lint runs pycodestyle from PATH
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)


def test_ruff_finds_nothing():
    result = run(sys.executable, "-m", "ruff", "check", *PYTHON_PATHS)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_python_code_is_formatted():
    result = run(sys.executable, "-m", "ruff", "format", "--check", *PYTHON_PATHS)
    assert result.returncode == 0, result.stdout + result.stderr


def test_cython_lint_finds_nothing():
    result = run(str(Path(sys.executable).parent / "cython-lint"), "alfabeta")
    assert result.returncode == 0, result.stdout + result.stderr
