"""Self-play learning through the arena (seed-002 §2.3–2.4).

:class:`SelfPlay` is an arena run: game i pits ``base`` (the fixed ``bayeschess``) against
``perturbed`` (``bayeschess(perturb=s_i)``, s_i drawn from the run's seed and i), colours
alternating, on any executor. As each game is recorded, its rows — one per phase the
perturbed side moved in, with the states it played and the result from its side — go into
the learning database in the same SQLite file, the network learns them (``partial_fit``)
and the model files are rewritten. A resumed run (same configuration, same database) plays
only the missing games and never counts a game twice; at the end the model is refitted from
the database, which gives the same counts as the increments.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from attrs import define, evolve, field

from alfabeta.arena import Player
from alfabeta.arena.jobs import GameJob, GameResult
from alfabeta.arena.match import MatchResult, _Run, _whole
from alfabeta.core import InvalidOptionError
from alfabeta.learning.database import LearningDB
from alfabeta.learning.model import BayesModel
from alfabeta.learning.naive_bayes import Outcome, TwoClassNaiveBayes
from alfabeta.learning.params import PARAMETER_COUNT, Phase, game_phase, perturbed_states

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog

BASE, PERTURBED = "base", "perturbed"


def game_seed(seed: int, index: int) -> int:
    """The perturbation seed of game ``index`` of a run seeded ``seed``."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


def game_rows(
    result: GameResult, seed: int, catalog: Catalog
) -> list[tuple[Phase, np.ndarray, Outcome]]:
    """The learning rows of a self-play game: one per phase in which the perturbed side was
    to move, in order, with that phase's states and the result from the perturbed side."""
    side = result.players.index(PERTURBED)
    position = catalog.game(result.game).from_string(result.initial)
    for text in result.opening:
        position.push(position.parse_move(text))
    phases: list[Phase] = []
    for text in result.moves:
        if position.side_to_move == side:
            phase = game_phase(position)
            if phase not in phases:
                phases.append(phase)
        position.push(position.parse_move(text))
    outcome = (
        Outcome.DRAW
        if result.winner is None
        else Outcome.WIN
        if result.winner == side
        else Outcome.LOSS
    )
    perturbation = game_seed(seed, result.index)
    return [(phase, perturbed_states(perturbation, phase), outcome) for phase in phases]


@define
class SelfPlay(_Run):
    """``games`` self-play games of ``base`` against its perturbed copies on chess."""

    base: Player = field(default=None, kw_only=False)
    games: int = field(default=200, validator=_whole(1), kw_only=True)

    kind = "bayeschess-learn"

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.base, Player):
            raise InvalidOptionError("self-play needs the base Player")
        if self.game.split("(")[0].strip() != "chess":
            raise InvalidOptionError("BayesChess learns from chess games")
        self.base = evolve(self.base, name=BASE, evaluator="bayeschess")

    def perturbed(self, index: int) -> Player:
        """The player with the perturbed heuristic of game ``index``."""
        return evolve(
            self.base,
            name=PERTURBED,
            evaluator=f"bayeschess(perturb={game_seed(self.seed, index)})",
        )

    def _players(self) -> list[Player]:
        return [self.base, self.perturbed(0)]

    def job(self, index: int) -> GameJob:
        """Game ``index``: the base side moves first on even games."""
        return self._pair_job(index, self.base, self.perturbed(index), 0)

    def run(
        self,
        model_path: str | Path,
        db: str | Path,
        *,
        alpha: float = 0.0,
        progress: Any = None,
        catalog: Catalog | None = None,
        jsonl: Any = None,
        pgn: Any = None,
    ) -> LearningResult:
        """Play (or resume) the run, learning as games finish; Ctrl-C raises RunInterrupted
        with every finished game learned and the model saved."""
        from alfabeta.arena.records import ResultsDB
        from alfabeta.plugins.catalog import load_catalog

        catalog = catalog or load_catalog()
        probe = ResultsDB(db)
        resume = probe.find_run(self.kind, self._config()) is not None
        probe.close()
        learning = LearningDB(db)
        model = BayesModel(TwoClassNaiveBayes(PARAMETER_COUNT, alpha), seed=self.seed)
        state: dict[str, Any] = {"run": None, "rows": 0}

        def on_game(result: GameResult, run_id: int | None) -> None:
            assert run_id is not None  # a run with a database always has an id
            if state["run"] is None:  # the run's first game: learn what it already has
                state["run"] = run_id
                _refit(model, learning, run_id)
            rows = game_rows(result, self.seed, catalog)
            if learning.add_game(run_id, result.index, rows):
                model.learner.partial_fit(
                    [r[0] for r in rows], [r[2] for r in rows], np.array([r[1] for r in rows])
                )
                model.games += 1
                model.save(model_path)
            state["rows"] = model.learner.rows

        if progress is not None:
            progress.bind(lambda games: _progress_text(games, state["rows"]))
        try:
            games, _status = self._play(
                self.games,
                self.job,
                lambda games: False,
                db=str(db),
                jsonl=jsonl,
                pgn=pgn,
                resume=resume,
                progress=progress,
                catalog=catalog,
                on_game=on_game,
            )
        finally:
            if state["run"] is not None:
                _refit(model, learning, state["run"])
                model.save(model_path)
            learning.close()
        return LearningResult(
            MatchResult((PERTURBED, BASE), games), model, state["run"], resumed=resume
        )


def _refit(model: BayesModel, learning: LearningDB, run_id: int) -> None:
    phases, results, states = learning.rows(run_id)
    model.learner.fit(phases, results, states)
    model.games = len(learning.games(run_id))


def _progress_text(games: list[GameResult], rows: int) -> str:
    wdl = MatchResult((PERTURBED, BASE), games).wdl()
    return f"perturbed W-D-L {wdl.wins}-{wdl.draws}-{wdl.losses}  phase rows learned {rows}"


@define
class LearningResult:
    """A finished (or resumed and finished) learning run: the games as a match of the
    perturbed side against the base, the model learned, and the run's id in the database
    (None when no game was played)."""

    match: MatchResult
    model: BayesModel
    run_id: int | None
    resumed: bool = False
