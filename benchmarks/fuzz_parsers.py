"""Coverage-guided fuzzing (atheris) of alfabeta's parsers and of the UCI engine, by hand:

    pip install atheris
    python benchmarks/fuzz_parsers.py fen -atheris_runs=200000
    python benchmarks/fuzz_parsers.py uci -max_total_time=300

Targets: fen, epd, kb (knowledge bases), spec, pgn, uci (lines fed to an in-process engine,
then stop and isready). The contract checked is the test suite's (tests/test_fuzz.py): a
typed alfabeta error or a valid object that round-trips; for the engine, only protocol on
its output, every isready answered, one legal bestmove per go. Anything else is a crash that
atheris reports with the input that caused it. libFuzzer's options (-runs, -max_total_time,
-dict, a corpus folder) follow the target name.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=["alfabeta"]):
    from alfabeta.core import AlfabetaError
    from alfabeta.games.chess.epd import parse_epd
    from alfabeta.games.chess.pgn import parse_pgn
    from alfabeta.games.deduction.kb import parse_knowledge_base
    from alfabeta.plugins.catalog import load_catalog
    from alfabeta.plugins.spec import format_spec, parse_spec
    from alfabeta.uci import Engine

CATALOG = load_catalog(autoload=False)
CHESS = CATALOG.game("chess")


def _rules(kb):
    """The clauses without their line numbers (a round trip renumbers them)."""
    return [(c.head, c.premises) for c in kb.clauses]


PROTOCOL = ("id", "option", "uciok", "readyok", "info", "bestmove")


def fen(text: str) -> None:
    try:
        position = CHESS.from_string(text)
    except AlfabetaError:
        return
    assert CHESS.from_string(position.to_string()).to_string() == position.to_string()


def epd(text: str) -> None:
    try:
        parse_epd(text, 1)
    except AlfabetaError:
        pass


def kb(text: str) -> None:
    try:
        base = parse_knowledge_base(text)
    except AlfabetaError:
        return
    assert _rules(parse_knowledge_base(str(base))) == _rules(base)


def spec(text: str) -> None:
    try:
        name, options = parse_spec(text)
    except AlfabetaError:
        return
    assert parse_spec(format_spec(name, options)) == (name, options)


def pgn(text: str) -> None:
    try:
        parse_pgn(text)
    except AlfabetaError:
        pass


def uci(text: str) -> None:
    lines: list[str] = []
    engine = Engine(write=lines.append, catalog=CATALOG)
    engine.options["Searcher"] = "alphabeta(iterative=on, tt=on)"
    engine.options["Evaluator"] = "material"
    commands = text.splitlines()[:12]
    for line in commands:
        engine.handle(line)
        if not engine.running:
            break
    engine.handle("stop")
    engine.handle("isready")
    engine.cmd_quit([])
    assert all(line.split()[0] in PROTOCOL for line in lines if line.strip()), lines
    assert lines.count("readyok") == 1 + sum(c.split()[:1] == ["isready"] for c in commands)


TARGETS = {"fen": fen, "epd": epd, "kb": kb, "spec": spec, "pgn": pgn, "uci": uci}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        raise SystemExit(f"usage: fuzz_parsers.py {{{','.join(TARGETS)}}} [libFuzzer options]")
    target = TARGETS[sys.argv[1]]

    def one_input(data: bytes) -> None:
        target(atheris.FuzzedDataProvider(data).ConsumeUnicodeNoSurrogates(4096))

    atheris.Setup([sys.argv[0], *sys.argv[2:]], one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
