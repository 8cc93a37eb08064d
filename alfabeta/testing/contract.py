"""The contracts a game, evaluator or searcher plugin must keep, as checks that name the rule
they find broken.

Each ``check_*`` function runs seeded random play and raises :class:`ContractViolation`
(``rule``, message) at the first broken rule; it returns the number of positions it looked
at. The rules (``RULES``) follow OpenSpiel's checklist for games and alfabeta's contracts
for evaluators and searchers (``docs/architecture.md``).
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Sequence
from typing import Any

from alfabeta.core import AlfabetaError, Evaluator, Limit, Position, Result
from alfabeta.core.evaluator import as_evaluator
from alfabeta.core.scores import WIN

RULES = {
    # games
    "side-to-move": "side_to_move is 0 or 1",
    "legal-moves": "legal moves exist exactly while the game is ongoing, without duplicates, "
    "at most max_moves of them",
    "mark-noisy": "mark_noisy calls noisy exactly the legal moves generate_noisy gives",
    "unmake-restores": "push then pop restores the whole state and its key",
    "copy": "copy() gives an equal, independent position",
    "string-round-trip": "from_string(to_string()) gives the same state and key",
    "pickle": "a pickled position comes back equal, with its move stack",
    "outcome": "outcome() is a Result and survives a round trip",
    "key": "equal states have equal keys; states with the same key have the same side to move",
    "move-text": "parse_move(move_str(m)) == m for every legal move",
    "move-class": "history_class(m) (the C-level move_class) lies in 0 … 767 for every legal move",
    "bounded-length": "a game declaring max_game_length ends within it",
    "bad-move-rejected": "a malformed or illegal move raises a typed error and changes nothing",
    # evaluators
    "evaluator-applies": "the evaluator applies to the game",
    "evaluator-int": "evaluate returns an int below a proven score, never a float or NaN",
    "evaluator-pure": "evaluate leaves the position unchanged and gives the same value twice",
    "evaluator-mirror": "a mirrored position (colours and side to move swapped) scores the "
    "same: the side to move's view",
    # searchers
    "searcher-move": "a search of an ongoing position returns one of its legal moves",
    "searcher-position": "the position is exactly as it was after the search",
    "searcher-prepare": "the evaluator's prepare is called once per search, at the root",
    "searcher-deterministic": "the same search twice gives the same move, value and counts",
    "searcher-limits": "a depth or node limit is honoured (or refused with a typed error)",
    "searcher-exact": "an exact searcher returns the minimax value on random trees",
}
MOVE_CLASSES = 768  # the position contract's move classes: 0 … 767
NODE_SLACK = 4096  # compiled searchers read the node limit every few thousand nodes
BAD_MOVES = ("", "zz", "-1", "1-2-3", "99999", "e9e9", "\x00")


class ContractViolation(AssertionError):
    """A plugin broke ``rule`` (a key of ``RULES``); the message says where and how."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"[{rule}] {RULES[rule]}: {message}")
        self.rule = rule


def _require(condition: bool, rule: str, message: str | Callable[[], str]) -> None:
    if not condition:
        raise ContractViolation(rule, message() if callable(message) else message)


def _state(position: Position) -> tuple[str, int]:
    return position.to_string(), position.key()


def playout_positions(start: Position, playouts: int, seed: int, max_plies: int) -> list[Position]:
    """Copies of the positions met on ``playouts`` seeded random games from ``start``."""
    rng = random.Random(seed)
    seen = [start.copy()]
    for _ in range(playouts):
        position = start.copy()
        for _ in range(max_plies):
            moves = position.legal_moves()
            if not moves:
                break
            position.push(rng.choice(moves))
            seen.append(position.copy())
    return seen


