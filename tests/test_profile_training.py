"""The profile-guided build's training run (tools/profile_training.py): every command it runs
still exists and succeeds, so that a renamed option or searcher cannot quietly turn the
profile off (the build would warn and finish without one), and the compiled modules it runs
are the ones the build names, not copies an earlier build left in the tree."""

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import alfabeta

TRAINING = Path(__file__).resolve().parent.parent / "tools" / "profile_training.py"

pytestmark = pytest.mark.slow


def compiled_modules() -> dict[str, str]:
    """Each compiled module of the installed package and its file, as the build names them."""
    package = Path(alfabeta.__file__).parent
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return {
        "alfabeta." + ".".join(path.relative_to(package).parts)[: -len(suffix)]: str(path)
        for path in package.rglob("*" + suffix)
    }


def train(tmp_path, modules):
    built = tmp_path / "built.json"
    built.write_text(json.dumps(modules))
    return subprocess.run(
        [sys.executable, str(TRAINING), str(built)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_every_training_command_succeeds(tmp_path):
    modules = compiled_modules()
    assert "alfabeta.searchers.family" in modules and len(modules) >= 20
    run = train(tmp_path, modules)
    assert run.returncode == 0, run.stderr
    assert run.stdout == ""  # the commands' tables go nowhere


def test_the_training_loads_the_compiled_modules_the_build_names(tmp_path):
    missing = tmp_path / "board.so"
    run = train(tmp_path, {**compiled_modules(), "alfabeta.games.chess.board": str(missing)})
    assert run.returncode != 0
    assert str(missing) in run.stderr
