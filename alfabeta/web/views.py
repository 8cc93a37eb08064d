"""What the web page's API returns, as plain JSON-ready data, computed away from the event loop:
the catalog, the runs of a results database, the searchers compared on a tree, an evaluator's
account of a position, and a bench file's records."""

from __future__ import annotations

import json
import math
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from alfabeta.core import InvalidOptionError
from alfabeta.web.boards import draw

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog

MAX_TREE_LEAVES = 4096  # a tree drawn on the page: larger ones are unreadable anyway
MAX_COMPARED = 6
DEFAULT_COMPARED = ["alphabeta", "negascout", "sss*", "mtdf(iterative=off)"]
TREE_PRESETS = {
    "survey T1 (cases 1-5)": [[8, 12, 10], [6, 15, 9], [14, 11, 5]],
    "survey T3": [[-5, 10], [-4, -2]],
    "survey T4 (NegaScout)": [[[3, 17], [2, 12]], [[15, 25], [0, 2]]],
    "survey T5": [[[3, 4], [8, 2]], [[5, 1], [6, 7]], [[9, 0], [2, 6]]],
    "survey T6 (SSS*)": [
        [[[7, 1], [2, 4]], [[9, 1], [1, 9]]],
        [[[1, 2], [3, 9]], [[6, 6], [2, 9]]],
    ],
    "thesis deduction (kb4: a from j, v, z)": "deduction",
}


# ---- catalog --------------------------------------------------------------------------------
def catalog_listing(catalog: Catalog) -> dict[str, list[dict[str, Any]]]:
    """The registered games, searchers and evaluators with their descriptions."""

    def entries(registry: Any) -> list[dict[str, Any]]:
        return [
            {"name": e.name, "description": e.description, "games": list(e.games)} for e in registry
        ]

    return {
        "games": entries(catalog.games),
        "searchers": entries(catalog.searchers),
        "evaluators": entries(catalog.evaluators),
    }


# ---- runs -----------------------------------------------------------------------------------
def runs(db_path: str) -> list[dict[str, Any]]:
    """Every run of the database with its players and progress."""
    from alfabeta.arena.records import open_existing

    db = open_existing(db_path)
    try:
        return [
            {
                "id": info.id,
                "kind": info.kind,
                "game": info.config["game"],
                "players": [p["name"] for p in info.config["players"]],
                "status": info.status,
                "created": info.created,
                "requested": info.requested,
                "played": len(db.games(info.id)),
            }
            for info in db.runs()
        ]
    finally:
        db.close()


def run(db_path: str, run_id: int) -> dict[str, Any]:
    """One run: its table (a match's score, Elo ± CI, LOS and SPRT; a tournament's standings
    and crosstable; an SPSA tuning's values) and its games."""
    from alfabeta.arena.match import MatchResult, TournamentResult
    from alfabeta.arena.rating import SPRT
    from alfabeta.arena.records import open_existing
    from alfabeta.arena.spsa import TuningResult

    db = open_existing(db_path)
    try:
        info = db.run(run_id)
        games = db.games(run_id)
    finally:
        db.close()
    names = [p["name"] for p in info.config["players"]]
    account: dict[str, Any] = {
        "id": info.id,
        "kind": info.kind,
        "game": info.config["game"],
        "status": info.status,
        "requested": info.requested,
        "played": len(games),
        "players": names,
        "games": [
            {
                "index": g.index,
                "players": list(g.players),
                "result": g.result,
                "termination": g.termination,
                "plies": g.plies,
                "opening": g.opening_name,
            }
            for g in games
        ],
    }
    if info.kind == "spsa":
        tuning = TuningResult.from_config(info.config, games, info.status)
        account["tuning"] = {"values": tuning.values(), "summary": tuning.summary()}
    elif info.kind == "match":
        sprt = SPRT(*info.config["sprt"]) if info.config.get("sprt") else None
        result = MatchResult((names[0], names[1]), games, sprt, info.status)
        wdl, elo = result.wdl(), result.elo()
        account["match"] = {
            "wins": wdl.wins,
            "draws": wdl.draws,
            "losses": wdl.losses,
            "elo": _finite(elo.elo),
            "error": _finite(elo.error),
            "los": _finite(result.los()),
            "sprt": result.sprt(),
            "summary": result.summary(),
        }
    else:
        table = TournamentResult(names, games, info.status)
        standings = table.standings()
        order = [s.name for s in standings]
        account["standings"] = [
            {
                "name": s.name,
                "points": s.points,
                "games": s.wdl.games,
                "elo": _finite(s.elo.elo),
                "error": _finite(s.elo.error),
                "against": [
                    None if other == s.name else _wdl_text(table.pairwise(s.name, other))
                    for other in order
                ],
            }
            for s in standings
        ]
    return account


