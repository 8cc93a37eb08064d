"""``alfabeta bayeschess ...``: learn, show, export, train-style, style, experiment."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from alfabeta.core import InvalidOptionError

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog

USAGE = """\
examples:
  alfabeta bayeschess learn --games 200 --model bc --seed 1 --depth 2 --concurrency 2
  alfabeta bayeschess show bc --phase M --var queen
  alfabeta bayeschess export bc.sqlite --csv rows.csv
  alfabeta bayeschess train-style games.pgn --player Kasparov=attacking --out style.json
  alfabeta bayeschess experiment --games 200 --out exp --depth 2"""


def add_parser(commands: Any) -> None:
    """The ``bayeschess`` command and its subcommands."""
    bayes = commands.add_parser(
        "bayeschess",
        help="BayesChess: learn from self-play, inspect models, classify styles, experiments",
        epilog=USAGE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = bayes.add_subparsers(dest="action", required=True, metavar="ACTION")

    learn = actions.add_parser("learn", help="learn a model from self-play (resumable)")
    learn.add_argument("--games", type=int, default=200, help="self-play games in all")
    learn.add_argument("--model", required=True, metavar="NAME", help="model NAME.json/.npz")
    learn.add_argument("--db", metavar="FILE", help="games and rows (default NAME.sqlite)")
    _player_options(learn)
    learn.add_argument("--alpha", type=float, default=0.0, help="smoothing: 0 ML, 1 Laplace")
    learn.add_argument("--seed", type=int, default=0, help="seed of the perturbations")
    learn.add_argument("--max-plies", type=int, default=300, help="adjudicate a draw after")
    learn.add_argument("--random-plies", type=int, default=0, metavar="K", help="seeded plies")
    learn.add_argument("--concurrency", type=int, default=1, help="games at once")
    learn.add_argument("--executor", help="local (default), dask://HOST:PORT, dask-local:N")
    learn.add_argument("--quiet", action="store_true", help="no progress bar")

    show = actions.add_parser("show", help="a variable's CPT in a model")
    show.add_argument("model", help="NAME.json or NAME.npz")
    show.add_argument("--phase", default="M", help="A (opening), M (middlegame), F (endgame)")
    show.add_argument("--var", default="pawn", help="pawn … queen, check, white-knight@b1 …")
    show.add_argument("--alpha", type=float, help="smoothing (default: the model's)")
    show.add_argument("--plain", action="store_true", help="plain text table")

    export = actions.add_parser("export", help="a learning database's rows as Cuadro 4 CSV")
    export.add_argument("db", help="the SQLite file of a learning run")
    export.add_argument("--csv", required=True, metavar="FILE")
    export.add_argument("--run", type=int, help="run id (default: the newest)")

    train = actions.add_parser("train-style", help="train the style classifier on PGN files")
    train.add_argument("files", nargs="+", metavar="PGN")
    train.add_argument(
        "--player",
        action="append",
        required=True,
        metavar="NAME=STYLE",
        help="games of NAME (White or Black tag contains it) are STYLE (repeatable)",
    )
    train.add_argument("--out", required=True, metavar="FILE", help="classifier JSON")
    train.add_argument("--alpha", type=float, default=1.0)

    style = actions.add_parser("style", help="classify a player's style in PGN games")
    style.add_argument("files", nargs="+", metavar="PGN")
    style.add_argument("--player", required=True, metavar="NAME")
    style.add_argument("--model", metavar="FILE", help="classifier JSON (default: the paper's)")

    experiment = actions.add_parser("experiment", help="the paper's two experiments")
    experiment.add_argument("--games", type=int, default=200, help="self-play games")
    experiment.add_argument("--tournaments", type=int, default=7)
    experiment.add_argument("--per-tournament", type=int, default=15)
    experiment.add_argument("--out", required=True, metavar="DIR")
    _player_options(experiment)
    experiment.add_argument("--alpha", type=float, default=1.0)
    experiment.add_argument("--seed", type=int, default=0)
    experiment.add_argument("--random-plies", type=int, default=6, metavar="K")
    experiment.add_argument("--max-plies", type=int, default=300)
    experiment.add_argument("--concurrency", type=int, default=1)
    experiment.add_argument("--executor")
    experiment.add_argument("--quiet", action="store_true")


def _player_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--searcher", default="alphabeta", help="searcher spec of both sides")
    parser.add_argument("--depth", type=int, default=2, help="depth per move")
    parser.add_argument("--nodes", type=int, help="nodes per move")
    parser.add_argument("--tc", help="time control instead: 10+0.1, 40/60 …")


def _base_player(args: argparse.Namespace) -> Any:
    from alfabeta.arena import Player

    depth = None if args.tc or args.nodes else args.depth
    return Player(args.searcher, depth=depth, nodes=args.nodes, tc=args.tc)


def _progress(args: argparse.Namespace) -> Any:
    from alfabeta.arena.progress import RunProgress

    return RunProgress(enabled=False if args.quiet else None)


def run(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    """Run ``alfabeta bayeschess ACTION``; the exit status."""
    return ACTIONS[args.action](catalog, args, out)


def _learn(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    from alfabeta.arena import Adjudication
    from alfabeta.learning.selfplay import SelfPlay

    if args.max_plies < 1:
        raise InvalidOptionError("--max-plies must be >= 1")
    selfplay = SelfPlay(
        "chess",
        _base_player(args),
        games=args.games,
        seed=args.seed,
        random_plies=args.random_plies,
        adjudication=Adjudication(max_plies=args.max_plies),
        executor=args.executor,
        concurrency=args.concurrency,
    )
    db = args.db or str(Path(args.model).with_suffix("")) + ".sqlite"
    for path in (Path(args.model), Path(db)):
        path.parent.mkdir(parents=True, exist_ok=True)
    result = selfplay.run(
        args.model, db, alpha=args.alpha, progress=_progress(args), catalog=catalog
    )
    wdl = result.match.wdl()
    model = result.model
    print(
        f"{'resumed: ' if result.resumed else ''}{len(result.match.games)} games "
        f"(perturbed side W-D-L {wdl.wins}-{wdl.draws}-{wdl.losses}), "
        f"{model.learner.rows} phase rows from {model.games} games",
        file=out,
    )
    counts = model.learner.class_counts
    for phase, label in enumerate(("opening", "middlegame", "endgame")):
        print(
            f"  {label:<10} rows: win {counts[phase, 0]}, loss {counts[phase, 1]}, "
            f"draw {counts[phase, 2]}",
            file=out,
        )
    print(f"model: {args.model} (.json + .npz); games and rows: {db}", file=out)
    return 0


def _show(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    from alfabeta.console import print_table
    from alfabeta.learning.model import BayesModel
    from alfabeta.learning.naive_bayes import Outcome
    from alfabeta.learning.params import Phase, state_values, variable_index

    model = BayesModel.load(args.model)
    phase = Phase.parse(args.phase)
    index = variable_index(args.var)
    values = state_values(model.base.vector)[index]
    cpt = model.learner.cpt(args.alpha)[phase, :, index]
    counts = model.learner.counts[phase, :, index]
    alpha = model.alpha if args.alpha is None else args.alpha
    print(
        f"{args.var} | phase {phase.label} ({phase.name.lower()}), {model.games} games, "
        f"alpha {alpha:g}",
        file=out,
    )
    rows = [
        (outcome.label, *(f"{p:.3f}" for p in cpt[outcome]), int(counts[outcome].sum()))
        for outcome in Outcome
    ]
    headers = ["result", *(str(int(v)) for v in values), "rows"]
    print_table(headers, rows, out, plain=args.plain, left=1)
    for target in ("win", "not_loss"):
        chosen = int(model.learner.select(phase, target, args.alpha)[index])
        print(f"selected for {target}: {int(values[chosen])}", file=out)
    return 0


def _export(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    from alfabeta.learning.database import LearningDB
    from alfabeta.learning.params import BayesChessParams

    if not Path(args.db).exists():
        raise InvalidOptionError(f"{args.db!r}: no such file")
    learning = LearningDB(args.db)
    try:
        run_id = args.run
        if run_id is None:
            newest = learning.connection.execute("SELECT MAX(run_id) FROM bayes_rows").fetchone()
            run_id = newest[0]
        if run_id is None:
            raise InvalidOptionError(f"{args.db!r} holds no learning rows")
        count = learning.export_csv(run_id, args.csv, BayesChessParams.default())
    finally:
        learning.close()
    print(f"{count} rows of run {run_id} written to {args.csv}", file=out)
    return 0


def _games_of(files: Any, name: str, catalog: Catalog) -> Iterator[tuple[Any, int]]:
    """(final position, side) of every game in ``files`` where ``name`` played."""
    from alfabeta.games.chess.pgn import read_pgn, replay

    chess = catalog.game("chess")
    key = name.lower()
    for path in files:
        for game in read_pgn(path):
            sides = [
                s
                for s, tag in enumerate(("White", "Black"))
                if key in game.tags.get(tag, "").lower()
            ]
            if not sides:
                continue
            position = chess.from_string(game.fen) if game.fen else chess.from_string("startpos")
            for move in replay(game, chess):
                position.push(move)
            yield position, sides[0]


def _train_style(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    from alfabeta.learning.style import StyleClassifier, style_named, training_rows

    rows, labels = [], []
    for text in args.player:
        name, separator, style = text.partition("=")
        if not separator or not name.strip():
            raise InvalidOptionError(f"--player {text!r}: expected NAME=STYLE")
        found, found_labels = training_rows(
            _games_of(args.files, name.strip(), catalog), style_named(style)
        )
        print(f"{name.strip()}: {len(found)} games, {style_named(style)}", file=out)
        rows += found
        labels += found_labels
    if not rows:
        raise InvalidOptionError("no game of the named players in those files")
    classifier = StyleClassifier(args.alpha)
    classifier.fit(rows, labels)
    classifier.save(args.out)
    correct = sum(classifier.predict(r) == label for r, label in zip(rows, labels, strict=True))
    print(
        f"style classifier written to {args.out}: {len(rows)} games, "
        f"{correct / len(rows):.1%} classified as labelled",
        file=out,
    )
    return 0


def _style(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    from alfabeta.learning.style import StyleClassifier, features

    classifier = StyleClassifier.load(args.model) if args.model else StyleClassifier.paper()
    tally: dict[str, int] = {}
    for position, side in _games_of(args.files, args.player, catalog):
        observed = features(position, side)
        style = classifier.predict(observed)
        tally[style] = tally.get(style, 0) + 1
        chances = classifier.predict_proba(observed)
        shown = ", ".join(f"{k} {v:.2f}" for k, v in chances.items())
        print(f"{' '.join(str(f) for f in observed)} -> {style} ({shown})", file=out)
    if not tally:
        raise InvalidOptionError(f"no game of {args.player!r} in those files")
    summary = ", ".join(f"{k} {v}" for k, v in sorted(tally.items(), key=lambda kv: -kv[1]))
    print(f"{args.player}: {summary}", file=out)
    return 0


def _experiment(catalog: Catalog, args: argparse.Namespace, out: IO[str]) -> int:
    from alfabeta.learning.experiment import run_experiment

    report = run_experiment(
        args.out,
        _base_player(args),
        games=args.games,
        tournaments=args.tournaments,
        per_tournament=args.per_tournament,
        seed=args.seed,
        random_plies=args.random_plies,
        max_plies=args.max_plies,
        alpha=args.alpha,
        executor=args.executor,
        concurrency=args.concurrency,
        progress_factory=lambda: _progress(args),
        log=lambda text: print(text, file=out, flush=True),
    )
    sizes = " ".join(str(s["games"]) for s in report["subsets"])
    scores = " ".join(f"{s['score']:.2f}" for s in report["subsets"])
    print(f"subsets {sizes}: learned scores {scores}", file=out)
    print(f"report: {Path(args.out) / 'report.md'}", file=out)
    return 0


ACTIONS = {
    "learn": _learn,
    "show": _show,
    "export": _export,
    "train-style": _train_style,
    "style": _style,
    "experiment": _experiment,
}
