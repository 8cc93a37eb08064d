"""``name(key=value, ...)`` specifications: how users name a game, searcher or evaluator with
options anywhere (CLI, scripts, configs), e.g. ``fibonacci-nim(n=21)``,
``py-alphabeta(depth=6, fail=soft)``, ``tree(nodes=[[8,12],[6]], order=best)``.

Values are Python literals (numbers, strings, lists, True/False/None); bare words are strings,
and ``on``/``off``/``true``/``false``/``yes``/``no`` are booleans.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from alfabeta.core.errors import SpecSyntaxError, excerpt

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.*+-]*\Z")
WORDS = {
    "on": True,
    "off": False,
    "true": True,
    "false": False,
    "yes": True,
    "no": False,
    "none": None,
}


WORD = re.compile(r"[A-Za-z_./~][A-Za-z0-9_.*+/~-]*\Z")  # words and paths
KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
OPENERS, CLOSERS = "([{", ")]}"


def _split_top_level(text: str, offset: int, whole: str) -> list[tuple[str, int]]:
    """Split ``text`` at commas outside brackets and quotes; each part with its column."""
    parts, depth, quote, start = [], 0, None, 0
    for i, char in enumerate(text):
        if quote:
            if char == quote and text[i - 1] != "\\":
                quote = None
        elif char in "'\"":
            quote = char
        elif char in OPENERS:
            depth += 1
        elif char in CLOSERS:
            depth -= 1
            if depth < 0:
                raise SpecSyntaxError(
                    f"{excerpt(whole)}: unbalanced {char!r} at column {offset + i + 1}"
                )
        elif char == "," and depth == 0:
            parts.append((text[start:i], offset + start))
            start = i + 1
    if quote or depth:
        raise SpecSyntaxError(f"{excerpt(whole)}: unclosed {'quote' if quote else 'bracket'}")
    parts.append((text[start:], offset + start))
    return parts


def _value(text: str, key: str, column: int, whole: str) -> Any:
    text = text.strip()
    if WORD.match(text) and text.lower() in WORDS:
        return WORDS[text.lower()]
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        if WORD.match(text):
            return text
        raise SpecSyntaxError(
            f"{excerpt(whole)}: the value of {key} (column {column + 1}) is not a number, string, "
            "list or word"
        ) from None


def parse_spec(text: str) -> tuple[str, dict[str, Any]]:
    """Split ``text`` into its name and its options."""
    whole = text
    text = text.strip()
    name, paren, rest = text.partition("(")
    name = name.strip()
    if not NAME.match(name):
        raise SpecSyntaxError(
            f"{excerpt(whole)}: a name starts with a letter and holds letters, digits, "
            "'-', '_', '*'"
        )
    if not paren:
        return name, {}
    rest = rest.rstrip()
    if not rest.endswith(")"):
        raise SpecSyntaxError(f"{excerpt(whole)}: missing ')' at the end")
    body, offset = rest[:-1], len(name) + 1
    options: dict[str, Any] = {}
    if not body.strip():
        return name, options
    for part, column in _split_top_level(body, offset, whole):
        key, equals, value = part.partition("=")
        key = key.strip()
        if not equals or not KEY.match(key):
            raise SpecSyntaxError(
                f"{excerpt(whole)}: options are written key=value (column {column + 1}: "
                f"{excerpt(part.strip())})"
            )
        if key in options:
            raise SpecSyntaxError(f"{excerpt(whole)}: option {key} is given twice")
        options[key] = _value(value, key, column + len(key) + 1, whole)
    return name, options


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of specs, commas inside parentheses kept:
    ``"alphabeta(tt=on, depth=3),negascout"`` gives two."""
    return [part.strip() for part, _ in _split_top_level(text, 0, text) if part.strip()]


def format_spec(name: str, options: dict[str, Any]) -> str:
    """The inverse of parse_spec: ``name(key=value, ...)`` with repr'd values."""
    if not options:
        return name
    return f"{name}({', '.join(f'{k}={v!r}' for k, v in options.items())})"
