"""The shipped weights are what the recipe in docs/chess-engine.md writes, to the byte.

Runs the recipe (the code block named ``shipped-recipe``) in a new folder that sees
``benchmarks/data``, compares the ``tuned.json`` it writes with the shipped
``alfabeta/evaluators/data/tuned.json``, and prints how long it took and its peak memory; exits
1 if they differ. It takes 20 minutes to over an hour on one core, so the tests run the same
command only on a slice of the data (tests/test_docs.py).

Run: python benchmarks/reproduce_weights.py [--keep DIR]
"""

import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "alfabeta" / "evaluators" / "data" / "tuned.json"
RECIPE = re.compile(r"^```\{code-block\} sh\n:name: shipped-recipe\n\n(.*?)^```", re.M | re.S)


def shipped_recipe() -> tuple[dict[str, str], list[str]]:
    """The recipe's environment settings and the arguments it gives ``alfabeta``."""
    (body,) = RECIPE.findall((ROOT / "docs" / "chess-engine.md").read_text())
    words = shlex.split(body)
    start = words.index("alfabeta")
    return dict(word.split("=", 1) for word in words[:start]), words[start + 1 :]


def run_recipe(folder: Path, env: dict[str, str], args: list[str]) -> subprocess.CompletedProcess:
    """``alfabeta ARGS`` in ``folder`` with ``env`` added, this Python's ``alfabeta`` first."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    return subprocess.run(
        ["alfabeta", *args],
        cwd=folder,
        env={**os.environ, **env, "PATH": path},
        capture_output=True,
        text=True,
    )


def differences(written: dict, shipped: dict) -> list[str]:
    """The top-level keys whose values differ."""
    return sorted(k for k in written.keys() | shipped.keys() if written.get(k) != shipped.get(k))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="run in this folder and keep what it writes")
    options = parser.parse_args()
    env, args = shipped_recipe()
    with tempfile.TemporaryDirectory() as scratch:
        folder = options.keep or Path(scratch)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "benchmarks").mkdir(exist_ok=True)
            if not (folder / "benchmarks" / "data").exists():
                (folder / "benchmarks" / "data").symlink_to(ROOT / "benchmarks" / "data")
        except OSError as error:
            parser.error(f"cannot run the recipe in {str(folder)!r}: {error.strerror or error}")
        print(" ".join([*(f"{k}={v}" for k, v in env.items()), "alfabeta", *args]), flush=True)
        began = time.perf_counter()
        done = run_recipe(folder, env, args)
        minutes = (time.perf_counter() - began) / 60
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
        print(done.stdout[-2000:], done.stderr[-2000:], sep="", end="")
        print(f"{minutes:.1f} minutes, at most {peak:.1f} GB")
        if done.returncode != 0:
            print(f"the recipe failed (exit {done.returncode})")
            return 1
        written = (folder / "tuned.json").read_bytes()
        if written == SHIPPED.read_bytes():
            print(f"the same bytes as {SHIPPED.relative_to(ROOT)}")
            return 0
        keys = differences(json.loads(written), json.loads(SHIPPED.read_bytes()))
        print(f"differs from {SHIPPED.relative_to(ROOT)} in: {', '.join(keys) or 'layout only'}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
