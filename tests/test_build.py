"""The build's instruction-set flags (setup.py): added only where the build machine's
processor reports every instruction they enable, so a build never holds an instruction its
processor lacks (which would end a search in SIGILL)."""

import runpy
from pathlib import Path
from unittest import mock

import pytest

SETUP = Path(__file__).resolve().parent.parent / "setup.py"


@pytest.fixture(scope="module")
def compile_flags():
    """setup.py's ``compile_flags``, read without building anything."""
    with mock.patch("setuptools.setup"), mock.patch("Cython.Build.cythonize"):
        return runpy.run_path(str(SETUP))["compile_flags"]


def cpuinfo(*flags: str) -> str:
    return f"processor\t: 0\nflags\t\t: fpu sse2 {' '.join(flags)}\nbogomips\t: 4000\n"


def flags_on(compile_flags, monkeypatch, text, machine="x86_64", read=None):
    """The flags for a processor whose /proc/cpuinfo reads ``text`` (or raises ``read``)."""
    monkeypatch.delenv("ALFABETA_PORTABLE", raising=False)
    monkeypatch.setattr("platform.machine", lambda: machine)
    with mock.patch.object(Path, "read_text", return_value=text, side_effect=read):
        return compile_flags()


def test_a_processor_with_avx2_and_bmi_gets_every_flag_but_never_fma(compile_flags, monkeypatch):
    """FMA, though reported, is left off: it would round floating-point results differently."""
    text = cpuinfo("popcnt", "avx2", "bmi1", "bmi2", "fma")
    assert flags_on(compile_flags, monkeypatch, text) == [
        "-mpopcnt",
        "-mavx2",
        "-mbmi",
        "-mbmi2",
    ]


@pytest.mark.parametrize("missing", ["avx2", "bmi1", "bmi2"])
def test_avx2_needs_bmi1_and_bmi2_reported_too(compile_flags, monkeypatch, missing):
    text = cpuinfo(*(f for f in ["popcnt", "avx2", "bmi1", "bmi2"] if f != missing))
    assert flags_on(compile_flags, monkeypatch, text) == ["-mpopcnt"]


def test_an_old_processor_gets_no_flags(compile_flags, monkeypatch):
    assert flags_on(compile_flags, monkeypatch, cpuinfo()) == []


def test_portable_builds_and_other_machines_get_no_flags(compile_flags, monkeypatch):
    text = cpuinfo("popcnt", "avx2", "bmi1", "bmi2")
    assert flags_on(compile_flags, monkeypatch, text, machine="aarch64") == []
    monkeypatch.setenv("ALFABETA_PORTABLE", "1")
    with mock.patch.object(Path, "read_text", return_value=text):
        assert compile_flags() == []


def test_an_unreadable_cpuinfo_gets_no_flags(compile_flags, monkeypatch):
    assert flags_on(compile_flags, monkeypatch, "", read=OSError("no /proc")) == []


# ---- the profile-guided build ---------------------------------------------------------------


@pytest.fixture(scope="module")
def build_script():
    """setup.py's globals, read without building anything."""
    with mock.patch("setuptools.setup"), mock.patch("Cython.Build.cythonize"):
        return runpy.run_path(str(SETUP))


def compiler_says(banner: str, version: str):
    """A stand-in for subprocess.run answering ``--version`` and ``-dumpversion``."""

    def run(command, **kwargs):
        return mock.Mock(stdout=version if command[-1] == "-dumpversion" else banner)

    return run


GCC = "gcc (Debian 12.2.0-14) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc.\n"
CLANG = "Debian clang version 14.0.6\nTarget: x86_64-pc-linux-gnu\n"


@pytest.mark.parametrize(
    ("banner", "version", "setting", "guided"),
    [
        (GCC, "12\n", None, True),
        (GCC, "10.2.1\n", "1", True),
        (GCC, "9\n", None, False),  # no -fprofile-partial-training before gcc 10
        (CLANG, "14.0.6\n", None, False),  # clang's profiles need llvm-profdata: not used
        (GCC, "12\n", "0", False),
        (GCC, "12\n", "off", False),
    ],
)
def test_only_gcc_10_or_later_builds_profile_guided_unless_turned_off(
    build_script, monkeypatch, banner, version, setting, guided
):
    monkeypatch.setenv("CC", "gcc")
    if setting is None:
        monkeypatch.delenv("ALFABETA_PGO", raising=False)
    else:
        monkeypatch.setenv("ALFABETA_PGO", setting)
    with mock.patch("subprocess.run", side_effect=compiler_says(banner, version)):
        assert build_script["profile_guided"]() is guided


def test_a_compiler_that_cannot_run_builds_without_a_profile(build_script, monkeypatch):
    monkeypatch.setenv("CC", "/nonexistent/cc")
    monkeypatch.delenv("ALFABETA_PGO", raising=False)
    assert build_script["profile_guided"]() is False


def build_steps(build_script, tmp_path, training_error=None):
    """The (compiler arguments, linker arguments) of each build a profile-guided run makes,
    its training succeeding or raising ``training_error``; and the warnings it gave."""
    from setuptools.dist import Distribution

    command = build_script["ParallelBuildExt"](Distribution())
    command.build_temp = str(tmp_path)
    (tmp_path / "stale.gcda").write_bytes(b"counts of an earlier build")
    steps, warnings = [], []
    command.build_with = lambda compile_args, link_args: steps.append((compile_args, link_args))
    command.train = mock.Mock(side_effect=training_error)
    command.warn = warnings.append
    with mock.patch("subprocess.run", side_effect=compiler_says(GCC, "12")):
        command.run()
    assert not (tmp_path / "stale.gcda").exists()  # a profile never mixes two builds' counts
    return steps, warnings


def test_a_profile_guided_build_builds_instrumented_trains_then_builds_for_the_profile(
    build_script, tmp_path, monkeypatch
):
    monkeypatch.delenv("ALFABETA_PGO", raising=False)
    steps, warnings = build_steps(build_script, tmp_path)
    generate, use = build_script["PROFILE_GENERATE"], build_script["PROFILE_USE"]
    assert steps == [(generate, generate), (use, [])]
    assert "-fprofile-generate" in generate and "-fprofile-use" in use
    assert warnings == []


def test_a_failed_training_warns_and_builds_without_a_profile(build_script, tmp_path, monkeypatch):
    monkeypatch.delenv("ALFABETA_PGO", raising=False)
    failure = build_script["TrainingFailed"]("exit 1: no module named numpy")
    steps, warnings = build_steps(build_script, tmp_path, failure)
    assert steps == [(build_script["PROFILE_GENERATE"], build_script["PROFILE_GENERATE"]), ([], [])]
    assert len(warnings) == 1 and "no module named numpy" in warnings[0]


def test_each_build_records_its_flags_for_the_doctor(build_script):
    record = build_script["with_record"]
    assert record(["-mpopcnt", "-fprofile-use"]) == [
        "-mpopcnt",
        "-fprofile-use",
        '-DALFABETA_BUILD_FLAGS="-mpopcnt -fprofile-use"',
    ]
    assert record([]) == ['-DALFABETA_BUILD_FLAGS=""']
