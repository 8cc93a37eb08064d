"""The ``alfabeta`` command.

Exit status: 0 when the command did its job (a game played to its end, a listing printed, a
goal proved or refuted);
2 for bad input (an unknown or malformed game/searcher/evaluator, a bad option, an illegal
start position); 3 when a human abandoned a game; 130 when a match or tournament was
interrupted (every finished game is kept); 1 for an unexpected internal error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence
from itertools import chain
from typing import IO, TYPE_CHECKING, Any, NoReturn

from attrs import evolve

from alfabeta.arena.play import GameAbandoned, HumanPlayer, SearchPlayer, play_game
from alfabeta.arena.runner import RunInterrupted, sigterm_as_interrupt
from alfabeta.console import LiveTable, print_table, wants_plain
from alfabeta.core import (
    AlfabetaError,
    InvalidOptionError,
    KnowledgeBaseError,
    Limit,
    SearchResult,
)
from alfabeta.plugins.catalog import Catalog, load_catalog
from alfabeta.plugins.spec import split_specs

if TYPE_CHECKING:
    from alfabeta.core import Position

EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT, EXIT_ABANDONED = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report a SIGINT


DESCRIPTION = """\
alfabeta plays, searches and measures two-player games: chess (with a UCI engine), Connect
Four, TRGD, Fibonacci nim, tic-tac-toe, explicit game trees, Horn-clause deduction, and any
game a plugin adds. Games, searchers and evaluators are named as specs, e.g.
"negascout(tt=on, depth=6)"; `alfabeta plugins` lists them."""

EPILOG = """\
exit status:
  0    the command did its job
  1    an internal error, or an error in a plugin's code (--debug shows the traceback)
  2    bad input: an unknown name, a bad option, an illegal position or move, a bad file
  3    a human player quit
  130  interrupted (Ctrl-C); a match or tournament keeps every finished game"""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.ArgumentDefaultsHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"alfabeta: error: {message}\n")


class _TopFormatter(argparse.RawDescriptionHelpFormatter):
    pass


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every ``alfabeta`` command."""
    from alfabeta import __version__

    parser = _Parser(
        prog="alfabeta", description=DESCRIPTION, epilog=EPILOG, formatter_class=_TopFormatter
    )
    parser.add_argument("--version", action="version", version=f"alfabeta {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="show the traceback of an unexpected error"
    )
    commands = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar="COMMAND"
    )

    plugins = commands.add_parser("plugins", help="list games, searchers and evaluators")
    plugins.add_argument("--kind", choices=("game", "searcher", "evaluator"), help="only this kind")
    plugins.add_argument("--plain", action="store_true", help="plain text")

    play = commands.add_parser("play", help="play a game between two players")
    play.add_argument("game", help='game spec, e.g. "fibonacci-nim(n=21)"')
    play.add_argument(
        "--first", default="engine", help='searcher spec, "human" or "engine" (the default)'
    )
    play.add_argument(
        "--second", default="engine", help='searcher spec, "human" or "engine" (the default)'
    )
    play.add_argument(
        "--evaluator", help="evaluator spec for both (default: the game's playing evaluator)"
    )
    play.add_argument("--first-evaluator", help="evaluator spec for the first player")
    play.add_argument("--second-evaluator", help="evaluator spec for the second player")
    play.add_argument("--depth", type=int, help="depth limit per move")
    play.add_argument("--nodes", type=int, help="node limit per move")
    play.add_argument("--time", type=float, help="seconds per move")
    play.add_argument("--start", help="start position in the game's notation")
    play.add_argument(
        "--book", help="Polyglot opening book (chess) for every searcher that takes a book"
    )
    play.add_argument("--max-plies", type=int, help="adjudicate a draw after this many plies")
    play.add_argument("--quiet", action="store_true", help="print only the result")

    bench = commands.add_parser("bench", help="benchmark searchers on a game's positions")
    bench.add_argument("game", help='game spec, e.g. "connect-four"')
    bench.add_argument(
        "--searchers",
        default="alphabeta",
        help='comma-separated searcher specs, e.g. "alphabeta,negascout(tt=on)"',
    )
    bench.add_argument("--depth", default="4", help="a depth (6) or a range (2-8)")
    bench.add_argument("--evaluator", help="evaluator spec (default: the game's)")
    bench.add_argument(
        "--position",
        action="append",
        help="a position to use instead of the game's bench set (repeatable)",
    )
    bench.add_argument(
        "--min-time",
        type=float,
        default=0.2,
        help="repeat a search until this many seconds, report the median",
    )
    bench.add_argument("--json", metavar="FILE", help="write JSON Lines records")
    bench.add_argument("--plot", metavar="FILE", help="draw nodes against depth (PNG)")
    bench.add_argument(
        "--signature", action="store_true", help="print only each searcher's total node count"
    )
    bench.add_argument("--plain", action="store_true", help="plain text table")

    commands.add_parser("uci", help="run as a UCI chess engine on stdin/stdout")

    serve = commands.add_parser(
        "serve", help="a local web page: play, watch runs, see the search (alfabeta[web])"
    )
    serve.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", help="a results database to watch (match/tournament --db)")
    serve.add_argument(
        "--allow-remote", action="store_true", help="serve on an address other than loopback"
    )

    match = commands.add_parser(
        "match",
        help="play a match of colour-swapped pairs between two players",
        description="Play A against B in colour-swapped pairs and report the score, Elo ± 95%% "
        "CI, LOS, pentanomial counts and (with --sprt) the SPRT. A player is a searcher spec, "
        "human, or uci(command=..., Option=value); name=SPEC names it. Options taking "
        "[N:]VALUE apply to every player, or with N: to the N-th player only.",
    )
    match.add_argument("game", help='game spec, e.g. "connect-four"')
    match.add_argument("first", metavar="A", help="first player")
    match.add_argument("second", metavar="B", help="second player")
    match.add_argument(
        "--games",
        type=int,
        default=2,
        help="games to play (default 2, in pairs; with --sprt the most to play)",
    )
    match.add_argument("--sprt", help='stop when decided: "elo0=0 elo1=10 alpha=0.05 beta=0.05"')
    _arena_options(match)

    tournament = commands.add_parser(
        "tournament",
        help="round robin or gauntlet between several players",
        description="Every two players play --rounds colour-swapped pairs (round robin), or "
        "the first player plays each other (--gauntlet); prints a crosstable with Elo ± CI.",
    )
    tournament.add_argument("game", help='game spec, e.g. "connect-four"')
    tournament.add_argument("players", nargs="+", help="two or more players")
    tournament.add_argument("--rounds", type=int, default=1, help="pairs per encounter (default 1)")
    tournament.add_argument(
        "--gauntlet",
        action="store_true",
        help="the first player against each other, instead of everyone against everyone",
    )
    _arena_options(tournament)

    spsa = commands.add_parser(
        "spsa",
        help="tune a player's numeric options by games (SPSA)",
        description="Tune the {name} fields of a player's spec by SPSA: colour-swapped pairs "
        "between the spec with every parameter moved up or down at once (plus, minus), each "
        "pair's result moving the values towards the side that won. Prints the values to play "
        "and the spec with them.",
    )
    spsa.add_argument("game", help='game spec, e.g. "chess"')
    spsa.add_argument(
        "player", help='a spec with a {name} field per parameter, e.g. "alphabeta(depth={depth})"'
    )
    spsa.add_argument(
        "--param",
        action="append",
        required=True,
        metavar="NAME,START,LOW,HIGH,STEP[,RATE]",
        help="a parameter: its start, bounds, perturbation at the end of the run (c_end) "
        "and learning rate there (r_end, default 0.002); repeatable",
    )
    spsa.add_argument("--pairs", type=int, default=100, help="pairs of games (default 100)")
    spsa.add_argument(
        "--batch", type=int, default=1, help="pairs played on the same values (default 1)"
    )
    _arena_options(spsa)

    results = commands.add_parser("results", help="show the runs kept in a results database")
    results.add_argument("db", help="a results database written with --db")
    results.add_argument("--run", type=int, help="only this run (default: every run)")
    results.add_argument("--csv", metavar="FILE", help="write the games as CSV")
    results.add_argument(
        "--plot", metavar="FILE", help="draw Elo ± CI per player, or an SPSA run's values (PNG)"
    )
    results.add_argument("--plain", action="store_true", help="plain text tables")

    epd = commands.add_parser("epd", help="solve an EPD test suite (bm/am)")
    epd.add_argument("file", help="an EPD file")
    epd.add_argument(
        "--searcher", help="searcher spec (default: the chess engine's play configuration)"
    )
    epd.add_argument(
        "--evaluator", help="evaluator spec (default: the chess engine's play evaluator)"
    )
    epd.add_argument("--depth", type=int, help="depth limit per position")
    epd.add_argument("--nodes", type=int, help="node limit per position")
    epd.add_argument("--time", type=float, help="seconds per position")
    epd.add_argument("--plain", action="store_true", help="plain text table")

    tune = commands.add_parser(
        "tune", help="fit the tuned chess evaluator's weights to game results (Texel)"
    )
    tune.add_argument(
        "--games", action="append", default=[], metavar="DB", help="an arena results database"
    )
    tune.add_argument(
        "--pgn", action="append", default=[], metavar="FILE", help="a PGN file of finished games"
    )
    tune.add_argument(
        "--positions", action="append", default=[], metavar="EPD", help="FENs with results"
    )
    tune.add_argument("--out", required=True, metavar="FILE", help="the weights file to write")
    tune.add_argument(
        "--start", default="prior", help='weights to start from: "prior", "shipped" or a FILE'
    )
    tune.add_argument("--epochs", type=int, default=1000, help="full-batch Adam steps")
    tune.add_argument("--rate", type=float, default=1.0, help="Adam step size (points)")
    tune.add_argument(
        "--l2", type=float, default=0.0, help="pull towards the start weights (small data sets)"
    )
    tune.add_argument(
        "--fixed",
        action="append",
        default=[],
        metavar="GROUP",
        help="keep a feature group's weights at their start: material, table (the "
        "piece-square cells), passed, mobility, mop-up",
    )
    tune.add_argument(
        "--holdout",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="keep SHARE of the positions out of the fit, as evenly spread runs of whole games, "
        "and report their loss before and after",
    )
    tune.add_argument(
        "--data", metavar="FILE", help="also write the positions as EPD (.gz: compressed)"
    )
    tune.add_argument(
        "--sample",
        type=float,
        metavar="SHARE",
        help="keep each distinct position once (the mean of its results), and only a SHARE of "
        "them, chosen by a hash of the position",
    )
    tune.add_argument(
        "--label-depth",
        type=int,
        metavar="D",
        help="score every position by the engine's default search to depth D (written as ce "
        "with --data)",
    )
    tune.add_argument(
        "--label-engine",
        metavar="COMMAND",
        help="score with this UCI engine (e.g. stockfish) to --label-depth instead of "
        "alfabeta's own search",
    )
    tune.add_argument(
        "--concurrency", type=int, default=1, help="processes for --label-depth's searches"
    )
    tune.add_argument(
        "--labels",
        metavar="FILE",
        help="keep --label-depth's scores in FILE as they are found: a run stopped by Ctrl-C "
        "or a kill keeps them, and the same command with the same FILE searches only the rest",
    )
    tune.add_argument(
        "--blend",
        type=float,
        default=1.0,
        metavar="SHARE",
        help="fit to SHARE × the result + (1 − SHARE) × the search score's expected result "
        "(1: results only; below 1 needs --label-depth or positions with ce)",
    )
    tune.add_argument(
        "--net-blend",
        type=float,
        metavar="SHARE",
        help="--net's own --blend: the network fitted to SHARE × the result + (1 − SHARE) × "
        "the search score's expected result (default: --blend's)",
    )
    tune.add_argument(
        "--net",
        type=int,
        default=0,
        metavar="H",
        help="then fit a residual network of H hidden units (1 to 256) over the pieces' "
        "squares to what the linear weights miss",
    )
    tune.add_argument(
        "--net-epochs", type=int, default=10, metavar="N", help="--net's passes over the data"
    )
    tune.add_argument(
        "--net-decay",
        type=float,
        default=0.01,
        metavar="SHARE",
        help="--net's weight decay: the share of every input weight taken off at each step "
        "(0: none; more keeps the network from learning the fitted games rather than chess)",
    )
    tune.add_argument(
        "--net-buckets",
        type=int,
        default=1,
        metavar="B",
        help="--net's sets of output weights (1 to 8), chosen by the number of pieces on the "
        "board: (pieces − 1) × B // 32",
    )
    tune.add_argument(
        "--net-king-buckets",
        type=int,
        default=1,
        metavar="K",
        help="--net's sets of input rows for each side's view (1, 2 or 4), chosen by the "
        "square of that side's king: 2 by its wing (files a–d, e–h), 4 also by whether it "
        "stands on its first two ranks",
    )
    tune.add_argument(
        "--net-attacks",
        action="store_true",
        help="--net also reads each side's attack on the other's king (the zone squares its "
        "pawns, knights, bishops, rooks and queens attack, its attackers, its kinds of safe "
        "check, the zone's weak squares) beside the pieces",
    )
    tune.add_argument(
        "--net-activation",
        default="crelu",
        help="--net's activation: each hidden unit's sum clipped to [0, 1] (crelu), or clipped "
        "and squared (screlu)",
    )
    tune.add_argument(
        "--net-positions",
        action="append",
        default=[],
        metavar="EPD",
        help="more positions (EPD with results, and ce below --blend 1) that only --net is "
        "fitted on, beside the others",
    )
    tune.add_argument("--plot", metavar="FILE", help="draw the loss by epoch (PNG)")

    perft = commands.add_parser("perft", help="count move paths (chess by default)")
    perft.add_argument("fen", help='a FEN, or "startpos"')
    perft.add_argument("depth", type=int, help="plies")
    perft.add_argument("--game", default="chess", help="game spec (default chess)")
    perft.add_argument("--divide", action="store_true", help="counts below each legal move")
    perft.add_argument(
        "--bulk",
        action="store_true",
        help="count the last ply's moves instead of making every leaf",
    )

    explain = commands.add_parser(
        "explain", help="show an evaluator's terms on a position (and the emotion behind them)"
    )
    explain.add_argument(
        "position", help='a position in the game\'s notation (chess: a FEN or "startpos")'
    )
    explain.add_argument("--game", default="chess", help="game spec")
    explain.add_argument("--evaluator", help="evaluator spec (default: the game's)")
    explain.add_argument(
        "--dual",
        action="store_true",
        help="also search with the plain and the given evaluation and show both (dual-eval)",
    )
    explain.add_argument("--searcher", help="the dual search's searcher spec")
    explain.add_argument("--depth", type=int, help="depth limit of the dual search")
    explain.add_argument("--nodes", type=int, help="node limit of the dual search")
    explain.add_argument("--time", type=float, help="seconds for the dual search")
    explain.add_argument(
        "--log", metavar="FILE", help="with --dual: one JSON line per node searched (needs --depth)"
    )
    explain.add_argument("--json", action="store_true", help="print JSON instead of tables")
    explain.add_argument("--plain", action="store_true", help="plain text tables")

    solve = commands.add_parser(
        "solve", help="prove a position won, lost or drawn (retrograde analysis or df-pn)"
    )
    solve.add_argument("game", help='game spec, e.g. "connect-four(width=5, height=4)"')
    solve.add_argument(
        "position", nargs="?", help="a position in the game's notation (default: the start)"
    )
    solve.add_argument(
        "--method",
        choices=("auto", "retrograde", "pn"),
        default="auto",
        help="retrograde where the game's states can be enumerated, else proof-number search",
    )
    solve.add_argument("--mate", type=int, metavar="N", help="chess: look for a mate in N")
    solve.add_argument("--nodes", type=int, default=0, help="node budget of each df-pn search")
    solve.add_argument("--time", type=float, default=0.0, help="seconds for each df-pn search")
    solve.add_argument(
        "--max-states", type=int, default=50_000_000, help="the most states to enumerate"
    )
    solve.add_argument("--table", metavar="FILE", help="keep the retrograde table (FILE.npz/.json)")
    solve.add_argument("--tree", action="store_true", help="print df-pn's strategy tree")
    solve.add_argument("--json", action="store_true", help="print JSON")

    fcm = commands.add_parser("fcm", help="run the emotional evaluator's fuzzy cognitive map")
    fcm.add_argument(
        "--input",
        default="0,0,0,0,-1,-1,0",
        help="the initial state: Des,Aliv,Exc,BM,Mov,SegR,IndROp, each in [-1, 1]",
    )
    fcm.add_argument("--matrix", choices=("printed", "table5"), default="printed", help="matrix E")
    fcm.add_argument(
        "--tolerance", type=float, default=1e-6, help="stop when no concept moves by this"
    )
    fcm.add_argument("--max-updates", type=int, default=100, help="update cap")
    fcm.add_argument("--plot", metavar="FILE", help="draw each concept over the updates (PNG)")
    fcm.add_argument("--json", action="store_true", help="print JSON instead of a table")
    fcm.add_argument("--plain", action="store_true", help="plain text table")

    new = commands.add_parser("new", help="write a plugin package: a game, evaluator or searcher")
    new.add_argument("kind", choices=("game", "evaluator", "searcher"))
    new.add_argument("name", help="the plugin's name, e.g. my-game")
    new.add_argument("--cython", action="store_true", help="a compiled game (Cython)")
    new.add_argument("--dir", default=".", help="where to write alfabeta-NAME/")

    commands.add_parser(
        "doctor", help="versions, compiled core, plugins, extras and engines, with remedies"
    )

    from alfabeta.learning import command as bayeschess

    bayeschess.add_parser(commands)

    prove = commands.add_parser("prove", help="prove a goal from Horn clauses and data")
    prove.add_argument("kb", help="knowledge base file: one clause 'a & b -> c' per line")
    prove.add_argument("--data", default="", help="the data (facts), e.g. bs,bp")
    prove.add_argument("--goal", required=True, help="the atom to prove")
    prove.add_argument(
        "--searcher",
        help="play the deductive game with this searcher instead of the thesis's α-β deduction",
    )
    prove.add_argument("--evaluator", help="evaluator for --searcher (default deduction-h)")
    prove.add_argument(
        "--lang",
        choices=("en", "es"),
        default="en",
        help="language of the thesis's trace (es: its own wording)",
    )
    prove.add_argument("--tree", action="store_true", help="draw the proof tree")
    prove.add_argument(
        "--smallest",
        action="store_true",
        help="also print the proof with the fewest rule applications",
    )
    return parser


