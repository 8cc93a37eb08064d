"""The ASGI application behind ``alfabeta serve`` (Starlette): the page, its static files, and
a JSON API. Every error a request can cause is answered with a 4xx and ``{"error": ...}``.

Endpoints (all JSON unless said):

* ``GET /`` the page; ``GET /static/…`` its script and style sheet (served by the package:
  nothing is fetched from the network);
* ``GET /api/catalog`` games, searchers and evaluators;
* ``POST /api/sessions`` a new game (game, searcher, evaluator, depth/nodes/time, human:
  first|second|both|none, start); ``GET /api/sessions/{id}`` its state;
  ``POST …/move`` ``{"move": text}``; ``POST …/undo``; ``POST …/position`` ``{"text": …}``;
  ``POST …/stop``; ``DELETE /api/sessions/{id}``; ``GET …/events`` server-sent events: the
  search's ``info`` lines, ``done``, ``state`` changes, ``error``;
* ``GET /api/runs``, ``GET /api/runs/{id}``, ``GET /api/runs/{id}/games/{index}`` the matches
  and tournaments of the ``--db`` database, and any game ply by ply;
* ``POST /api/tree`` searchers side by side on an explicit tree (``GET /api/presets``);
* ``POST /api/explain`` an evaluator's terms on a position (the emotional evaluator's FCM
  trajectory among them);
* ``POST /api/bench`` a ``bench --json`` file's records as a table and a nodes-by-depth chart.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from alfabeta.core import AlfabetaError
from alfabeta.web import views
from alfabeta.web.sessions import GameSession, checked_limit

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog

STATIC = Path(__file__).parent / "static"
MAX_SESSIONS = 200  # the least recently used game is dropped beyond this
KEEPALIVE_SECONDS = 15.0
HUMANS = {"first": {0}, "second": {1}, "both": {0, 1}, "none": set()}


def create_app(catalog: Catalog | None = None, db: str | None = None) -> Starlette:
    """The application, with its own catalog (loaded if not given) and the database the Watch
    page reads (None: no database)."""
    if catalog is None:
        from alfabeta.plugins.catalog import load_catalog

        catalog = load_catalog()
    sid = "/api/sessions/{sid}"
    routes = [
        Route("/", page),
        Route("/api/catalog", catalog_listing),
        Route("/api/sessions", new_session, methods=["POST"]),
        Route(sid, get_session),
        Route(sid, delete_session, methods=["DELETE"]),
        Route(sid + "/move", move, methods=["POST"]),
        Route(sid + "/undo", undo, methods=["POST"]),
        Route(sid + "/position", set_position, methods=["POST"]),
        Route(sid + "/stop", stop, methods=["POST"]),
        Route(sid + "/events", events),
        Route("/api/runs", runs),
        Route("/api/runs/{rid}", run),
        Route("/api/runs/{rid}/games/{index}", run_game),
        Route("/api/presets", presets),
        Route("/api/tree", tree, methods=["POST"]),
        Route("/api/explain", explain, methods=["POST"]),
        Route("/api/bench", bench, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={AlfabetaError: alfabeta_error, HTTPException: http_error},
    )
    app.state.catalog = catalog
    app.state.db = db
    app.state.sessions = {}
    return app


# ---- handlers ---------------------------------------------------------------------------------
def _catalog(request: Request) -> Catalog:
    return request.app.state.catalog


def _sessions(request: Request) -> dict[str, GameSession]:
    return request.app.state.sessions


def _session(request: Request) -> GameSession:
    found = _sessions(request).get(request.path_params["sid"])
    if found is None:
        raise HTTPException(
            404, f"no game {request.path_params['sid']!r} (it ended or was dropped)"
        )
    found.touched = time.monotonic()
    return found


async def page(request: Request) -> Response:
    """The page."""
    return FileResponse(STATIC / "index.html")


async def catalog_listing(request: Request) -> Response:
    """The games, searchers and evaluators."""
    return JSONResponse(views.catalog_listing(_catalog(request)))


async def new_session(request: Request) -> Response:
    """Start a game; the computer moves at once if it has the first move."""
    body = await _json(request)
    human = str(body.get("human", "first"))
    if human not in HUMANS:
        raise HTTPException(400, f"human={human!r}: expected one of {', '.join(HUMANS)}")
    game = _text(body, "game")
    searcher = str(body.get("searcher") or "alphabeta(iterative=on, tt=on)")
    limit = checked_limit(body.get("depth"), body.get("nodes"), body.get("time"))
    evaluator = body.get("evaluator") or None
    start = body.get("start") or None
    created = await asyncio.to_thread(
        GameSession, _catalog(request), game, searcher, evaluator, limit, HUMANS[human], start
    )
    sessions = _sessions(request)
    _make_room(sessions)
    sessions[created.id] = created
    created.computer_turn()
    return JSONResponse(created.state(), status_code=201)


async def get_session(request: Request) -> Response:
    """A game's state."""
    return JSONResponse(_session(request).state())


