"""``alfabeta doctor``: what it reports, and each problem with its remedy."""

import sys
from types import SimpleNamespace

import pytest

from alfabeta import doctor
from alfabeta.cli import main
from alfabeta.plugins import hookimpl
from alfabeta.plugins.catalog import load_catalog


def broken_register(register):
    raise RuntimeError("the plugin's own bug")


BROKEN = SimpleNamespace(register_games=hookimpl(broken_register))


def test_a_healthy_installation_has_no_problem(capsys):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "compiled core  loaded (5 modules checked)" in out
    assert "compiled core  built " in out  # what setup.py recorded: the next test
    assert "plugin         games (alfabeta " in out and "chess, connect-four" in out
    for line in ("dependency     numpy", "dependency     pluggy", "extra          chess: chess"):
        assert line in out
    assert "stockfish" in out and out.rstrip().endswith("0 problems found")


@pytest.mark.parametrize(
    "flags, line",
    [
        (
            "-mpopcnt -mavx2 -mbmi -mbmi2 -fprofile-use -fprofile-correction",
            "built for popcnt, avx2, bmi, bmi2; profile-guided",
        ),
        ("-mpopcnt", "built for popcnt; without a profile (gcc 10 or later builds"),
        ("", "built portable; without a profile"),
        ("unknown", "built without setup.py's record of its flags"),
    ],
)
def test_doctor_tells_what_the_compiled_core_was_built_for(monkeypatch, catalog, flags, line):
    import alfabeta.core.position

    monkeypatch.setattr(alfabeta.core.position, "BUILD_FLAGS", flags)
    built = [f for f in doctor.diagnose(catalog) if f.text.startswith("built ")]
    assert len(built) == 1 and built[0].text.startswith(line) and built[0].remedy is None


def test_the_build_records_its_flags_in_the_compiled_core():
    from alfabeta.core.position import BUILD_FLAGS

    assert BUILD_FLAGS != "unknown"  # the package was built by setup.py
    assert all(flag.startswith(("-m", "-f")) for flag in BUILD_FLAGS.split())


def test_a_broken_plugin_is_a_problem_with_its_remedy(capsys):
    catalog = load_catalog(autoload=False, block=(), plugins=[("broken", BROKEN)])
    assert doctor.report(doctor.diagnose(catalog), sys.stdout) == 1
    out = capsys.readouterr().out
    assert "broken (" in out and "FAILED" in out and "the plugin's own bug" in out
    assert "ALFABETA_BLOCK=broken" in out and out.rstrip().endswith("1 problem found")


def test_a_missing_compiled_module_or_engine(monkeypatch, catalog):
    monkeypatch.setattr(doctor, "COMPILED", ("alfabeta.core.position", "alfabeta.no_such"))
    monkeypatch.setattr(doctor, "ENGINES", ("no-such-engine-here",))
    findings = doctor.diagnose(catalog)
    compiled = [f for f in findings if f.topic == "compiled core"]
    assert len(compiled) == 1 and "alfabeta.no_such did not load" in compiled[0].text
    assert "pip install --force-reinstall" in compiled[0].remedy
    engine = next(f for f in findings if f.topic == "engine")
    assert engine.text == "no-such-engine-here: not found"
    assert engine.remedy.startswith("optional")
    problems = [f for f in findings if f.remedy and not f.remedy.startswith("optional")]
    assert problems == compiled
