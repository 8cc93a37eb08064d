"""The documentation site: it builds with warnings as errors, and every example in it runs.

Examples are the fenced blocks marked ``python`` (run in order, one namespace per page) and
``sh`` (each ``alfabeta`` command line run by the shell; a game against ``human`` is given
``quit`` and must end as an abandoned game, exit 3). Listings of files and installation
steps use ``text``, ``toml`` or the ``{code-block}`` directive and are not run. The one
command too long to run as written, the recipe of the shipped weights, runs on a slice of its
data (``benchmarks/reproduce_weights.py`` runs it whole).
"""

import gzip
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from alfabeta.evaluators.tuned import Tuned

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```(python|sh)\n(.*?)^```", re.M | re.S)
PAGES = sorted(p.name for p in DOCS.glob("*.md"))


def examples(page: str) -> list[tuple[str, str]]:
    return FENCE.findall((DOCS / page).read_text())


def commands(script: str) -> list[str]:
    """The script's command lines, continuation lines joined."""
    return [line for line in script.replace("\\\n", " ").splitlines() if line.strip()]


@pytest.mark.slow
def test_the_site_builds_without_a_warning(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            str(DOCS),
            str(tmp_path / "html"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert (tmp_path / "html" / "api.html").read_text().count("check_game") >= 1


def test_every_page_with_examples_is_in_the_site():
    index = (DOCS / "index.md").read_text()
    for page in PAGES:
        if page != "index.md":
            assert f"\n{page[:-3]}\n" in index, f"{page} is not in the toctree"


@pytest.mark.slow
@pytest.mark.parametrize("page", [p for p in PAGES if examples(p)])
def test_every_example_runs(page, tmp_path, monkeypatch):
    for name in ("tests/data", "docs/examples", "benchmarks/data"):  # data examples name
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    namespace: dict = {}
    for language, body in examples(page):
        if language == "python":
            exec(compile(body, f"{page} example", "exec"), namespace)
            continue
        for line in commands(body):
            human = "human" in line
            done = subprocess.run(
                ["bash", "-c", line],
                cwd=tmp_path,
                env=env,
                input="quit\n" if human else "",
                capture_output=True,
                text=True,
                timeout=600,
            )
            expected = 3 if human else 0
            assert done.returncode == expected, (
                f"{line}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
            )


def reproduce_weights():
    """benchmarks/reproduce_weights.py as a module."""
    spec = importlib.util.spec_from_file_location(
        "reproduce_weights", ROOT / "benchmarks" / "reproduce_weights.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_recipe_runs_on_the_first_positions_of_each_of_its_files(tmp_path):
    script = reproduce_weights()
    env, args = script.shipped_recipe()
    assert args[0] == "tune" and env == {
        "OPENBLAS_NUM_THREADS": "1",
        "OPENBLAS_CORETYPE": "Haswell",
    }
    sliced = {"--epochs": "15", "--net-epochs": "2"}
    files = [arg for arg in args if arg.startswith("benchmarks/data/")]
    assert len(files) == 9 and "--out" in args
    for name in files:
        with gzip.open(ROOT / name, "rt") as data:
            first = [next(data) for _ in range(300)]
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(tmp_path / name, "wt") as copy:
            copy.writelines(first)
    args = [sliced.get(before, arg) for before, arg in zip(["", *args[:-1]], args, strict=True)]
    done = script.run_recipe(tmp_path, env, args)
    assert done.returncode == 0, done.stderr[-2000:]
    written = json.loads((tmp_path / args[args.index("--out") + 1]).read_text())
    shipped = json.loads(script.SHIPPED.read_text())
    assert written["net"]["hidden"] == shipped["net"]["hidden"] == 64
    assert written["net_positions"] == 8 * 300 and len(written["net_losses"]) == 2
    assert written.keys() == shipped.keys()
    Tuned(weights=str(tmp_path / "tuned.json"))  # the evaluator plays what it wrote


def test_the_reproduction_script_names_a_keep_folder_it_cannot_use(tmp_path):
    (tmp_path / "a-file").write_text("")
    done = subprocess.run(
        [
            sys.executable,
            ROOT / "benchmarks" / "reproduce_weights.py",
            "--keep",
            tmp_path / "a-file" / "x",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"cannot run the recipe in '{tmp_path / 'a-file' / 'x'}': Not a directory" in done.stderr
