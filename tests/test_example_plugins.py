"""The example plugin packages under examples/ install into a fresh environment, pass their own
tests and alfabeta's conformance kit, and play with everything already there."""

import shutil
from pathlib import Path

import pytest
from conftest import run_ok

EXAMPLES = [
    ("alfabeta-subtraction", ["--alfabeta-game", "subtraction"]),
    ("alfabeta-c4-windows", ["--alfabeta-evaluator", "c4-windows"]),
    ("alfabeta-best-first", ["--alfabeta-searcher", "best-first(nodes=500)"]),
]
ROOT = Path(__file__).parent.parent / "examples"


@pytest.mark.slow
@pytest.mark.parametrize("package, kit", EXAMPLES)
def test_an_example_installs_and_passes_its_tests_and_the_kit(tmp_path, fresh_python, package, kit):
    source = tmp_path / package
    shutil.copytree(ROOT / package, source)  # a build writes into the folder: keep the repo clean
    run_ok(
        [
            str(fresh_python),
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-e",
            str(source),
        ],
        tmp_path,
    )
    if (source / "tests").exists():
        assert " passed" in run_ok(
            [str(fresh_python), "-m", "pytest", "-q", "-p", "no:cacheprovider"], source
        )
    empty = tmp_path / "empty"
    empty.mkdir()
    out = run_ok([str(fresh_python), "-m", "pytest", *kit, "-q", "-p", "no:cacheprovider"], empty)
    assert "1 passed" in out