def _arena_options(parser: argparse.ArgumentParser) -> None:
    each = "; N: for the N-th player only (repeatable)"
    parser.add_argument(
        "--evaluator",
        action="append",
        metavar="[N:]SPEC",
        help="evaluator (default: the game's)" + each,
    )
    parser.add_argument(
        "--tc",
        action="append",
        metavar="[N:]TC",
        help="time control: 10+0.1, 40/60 or 40/60+0.5" + each,
    )
    parser.add_argument("--depth", action="append", metavar="[N:]D", help="depth per move" + each)
    parser.add_argument("--nodes", action="append", metavar="[N:]N", help="nodes per move" + each)
    parser.add_argument(
        "--movetime", action="append", metavar="[N:]S", help="seconds per move" + each
    )
    parser.add_argument(
        "--margin",
        action="append",
        metavar="[N:]S",
        help="seconds a move may overrun the clock (default 0.1)" + each,
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the openings (default 0)")
    parser.add_argument(
        "--openings",
        metavar="FILE",
        help="opening suite: EPD or PGN for chess, one position per line for any game",
    )
    parser.add_argument(
        "--openings-order",
        choices=("sequential", "random"),
        default="sequential",
        help="how pairs take suite openings",
    )
    parser.add_argument(
        "--random-plies",
        type=int,
        default=0,
        metavar="K",
        help="K seeded random plies per opening (default 0)",
    )
    parser.add_argument(
        "--resign",
        metavar='"movecount=3 score=600"',
        help="adjudicate a loss on the players' own scores",
    )
    parser.add_argument(
        "--draw",
        metavar='"movenumber=34 movecount=8 score=20"',
        help="adjudicate a draw on the players' own scores",
    )
    parser.add_argument("--max-plies", type=int, help="adjudicate a draw after this many plies")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="games at once in the local process pool (default 1)",
    )
    parser.add_argument(
        "--executor", help="local (default), dask://HOST:PORT, dask-local:N or serial"
    )
    parser.add_argument("--db", metavar="FILE", help="record runs and games in this SQLite file")
    parser.add_argument("--jsonl", metavar="FILE", help="append each game as JSON Lines")
    parser.add_argument("--pgn", metavar="FILE", help="append each game as PGN (chess)")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the matching run in --db up to the games (or rounds) asked for",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--plain", action="store_true", help="plain text tables")


