"""``alfabeta new``: each kind of package installs into a fresh virtual environment and passes
its own tests (which run the conformance kit) at once."""

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from alfabeta.cli import main
from alfabeta.core import InvalidOptionError
from alfabeta.scaffold import new_plugin


@pytest.fixture(scope="module")
def fresh_python(tmp_path_factory) -> Path:
    """A new virtual environment that sees this one's packages (alfabeta, pytest, setuptools,
    Cython) but none of the generated ones until they are installed into it."""
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


def _run(argv, cwd):
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


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
    _run(
        [
            str(fresh_python),
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-e",
            str(root),
        ],
        tmp_path,
    )
    out = _run([str(fresh_python), "-m", "pytest", "-q", "-p", "no:cacheprovider"], root)
    assert " passed" in out and "failed" not in out
    listed = _run([str(fresh_python), "-m", "alfabeta.cli", "plugins", "--kind", kind], root)
    assert f"  {name} " in listed and f"alfabeta-{name} 0.1.0" in listed
    flag = f"--alfabeta-{kind}"
    on = ["--alfabeta-on", "tictactoe"] if kind == "searcher" else []
    empty = tmp_path / "empty"
    empty.mkdir()
    out = _run(
        [str(fresh_python), "-m", "pytest", flag, name, *on, "-p", "no:cacheprovider", "-q"], empty
    )
    assert "1 passed" in out
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
