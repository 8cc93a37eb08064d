"""Matches and tournaments, for scripts and for the ``match``/``tournament`` commands.

A :class:`Match` plays colour-swapped pairs between A and B (game 2k: A moves first from
opening k; game 2k+1: B moves first from the same opening); a :class:`Tournament` plays such
pairs between every two players (round robin) or between the first and each other
(gauntlet). ``run()`` plays them on a backend (a local process pool by default), records each
game as it finishes, and returns a result object with Elo, LOS, pentanomial counts and SPRT.

>>> from alfabeta.arena import Match, Player
>>> result = Match("fibonacci-nim(n=10)", Player("alphabeta(depth=4)"),
...                Player("alphabeta(depth=1)"), games=4, executor="serial").run()
>>> result.wdl().games
4
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

from attrs import define, field

from alfabeta.arena.adjudication import Adjudication
from alfabeta.arena.engine import EngineFailure, probe_engine
from alfabeta.arena.executors import open_backend
from alfabeta.arena.jobs import GameJob, GameResult, catalog_in_use
from alfabeta.arena.openings import Opening, choose_opening, read_openings
from alfabeta.arena.players import UCI, Player, build_player, uci_settings
from alfabeta.arena.rating import (
    SPRT,
    WDL,
    EloEstimate,
    Pentanomial,
    elo_estimate,
    los,
)
from alfabeta.arena.runner import (
    Recorder,
    RunInterrupted,
    drive,
    interrupt_deferred,
    manifest,
    sigterm_as_interrupt,
)
from alfabeta.core import InvalidOptionError

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog


def _whole(minimum: int) -> Callable[[Any, Any, Any], None]:
    def check(instance: Any, attribute: Any, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise InvalidOptionError(
                f"{attribute.name}={value!r}: expected a whole number >= {minimum}"
            )

    return check


def _order(instance: Any, attribute: Any, value: Any) -> None:
    if value not in ("sequential", "random"):
        raise InvalidOptionError(f"openings order {value!r}: expected sequential or random")


@define
class _Run:
    """What matches and tournaments share: the game, openings, adjudication, seed."""

    game: str
    seed: int = field(default=0, kw_only=True, validator=_whole(0))
    openings: str | None = field(default=None, kw_only=True)
    openings_order: str = field(default="sequential", kw_only=True, validator=_order)
    random_plies: int = field(default=0, kw_only=True, validator=_whole(0))
    adjudication: Adjudication = field(factory=Adjudication, kw_only=True)
    executor: str | None = field(default=None, kw_only=True)
    concurrency: int = field(default=1, kw_only=True, validator=_whole(1))
    _openings: dict[int, Opening] = field(factory=dict, init=False, repr=False)
    _suite: list[Opening] | None = field(default=None, init=False, repr=False)
    _position: Any = field(default=None, init=False, repr=False)

    kind = "run"

    def _players(self) -> list[Player]:
        raise NotImplementedError

    def _config(self) -> dict[str, Any]:
        rules = self.adjudication
        return {
            "game": self.game,
            "players": [p.to_dict() for p in self._players()],
            "seed": self.seed,
            "openings": self.openings,
            "openings_order": self.openings_order,
            "random_plies": self.random_plies,
            "adjudication": {
                "resign": None
                if rules.resign is None
                else [rules.resign.movecount, rules.resign.score],
                "draw": None
                if rules.draw is None
                else [rules.draw.movenumber, rules.draw.movecount, rules.draw.score],
                "max_plies": rules.max_plies,
            },
        }

    def _prepare(self, catalog: Catalog) -> None:
        """Check everything before the first game: the game, each player, the openings."""
        position = catalog.game(self.game)
        names = [p.name for p in self._players()]
        if len(set(names)) != len(names):
            raise InvalidOptionError(
                f"two players share a name ({', '.join(names)}): name them, e.g. a=SPEC"
            )
        for player in self._players():
            if player.kind == UCI:
                command, options = uci_settings(player.spec)
                if shutil.which(command[0]) is None:
                    raise InvalidOptionError(
                        f"{player.name}: engine command {command[0]!r} not found"
                    )
                try:
                    probe_engine(command, options)
                except (EngineFailure, InvalidOptionError) as error:
                    raise InvalidOptionError(f"{player.name}: {error}") from None
            build_player(player, catalog, position)
        if self.openings:
            self._suite = read_openings(self.openings, position)
        self._position = position

    def opening(self, pair: int) -> Opening:
        if pair not in self._openings:
            self._openings[pair] = choose_opening(
                self._suite,
                self.random_plies,
                self._position,
                self.seed,
                pair,
                self.openings_order,
            )
        return self._openings[pair]

    def _pair_job(self, index: int, a: Player, b: Player, round_number: int) -> GameJob:
        """Game ``index`` between ``a`` and ``b``: pair ``index // 2`` from its opening, ``a``
        moving first on even games, ``b`` on odd ones."""
        from alfabeta import __version__

        pair = index // 2
        players = (a, b) if index % 2 == 0 else (b, a)
        return GameJob(
            index,
            pair,
            self.game,
            players,
            self.opening(pair),
            self.adjudication,
            self.seed,
            round_number,
            __version__,
        )

    def _backend_spec(self) -> str | None:
        if any(p.kind == "human" for p in self._players()):
            return "serial"  # a human needs the terminal of this process
        return self.executor

    def _play(
        self,
        requested: int,
        job_for: Callable[[int], GameJob],
        stop: Callable[[list[GameResult]], bool],
        *,
        db: str | None,
        jsonl: str | None,
        pgn: str | None,
        resume: bool,
        progress: Any,
        catalog: Catalog | None,
        on_game: Callable[[GameResult, int | None], Any] | None = None,
        batch: int | None = None,
    ) -> tuple[list[GameResult], str]:
        """Play the games not yet recorded. ``on_game(result, run_id)`` sees every game of
        the run once it is recorded (on a resume, the recorded ones first). With ``batch``,
        games are played ``batch`` indices at a time (game i in batch i // ``batch``), each
        batch's jobs made only once the batches before it are recorded, so that they can
        depend on those games."""
        from alfabeta import __version__
        from alfabeta.plugins.catalog import load_catalog

        catalog = catalog or load_catalog()
        self._prepare(catalog)
        config = self._config()
        recorder = Recorder(db, jsonl, pgn)
        try:
            players = {p.name: p.to_dict() for p in self._players()}
            games = recorder.begin(
                self.kind, config, manifest(catalog, config), requested, resume, catalog, players
            )
            done = {g.index for g in games}
            if on_game is not None:
                for game in games:
                    on_game(game, recorder.run_id)
            if progress is not None:
                progress.start(requested, games)
            status = "decided" if stop(games) else "finished"
            todo = [i for i in range(requested) if i not in done]
            if status == "finished" and todo:

                def on_result(result: GameResult) -> bool:
                    with interrupt_deferred():  # a recorded game is a counted game
                        recorder.write(result)
                        games.append(result)
                    if on_game is not None:
                        on_game(result, recorder.run_id)
                    if progress is not None:
                        progress.update(games)
                    return stop(games)

                backend = open_backend(self._backend_spec(), self.concurrency)
                in_process = catalog_in_use(catalog) if backend.in_process else nullcontext()
                try:
                    with sigterm_as_interrupt(), in_process:
                        for chunk in _batches(todo, batch):
                            if drive(backend, (job_for(i) for i in chunk), on_result, __version__):
                                status = "decided"
                                break
                except KeyboardInterrupt:
                    recorder.finish("interrupted")
                    raise RunInterrupted(len(games)) from None
                finally:
                    backend.close()
            recorder.finish(status)
        finally:
            recorder.close()
            if progress is not None:
                progress.stop()
        return sorted(games, key=lambda g: g.index), status


def _batches(indices: list[int], batch: int | None) -> list[list[int]]:
    """``indices`` (ascending) grouped by ``index // batch``; all in one group without
    ``batch``."""
    if batch is None:
        return [indices]
    groups: dict[int, list[int]] = {}
    for index in indices:
        groups.setdefault(index // batch, []).append(index)
    return list(groups.values())


@define
class Match(_Run):
    """A match of ``first`` (A) against ``second`` (B): ``games`` games in colour-swapped
    pairs, stopped early by ``sprt`` when it decides."""

    first: Player = field(default=None, kw_only=False)
    second: Player = field(default=None, kw_only=False)
    games: int = field(default=2, validator=_whole(1), kw_only=True)
    sprt: SPRT | None = field(default=None, kw_only=True)

    kind = "match"

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.first, Player) or not isinstance(self.second, Player):
            raise InvalidOptionError("a match needs two Players")

    def _players(self) -> list[Player]:
        return [self.first, self.second]

    def _config(self) -> dict[str, Any]:
        config = super()._config()
        if self.sprt is not None:
            config["sprt"] = [
                self.sprt.elo0,
                self.sprt.elo1,
                self.sprt.alpha,
                self.sprt.beta,
                self.sprt.model,
            ]
        return config

    def job(self, index: int) -> GameJob:
        """Game ``index``: pair ``index // 2``, A first on even games."""
        return self._pair_job(index, self.first, self.second, 0)

    def run(
        self,
        *,
        db: Any = None,
        jsonl: Any = None,
        pgn: Any = None,
        resume: bool = False,
        progress: Any = None,
        catalog: Catalog | None = None,
    ) -> MatchResult:
        """Play the match; Ctrl-C or SIGTERM raises RunInterrupted after the records are safe."""
        names = (self.first.name, self.second.name)

        def decided(games: list[GameResult]) -> bool:
            return (
                self.sprt is not None
                and MatchResult(names, games, self.sprt).decision() is not None
            )

        if progress is not None:
            progress.bind(lambda games: MatchResult(names, games, self.sprt))
        games, status = self._play(
            self.games,
            self.job,
            decided,
            db=db,
            jsonl=jsonl,
            pgn=pgn,
            resume=resume,
            progress=progress,
            catalog=catalog,
        )
        return MatchResult(names, games, self.sprt, status)


@define
class MatchResult:
    """The games of a match and what they say about A (``names[0]``) against B."""

    names: tuple[str, str]
    games: list[GameResult]
    sprt_test: SPRT | None = None
    status: str = "finished"

    def wdl(self) -> WDL:
        """A's wins, draws and losses against B."""
        a = self.names[0]
        scores = [g.score_for(a) for g in self.games]
        return WDL.from_scores(scores)

    def pentanomial(self) -> Pentanomial:
        """Counts over the pairs whose two games both finished."""
        by_pair: dict[int, list[float]] = {}
        for g in self.games:
            by_pair.setdefault(g.pair, []).append(g.score_for(self.names[0]))
        return Pentanomial.from_pairs([(s[0], s[1]) for s in by_pair.values() if len(s) == 2])

    def elo(self) -> EloEstimate:
        """A's Elo over B, from the pairs when there are any (as fastchess reports it)."""
        return elo_estimate(self.wdl(), self.pentanomial())

    def los(self) -> float:
        """The likelihood that A is stronger than B."""
        return los(self.wdl())

    def llr(self) -> float | None:
        """The SPRT's log-likelihood ratio so far, or None without an SPRT."""
        if self.sprt_test is None:
            return None
        return self.sprt_test.llr(self.wdl(), self.pentanomial())

    def decision(self) -> str | None:
        """``"H0"``, ``"H1"`` or None (no SPRT, or not decided)."""
        if self.sprt_test is None:
            return None
        return self.sprt_test.test(self.wdl(), self.pentanomial())

    def sprt(self) -> dict[str, Any] | None:
        """The SPRT's state (llr, bounds, elo0, elo1, decision) as a dict, or None without one."""
        if self.sprt_test is None:
            return None
        return {
            "llr": self.llr(),
            "lower": self.sprt_test.lower_bound,
            "upper": self.sprt_test.upper_bound,
            "elo0": self.sprt_test.elo0,
            "elo1": self.sprt_test.elo1,
            "decision": self.decision(),
        }

    def to_dataframe(self) -> Any:
        """The games as a pandas DataFrame (pandas is optional)."""
        return games_dataframe(self.games)

    def summary(self) -> list[str]:
        """The report, in fastchess's words."""
        wdl, penta, elo = self.wdl(), self.pentanomial(), self.elo()
        lines = [
            f"Score of {self.names[0]} vs {self.names[1]}: {wdl.wins} - {wdl.losses} - "
            f"{wdl.draws} [{wdl.score:.3f}] {wdl.games}",
            f"Ptnml(0-2): {penta}",
            f"Elo difference: {elo}, LOS: {100 * self.los():.1f} %, "
            f"DrawRatio: {100 * wdl.draw_ratio:.1f} %",
        ]
        if self.sprt_test is not None:
            decision, llr = self.decision(), self.llr()
            verdict = f"{decision} accepted" if decision else "continue"
            if decision is None and llr is not None and self.sprt_test.decision(llr) is not None:
                verdict += " (every pair so far ended alike: no spread to judge by yet)"
            lines.append(
                f"SPRT {self.sprt_test}: LLR {self.llr():.2f} "
                f"({self.sprt_test.lower_bound:.2f}, {self.sprt_test.upper_bound:.2f}) - {verdict}"
            )
        return lines


@define
class Tournament(_Run):
    """Every pair of ``players`` (or the first against each other with ``gauntlet``) plays
    ``rounds`` colour-swapped pairs."""

    players: Sequence[Player] = field(default=(), kw_only=False)
    rounds: int = field(default=1, validator=_whole(1), kw_only=True)
    gauntlet: bool = field(default=False, kw_only=True)

    kind = "tournament"

    def __attrs_post_init__(self) -> None:
        self.players = list(self.players)
        if len(self.players) < 2 or not all(isinstance(p, Player) for p in self.players):
            raise InvalidOptionError("a tournament needs at least two Players")

    def _players(self) -> list[Player]:
        return list(self.players)

    def _config(self) -> dict[str, Any]:
        """The run's identity without ``rounds``: game ``i`` is the same game whatever the
        rounds, so ``--resume`` with more rounds extends a finished tournament."""
        config = super()._config()
        config.update(gauntlet=self.gauntlet)
        return config

    def encounters(self) -> list[tuple[int, int]]:
        """The pairs of player indices that meet: every pair, or the first against each other in a
        gauntlet."""
        count = len(self.players)
        if self.gauntlet:
            return [(0, j) for j in range(1, count)]
        return [(i, j) for i in range(count) for j in range(i + 1, count)]

    @property
    def total_games(self) -> int:
        """Games in the whole tournament: a colour-swapped pair per encounter per round."""
        return 2 * self.rounds * len(self.encounters())

    def job(self, index: int) -> GameJob:
        """Game ``index``: round by round, encounter by encounter, a pair each."""
        encounters = self.encounters()
        round_number, encounter = divmod(index // 2, len(encounters))
        i, j = encounters[encounter]
        return self._pair_job(index, self.players[i], self.players[j], round_number)

    def run(
        self,
        *,
        db: Any = None,
        jsonl: Any = None,
        pgn: Any = None,
        resume: bool = False,
        progress: Any = None,
        catalog: Catalog | None = None,
    ) -> TournamentResult:
        """Play the tournament (or what a resumed run lacks) and return its result; the options are
        those of ``Match.run``."""
        names = [p.name for p in self.players]
        if progress is not None:
            progress.bind(lambda games: TournamentResult(names, games))
        games, status = self._play(
            self.total_games,
            self.job,
            lambda games: False,
            db=db,
            jsonl=jsonl,
            pgn=pgn,
            resume=resume,
            progress=progress,
            catalog=catalog,
        )
        return TournamentResult(names, games, status)


@define
class Standing:
    """A player's line in a tournament table: results against the field and Elo over it."""

    name: str
    wdl: WDL
    elo: EloEstimate

    @property
    def points(self) -> float:
        """Wins plus half the draws."""
        return self.wdl.wins + 0.5 * self.wdl.draws


@define
class TournamentResult:
    """The games of a tournament, with standings and head-to-head results computed from them."""

    names: list[str]
    games: list[GameResult]
    status: str = "finished"

    def pairwise(self, a: str, b: str) -> WDL:
        """``a``'s results against ``b``."""
        scores = [g.score_for(a) for g in self.games if set(g.players) == {a, b}]
        return WDL.from_scores(scores)

    def standings(self) -> list[Standing]:
        """Players by points (then Elo), each with Elo ± CI against the opponents it met."""
        rows = []
        for name in self.names:
            scores = [g.score_for(name) for g in self.games if name in g.players]
            wdl = WDL.from_scores(scores)
            rows.append(Standing(name, wdl, elo_estimate(wdl)))
        order = {name: i for i, name in enumerate(self.names)}
        return sorted(rows, key=lambda s: (-s.points, -s.elo.elo, order[s.name]))

    def to_dataframe(self) -> Any:
        """The games as a pandas DataFrame (pandas is optional)."""
        return games_dataframe(self.games)


def games_dataframe(games: Sequence[GameResult]) -> Any:
    """The games as a pandas DataFrame (pandas is optional)."""
    try:
        import pandas
    except ImportError:
        raise InvalidOptionError("to_dataframe needs pandas: pip install pandas") from None
    return pandas.DataFrame([g.to_dict() for g in games])