def run_game(catalog: Catalog, db_path: str, run_id: int, index: int) -> dict[str, Any]:
    """A recorded game ply by ply: each position's drawing (or text) and the moves."""
    from alfabeta.arena.records import open_existing

    db = open_existing(db_path)
    try:
        db.run(run_id)  # an unknown run is an error of its own
        games = {g.index: g for g in db.games(run_id)}
    finally:
        db.close()
    if index not in games:
        raise InvalidOptionError(f"run {run_id} has no game {index}")
    game = games[index]
    position = catalog.game(game.game).from_string(game.start)
    plies = [_frame(position, None)]
    for text in game.moves:
        position.push(position.parse_move(text))
        plies.append(_frame(position, text))
    return {
        "index": game.index,
        "players": list(game.players),
        "result": game.result,
        "termination": game.termination,
        "reason": game.reason,
        "moves": list(game.moves),
        "scores": list(game.scores),
        "plies": plies,
    }


def _frame(position: Any, last: str | None) -> dict[str, Any]:
    board = draw(position, last)
    return {"svg": board.svg if board else None, "text": str(position), "last": last}


def _finite(value: float) -> float | None:
    return None if math.isinf(value) or math.isnan(value) else round(value, 2)


def _wdl_text(wdl: Any) -> str:
    return f"{wdl.wins}-{wdl.draws}-{wdl.losses}" if wdl.games else ""


# ---- searchers on a tree --------------------------------------------------------------------
def compare_on_tree(catalog: Catalog, tree: Any, searchers: Any) -> dict[str, Any]:
    """Each searcher on the same explicit tree: its value and move, the leaves it evaluated in
    order, the nodes it entered and those it cut (no leaf below evaluated). The tree comes with
    every node's minimax value (MAX at the root). ``tree`` is a nested list of numbers or a
    preset's name."""
    if isinstance(tree, str):
        if tree not in TREE_PRESETS:
            raise InvalidOptionError(f"tree preset {tree!r}: expected one of {list(TREE_PRESETS)}")
        tree = TREE_PRESETS[tree]
        if tree == "deduction":
            return _deduction_tree(catalog, searchers)
    _check_tree(tree)
    specs = list(searchers or DEFAULT_COMPARED)
    if not specs or len(specs) > MAX_COMPARED or not all(isinstance(s, str) for s in specs):
        raise InvalidOptionError(f"searchers: give 1 to {MAX_COMPARED} searcher specs")
    position = catalog.game(f"tree(nodes={json.dumps(tree)})")
    compared = []
    for spec in specs:
        searcher = catalog.searcher(spec)
        evaluator = catalog.evaluator("tree-leaves(log=true)", position)
        windows: dict[str, list] = {}
        if getattr(searcher, "name", "") == "py-alphabeta":  # it reports each node's window
            result = searcher.search(position, evaluator, on_node=_recorder(windows))
        else:
            result = searcher.search(position, evaluator)
        order = evaluator.visited()
        entered = {"ε"} | {
            ".".join(leaf.split(".")[:k]) for leaf in order for k in range(1, leaf.count(".") + 2)
        }
        compared.append(
            {
                "searcher": spec,
                "value": result.value,
                "move": position.move_str(result.move) if result.move is not None else None,
                "nodes": result.nodes,
                "leaves": order,
                "entered": sorted(entered),
                "windows": windows,
            }
        )
    return {"tree": _annotated(tree, "ε", 0), "searchers": compared}


def _recorder(windows: dict[str, list]) -> Any:
    """``on_node`` for py-alphabeta: each node's first (α, β, value), by label."""

    def record(label: str, alpha: int, beta: int, value: int) -> None:
        windows.setdefault(label, [alpha, beta, value])

    return record


def _check_tree(tree: Any) -> None:
    leaves = 0

    def walk(node: Any, depth: int) -> None:
        nonlocal leaves
        if isinstance(node, bool) or depth > 12:
            raise InvalidOptionError("tree: nested lists of numbers, at most 12 levels")
        if isinstance(node, (int, float)):
            leaves += 1
            if leaves > MAX_TREE_LEAVES:
                raise InvalidOptionError(f"tree: at most {MAX_TREE_LEAVES} leaves")
            return
        if not isinstance(node, list) or not node:
            raise InvalidOptionError("tree: a node is a number (a leaf) or a non-empty list")
        for child in node:
            walk(child, depth + 1)

    walk(tree, 0)
    if not isinstance(tree, list):
        raise InvalidOptionError("tree: the root must have children")


def _annotated(node: Any, label: str, depth: int) -> dict[str, Any]:
    """The tree with Dewey labels and minimax values (MAX moves at even depths)."""
    if isinstance(node, (int, float)):
        return {"label": label, "value": node, "children": []}
    children = [
        _annotated(child, f"{label}.{i + 1}" if label != "ε" else str(i + 1), depth + 1)
        for i, child in enumerate(node)
    ]
    values = [c["value"] for c in children]
    return {
        "label": label,
        "value": max(values) if depth % 2 == 0 else min(values),
        "children": children,
    }