def _per_player(values: list[str] | None, count: int, flag: str, convert: Any) -> list:
    """Each player's value of a ``[N:]VALUE`` option: later words override earlier ones."""
    import re

    chosen: list = [None] * count
    for text in values or ():
        match = re.match(r"\s*(\d+):(.*)\Z", text, re.S)
        targets: Sequence[int] = range(count)
        if match:
            number = int(match.group(1))
            if not 1 <= number <= count:
                raise InvalidOptionError(
                    f"{flag} {text!r}: there is no player {number} (players 1 to {count})"
                )
            targets, text = [number - 1], match.group(2)
        try:
            value = convert(text.strip())
        except AlfabetaError:
            raise
        except ValueError:
            raise InvalidOptionError(f"{flag} {text!r}: not a valid value") from None
        for i in targets:
            chosen[i] = value
    return chosen


def _arena_players(texts: list[str], args: argparse.Namespace) -> list:
    from alfabeta.arena import Player, TimeControl

    count = len(texts)
    settings = {
        "evaluator": _per_player(args.evaluator, count, "--evaluator", str),
        "tc": _per_player(args.tc, count, "--tc", TimeControl.parse),
        "depth": _per_player(args.depth, count, "--depth", int),
        "nodes": _per_player(args.nodes, count, "--nodes", int),
        "movetime": _per_player(args.movetime, count, "--movetime", float),
        "margin": _per_player(args.margin, count, "--margin", float),
    }
    players = []
    for i, text in enumerate(texts):
        mine = {key: values[i] for key, values in settings.items() if values[i] is not None}
        players.append(Player(text, **mine))
    return players


