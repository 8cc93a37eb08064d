"""The paper's two experiments (seed-002 §4) at a chosen scale, through the arena.

1. Self-play: ``games`` games of the fixed heuristic against perturbed copies (§2.3), learned
   into a model (resumable, like ``bayeschess learn``).
2. Experiment 1 (Figure 5): for ``tournaments`` growing subsets of those games (the first
   n·k/t games, k = 1 … t), a model learned from the subset plays ``per_tournament`` games
   against the fixed heuristic (colour-swapped pairs from seeded random openings); the
   score, W-D-L and Elo ± 95 % interval of each.
3. Experiment 2 (Figure 7): the score of the Figure 6 position (White a knight and two pawns
   up, Black to move: about −500 from Black's view) with each subset's learned endgame
   parameters.

Everything goes into ``out``: the databases, each subset's model, ``experiment.json``,
``report.md`` and, with matplotlib, ``figure5.png`` and ``figure7.png``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import define, evolve

from alfabeta.arena import Match, Player
from alfabeta.arena.adjudication import Adjudication
from alfabeta.core import InvalidOptionError
from alfabeta.learning.database import LearningDB
from alfabeta.learning.model import BayesModel
from alfabeta.learning.naive_bayes import TwoClassNaiveBayes
from alfabeta.learning.params import PARAMETER_COUNT
from alfabeta.learning.selfplay import SelfPlay

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog

FIGURE_6 = "r4rk1/p1B1b1pp/2b2n2/3p1p2/8/2PBPN2/PP3PPP/RN3RK1 b - - 0 20"


@define
class SubsetResult:
    """The learned-against-fixed games of one subset size: W-D-L, score, Elo ± error, and the two
    Figure 6 counts."""

    games: int
    wins: int
    draws: int
    losses: int
    score: float
    elo: float
    elo_error: float
    figure6_win: int
    figure6_not_loss: int


def subset_sizes(games: int, tournaments: int) -> list[int]:
    """The growing subset sizes: round(games·k / tournaments), k = 1 … tournaments."""
    if tournaments < 1 or games < tournaments:
        raise InvalidOptionError(
            f"{tournaments} tournaments need at least as many self-play games (got {games})"
        )
    return [round(games * k / tournaments) for k in range(1, tournaments + 1)]


def figure6_score(model_file: str, target: str, catalog: Catalog) -> int:
    """The Figure 6 position's score from Black's (the side to move's) view with the model
    ``model_file`` (a quoted path, as it goes in a spec)."""
    position = catalog.game("chess").from_string(FIGURE_6)
    evaluator = catalog.evaluator(f"bayeschess(model={model_file}, target={target})")
    evaluator.prepare(position)
    return evaluator.evaluate(position)


def run_experiment(
    out: str | Path,
    base: Player,
    *,
    games: int = 200,
    tournaments: int = 7,
    per_tournament: int = 15,
    seed: int = 0,
    random_plies: int = 6,
    max_plies: int = 300,
    alpha: float = 1.0,
    executor: str | None = None,
    concurrency: int = 1,
    progress_factory: Any = None,
    log: Any = None,
) -> dict[str, Any]:
    """Run both experiments into ``out`` and return what ``experiment.json`` holds."""
    from alfabeta.plugins.catalog import load_catalog

    catalog = load_catalog()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    sizes = subset_sizes(games, tournaments)
    adjudication = Adjudication(max_plies=max_plies)
    settings: dict[str, Any] = {"executor": executor, "concurrency": concurrency}
    say = log or (lambda text: None)

    say(f"self-play: {games} games")
    selfplay = SelfPlay(
        "chess", base, games=games, seed=seed, adjudication=adjudication, **settings
    )
    learned = selfplay.run(
        out / "model-all",
        out / "selfplay.sqlite",
        alpha=alpha,
        progress=progress_factory() if progress_factory else None,
        catalog=catalog,
    )
    learning = LearningDB(out / "selfplay.sqlite")
    if learned.run_id is None:
        raise InvalidOptionError("the self-play run recorded no game")
    subsets = []
    for size in sizes:
        model = BayesModel(TwoClassNaiveBayes(PARAMETER_COUNT, alpha), seed=seed)
        model.learner.fit(*learning.rows(learned.run_id, games=size))
        model.games = len(learning.games(learned.run_id, games=size))
        path = out / f"model-{size}"
        model.save(path)
        model_file = json.dumps(str(path) + ".json")
        say(f"experiment 1: model of {size} games against the fixed heuristic")
        learned_player = evolve(base, name="learned", evaluator=f"bayeschess(model={model_file})")
        fixed_player = evolve(base, name="fixed", evaluator="bayeschess")
        match = Match(
            "chess",
            learned_player,
            fixed_player,
            games=per_tournament,
            seed=seed + size,
            random_plies=random_plies,
            adjudication=adjudication,
            **settings,
        )
        result = match.run(
            db=str(out / "experiment.sqlite"),
            resume=_has_run(out / "experiment.sqlite", match),
            progress=progress_factory() if progress_factory else None,
            catalog=catalog,
        )
        wdl, elo = result.wdl(), result.elo()
        subsets.append(
            SubsetResult(
                size,
                wdl.wins,
                wdl.draws,
                wdl.losses,
                (wdl.wins + wdl.draws / 2) / max(wdl.games, 1),
                elo.elo,
                elo.error,
                figure6_score(model_file, "win", catalog),
                figure6_score(model_file, "not_loss", catalog),
            )
        )
    learning.close()
    fixed = catalog.evaluator("bayeschess")
    report = {
        "games": games,
        "selfplay": {
            "perturbed": [
                learned.match.wdl().wins,
                learned.match.wdl().draws,
                learned.match.wdl().losses,
            ],
            "rows": learned.model.learner.rows,
        },
        "player": base.to_dict(),
        "seed": seed,
        "random_plies": random_plies,
        "per_tournament": per_tournament,
        "figure6_fixed": fixed.evaluate(catalog.game("chess").from_string(FIGURE_6)),
        "subsets": [_as_dict(s) for s in subsets],
    }
    (out / "experiment.json").write_text(json.dumps(report, indent=2) + "\n")
    (out / "report.md").write_text(markdown_report(report))
    _plots(report, out)
    return report


def _as_dict(subset: SubsetResult) -> dict[str, Any]:
    return {a.name: getattr(subset, a.name) for a in subset.__attrs_attrs__}


def _has_run(db: Path, match: Match) -> bool:
    if not db.exists():
        return False
    from alfabeta.arena.records import ResultsDB

    records = ResultsDB(db)
    try:
        return records.find_run(match.kind, match._config()) is not None
    finally:
        records.close()


def markdown_report(report: dict[str, Any]) -> str:
    """The experiments as Markdown tables."""
    perturbed = report["selfplay"]["perturbed"]
    lines = [
        "# BayesChess experiments (seed-002 §4)",
        "",
        f"Self-play: {report['games']} games of the fixed heuristic against perturbed copies "
        f"(perturbed side W-D-L {perturbed[0]}-{perturbed[1]}-{perturbed[2]}), "
        f"{report['selfplay']['rows']} phase rows learned. Player: "
        f"`{report['player']['spec']}` with depth {report['player'].get('depth')}, "
        f"nodes {report['player'].get('nodes')}; seed {report['seed']}.",
        "",
        "## Experiment 1 (Figure 5): learned against fixed",
        "",
        f"{report['per_tournament']} games per subset, colour-swapped pairs from "
        f"{report['random_plies']} seeded random plies.",
        "",
        "| games learned | W-D-L (learned) | score | Elo ± 95 % |",
        "|---:|---|---:|---:|",
    ]
    for s in report["subsets"]:
        lines.append(
            f"| {s['games']} | {s['wins']}-{s['draws']}-{s['losses']} | {s['score']:.3f} | "
            f"{s['elo']:.0f} ± {s['elo_error']:.0f} |"
        )
    lines += [
        "",
        "## Experiment 2 (Figure 7): the Figure 6 position",
        "",
        "Black to move, White a knight and two pawns up; the paper expects about −500 from "
        f"Black's view. Fixed heuristic: {report['figure6_fixed']}.",
        "",
        "| games learned | score (target win) | score (target not_loss) |",
        "|---:|---:|---:|",
    ]
    for s in report["subsets"]:
        lines.append(f"| {s['games']} | {s['figure6_win']} | {s['figure6_not_loss']} |")
    return "\n".join(lines) + "\n"


def _plots(report: dict[str, Any], out: Path) -> None:
    try:
        from alfabeta.plotting import pyplot

        plt = pyplot()
    except InvalidOptionError:
        return  # no matplotlib: the tables say it all
    sizes = [s["games"] for s in report["subsets"]]
    figure, axis = plt.subplots(figsize=(6, 4))
    axis.errorbar(
        sizes,
        [s["elo"] for s in report["subsets"]],
        yerr=[min(s["elo_error"], 1000) for s in report["subsets"]],
        marker="o",
        capsize=3,
    )
    axis.axhline(0, color="grey", linewidth=0.8)
    axis.set_xlabel("self-play games learned")
    axis.set_ylabel("Elo of learned vs fixed (± 95 %)")
    axis.set_title("Experiment 1 (Figure 5)")
    figure.tight_layout()
    figure.savefig(out / "figure5.png", dpi=100)
    plt.close(figure)
    figure, axis = plt.subplots(figsize=(6, 4))
    axis.plot(sizes, [s["figure6_win"] for s in report["subsets"]], marker="o", label="win")
    axis.plot(
        sizes, [s["figure6_not_loss"] for s in report["subsets"]], marker="s", label="not_loss"
    )
    axis.axhline(-500, color="grey", linestyle="--", linewidth=0.8, label="−500 (material)")
    axis.axhline(report["figure6_fixed"], color="black", linewidth=0.8, label="fixed")
    axis.set_xlabel("self-play games learned")
    axis.set_ylabel("score of Figure 6 (Black's view)")
    axis.set_title("Experiment 2 (Figure 7)")
    axis.legend()
    figure.tight_layout()
    figure.savefig(out / "figure7.png", dpi=100)
    plt.close(figure)