def _check_position(position: Position, keys: dict[Any, tuple[Any, str]]) -> list[int]:
    where = repr(position.to_string())
    _require(
        position.side_to_move in (0, 1), "side-to-move", f"{position.side_to_move!r} at {where}"
    )
    moves = position.legal_moves()
    status = position.outcome()
    _require(isinstance(status, Result), "outcome", f"{status!r} at {where}")
    _require(
        (status == Result.ONGOING) == bool(moves),
        "legal-moves",
        lambda: f"{len(moves)} legal moves while the outcome is {status.name} at {where}",
    )
    _require(len(moves) == len(set(moves)), "legal-moves", f"a move listed twice at {where}")
    max_moves = getattr(position, "max_moves", None)
    _require(
        max_moves is None or len(moves) <= max_moves,
        "legal-moves",
        f"{len(moves)} moves but max_moves is {max_moves} at {where}",
    )
    noisy = set(position.noisy_moves())
    _require(
        position.noisy_flags(moves) == [move in noisy for move in moves],
        "mark-noisy",
        f"mark_noisy disagrees with generate_noisy at {where}",
    )
    text, key = _state(position)
    previous = keys.setdefault(text, (key, text))
    _require(previous[0] == key, "key", f"the state {where} had keys {previous[0]} and {key}")
    other = keys.setdefault(("key", key), (position.side_to_move, text))
    _require(
        other[0] == position.side_to_move,
        "key",
        f"{other[1]!r} and {text!r} share the key {key} but not the side to move",
    )
    again = position.from_string(text)
    _require(
        _state(again) == (text, key),
        "string-round-trip",
        lambda: f"{where} came back as {again.to_string()!r} with key {again.key()}",
    )
    repetition = getattr(position, "termination", lambda: "")() == "repetition"
    _require(
        again.outcome() == status or repetition,
        "outcome",
        lambda: f"{status.name} at {where} but {again.outcome().name} after from_string",
    )
    twin = pickle.loads(pickle.dumps(position))
    _require(
        _state(twin) == (text, key) and twin.move_stack == position.move_stack,
        "pickle",
        f"{where} came back as {twin.to_string()!r}",
    )
    twin = position.copy()
    _require(_state(twin) == (text, key), "copy", f"the copy of {where} differs")
    if moves:
        twin.push(moves[0])
        _require(_state(position) == (text, key), "copy", f"moving a copy changed {where}")
    for move in moves:
        text_move = position.move_str(move)
        _require(
            position.parse_move(text_move) == move,
            "move-text",
            f"{text_move!r} at {where} does not parse back to {move!r}",
        )
        move_class = position.history_class(move)
        _require(
            0 <= move_class < MOVE_CLASSES,
            "move-class",
            f"{text_move} at {where} has the class {move_class}",
        )
        position.push(move)
        position.pop()
        if _state(position) != (text, key):
            raise ContractViolation(
                "unmake-restores",
                f"after {text_move} and a take-back, {where} became "
                f"{position.to_string()!r} (key {position.key()} instead of {key})",
            )
    return moves


def _check_bad_moves(position: Position) -> None:
    text, key = _state(position)
    for bad in BAD_MOVES:
        try:
            move = position.parse_move(bad)
        except AlfabetaError:
            pass
        except Exception as error:
            raise ContractViolation(
                "bad-move-rejected", f"{bad!r} raised {type(error).__name__}: {error}"
            ) from None
        else:
            _require(
                move in position.legal_moves(),
                "bad-move-rejected",
                f"{bad!r} parsed to the illegal move {move!r}",
            )
        _require(_state(position) == (text, key), "bad-move-rejected", f"{bad!r} changed it")
    legal = set(position.legal_moves())
    illegal = next(m for m in (10**6, -1, *range(10**4)) if m not in legal)
    try:
        position.push(illegal)
    except AlfabetaError:
        pass
    except Exception as error:
        raise ContractViolation(
            "bad-move-rejected", f"push({illegal}) raised {type(error).__name__}: {error}"
        ) from None
    else:
        raise ContractViolation("bad-move-rejected", f"push({illegal}) was accepted")
    _require(_state(position) == (text, key), "bad-move-rejected", f"push({illegal}) changed it")


def check_game(position: Position, playouts: int = 6, seed: int = 0, max_plies: int = 200) -> int:
    """Every game rule on ``playouts`` random games from ``position`` (left unchanged)."""
    start = _state(position)
    _check_bad_moves(position)
    keys: dict[Any, tuple[Any, str]] = {}
    rng = random.Random(seed)
    limit = getattr(position, "max_game_length", None)
    checked = 0
    for _ in range(playouts):
        game = position.copy()
        plies = 0
        while True:
            moves = _check_position(game, keys)
            checked += 1
            if not moves:
                break
            if plies >= (max_plies if limit is None else limit):
                _require(
                    limit is None,
                    "bounded-length",
                    f"still going after {plies} plies; max_game_length is {limit}",
                )
                break
            game.push(rng.choice(moves))
            plies += 1
        while game.move_stack:
            game.pop()
        _require(
            _state(game) == start,
            "unmake-restores",
            f"taking back a whole game gave {game.to_string()!r}",
        )
    _require(_state(position) == start, "copy", "checking copies changed the position")
    return checked


def _value(evaluator: Evaluator, position: Position) -> int:
    where = repr(position.to_string())
    try:
        value = evaluator.evaluate(position)
    except AlfabetaError as error:
        raise ContractViolation("evaluator-int", f"at {where}: {error}") from None
    _require(
        isinstance(value, int) and not isinstance(value, bool),
        "evaluator-int",
        f"{value!r} at {where}",
    )
    _require(abs(value) < WIN - 1000, "evaluator-int", f"{value} at {where} looks proven")
    return value


