"""Fuzzing in the test suite: random UCI sessions against the engine, and random or mutated
inputs against every parser. The invariants: the engine stays alive, answers every isready,
sends exactly one legal bestmove per go once stopped, and prints nothing but protocol; a
parser gives a typed error or a valid object that round-trips, never another exception."""

from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alfabeta import uci
from alfabeta.core import AlfabetaError
from alfabeta.games.chess.epd import parse_epd
from alfabeta.games.chess.pgn import parse_pgn
from alfabeta.games.deduction.kb import parse_knowledge_base
from alfabeta.plugins.spec import format_spec, parse_spec
from alfabeta.uci import Engine


def _rules(kb):
    """The clauses without their line numbers (a round trip renumbers them)."""
    return [(c.head, c.premises) for c in kb.clauses]


PROTOCOL = ("id", "option", "uciok", "readyok", "info", "bestmove")
FENS = [
    "startpos",
    "fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "fen 7k/5QQ1/8/8/8/8/8/K7 b - - 0 1",  # checkmated: no legal move
    "fen 8/8/8/4k3/8/8/3QK3/8 w - - 99999999999999999999 1",
    "fen rnbqkbnrp/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "fen garbage",
    "fen",
]
NUMBERS = st.one_of(
    st.integers(-10, 6).map(str),
    st.sampled_from(
        [
            "0",
            "-1",
            "nan",
            "inf",
            "-inf",
            "1e400",
            "abc",
            "2147483648",
            "99999999999999999999",
            "50",
            "1000",
        ]
    ),
)
GO_WORDS = ["depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate"]
go_command = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(GO_WORDS), NUMBERS).map(" ".join),
        st.sampled_from(["infinite", "ponder", "searchmoves e2e4 d2d4", "searchmoves zz", "bogus"]),
    ),
    max_size=4,
).map(lambda words: " ".join(["go", *words]))
command = st.one_of(
    st.just("isready"),
    st.just("uci"),
    st.just("ucinewgame"),
    st.just("stop"),
    st.just("ponderhit"),
    go_command,
    st.tuples(
        st.sampled_from(FENS),
        st.sampled_from(["", " moves e2e4", " moves e2e5", " moves e2e4 e7e5 g1f3"]),
    ).map(lambda parts: "position " + "".join(parts)),
    st.tuples(
        st.sampled_from(
            [
                "Hash",
                "Threads",
                "Move Overhead",
                "Searcher",
                "Evaluator",
                "OwnBook",
                "BookFile",
                "Nonsense",
            ]
        ),
        st.sampled_from(
            [
                "1",
                "64",
                "999999999",
                "x",
                "true",
                "mcts(iterations=50)",
                "nonsense(",
                "alphabeta(depth=2)",
                "material",
                "<empty>",
                "/no/file",
            ]
        ),
    ).map(lambda pair: f"setoption name {pair[0]} value {pair[1]}"),
    st.text(max_size=20),
)


class RecordingEngine(Engine):
    """Remembers the position each search ran on, to check the bestmoves against it."""

    def __init__(self, catalog):
        self.lines: list[str] = []
        self.searched: list = []
        super().__init__(write=self.lines.append, catalog=catalog)
        self.options["Searcher"] = "negascout(tt=on, iterative=on)"
        self.options["Evaluator"] = "material"

    def _search(self, position, limit, infinite, searchmoves):
        self.searched.append(position.copy())
        super()._search(position, limit, infinite, searchmoves)


def run_session(catalog, commands):
    """Run ``commands``; ``Threads`` stays at 1 (helper processes have tests of their own,
    and a fuzzed ``Threads 64`` would start 63 of them per session)."""
    with patch.object(uci, "THREADS", (1, 1)):
        return _run_session(catalog, commands)


def _run_session(catalog, commands):
    engine = RecordingEngine(catalog)
    engine.handled = []  # the commands before a "quit" (st.text can write one) ended the session
    for line in commands:
        engine.handle(line)
        engine.handled.append(line)
        if not engine.running:
            break
    engine.handle("stop")
    engine.handle("isready")
    engine.cmd_quit([])
    return engine


def check_session(engine):
    lines = engine.lines
    assert all(line.split()[0] in PROTOCOL for line in lines if line.strip()), lines
    asked = sum(1 for c in engine.handled if c.split()[:1] == ["isready"]) + 1
    assert lines.count("readyok") == asked
    best = [line.split()[1] for line in lines if line.startswith("bestmove")]
    assert len(best) == len(engine.searched)  # exactly one per go
    for move, position in zip(best, engine.searched, strict=True):
        legal = [position.move_str(m) for m in position.legal_moves()]
        assert move in legal if legal else move == "0000"


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(command, max_size=8))
def test_random_uci_sessions_keep_every_promise(catalog, commands):
    check_session(run_session(catalog, commands))


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(command, max_size=16))
def test_many_more_random_uci_sessions(catalog, commands):
    check_session(run_session(catalog, commands))


# ---- parsers ------------------------------------------------------------------------------
VALID_FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def mutations(seed: str):
    """Random edits of a valid input: characters replaced, inserted or deleted."""
    return st.lists(
        st.tuples(
            st.integers(0, len(seed)),
            st.sampled_from(["replace", "insert", "delete"]),
            st.sampled_from(list('pnbrqkPNBRQK12345678/ -wb0123456789KQkqxe;"#&->,')),
        ),
        min_size=1,
        max_size=4,
    ).map(lambda edits: _apply(seed, edits))


def _apply(text: str, edits) -> str:
    for index, kind, char in edits:
        index = min(index, len(text))
        if kind == "replace" and index < len(text):
            text = text[:index] + char + text[index + 1 :]
        elif kind == "insert":
            text = text[:index] + char + text[index:]
        elif index < len(text):
            text = text[:index] + text[index + 1 :]
    return text


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=90), mutations(VALID_FEN)))
def test_a_fen_parses_and_round_trips_or_is_a_typed_error(catalog, text):
    game = catalog.game("chess")
    try:
        position = game.from_string(text)
    except AlfabetaError:
        return
    again = game.from_string(position.to_string())
    assert again.to_string() == position.to_string()
    assert sorted(again.legal_moves()) == sorted(position.legal_moves())


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=90), mutations(VALID_FEN[:-4] + ' bm Qxh3; id "x";')))
def test_an_epd_line_parses_or_is_a_typed_error(text):
    try:
        record = parse_epd(text, 1)
    except AlfabetaError:
        return
    assert len(record.fen.split()) == 6


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), mutations("bs & mc -> pd\nbs & bp -> mc\n")))
def test_a_knowledge_base_parses_and_round_trips_or_is_a_typed_error(text):
    try:
        kb = parse_knowledge_base(text)
    except AlfabetaError:
        return
    assert _rules(parse_knowledge_base(str(kb))) == _rules(kb)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=40), mutations("negascout(tt=on, depth=6, name='x')")))
def test_a_spec_parses_and_round_trips_or_is_a_typed_error(text):
    try:
        name, options = parse_spec(text)
    except AlfabetaError:
        return
    assert parse_spec(format_spec(name, options)) == (name, options)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=80),
        mutations('[Event "x"]\n[Result "*"]\n\n1. e4 {c} e5 (1... c5) 2. Nf3 *\n'),
    )
)
def test_pgn_text_parses_or_is_a_typed_error(text):
    try:
        games = parse_pgn(text)
    except AlfabetaError:
        return
    assert all(isinstance(g.moves, tuple) for g in games)