def _deduction_tree(catalog: Catalog, searchers: Any) -> dict[str, Any]:
    """The thesis's deduction game on kb4 (a from j, v, z), searched to the end: for the tree
    page, its game tree is turned into an explicit tree of the h values."""
    kb = Path(__file__).parent / "presets" / "kb4.txt"
    position = catalog.game(f"deduction(file={str(kb)!r}, data='j,v,z', goal=a)")
    evaluator = catalog.evaluator("deduction-h", position)

    def expand(depth: int) -> Any:
        if position.is_over() or depth == 0:
            score = evaluator.evaluate(position)
            return score if position.side_to_move == 0 else -score
        children = []
        for move in position.legal_moves():
            position.push(move)
            children.append(expand(depth - 1))
            position.pop()
        return children

    return compare_on_tree(catalog, expand(6), searchers)


# ---- evaluators -----------------------------------------------------------------------------
def explain(catalog: Catalog, game: str, text: str, evaluator: str) -> dict[str, Any]:
    """The evaluator's account of a position; for the emotional evaluator also the FCM's
    trajectory from the appraised inputs to the state it settled in."""
    from alfabeta.evaluators.explain import explanation

    position = catalog.game(game).from_string(text)
    chosen = catalog.evaluator(evaluator, position)
    account = explanation(chosen, position)
    appraisal = account.get("appraisal")
    if isinstance(appraisal, dict) and "inputs" in appraisal:
        from alfabeta.evaluators.fcm import FCM, NODES

        matrix = str(getattr(chosen, "matrix", "printed"))
        trajectory = FCM(matrix).run([appraisal["inputs"][n] for n in NODES])
        account["trajectory"] = {"nodes": list(NODES), "states": trajectory.states.tolist()}
    board = draw(position)
    account["svg"] = board.svg if board else None
    return _json_ready(account)


def _json_ready(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return value


# ---- bench files ------------------------------------------------------------------------------
def bench_file(text: str) -> dict[str, Any]:
    """The records of a ``bench --json`` file: a table and an SVG chart of nodes by depth (log
    scale), one line per searcher and position."""
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            raise InvalidOptionError(f"bench file line {number}: not JSON") from None
        if isinstance(record, dict) and record.get("type") == "result":
            records.append(record)
    if not records:
        raise InvalidOptionError("bench file: no result records (write one with bench --json)")
    needed = ("searcher", "position", "depth", "nodes")
    for record in records:
        if not all(k in record for k in needed):
            raise InvalidOptionError(
                f"bench record without {', '.join(needed)}: {str(record)[:80]}"
            )
    return {"records": records, "svg": nodes_chart(records)}


def nodes_chart(records: list[dict[str, Any]]) -> str:
    """An SVG line chart: nodes (log scale) against depth, a line per searcher (summed over the
    positions)."""
    totals: dict[str, dict[int, int]] = {}
    for r in records:
        per_depth = totals.setdefault(str(r["searcher"]), {})
        per_depth[int(r["depth"])] = per_depth.get(int(r["depth"]), 0) + int(r["nodes"])
    depths = sorted({d for line in totals.values() for d in line})
    top = max(max(line.values()) for line in totals.values())
    width, height, left, bottom = 560, 320, 60, 40
    span = max(1.0, math.log10(max(top, 10)))

    def x(depth: int) -> float:
        if len(depths) == 1:
            return left + (width - left) / 2
        return left + (width - left - 20) * (depth - depths[0]) / (depths[-1] - depths[0])

    def y(nodes: int) -> float:
        return height - bottom - (height - bottom - 20) * math.log10(max(nodes, 1)) / span

    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]
    base = height - bottom
    body = [
        f'<line x1="{left}" y1="{base}" x2="{width}" y2="{base}" stroke="#333"/>',
        f'<line x1="{left}" y1="10" x2="{left}" y2="{base}" stroke="#333"/>',
        f'<text x="{(width + left) / 2}" y="{height - 6}" font-size="11" '
        'text-anchor="middle">depth</text>',
    ]
    for depth in depths:
        body.append(
            f'<text x="{x(depth)}" y="{base + 16}" font-size="11" text-anchor="middle">'
            f"{depth}</text>"
        )
    for power in range(0, int(span) + 1):
        body.append(
            f'<text x="{left - 6}" y="{y(10**power) + 4}" font-size="10" text-anchor="end">'
            f"1e{power}</text>"
        )
    for i, (name, line) in enumerate(sorted(totals.items())):
        color = colors[i % len(colors)]
        points = " ".join(f"{x(d)},{y(n)}" for d, n in sorted(line.items()))
        body.append(f'<polyline points="{points}" fill="none" stroke="{color}" stroke-width="2"/>')
        body.append(
            f'<text x="{left + 10}" y="{20 + 14 * i}" font-size="11" fill="{color}">'
            f"{escape(name)}</text>"
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="nodes by depth">' + "".join(body) + "</svg>"
    )
