"""``alfabeta doctor``: what this installation has, what failed, and what to do about it.

It reports Python and alfabeta's versions and dependencies, whether the compiled core
loaded, every plugin (distribution, version, what it registered, or why it failed), the
optional extras and the external engines found. Each problem comes with its remedy; the
exit status is 0 when there is none and 1 otherwise.
"""

from __future__ import annotations

import importlib
import platform
import shutil
import subprocess
import sys
from importlib import metadata
from typing import IO, TYPE_CHECKING

from attrs import frozen

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog

DEPENDENCIES = ("numpy", "pluggy", "attrs", "rich")
EXTRAS = {
    "chess": ("chess", "python-chess: PGN import, driving UCI engines in tests"),
    "plot": ("matplotlib", "plots of benchmarks, ratings and experiments"),
    "dask": ("distributed", "arena runs on a Dask cluster (--executor dask://…)"),
    "web": ("uvicorn", "alfabeta serve: the web page"),
}
COMPILED = (
    "alfabeta.core.position",
    "alfabeta.core.evaluator",
    "alfabeta.games.chess.board",
    "alfabeta.searchers.family",
    "alfabeta.evaluators.chess_eval",
)
ENGINES = ("stockfish",)


@frozen
class Finding:
    """One line of the report; ``remedy`` is set when it is a problem."""

    topic: str
    text: str
    remedy: str | None = None


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _compiled() -> list[Finding]:
    findings = []
    for name in COMPILED:
        try:
            module = importlib.import_module(name)
        except ImportError as error:
            findings.append(
                Finding(
                    "compiled core",
                    f"{name} did not load: {error}",
                    "reinstall with a C compiler present: pip install --force-reinstall "
                    "--no-cache-dir alfabeta",
                )
            )
            continue
        path = getattr(module, "__file__", "") or ""
        if not path.endswith((".so", ".pyd")):
            findings.append(
                Finding(
                    "compiled core",
                    f"{name} is not compiled ({path})",
                    "rebuild the extensions: pip install -e . (or python setup.py build_ext "
                    "--inplace)",
                )
            )
    if not findings:
        findings.append(Finding("compiled core", f"loaded ({len(COMPILED)} modules checked)"))
        findings.append(Finding("compiled core", _build()))
    return findings


def _build() -> str:
    """What the compiled core was built for, from the flags setup.py recorded in it."""
    from alfabeta.core.position import BUILD_FLAGS

    flags = BUILD_FLAGS.split()
    if flags == ["unknown"]:
        return "built without setup.py's record of its flags"
    guided = (
        "profile-guided"
        if "-fprofile-use" in flags
        else "without a profile (gcc 10 or later builds profile-guided unless ALFABETA_PGO=0)"
    )
    instructions = [flag.removeprefix("-m") for flag in flags if flag.startswith("-m")]
    target = f"built for {', '.join(instructions)}" if instructions else "built portable"
    return f"{target}; {guided}"


def _plugins(catalog: Catalog) -> list[Finding]:
    from alfabeta.plugins.catalog import BLOCK_ENV

    findings = []
    for info in catalog.plugins:
        made = [e for e in catalog.entries() if e.origin == info.name]
        names = ", ".join(e.name for e in made) or "nothing"
        findings.append(
            Finding("plugin", f"{info.name} ({info.distribution} {info.version}): {names}")
        )
    for failure in catalog.failures:
        findings.append(
            Finding(
                "plugin",
                f"{failure.plugin} ({failure.distribution} {failure.version}) FAILED: "
                f"{failure.error}",
                f"upgrade or reinstall {failure.distribution}, or skip it: "
                f"{BLOCK_ENV}={failure.plugin}",
            )
        )
    for name in catalog.blocked:
        findings.append(Finding("plugin", f"{name}: blocked ({BLOCK_ENV})"))
    return findings


def _engine(name: str) -> Finding:
    path = shutil.which(name) or shutil.which(name, path="/usr/games")
    if path is None:
        return Finding(
            "engine",
            f"{name}: not found",
            f"optional: apt-get install {name} (or put it on the PATH) to play it with "
            f"uci(command={name})",
        )
    try:
        answer = subprocess.run(
            [path], input="uci\nquit\n", capture_output=True, text=True, timeout=10
        ).stdout
    except (OSError, subprocess.TimeoutExpired) as error:
        return Finding("engine", f"{name}: {path} does not answer ({error})", "reinstall it")
    names = [line[len("id name ") :] for line in answer.splitlines() if line.startswith("id name")]
    if not names:
        return Finding("engine", f"{name}: {path} does not speak UCI", "reinstall it")
    return Finding("engine", f"{name}: {path} ({names[0]})")


def diagnose(catalog: Catalog) -> list[Finding]:
    """Everything ``alfabeta doctor`` reports, in order."""
    from alfabeta import __version__

    findings = [
        Finding(
            "python",
            f"{platform.python_implementation()} {platform.python_version()} "
            f"on {platform.system()} {platform.machine()} ({sys.executable})",
        ),
        Finding("alfabeta", __version__),
    ]
    for name in DEPENDENCIES:
        version = _version(name)
        findings.append(
            Finding("dependency", f"{name} {version}")
            if version
            else Finding("dependency", f"{name}: missing", "pip install --force-reinstall alfabeta")
        )
    findings += _compiled()
    findings += _plugins(catalog)
    for extra, (module, purpose) in EXTRAS.items():
        try:
            importlib.import_module(module)
        except ImportError:
            findings.append(
                Finding(
                    "extra",
                    f"{extra}: not installed ({purpose})",
                    f"optional: pip install 'alfabeta[{extra}]'",
                )
            )
        else:
            findings.append(Finding("extra", f"{extra}: {module} {_version(module) or ''}".strip()))
    findings += [_engine(name) for name in ENGINES]
    return findings


def report(findings: list[Finding], out: IO[str]) -> int:
    """Print the findings; 0 when no problem needs a remedy, else 1. Optional extras and
    engines that are absent are listed but are not problems."""
    problems = 0
    for finding in findings:
        print(f"{finding.topic:<14} {finding.text}", file=out)
        if finding.remedy:
            print(f"{'':<14}  -> {finding.remedy}", file=out)
            problems += not finding.remedy.startswith("optional")
    print(f"{problems} problem{'s' if problems != 1 else ''} found", file=out)
    return 0 if problems == 0 else 1