def _arena_settings(args: argparse.Namespace) -> dict:
    from alfabeta.arena import Adjudication, DrawRule, ResignRule

    if args.max_plies is not None and args.max_plies < 1:
        raise InvalidOptionError("--max-plies must be >= 1")
    return {
        "seed": args.seed,
        "openings": args.openings,
        "openings_order": args.openings_order,
        "random_plies": args.random_plies,
        "adjudication": Adjudication(
            ResignRule.parse(args.resign) if args.resign else None,
            DrawRule.parse(args.draw) if args.draw else None,
            args.max_plies,
        ),
        "executor": args.executor,
        "concurrency": args.concurrency,
    }


def _run_arena(run: Any, args: argparse.Namespace, out: IO[str]) -> Any:
    from alfabeta.arena.progress import RunProgress

    progress = RunProgress(enabled=False if args.quiet else None)
    return run.run(
        db=args.db, jsonl=args.jsonl, pgn=args.pgn, resume=args.resume, progress=progress
    )


def _terminations(games: Any) -> str:
    counts: dict[str, int] = {}
    for g in games:
        counts[g.termination] = counts.get(g.termination, 0) + 1
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items()))


def cmd_match(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta match``: two players in colour-swapped pairs, with Elo, LOS and an
    optional SPRT."""
    from alfabeta.arena import SPRT, Match

    first, second = _arena_players([args.first, args.second], args)
    match = Match(
        args.game,
        first,
        second,
        games=args.games,
        sprt=SPRT.parse(args.sprt) if args.sprt else None,
        **_arena_settings(args),
    )
    result = _run_arena(match, args, out)
    for line in result.summary():
        print(line, file=out)
    if result.games:
        print(f"Terminations: {_terminations(result.games)}", file=out)
    if result.status == "decided":
        print(
            f"Stopped after {len(result.games)} of {args.games} games: the SPRT decided", file=out
        )
    return EXIT_OK


def cmd_tournament(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta tournament``: a round robin or gauntlet with its crosstable."""
    from alfabeta.arena import Tournament
    from alfabeta.arena.progress import print_crosstable

    players = _arena_players(args.players, args)
    tournament = Tournament(
        args.game, players, rounds=args.rounds, gauntlet=args.gauntlet, **_arena_settings(args)
    )
    result = _run_arena(tournament, args, out)
    print_crosstable(result, out, plain=True if args.plain else None)
    print(f"{len(result.games)} games; terminations: {_terminations(result.games)}", file=out)
    return EXIT_OK


def cmd_spsa(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta spsa``: a player's options tuned by SPSA over pairs of games."""
    from alfabeta.arena.spsa import Parameter, Tuning

    (player,) = _arena_players([args.player], args)
    tuning = Tuning(
        args.game,
        player,
        [Parameter.parse(text) for text in args.param],
        pairs=args.pairs,
        batch=args.batch,
        **_arena_settings(args),
    )
    result = _run_arena(tuning, args, out)
    for line in result.summary():
        print(line, file=out)
    print(f"Tuned: {tuning.side(result.values(), 'tuned').spec}", file=out)
    return EXIT_OK


def cmd_results(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta results``: the runs of a database, or one run's table."""
    from alfabeta.arena.match import MatchResult, TournamentResult
    from alfabeta.arena.progress import print_crosstable
    from alfabeta.arena.rating import SPRT
    from alfabeta.arena.records import open_existing, write_csv
    from alfabeta.arena.spsa import TuningResult

    db = open_existing(args.db)
    try:
        runs = [db.run(args.run)] if args.run is not None else db.runs()
        if not runs:
            print(f"{args.db}: no runs", file=out)
        plotted = []
        for info in runs:
            games = db.games(info.id)
            names = [p["name"] for p in info.config["players"]]
            print(
                f"run {info.id}: {info.kind} of {info.config['game']}, {len(games)}/"
                f"{info.requested} games, {info.status}, started {info.created}",
                file=out,
            )
            if info.kind == "spsa":
                tuning = TuningResult.from_config(info.config, games, info.status)
                for line in tuning.summary():
                    print(f"  {line}", file=out)
                if args.plot:
                    path = args.plot if len(runs) == 1 else _numbered(args.plot, info.id)
                    _plot_thetas(tuning, path, f"{args.db}, run {info.id}")
            elif info.kind == "match":
                sprt = SPRT(*info.config["sprt"]) if info.config.get("sprt") else None
                result = MatchResult((names[0], names[1]), games, sprt, info.status)
                for line in result.summary():
                    print(f"  {line}", file=out)
                plotted.append((f"{names[0]} vs {names[1]}", result.elo()))
            else:
                table = TournamentResult(names, games, info.status)
                print_crosstable(table, out, plain=True if args.plain else None)
                plotted += [(s.name, s.elo) for s in table.standings()]
            if args.csv:
                write_csv(args.csv if len(runs) == 1 else _numbered(args.csv, info.id), games)
        if args.plot and plotted:
            _plot_elo(plotted, args.plot, args.db)
    finally:
        db.close()
    return EXIT_OK


def _numbered(path: str, run_id: int) -> str:
    from pathlib import Path

    p = Path(path)
    return str(p.with_name(f"{p.stem}-run{run_id}{p.suffix}"))


def _plot_elo(rows: Any, path: str, title: str) -> None:
    import math

    from alfabeta.plotting import pyplot

    plt = pyplot()
    shown = [(n, e) for n, e in rows if math.isfinite(e.elo)]
    figure, axes = plt.subplots(figsize=(7, 0.5 * len(shown) + 1.5))
    for y, (_, elo) in enumerate(shown):
        low = elo.elo - elo.lower if math.isfinite(elo.lower) else 0
        high = elo.upper - elo.elo if math.isfinite(elo.upper) else 0
        axes.errorbar([elo.elo], [y], xerr=[[low], [high]], fmt="o", capsize=4)
    axes.set_yticks(range(len(shown)), [n for n, _ in shown])
    axes.axvline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("Elo (95% CI)")
    axes.set_title(title)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _plot_thetas(tuning: Any, path: str, title: str) -> None:
    """An SPSA run's θ after each step, a panel per parameter with its start marked."""
    from alfabeta.plotting import pyplot

    plt = pyplot()
    parameters = tuning.schedule.parameters
    thetas = tuning.thetas()
    figure, panels = plt.subplots(
        len(parameters), 1, figsize=(7, 1.8 * len(parameters) + 0.8), sharex=True, squeeze=False
    )
    for i, (parameter, axes) in enumerate(zip(parameters, panels[:, 0], strict=True)):
        axes.plot(range(len(thetas)), [theta[i] for theta in thetas])
        axes.axhline(parameter.start, color="grey", linewidth=0.8)
        axes.set_ylabel(parameter.name)
    panels[-1, 0].set_xlabel("step (a batch of pairs)")
    panels[0, 0].set_title(title)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


ENGINE_SEARCHER = "negascout(tt=on, iterative=on, killers=on, history=on)"
"""The ``engine`` player of a game that names no ``play_searcher``."""
ENGINE_SECONDS = 1.0
"""Seconds a move for the ``engine`` player when ``play`` is given no limit."""


def _player(
    catalog: Catalog,
    spec: str,
    evaluator_spec: str | None,
    position: Position,
    limit: Limit,
    book: Callable | None = None,
) -> Any:
    """A player from its spec: ``human``, ``engine`` (the game's strongest searcher,
    ``play_searcher``, with ``ENGINE_SECONDS`` a move unless a limit is given) or a searcher.
    Without an evaluator spec a searcher plays the game's ``play_evaluator`` (its strongest)
    or its default evaluator."""
    if spec.strip() == "human":
        return HumanPlayer()
    if spec.strip() == "engine":
        spec = getattr(position, "play_searcher", ENGINE_SEARCHER)
        if limit.depth is None and limit.nodes is None and limit.time is None:
            limit = Limit(time=ENGINE_SECONDS)
    searcher = catalog.searcher(spec)
    if book is not None and hasattr(searcher, "book"):
        searcher = evolve(searcher, book=book)
    evaluator = (
        catalog.evaluator(evaluator_spec, position)
        if evaluator_spec
        else catalog.playing_evaluator(position)
    )
    return SearchPlayer(searcher, evaluator, limit)


def _describe(result: SearchResult | None) -> str:
    if result is None:
        return ""
    rate = result.nodes / result.elapsed if result.elapsed > 0 else 0.0
    return (
        f"  value {result.value}  depth {result.depth}  nodes {result.nodes}  "
        f"leaves {result.leaves}  {result.elapsed:.3f}s  {rate:,.0f} nodes/s"
    )


def cmd_plugins(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta plugins``: the registered games, searchers and evaluators with their origin."""
    kinds = [
        ("game", catalog.games),
        ("searcher", catalog.searchers),
        ("evaluator", catalog.evaluators),
    ]
    plain = wants_plain(out, args.plain)
    for kind, registry in kinds:
        if args.kind and args.kind != kind:
            continue
        rows = []
        for entry in registry:
            info = catalog.plugin_info(entry.origin)
            origin = f"{info.distribution} {info.version}".strip() if info else entry.origin
            aliases = f" (alias {', '.join(entry.aliases)})" if entry.aliases else ""
            games = f" [for {', '.join(entry.games)}]" if entry.games else ""
            rows.append((entry.name, origin, f"{entry.description}{aliases}{games}"))
        if not plain:
            print_table(["name", "from", "description"], rows, out, f"{kind}s", False, left=3)
            continue
        print(f"{kind}s:", file=out)
        for name, origin, description in rows:
            print(f"  {name:<18} {origin:<16} {description}", file=out)
    if catalog.blocked:
        print(f"blocked: {', '.join(catalog.blocked)}", file=out)
    for failure in catalog.failures:
        print(f"failed: {failure}", file=out)
    return EXIT_OK


def _polyglot_book(path: str, position: Position) -> Callable:
    """The Polyglot book at ``path``, for a chess game only (its keys are chess positions)."""
    from alfabeta.games.chess.polyglot import PolyglotBook

    if position.name != "chess":
        raise InvalidOptionError(f"--book: a Polyglot book is for chess, not {position.name}")
    return PolyglotBook(path)


def cmd_play(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta play``: one game between two players (searchers or a human)."""
    position = catalog.game(args.game)
    if args.start is not None:
        if not args.start.strip():
            raise InvalidOptionError("--start is empty: give a position in the game's notation")
        position = position.from_string(args.start)
    limit = Limit(depth=args.depth, nodes=args.nodes, time=args.time)
    book = _polyglot_book(args.book, position) if args.book else None
    players = [
        _player(catalog, args.first, args.first_evaluator or args.evaluator, position, limit, book),
        _player(
            catalog, args.second, args.second_evaluator or args.evaluator, position, limit, book
        ),
    ]
    if not args.quiet:
        print(f"{position.name}: {players[0].label} vs {players[1].label}", file=out)
        if not any(isinstance(p, HumanPlayer) for p in players):  # a human is shown it anyway
            print(str(position), file=out)

    def on_move(game: Any, move: Any, result: Any, text: str) -> None:
        if not args.quiet:
            ply = len(game.move_stack)
            mover = game.side_to_move ^ 1
            print(f"{ply:>3}. player {mover + 1}: {text}{_describe(result)}", file=out)

    record = play_game(
        position, players, notify=catalog.notify, max_plies=args.max_plies, on_move=on_move
    )
    if not args.quiet:
        final = position.from_string(record.start)
        for move in record.moves:
            final.push(move)
        print(str(final), file=out)
    print(f"moves: {' '.join(record.notation)}", file=out)
    print(f"result: {record.outcome}", file=out)
    return EXIT_OK


def cmd_prove(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta prove``: a Horn-clause proof by the thesis's program, or by a searcher over the
    deduction game."""
    from alfabeta.games.deduction import proof as proofs
    from alfabeta.games.deduction.kb import parse_atoms, read_knowledge_base

    kb = read_knowledge_base(args.kb)
    data = parse_atoms(args.data, "--data")
    goal = parse_atoms([args.goal], "--goal")[0] if args.goal.strip() else ""
    if not goal:
        raise KnowledgeBaseError("--goal is empty: name the atom to prove")
    rules = kb.for_data(data)
    if args.searcher:
        proof = _prove_by_search(catalog, args, data, goal, out)
    else:
        proof = _prove_by_thesis(rules, data, goal, args.lang, out)
    if args.tree and proof is not None:
        for line in proofs.render_tree(proof):
            print(line, file=out)
    if args.smallest:
        smallest = proofs.smallest_proof(rules, data, goal)
        if smallest is not None:
            print(f"smallest proof: {smallest.rule_applications()} rule applications", file=out)
            for line in proofs.render_tree(smallest):
                print(f"  {line}", file=out)
    if proof is None:
        blocking = rules.blocking_atoms(data, goal)
        print(f"blocked by: {', '.join(blocking) or '(nothing: the goal follows)'}", file=out)
    return EXIT_OK


def _print_proof(goal: str, data: Sequence[str], proof: Any, out: IO[str]) -> None:
    from alfabeta.games.deduction import proof as proofs

    print(f"proved {goal} from {', '.join(data) or 'no data'}:", file=out)
    for line in proofs.render_steps(proof):
        print(f"  {line}", file=out)


def _prove_by_search(
    catalog: Catalog, args: argparse.Namespace, data: Sequence[str], goal: str, out: IO[str]
) -> Any:
    """The proof a searcher finds over the deduction game (None, with the failing line)."""
    from alfabeta.games.deduction import proof as proofs

    position = catalog.game(f"deduction(file={args.kb!r}, data={','.join(data)!r}, goal={goal!r})")
    evaluator = catalog.evaluator(args.evaluator or "deduction-h", position)
    found = proofs.prove_with(
        position, catalog.observed(catalog.searcher(args.searcher)), evaluator
    )
    if found.proof is not None:
        _print_proof(goal, data, found.proof, out)
    else:
        print(
            f"no proof of {goal}: {found.failed_atom} fails "
            f"(line of play: {' / '.join(found.refutation)})",
            file=out,
        )
    rate = found.nodes / found.elapsed if found.elapsed > 0 else 0.0
    print(
        f"search: {found.searches} searches, {found.nodes} nodes, {found.leaves} leaves, "
        f"{found.elapsed:.3f}s, {rate:,.0f} nodes/s",
        file=out,
    )
    return found.proof


def _prove_by_thesis(rules: Any, data: Sequence[str], goal: str, lang: str, out: IO[str]) -> Any:
    """The thesis's program's trace and proof; forward chaining where the thesis's tree is too
    large."""
    from alfabeta.games.deduction import proof as proofs
    from alfabeta.games.deduction.thesis import TooLargeForThesis, deduce

    try:
        trace = deduce(rules, data, goal, lang)
    except TooLargeForThesis as large:
        print(f"{large}: proving by forward chaining instead, each sub-goal once", file=out)
        proof = proofs.derived_proof(rules, data, goal)
        if proof is not None:
            _print_proof(goal, data, proof, out)
        return proof
    for line in trace.lines:
        print(line, file=out)
    return proofs.proof_from_trace(trace, rules)


def _warn_overridden_depths(catalog: Catalog, searchers: list[str], depth: str) -> None:
    """Say on stderr which searchers' own depth option ``--depth`` replaces."""
    for spec in searchers:
        own = getattr(catalog.searcher(spec), "depth", None)
        if own is not None:
            print(
                f"alfabeta: bench: --depth {depth} overrides depth={own} in {spec!r}",
                file=sys.stderr,
            )


def cmd_bench(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta bench``: searchers timed on a game's bench positions, as a table, JSON Lines or a
    plot."""
    from alfabeta.arena import bench

    searchers = split_specs(args.searchers)
    depths = bench.parse_depths(args.depth)
    if args.min_time < 0:
        raise InvalidOptionError("--min-time must be >= 0")
    if args.plot:
        from alfabeta.plotting import pyplot

        pyplot()  # a missing plot extra is refused before the searches, not after them
    _warn_overridden_depths(catalog, searchers, args.depth)
    table = _BenchTable(out, args.plain) if not args.signature else None
    jsonl = (
        bench.JsonlRecords(args.json, bench.manifest(args.game, searchers, catalog))
        if args.json
        else None
    )

    def progress(record: Any) -> None:
        if table is not None:
            table.add(record)
        if jsonl is not None:
            jsonl.add(record)

    try:
        records = bench.run_bench(
            catalog,
            args.game,
            searchers,
            depths,
            evaluator=args.evaluator,
            positions=args.position,
            min_time=0.0 if args.signature else args.min_time,
            progress=progress,
        )
    finally:
        if jsonl is not None:
            jsonl.close()
        if table is not None:
            table.table.stop()
    if table:
        table.finish(records)
    if args.signature:
        for name, total in bench.signature(records).items():
            print(
                f"signature {name}: {total} nodes" if len(searchers) > 1 else f"{total}", file=out
            )
    if args.plot:
        bench.plot(records, args.plot, f"{args.game}: nodes by depth")
    return EXIT_OK


class _BenchTable:
    """Shows bench rows as they come: a rich table on a terminal, fixed-width text otherwise
    (scripts read it)."""

    HEADERS = (
        "searcher",
        "pos",
        "d",
        "nodes",
        "leaves",
        "time",
        "nodes/s",
        "ebf",
        "tt hits",
        "re",
        "value",
        "move",
    )
    FORMATS = ("<28", "<4", ">2", ">11", ">11", ">9.5f", ">13,.0f", ">5", ">9", ">5", ">8", "")

    def __init__(self, out: IO[str], plain: bool | None = None) -> None:
        self.out = out
        self.table = LiveTable(self.HEADERS, self.FORMATS, out, plain)
        self.numbers: dict[str, int] = {}

    def add(self, record: Any) -> None:
        if record.position not in self.numbers:
            self.numbers[record.position] = len(self.numbers) + 1
            self.table.section(f"position #{self.numbers[record.position]}: {record.position}")
        self.table.add(
            (
                record.searcher[:28],
                f"#{self.numbers[record.position]}",
                record.depth,
                record.nodes,
                record.leaves,
                record.seconds,
                record.nodes_per_s,
                f"{record.ebf:.2f}" if record.ebf else "-",
                record.tt_hits,
                record.researches,
                record.value,
                record.move,
            )
        )

    def finish(self, records: Any) -> None:
        self.table.stop()
        totals: dict[str, list[float]] = {}
        for r in records:
            nodes, seconds = totals.get(r.searcher, [0, 0.0])
            totals[r.searcher] = [nodes + r.nodes, seconds + r.seconds]
        for name, (nodes, seconds) in totals.items():
            rate = nodes / seconds if seconds else 0.0
            print(
                f"total {name}: {nodes} nodes in {seconds:.3f}s, {rate:,.0f} nodes/s", file=self.out
            )


def cmd_perft(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta perft``: the number of move paths to a depth (with ``--divide``,
    below each move)."""
    import time

    from alfabeta.core.walk import divide, perft

    if args.depth < 0:
        raise InvalidOptionError("perft depth must be >= 0")
    position = catalog.game(args.game).from_string(args.fen)
    start = time.perf_counter()
    if args.divide and args.depth >= 1:
        total = 0
        for move, count in divide(position, args.depth, bulk=args.bulk):
            print(f"{position.move_str(move)}: {count}", file=out)
            total += count
    else:
        total = perft(position, args.depth, bulk=args.bulk)
    seconds = time.perf_counter() - start
    rate = total / seconds if seconds > 0 else 0.0
    print(f"nodes {total}  time {seconds:.3f}s  {rate:,.0f} leaves/s", file=out)
    return EXIT_OK


def cmd_epd(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta epd``: an EPD suite's best and avoid moves checked against a searcher's choice."""
    from alfabeta.games.chess.epd import read_epd, solve

    game = catalog.game("chess")
    limit = Limit(depth=args.depth, nodes=args.nodes, time=args.time)
    if limit.depth is None and limit.nodes is None and limit.time is None:
        raise InvalidOptionError("epd needs a limit: --depth, --nodes or --time")
    outcomes = solve(
        read_epd(args.file),
        game,
        catalog.observed(catalog.searcher(args.searcher or game.play_searcher)),
        catalog.evaluator(args.evaluator, game)
        if args.evaluator
        else catalog.playing_evaluator(game),
        limit,
    )
    rows = []
    for o in outcomes:
        expected = " ".join(o.record.operations.get("bm", []))
        verdict = "solved" if o.solved else f"FAILED (expected {expected})"
        rows.append((o.record.name, o.move or "-", verdict, o.nodes, f"{o.seconds:.3f}"))
    print_table(
        ["position", "move", "verdict", "nodes", "seconds"], rows, out, plain=args.plain, left=3
    )
    solved = sum(o.solved for o in outcomes)
    print(f"solved {solved}/{len(outcomes)}", file=out)
    failures = [o.record.name for o in outcomes if not o.solved]
    if failures:
        print(f"failed: {', '.join(failures)}", file=out)
    return EXIT_OK


def check_tune_options(args: argparse.Namespace) -> None:
    """Refuse ``alfabeta tune``'s impossible options and unwritable outputs, before any data
    is read."""
    from pathlib import Path

    if not args.games and not args.pgn and not args.positions:
        raise InvalidOptionError("tune needs data: --games DB, --pgn FILE or --positions EPD")
    if args.epochs < 1 or args.rate <= 0 or args.l2 < 0 or not 0 <= args.holdout < 1:
        raise InvalidOptionError("tune: --epochs ≥ 1, --rate > 0, --l2 ≥ 0 and 0 ≤ --holdout < 1")
    if not 0 <= args.blend <= 1 or (args.sample is not None and not 0 < args.sample <= 1):
        raise InvalidOptionError("tune: 0 ≤ --blend ≤ 1 and 0 < --sample ≤ 1")
    check_net_options(args)
    if args.label_depth is not None and (args.label_depth < 1 or args.concurrency < 1):
        raise InvalidOptionError("tune: --label-depth and --concurrency must be at least 1")
    for needs_depth in ("labels", "label_engine"):
        if getattr(args, needs_depth) and args.label_depth is None:
            option = "--" + needs_depth.replace("_", "-")
            raise InvalidOptionError(f"tune: {option} needs --label-depth: add --label-depth D")
    for target in (args.out, args.data, args.plot, args.labels):
        if target and not Path(target).absolute().parent.is_dir():
            raise InvalidOptionError(f"tune: cannot write {target!r}: no such directory")
    if args.plot:
        from alfabeta.plotting import pyplot

        pyplot()  # a missing plot extra is refused before the fit, not after it


def check_net_options(args: argparse.Namespace) -> None:
    """Refuse ``alfabeta tune``'s impossible ``--net`` options."""
    if (
        not 0 <= args.net <= 256
        or args.net_epochs < 1
        or not 0 <= args.net_decay < 1
        or not 1 <= args.net_buckets <= 8
    ):
        raise InvalidOptionError(
            "tune: 0 ≤ --net ≤ 256 hidden units, --net-epochs ≥ 1, 0 ≤ --net-decay < 1 and "
            "1 ≤ --net-buckets ≤ 8"
        )
    from alfabeta.evaluators.tuned import NET_ACTIVATIONS
    from alfabeta.learning.residual import KING_BUCKETS

    if args.net_king_buckets not in KING_BUCKETS:
        choices = ", ".join(map(str, KING_BUCKETS))
        raise InvalidOptionError(f"tune: --net-king-buckets must be one of {choices}")
    if args.net_activation not in NET_ACTIVATIONS:
        choices = ", ".join(NET_ACTIVATIONS)
        raise InvalidOptionError(f"tune: --net-activation must be one of {choices}")
    for needs_net in ("net_positions", "net_blend", "net_attacks"):
        if getattr(args, needs_net) not in (None, [], False) and not args.net:
            option = "--" + needs_net.replace("_", "-")
            raise InvalidOptionError(f"tune: {option} needs --net: add --net H")
    if args.net_blend is not None and not 0 <= args.net_blend <= 1:
        raise InvalidOptionError("tune: 0 ≤ --net-blend ≤ 1")


def cmd_tune(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta tune``: Texel's method over the quiet positions of the games given."""
    from alfabeta.evaluators.tuned import load_weights
    from alfabeta.learning import texel

    check_tune_options(args)
    # an unknown group, a broken start file or engine is refused before the data is read
    texel.free_weights(args.fixed)
    if args.label_engine:
        texel.started_engine(args.label_engine).close()
    start = load_weights(None if args.start == "shipped" else args.start)
    # read first: a missing or broken file is refused before a long labelling, not after it
    net_positions = (
        texel.labelled(texel.epd_positions(args.net_positions)) if args.net_positions else None
    )
    found = chain(
        texel.game_positions(args.games),
        texel.pgn_positions(args.pgn),
        texel.epd_positions(args.positions),
    )
    samples = list(found) if args.sample is None else texel.distinct(found, args.sample)
    if args.label_depth is not None:
        try:
            samples = texel.search_scores(
                samples, args.label_depth, args.concurrency, args.labels, args.label_engine
            )
        except texel.LabellingInterrupted as stopped:
            print(f"alfabeta: interrupted: {stopped}", file=sys.stderr)
            return EXIT_INTERRUPTED
    positions = texel.labelled(samples)
    fit = texel.tune(
        positions,
        start,
        args.epochs,
        args.rate,
        args.l2,
        args.fixed,
        args.holdout,
        args.blend,
        args.net,
        args.net_epochs,
        net_positions,
        net_decay=args.net_decay,
        net_buckets=args.net_buckets,
        net_king_buckets=args.net_king_buckets,
        net_activation=args.net_activation,
        net_blend=args.net_blend,
        net_attack_inputs=args.net_attacks,
    )
    about = {
        "positions": len(positions),
        "epochs": args.epochs,
        "l2": args.l2,
        "holdout": args.holdout,
        "blend": args.blend,
        **({"net_epochs": args.net_epochs, "net_decay": args.net_decay} if args.net else {}),
        **({"net_blend": args.net_blend} if args.net_blend is not None else {}),
        **({"net_positions": len(net_positions)} if net_positions is not None else {}),
    }
    texel.write_weights(args.out, fit, {**about, "start": args.start, "fixed": args.fixed})
    if args.data:
        texel.write_epd(args.data, samples)
    if args.plot:
        texel.plot_losses(fit.losses, args.plot)
    print(
        f"{len(positions)} positions, k {fit.k:.6f}: loss {fit.losses[0]:.6f} -> "
        f"{fit.losses[-1]:.6f} after {args.epochs} epochs; weights written to {args.out}",
        file=out,
    )
    if fit.held_out is not None:
        before, after = fit.held_out
        print(f"held-out games' positions: loss {before:.6f} -> {after:.6f}", file=out)
    if fit.net is not None:
        more = (
            "" if net_positions is None else f" (fitted on {len(net_positions)} more positions too)"
        )
        print(
            f"residual network of {args.net} hidden units{more}: loss {fit.net_losses[-1]:.6f} "
            f"after {args.net_epochs} passes"
            + ("" if fit.net_held_out is None else f", held-out {fit.net_held_out:.6f}"),
            file=out,
        )
    return EXIT_OK


def cmd_explain(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta explain``: an evaluator's terms on a position (and with ``--dual``
    both searches)."""
    import json

    from alfabeta.evaluators.explain import explanation, print_explanation

    position = catalog.game(args.game).from_string(args.position)
    evaluator = (
        catalog.evaluator(args.evaluator, position)
        if args.evaluator
        else catalog.default_evaluator(position)
    )
    if args.log and not args.dual:
        raise InvalidOptionError("--log records the dual search's nodes: add --dual")
    account = explanation(evaluator, position)
    if args.dual:
        account["dual"] = _dual_search(catalog, position, evaluator, args)
    if args.json:
        print(json.dumps(account, indent=2), file=out)
        return EXIT_OK
    print_explanation(account, out, plain=True if args.plain else None)
    if args.dual:
        for name in ("plain", "emotional"):
            line = account["dual"][name]
            pv = " ".join(line["pv"])
            print(f"{name:<9}  value {line['value']}  depth {line['depth']}  pv {pv}", file=out)
        print(f"plays: {account['dual']['plays']} (the {evaluator.name} search's move)", file=out)
    return EXIT_OK


def _dual_search(
    catalog: Catalog, position: Position, evaluator: Any, args: argparse.Namespace
) -> dict:
    """Run dual-eval on ``position``; both lines in the position's notation."""
    from alfabeta.plugins.spec import format_spec

    options = {}
    if args.searcher:
        options["searcher"] = args.searcher
    if args.log:
        options["log"] = args.log
    searcher = catalog.searcher(format_spec("dual-eval", options))
    searcher.search(position, evaluator, Limit(depth=args.depth, nodes=args.nodes, time=args.time))

    def line(result: SearchResult) -> dict:
        walk, names = position.copy(), []
        for move in result.pv:
            names.append(getattr(walk, "san", walk.move_str)(move))
            walk.push(move)
        return {"value": result.value, "depth": result.depth, "nodes": result.nodes, "pv": names}

    both = searcher.last
    return {
        "plain": line(both.plain),
        "emotional": line(both.emotional),
        "plays": getattr(position, "san", position.move_str)(both.emotional.move),
    }


def cmd_solve(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta solve``: a game or position solved exactly (retrograde tables or a
    proof search)."""
    import json

    from alfabeta.solvers.solve import solve

    position = catalog.game(args.game)
    if args.position:
        position = position.from_string(args.position)
    if args.table and args.mate is not None:
        raise InvalidOptionError("--table keeps a retrograde table; --mate searches with df-pn")
    evaluator = None
    if getattr(position, "default_evaluator", None) == "tree-leaves":
        evaluator = catalog.default_evaluator(position)  # an explicit tree scores its leaves
    with _solving_progress(args.json) as progress:
        solution = solve(
            position,
            args.game,
            method=args.method,
            mate=args.mate,
            nodes=args.nodes,
            seconds=args.time,
            max_states=args.max_states,
            evaluator=evaluator,
            progress=progress,
        )
    if args.table:
        if solution.table is None:
            raise InvalidOptionError("--table keeps a retrograde table: add --method retrograde")
        written = solution.table.save(args.table)
    if args.json:
        account = solution.to_dict()
        if args.tree and solution.strategy is not None:
            account["strategy"] = _named_strategy(position, solution.strategy)
        print(json.dumps(account, indent=2), file=out)
        return EXIT_OK
    _print_solution(position, solution, args, written if args.table else None, out)
    return EXIT_OK


def _print_solution(
    position: Position,
    solution: Any,
    args: argparse.Namespace,
    written: tuple | None,
    out: IO[str],
) -> None:
    """The solution in words: notes, value and distance, best moves, the work done, the table
    files written and (``--tree``) the winning strategy."""
    for note in solution.notes:
        print(f"note: {note}", file=out)
    mover = f"player {position.side_to_move + 1}"
    distance = _solution_distance(solution, args.mate)
    print(f"{position.name}: {solution.value} for {mover} (to move){distance}", file=out)
    if solution.best_moves:
        print(f"best moves: {' '.join(solution.best_moves)}", file=out)
    work = "states" if solution.method == "retrograde" else "nodes"
    print(
        f"method: {solution.method}, {solution.work:,} {work}, {solution.seconds:.2f}s",
        file=out,
    )
    if written is not None:
        print(f"table: {written[0]} and {written[1]}", file=out)
    if args.tree and solution.strategy is not None:
        for line in _strategy_lines(position, solution.strategy):
            print(line, file=out)


def _solution_distance(solution: Any, mate: int | None) -> str:
    """How far the result is: exact plies (retrograde) or a bound (proof search), in moves
    for a mate question."""
    distance = ""
    if solution.distance is not None:
        bound = "" if solution.method == "retrograde" else "at most "
        distance = f" in {bound}{solution.distance} plies"
    if mate is not None:
        if solution.value == "win":
            distance += f": mate in {((solution.distance or 0) + 1) // 2}"
        elif solution.value == "no win":
            distance = f": no mate in {mate}"
    return distance


def _named_strategy(position: Position, tree: dict) -> dict:
    """A strategy tree with its moves in the game's notation."""
    if "move" in tree:
        name = position.move_str(tree["move"])
        position.push(tree["move"])
        try:
            return {"move": name, "then": _named_strategy(position, tree["then"])}
        finally:
            position.pop()
    if "replies" in tree:
        replies = {}
        for move, subtree in tree["replies"].items():
            name = position.move_str(move)
            position.push(move)
            try:
                replies[name] = _named_strategy(position, subtree)
            finally:
                position.pop()
        return {"replies": replies}
    return {}


def _strategy_lines(position: Position, tree: dict, indent: str = "") -> list[str]:
    named = _named_strategy(position, tree)
    lines: list[str] = []

    def walk(node: dict, pad: str) -> None:
        if "move" in node:
            lines.append(f"{pad}{node['move']}")
            walk(node["then"], pad)
        elif "replies" in node:
            for reply, subtree in node["replies"].items():
                lines.append(f"{pad}  if {reply}:")
                walk(subtree, pad + "    ")

    walk(named, indent)
    return lines


def _solving_progress(quiet: bool) -> Any:
    """A context giving a progress callback (states enumerated or nodes expanded), drawn on a
    terminal."""
    import contextlib

    @contextlib.contextmanager
    def progress() -> Iterator[Any]:
        if quiet or not sys.stderr.isatty():
            yield None
            return
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn

        with Progress(
            SpinnerColumn(),
            TextColumn("solving: {task.description}"),
            console=Console(file=sys.stderr),
            transient=True,
        ) as bar:
            task = bar.add_task("starting")
            yield lambda count: bar.update(task, description=f"{count:,} states or nodes")

    return progress()


def cmd_fcm(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta fcm``: the emotional evaluator's cognitive map run on a position."""
    import json

    from alfabeta.evaluators.explain import plot_trajectory, print_trajectory
    from alfabeta.evaluators.fcm import FCM, NODES

    try:
        state = [float(v) for v in args.input.split(",")]
    except ValueError:
        raise InvalidOptionError(
            f"--input {args.input!r}: expected {len(NODES)} numbers separated by commas "
            f"({','.join(NODES)})"
        ) from None
    run = FCM(args.matrix, tolerance=args.tolerance, max_updates=args.max_updates).run(state)
    if args.plot:
        plot_trajectory(run, args.plot, f"FCM ({args.matrix}) from {args.input}")
    if args.json:
        print(
            json.dumps(
                {
                    "nodes": list(NODES),
                    "states": run.states.tolist(),
                    "updates": run.updates,
                    "converged": run.converged,
                    "epsilon": run.epsilon,
                }
            ),
            file=out,
        )
    else:
        print_trajectory(run, out, plain=True if args.plain else None)
    return EXIT_OK


def cmd_uci(catalog: Catalog | None, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta uci``: the chess engine on stdin and stdout."""
    from alfabeta import uci

    return uci.run()


def cmd_serve(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta serve``: the web page, until Ctrl-C."""
    from alfabeta.web.serve import serve

    serve(catalog, args.host, args.port, args.db, args.allow_remote, out)
    return EXIT_OK


def cmd_bayeschess(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta bayeschess``: BayesChess learning, models and style."""
    from alfabeta.learning import command

    return command.run(catalog, args, out)


def cmd_new(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta new``: a plugin package to start from."""
    from alfabeta.scaffold import new_plugin

    root = new_plugin(args.kind, args.name, args.dir, args.cython)
    flags = "--no-build-isolation " if args.cython else ""
    print(f"wrote {root}: pip install {flags}-e {root} && pytest {root}", file=out)
    return EXIT_OK


def cmd_doctor(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """``alfabeta doctor``: what is installed and whether it works."""
    from alfabeta.doctor import diagnose, report

    return report(diagnose(catalog), out)


COMMANDS = {
    "bayeschess": cmd_bayeschess,
    "doctor": cmd_doctor,
    "new": cmd_new,
    "bench": cmd_bench,
    "explain": cmd_explain,
    "fcm": cmd_fcm,
    "solve": cmd_solve,
    "epd": cmd_epd,
    "tune": cmd_tune,
    "perft": cmd_perft,
    "play": cmd_play,
    "plugins": cmd_plugins,
    "serve": cmd_serve,
    "prove": cmd_prove,
    "uci": cmd_uci,
    "match": cmd_match,
    "tournament": cmd_tournament,
    "results": cmd_results,
    "spsa": cmd_spsa,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit status (0 ok, 2 bad input, 3 abandoned, 130 interrupted)."""
    args = build_parser().parse_args(argv)
    out = sys.stdout
    catalog = None
    try:
        with sigterm_as_interrupt():
            catalog = load_catalog() if args.command != "uci" else None  # uci loads its own
            return COMMANDS[args.command](catalog, args, out)  # type: ignore[arg-type]
    except RunInterrupted as stopped:
        kept = f"; --resume plays the rest from {args.db}" if getattr(args, "db", None) else ""
        print(f"alfabeta: interrupted: {stopped.games} games recorded{kept}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except GameAbandoned as error:
        print(f"alfabeta: game abandoned: {error}", file=sys.stderr)
        return EXIT_ABANDONED
    except AlfabetaError as error:
        print(f"alfabeta: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("alfabeta: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (e.g. `| head`): nothing left to say
        sys.stdout = None
        return EXIT_OK
    except Exception as error:  # a bug: in a plugin (named) or in alfabeta
        return _unexpected(error, catalog, args.debug)


def _unexpected(error: Exception, catalog: Catalog | None, debug: bool) -> int:
    import traceback

    from alfabeta.plugins.blame import blame

    culprit = blame(error, catalog)
    what = f"{type(error).__name__}: {error}"
    if culprit is not None:
        print(f"alfabeta: error in {culprit}: {what}", file=sys.stderr)
    else:
        print(f"alfabeta: internal error: {what}", file=sys.stderr)
    if debug:
        traceback.print_exception(error, file=sys.stderr)
    else:
        print("alfabeta: run with --debug for the traceback", file=sys.stderr)
    return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
