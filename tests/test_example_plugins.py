"""The example plugin packages under examples/ install into a fresh environment, pass their own
tests and alfabeta's conformance kit, and play with everything already there."""

import shutil
from pathlib import Path

import pytest
from conftest import install_and_check

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
    install_and_check(fresh_python, source, kit, tmp_path)
