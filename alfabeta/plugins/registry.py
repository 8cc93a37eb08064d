"""Registries: one per kind (game, searcher, evaluator). A registry rejects duplicate names,
resolves aliases, validates options against the factory's signature, and suggests the
closest name when asked for an unknown one."""

from __future__ import annotations

import ast
import difflib
import inspect
from collections.abc import Callable, Iterator
from typing import Any

from attrs import frozen

from alfabeta.core.errors import DuplicateNameError, InvalidOptionError, UnknownPluginError
from alfabeta.plugins.spec import NAME


def _signature(factory: Callable[..., Any]) -> inspect.Signature:
    """The factory's signature; for a compiled extension type, the one Cython embeds as the
    first line of its docstring (``Name(option=default, ...)``), parsed as Python syntax and
    never executed. Parameter names and kinds are exact; defaults are not evaluated."""
    try:
        return inspect.signature(factory)
    except ValueError:
        first_line = (getattr(factory, "__doc__", None) or "").split("\n", 1)[0]
        name = getattr(factory, "__name__", "")
        if not first_line.startswith(f"{name}(") or not first_line.endswith(")"):
            raise
        try:
            tree = ast.parse(f"def {name}{first_line[len(name) :]}: pass")
        except SyntaxError:
            raise ValueError(f"{name}: unreadable embedded signature {first_line!r}") from None
        function = tree.body[0]
        assert isinstance(function, ast.FunctionDef)
        return _from_arguments(function.args)


def _default(node: ast.expr) -> Any:
    """A default as its value when it is a literal, else as its source text."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        return ast.unparse(node)


def _from_arguments(arguments: ast.arguments) -> inspect.Signature:
    kind = inspect.Parameter
    positional = [*arguments.posonlyargs, *arguments.args]
    first_default = len(positional) - len(arguments.defaults)
    parameters = [
        kind(
            a.arg,
            kind.POSITIONAL_ONLY if i < len(arguments.posonlyargs) else kind.POSITIONAL_OR_KEYWORD,
            default=_default(arguments.defaults[i - first_default])
            if i >= first_default
            else kind.empty,
        )
        for i, a in enumerate(positional)
    ]
    if arguments.vararg is not None:
        parameters.append(kind(arguments.vararg.arg, kind.VAR_POSITIONAL))
    for a, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        parameters.append(
            kind(
                a.arg,
                kind.KEYWORD_ONLY,
                default=kind.empty if default is None else _default(default),
            )
        )
    if arguments.kwarg is not None:
        parameters.append(kind(arguments.kwarg.arg, kind.VAR_KEYWORD))
    return inspect.Signature(parameters)


@frozen
class Entry:
    """One registered name: its factory, where it came from, and what it says of itself."""

    kind: str
    name: str
    factory: Callable[..., Any]
    origin: str
    aliases: tuple[str, ...] = ()
    description: str = ""
    games: tuple[str, ...] = ()

    def option_names(self) -> list[str] | None:
        """The keyword options the factory accepts, or None if it takes any (**kwargs)."""
        try:
            parameters = _signature(self.factory).parameters.values()
        except (TypeError, ValueError):
            return None
        if any(p.kind is p.VAR_KEYWORD for p in parameters):
            return None
        return [
            p.name
            for p in parameters
            if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "self"
        ]

    def create(self, options: dict[str, Any]) -> Any:
        """Build the plugin with ``options``; an option its factory does not take raises
        InvalidOptionError naming the known ones."""
        known = self.option_names()
        if known is not None:
            for key in options:
                if key not in known:
                    close = difflib.get_close_matches(key, known, n=1)
                    hint = f"; did you mean {close[0]!r}?" if close else ""
                    listing = ", ".join(known) if known else "none"
                    raise InvalidOptionError(
                        f"{self.kind} {self.name!r} has no option {key!r}{hint} "
                        f"(options: {listing})"
                    )
        try:
            return self.factory(**options)
        except InvalidOptionError:
            raise
        except (TypeError, ValueError) as error:
            raise InvalidOptionError(f"{self.kind} {self.name!r}: {error}") from error


class Registry:
    """Names (and aliases) of one kind of plugin, each bound to an Entry."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, Entry] = {}
        self._aliases: dict[str, str] = {}

    def add(self, entry: Entry) -> None:
        """Register ``entry``; a name or alias already taken raises PluginError."""
        for name in (entry.name, *entry.aliases):
            if not NAME.match(name):
                raise InvalidOptionError(f"{self.kind} name {name!r} is not a valid name")
            if name in self._entries or name in self._aliases:
                holder = self.get(name)
                raise DuplicateNameError(
                    f"{self.kind} name {name!r} from {entry.origin} is already registered by "
                    f"{holder.origin}"
                )
        self._entries[entry.name] = entry
        for alias in entry.aliases:
            self._aliases[alias] = entry.name

    def get(self, name: str) -> Entry:
        """The entry called ``name`` (or an alias); an unknown name raises UnknownPluginError with
        the closest names."""
        name = self._aliases.get(name, name)
        try:
            return self._entries[name]
        except KeyError:
            known = sorted([*self._entries, *self._aliases])
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise UnknownPluginError(
                f"unknown {self.kind} {name!r}.{hint} Known {self.kind}s: {', '.join(known)}"
            ) from None

    def __contains__(self, name: str) -> bool:
        return name in self._entries or name in self._aliases

    def __iter__(self) -> Iterator[Entry]:
        return iter(sorted(self._entries.values(), key=lambda e: e.name))

    def __len__(self) -> int:
        return len(self._entries)

    def names(self) -> list[str]:
        """The registered names, sorted."""
        return sorted(self._entries)