def check_evaluator(
    evaluator: Evaluator,
    position: Position,
    playouts: int = 3,
    seed: int = 0,
    max_plies: int = 120,
) -> int:
    """The evaluator rules on positions of random games from ``position`` (a plain
    callable is wrapped as every searcher wraps it)."""
    evaluator = as_evaluator(evaluator)
    name = getattr(position, "name", "?")
    applies = getattr(evaluator, "applies_to", None)
    _require(applies is None or applies(name), "evaluator-applies", f"not to {name}")
    positions = [
        p for p in playout_positions(position, playouts, seed, max_plies) if not p.is_over()
    ]
    for root in positions:
        before = _state(root)
        evaluator.prepare(root)
        first = _value(evaluator, root)
        _require(
            _value(evaluator, root) == first and _state(root) == before,
            "evaluator-pure",
            f"at {root.to_string()!r}",
        )
        mirror = getattr(root, "mirror", None)
        if mirror is not None:
            image = mirror()
            evaluator.prepare(image)
            mirrored = _value(evaluator, image)
            _require(
                mirrored == first,
                "evaluator-mirror",
                f"{first} at {root.to_string()!r} but {mirrored} at its mirror "
                f"{image.to_string()!r}",
            )
    return len(positions)


class _CountingEvaluator(Evaluator):
    """Passes evaluations through and counts ``prepare`` calls."""

    def __init__(self, inner: Evaluator) -> None:
        self.inner = inner
        self.prepared = 0

    @property
    def name(self) -> str:
        return getattr(self.inner, "name", "evaluator")

    @property
    def games(self) -> tuple[str, ...]:
        return tuple(getattr(self.inner, "games", ()))

    def __getattr__(self, name: str) -> Any:  # explain, plain, … of the evaluator inside
        return getattr(self.inner, name)

    def prepare(self, root: Position) -> None:
        self.prepared += 1
        self.inner.prepare(root)

    def evaluate(self, position: Position) -> int:
        return self.inner.evaluate(position)


def _search(searcher: Any, position: Position, evaluator: Evaluator, limit: Limit) -> Any:
    before = (*_state(position), position.move_stack)
    result = searcher.search(position, evaluator, limit)
    _require(
        (*_state(position), position.move_stack) == before,
        "searcher-position",
        lambda: f"{before[0]!r} became {position.to_string()!r}",
    )
    return result


def _limit_for(searcher: Any, position: Position, evaluator: Evaluator, depth: int) -> Limit:
    """A depth limit, or for a searcher that refuses one (MCTS) a node limit, or none."""
    for limit in (Limit(depth=depth), Limit(nodes=2000)):
        try:
            searcher.search(position.copy(), evaluator, limit)
        except AlfabetaError:
            continue
        return limit
    return Limit()


def check_searcher(
    make_searcher: Callable[[], Any],
    position: Position,
    evaluator: Evaluator,
    depth: int = 3,
    playouts: int = 2,
    seed: int = 0,
    exact_cases: Sequence[tuple[Position, Evaluator, int]] = (),
) -> int:
    """The searcher rules on positions of random games from ``position``; for an exact
    searcher, also the value on each ``(position, evaluator, minimax value)`` of
    ``exact_cases`` (searched to depth 64)."""
    evaluator = as_evaluator(evaluator)
    positions = [p for p in playout_positions(position, playouts, seed, 30) if not p.is_over()][:8]
    limit = _limit_for(make_searcher(), position, evaluator, depth)
    for root in positions:
        counting = _CountingEvaluator(evaluator)
        result = _search(make_searcher(), root, counting, limit)
        where = repr(root.to_string())
        _require(
            result.move in root.legal_moves(),
            "searcher-move",
            f"{result.move!r} at {where}",
        )
        _require(
            counting.prepared == 1,
            "searcher-prepare",
            f"prepare was called {counting.prepared} times searching {where}",
        )
        _require(
            limit.depth is None or result.depth is None or result.depth <= depth,
            "searcher-limits",
            f"depth {result.depth} reported for a depth-{depth} limit at {where}",
        )
        again = _search(make_searcher(), root, evaluator, limit)
        _require(
            (again.move, again.value, again.nodes) == (result.move, result.value, result.nodes),
            "searcher-deterministic",
            f"at {where}: {result.move}/{result.value}/{result.nodes} nodes, then "
            f"{again.move}/{again.value}/{again.nodes}",
        )
        nodes = 200
        try:
            limited = _search(make_searcher(), root, evaluator, Limit(nodes=nodes))
        except AlfabetaError:
            continue  # a limit the searcher cannot honour is refused: allowed
        _require(
            limited.nodes <= nodes + NODE_SLACK,
            "searcher-limits",
            f"{limited.nodes} nodes searched under a {nodes}-node limit at {where}",
        )
    for tree, leaves, wanted in exact_cases:
        result = _search(make_searcher(), tree, leaves, Limit(depth=64))
        _require(
            result.value == wanted,
            "searcher-exact",
            f"value {result.value} on {tree.to_string()!r}, minimax says {wanted}",
        )
    return len(positions)
