"""The Catalog: a plugin manager plus the three registries, built by ``load_catalog``.

Loading is per plugin and fault tolerant (design §5): the entry points of the ``alfabeta``
group are imported one by one; a plugin that fails to import, whose registration hook raises,
or that registers a taken name is reported in ``catalog.failures`` (plugin, distribution,
version, error) and the rest load. ``ALFABETA_DISABLE_PLUGIN_AUTOLOAD=1`` loads only
alfabeta's own plugins; ``ALFABETA_BLOCK=name,name`` (or ``block=``) skips plugins by entry-point
name. There is no module-level plugin manager: each Catalog owns its own.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

import pluggy
from attrs import frozen

from alfabeta.core import (
    Evaluator,
    FunctionEvaluator,
    IncompatibleEvaluatorError,
    Position,
    PythonGame,
)
from alfabeta.core.errors import AlfabetaError, InvalidOptionError
from alfabeta.plugins import hookspecs
from alfabeta.plugins.markers import PROJECT
from alfabeta.plugins.registry import Entry, Registry
from alfabeta.plugins.spec import parse_spec

ENTRY_POINT_GROUP = "alfabeta"
AUTOLOAD_ENV = "ALFABETA_DISABLE_PLUGIN_AUTOLOAD"
BLOCK_ENV = "ALFABETA_BLOCK"
OWN_DISTRIBUTION = "alfabeta"

# alfabeta's own plugins, by entry-point name: registered through the entry-point group when the
# package is installed, and directly when autoloading is off or the metadata is absent.
BUILTIN_PLUGINS = {
    "games": "alfabeta.games.plugin",
    "tictactoe": "alfabeta.games.tictactoe",
    "evaluators": "alfabeta.evaluators.plugin",
    "reference": "alfabeta.searchers.reference",
    "compiled": "alfabeta.searchers.compiled",
    "thesis": "alfabeta.searchers.thesis",
    "dual-eval": "alfabeta.searchers.dual_eval",
}
REGISTRATION_HOOKS = {
    "game": "register_games",
    "searcher": "register_searchers",
    "evaluator": "register_evaluators",
}


@frozen
class PluginInfo:
    """A loaded plugin module and the distribution that provides it."""

    name: str
    module: str
    distribution: str
    version: str


@frozen
class PluginFailure:
    """A plugin that could not load or register, and why."""

    plugin: str
    distribution: str
    version: str
    error: str

    def __str__(self) -> str:
        return f"plugin {self.plugin!r} ({self.distribution} {self.version}): {self.error}"


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no", "off")


class Catalog:
    """What the loaded plugins offer: ``games``, ``searchers``, ``evaluators`` registries,
    the ``plugins`` that loaded and the ``failures`` of those that did not."""

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager(PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.games = Registry("game")
        self.searchers = Registry("searcher")
        self.evaluators = Registry("evaluator")
        self.plugins: list[PluginInfo] = []
        self.failures: list[PluginFailure] = []
        self.blocked: list[str] = []
        self._info: dict[str, PluginInfo] = {}

    # ---- loading ---------------------------------------------------------------------------
    def add_plugin(
        self,
        module: ModuleType | object,
        name: str,
        distribution: str = "(direct)",
        version: str = "",
    ) -> bool:
        """Register ``module``'s hooks and run its registration hooks; False if it failed."""
        if self.pm.is_registered(module) or self.pm.has_plugin(name):
            return True
        info = PluginInfo(name, getattr(module, "__name__", repr(module)), distribution, version)
        try:
            self.pm.register(module, name=name)
        except Exception as error:  # pluggy validation: bad hook names or signatures
            self._fail(info, f"{type(error).__name__}: {error}")
            return False
        self.plugins.append(info)
        self._info[name] = info
        ok = True
        for kind, hook_name in REGISTRATION_HOOKS.items():
            ok &= self._run_registration(info, kind, hook_name)
        return ok

    def _registry(self, kind: str) -> Registry:
        return {"game": self.games, "searcher": self.searchers, "evaluator": self.evaluators}[kind]

    def _run_registration(self, info: PluginInfo, kind: str, hook_name: str) -> bool:
        caller = getattr(self.pm.hook, hook_name)
        impls = [impl for impl in caller.get_hookimpls() if impl.plugin_name == info.name]
        staged: list[Entry] = []

        def register(
            name: str,
            factory: Any,
            *,
            aliases: Iterable[str] = (),
            description: str = "",
            games: Iterable[str] = (),
        ) -> None:
            if not callable(factory):
                raise AlfabetaError(f"{kind} {name!r}: factory {factory!r} is not callable")
            if isinstance(aliases, str) or isinstance(games, str):
                raise AlfabetaError(f"{kind} {name!r}: aliases and games are sequences of names")
            staged.append(
                Entry(kind, name, factory, info.name, tuple(aliases), description, tuple(games))
            )

        ok = True
        for impl in impls:
            staged.clear()
            try:
                impl.function(register=register)
            except Exception as error:
                self._fail(info, f"{hook_name} raised {type(error).__name__}: {error}")
                ok = False
                continue
            for entry in staged:
                try:
                    self._registry(kind).add(entry)
                except AlfabetaError as error:
                    self._fail(info, str(error))
                    ok = False
        return ok

    def _block(self, name: str) -> None:
        if name not in self.blocked:
            self.blocked.append(name)

    def _fail(self, info: PluginInfo, error: str) -> None:
        self.failures.append(PluginFailure(info.name, info.distribution, info.version, error))

    def load_entry_points(self, block: Iterable[str] = (), own: bool = False) -> None:
        """Load the plugins of the ``alfabeta`` entry-point group, except the blocked ones:
        alfabeta's own (``own=True``) or everyone else's, by distribution and name, so the
        order, and who wins a name clash, is deterministic."""
        block = set(block)

        def order(ep: Any) -> tuple[str, str]:
            return (ep.dist.name if ep.dist is not None else "", ep.name)

        for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=order):
            dist = ep.dist.name if ep.dist is not None else "(unknown)"
            version = ep.dist.version if ep.dist is not None else ""
            if (dist == OWN_DISTRIBUTION) != own:
                continue
            if ep.name in block:
                self._block(ep.name)
                continue
            try:
                module = ep.load()
            except Exception as error:
                self.failures.append(
                    PluginFailure(
                        ep.name, dist, version, f"import failed: {type(error).__name__}: {error}"
                    )
                )
                continue
            self.add_plugin(module, ep.name, dist, version)

    def load_builtins(self, block: Iterable[str] = ()) -> None:
        """Register alfabeta's own plugins that are not loaded yet (no metadata, autoload off)."""
        for name, module_name in BUILTIN_PLUGINS.items():
            if name in block:
                self._block(name)
                continue
            if not self.pm.has_plugin(name):
                self.add_plugin(
                    importlib.import_module(module_name), name, OWN_DISTRIBUTION, _own_version()
                )

    # ---- creating things by spec -----------------------------------------------------------
    def game(self, spec: str) -> Position:
        """A new game position from ``spec``, e.g. ``"fibonacci-nim(n=21)"``."""
        name, options = parse_spec(spec)
        made = self.games.get(name).create(options)
        return made if isinstance(made, Position) else PythonGame(made)

    def searcher(self, spec: str) -> Any:
        """A searcher from ``spec``, e.g. ``"py-alphabeta(depth=4, fail=soft)"``."""
        name, options = parse_spec(spec)
        return self.searchers.get(name).create(options)

    def evaluator(self, spec: str, game: Position | str | None = None) -> Evaluator:
        """An evaluator from ``spec``; with ``game``, checks that it applies to that game."""
        name, options = parse_spec(spec)
        entry = self.evaluators.get(name)
        if isinstance(entry.factory, type):
            made = entry.create(options)
        elif options:
            raise InvalidOptionError(f"evaluator {entry.name!r} takes no options")
        else:  # a plain scoring function f(position) -> int
            made = entry.factory
        if not isinstance(made, Evaluator):
            made = FunctionEvaluator(made, name=entry.name, games=entry.games)
        if game is not None:
            game_name = game if isinstance(game, str) else game.name
            applies = entry.games or getattr(made, "games", ())
            if applies and game_name not in applies:
                raise IncompatibleEvaluatorError(
                    f"evaluator {entry.name!r} applies to {', '.join(applies)}, not {game_name!r}"
                )
        return made

    def default_evaluator(self, position: Position) -> Evaluator:
        """The evaluator a game names as its default (``default_evaluator``)."""
        game = getattr(position, "game", position)
        name = getattr(game, "default_evaluator", None)
        if name is None:
            raise IncompatibleEvaluatorError(
                f"game {position.name!r} names no default evaluator; give one explicitly"
            )
        return self.evaluator(name, position)

    def playing_evaluator(self, position: Position) -> Evaluator:
        """The evaluator to play ``position``'s game with when none is named: the game's
        strongest (``play_evaluator``, e.g. chess's), else its default."""
        game = getattr(position, "game", position)
        name = getattr(game, "play_evaluator", None)
        return self.evaluator(name, position) if name else self.default_evaluator(position)

    def observed(self, searcher: Any) -> Any:
        """``searcher`` with this catalog's observer hooks around each search."""
        from alfabeta.plugins.observe import Observed

        return Observed(searcher, self.notify)

    def entries(self) -> list[Entry]:
        """Every registered game, searcher and evaluator."""
        return [*self.games, *self.searchers, *self.evaluators]

    def plugin_info(self, name: str) -> PluginInfo | None:
        """The distribution and version of plugin ``name``, or None."""
        return self._info.get(name)

    # ---- observers -------------------------------------------------------------------------
    def notify(self, hook_name: str, **kwargs: Any) -> list[PluginFailure]:
        """Call every observer of ``hook_name``; an observer that raises is reported in the
        returned list (and in ``failures``) instead of ending the search or game."""
        errors = []
        for impl in getattr(self.pm.hook, hook_name).get_hookimpls():
            try:
                impl.function(**{arg: kwargs[arg] for arg in impl.argnames})
            except Exception as error:
                info = self._info.get(impl.plugin_name) or PluginInfo(
                    impl.plugin_name, "", "(direct)", ""
                )
                failure = PluginFailure(
                    info.name,
                    info.distribution,
                    info.version,
                    f"{hook_name} raised {type(error).__name__}: {error}",
                )
                self.failures.append(failure)
                errors.append(failure)
        return errors


def _own_version() -> str:
    from alfabeta import __version__

    return __version__


def load_catalog(
    *,
    autoload: bool | None = None,
    block: Iterable[str] | None = None,
    plugins: Iterable[tuple[str, object]] = (),
) -> Catalog:
    """A Catalog with alfabeta's own plugins, then the installed ones (unless ``autoload`` is
    False or ALFABETA_DISABLE_PLUGIN_AUTOLOAD is set), then ``plugins`` given as (name,
    module). The own plugins load first, so no other plugin can take their names."""
    if autoload is None:
        autoload = not _env_flag(AUTOLOAD_ENV)
    if block is None:
        block = [b.strip() for b in os.environ.get(BLOCK_ENV, "").split(",") if b.strip()]
    block = list(block)
    catalog = Catalog()
    catalog.load_entry_points(block, own=True)
    catalog.load_builtins(block)
    if autoload:
        catalog.load_entry_points(block)
    for name, module in plugins:
        catalog.add_plugin(module, name)
    return catalog
