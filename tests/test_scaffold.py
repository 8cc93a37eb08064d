"""``alfabeta new``: each kind of package installs into a fresh virtual environment and passes
its own tests (which run the conformance kit) at once."""

import pytest
from conftest import install_and_check, run_ok

from alfabeta.cli import main
from alfabeta.core import InvalidOptionError
from alfabeta.scaffold import new_plugin


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind, name, cython",
    [
        ("game", "my-game", False),
        ("evaluator", "my-eval", False),
        ("searcher", "my-search", False),
        ("game", "fast-pile", True),
    ],
)
def test_a_new_plugin_installs_and_passes_its_tests(tmp_path, fresh_python, kind, name, cython):
    root = new_plugin(kind, name, tmp_path, cython)
    on = ["--alfabeta-on", "tictactoe"] if kind == "searcher" else []
    install_and_check(fresh_python, root, [f"--alfabeta-{kind}", name, *on], tmp_path)
    listed = run_ok([str(fresh_python), "-m", "alfabeta.cli", "plugins", "--kind", kind], root)
    assert f"  {name} " in listed and f"alfabeta-{name} 0.1.0" in listed
    if cython:
        compiled = list((root / "alfabeta_fast_pile").glob("game*.so"))
        assert compiled, "the game was not compiled"


def test_bad_requests_are_clear_errors(tmp_path, capsys):
    with pytest.raises(InvalidOptionError, match="lowercase"):
        new_plugin("game", "My Game", tmp_path)
    with pytest.raises(InvalidOptionError, match="--cython is for games"):
        new_plugin("searcher", "s", tmp_path, cython=True)
    new_plugin("game", "twice", tmp_path)
    assert main(["new", "game", "twice", "--dir", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err
