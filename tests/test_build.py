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