async def move(request: Request) -> Response:
    """The person's move."""
    game = _session(request)
    body = await _json(request)
    await asyncio.to_thread(game.play, _text(body, "move"))
    return JSONResponse(game.state())


async def undo(request: Request) -> Response:
    """Take back to the person's last turn."""
    game = _session(request)
    await asyncio.to_thread(game.take_back)
    return JSONResponse(game.state())


async def set_position(request: Request) -> Response:
    """Start again from a position (a FEN in chess)."""
    game = _session(request)
    body = await _json(request)
    await asyncio.to_thread(game.set_position, _text(body, "text"))
    return JSONResponse(game.state())


async def stop(request: Request) -> Response:
    """Stop the computer's search; it plays its best move so far."""
    game = _session(request)
    await asyncio.to_thread(game.stop_thinking)
    return JSONResponse(game.state())


async def delete_session(request: Request) -> Response:
    """End a game."""
    game = _session(request)
    await asyncio.to_thread(game.cancel)
    _sessions(request).pop(game.id, None)
    return JSONResponse({"deleted": game.id})


async def events(request: Request) -> Response:
    """Server-sent events of a game: its state first, then each search line and change."""
    game = _session(request)
    queue = game.subscribe(asyncio.get_running_loop())

    async def stream() -> Any:
        try:
            yield _sse({**game.state(), "type": "state"})
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
                except asyncio.TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if event["type"] != "info":
                    event = {**game.state(), **event}
                yield _sse(event)
        finally:
            game.unsubscribe(queue)

    return StreamingResponse(
        stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
    )


async def runs(request: Request) -> Response:
    """The runs of the database."""
    return JSONResponse(await asyncio.to_thread(views.runs, _db(request)))


async def run(request: Request) -> Response:
    """One run's table and games."""
    run_id = _int(request.path_params["rid"], "run")
    return JSONResponse(await asyncio.to_thread(views.run, _db(request), run_id))


async def run_game(request: Request) -> Response:
    """One recorded game, ply by ply."""
    run_id = _int(request.path_params["rid"], "run")
    index = _int(request.path_params["index"], "game")
    found = await asyncio.to_thread(views.run_game, _catalog(request), _db(request), run_id, index)
    return JSONResponse(found)


async def presets(request: Request) -> Response:
    """The trees the tree page offers."""
    return JSONResponse(list(views.TREE_PRESETS))


async def tree(request: Request) -> Response:
    """Searchers side by side on one tree."""
    body = await _json(request)
    found = await asyncio.to_thread(
        views.compare_on_tree, _catalog(request), body.get("tree"), body.get("searchers")
    )
    return JSONResponse(found)


async def explain(request: Request) -> Response:
    """An evaluator's account of a position."""
    body = await _json(request)
    found = await asyncio.to_thread(
        views.explain,
        _catalog(request),
        str(body.get("game") or "chess"),
        _text(body, "position"),
        str(body.get("evaluator") or "emotional"),
    )
    return JSONResponse(found)


async def bench(request: Request) -> Response:
    """A bench file's table and chart."""
    body = await _json(request)
    return JSONResponse(await asyncio.to_thread(views.bench_file, _text(body, "text")))


async def alfabeta_error(request: Request, error: Exception) -> Response:
    """Bad input (an unknown game, a bad spec, an illegal move, a bad FEN …): a 400."""
    return JSONResponse({"error": f"{type(error).__name__}: {error}"}, status_code=400)


async def http_error(request: Request, error: Exception) -> Response:
    """A request the API refuses, with its message."""
    assert isinstance(error, HTTPException)
    return JSONResponse({"error": error.detail}, status_code=error.status_code)


def _make_room(sessions: dict[str, GameSession]) -> None:
    """Drop the least recently used games beyond MAX_SESSIONS - 1."""
    while len(sessions) >= MAX_SESSIONS:
        oldest = min(sessions.values(), key=lambda s: s.touched)
        oldest.cancel()
        sessions.pop(oldest.id, None)


async def _json(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise HTTPException(400, "the request body is not JSON") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "the request body must be a JSON object")
    return body


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise HTTPException(400, f"{key!r}: a non-empty string is required")
    return value


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise HTTPException(400, f"{what} {text!r}: expected a number") from None


def _db(request: Request) -> str:
    db = request.app.state.db
    if db is None:
        raise HTTPException(404, "no database: start the server with --db FILE to watch runs")
    return db


def _sse(event: dict[str, Any]) -> str:
    return f"data: {json.dumps(event)}\n\n"
