"""alfabeta serve's API through Starlette's test client: every endpoint, the games played in
sessions (each its own state), the watch pages over a real results database, the searchers on a
tree, the evaluator's account, bench files, and bad input answered with a 4xx and a message."""

import asyncio
import json
import re
import time

import pytest
from starlette.testclient import TestClient

from alfabeta.arena import Match, Parameter, Player, Tournament, Tuning
from alfabeta.cli import main
from alfabeta.core import Limit
from alfabeta.web.app import STATIC, create_app
from alfabeta.web.serve import check_host
from alfabeta.web.sessions import GameSession

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@pytest.fixture(scope="module")
def results_db(tmp_path_factory):
    """A database with a finished match, a finished tournament and a finished tuning."""
    path = tmp_path_factory.mktemp("web") / "results.sqlite"
    Match(
        "fibonacci-nim(n=12)",
        Player("alphabeta(depth=3)", name="deep"),
        Player("alphabeta(depth=1)", name="shallow"),
        games=4,
    ).run(db=str(path))
    Tournament(
        "tictactoe",
        [
            Player("alphabeta(depth=2)", name="a"),
            Player("alphabeta(depth=1)", name="b"),
            Player("mcts(iterations=50)", name="c"),
        ],
    ).run(db=str(path))
    Tuning(
        "fibonacci-nim(n=12)",
        Player("alphabeta(depth={depth})"),
        [Parameter.parse("depth,2,1,4,1,0.05")],
        pairs=2,
    ).run(db=str(path))
    return str(path)


@pytest.fixture
def client(catalog, results_db):
    with TestClient(create_app(catalog, results_db)) as test_client:
        yield test_client


def wait_for_reply(client, sid, plies, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.get(f"/api/sessions/{sid}").json()
        if len(state["moves"]) >= plies and not state["thinking"]:
            return state
        time.sleep(0.05)
    raise AssertionError(f"no reply within {timeout} s: {state}")


def error_of(response, status=400):
    assert response.status_code == status, response.text
    return response.json()["error"]


# ---- the page -----------------------------------------------------------------------------------
def test_the_page_and_its_files_come_from_the_package_alone(client):
    page = client.get("/")
    assert page.status_code == 200 and '<script src="/static/app.js">' in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    for path in STATIC.iterdir():  # nothing fetched from the network at run time
        text = path.read_text(encoding="utf-8")
        urls = re.findall(r"https?://[^\s\"'`)]+", text)
        assert all(u.startswith("http://www.w3.org/2000/svg") for u in urls), (path, urls)


def test_the_catalog_lists_every_kind(client):
    listing = client.get("/api/catalog").json()
    names = {kind: {e["name"] for e in listing[kind]} for kind in listing}
    assert {"chess", "connect-four", "trgd"} <= names["games"]
    assert {"alphabeta", "sss*", "mcts"} <= names["searchers"]
    assert "emotional" in names["evaluators"]


# ---- playing ------------------------------------------------------------------------------------
def test_a_chess_game_the_computer_answers_and_a_take_back_undoes(client):
    created = client.post(
        "/api/sessions",
        json={
            "game": "chess",
            "searcher": "alphabeta(iterative=on, tt=on)",
            "evaluator": "standard",
            "depth": 3,
            "human": "first",
        },
    )
    assert created.status_code == 201
    state = created.json()
    sid = state["id"]
    assert state["human_to_move"] and "e2e4" in state["legal"] and state["svg"].startswith("<svg")
    assert 'data-token="e2"' in state["svg"] and state["join"] == "" and state["promotion"]
    client.post(f"/api/sessions/{sid}/move", json={"move": "e2e4"})
    state = wait_for_reply(client, sid, 2)
    assert state["notation"][0] == "e4" and len(state["notation"]) == 2
    assert state["last_search"]["depth"] == 3 and state["last_search"]["move"] == state["moves"][1]
    assert state["human_to_move"]
    state = client.post(f"/api/sessions/{sid}/undo").json()
    assert state["moves"] == [] and state["position"] == START


def test_the_computer_moves_first_when_the_person_plays_second(client):
    sid = client.post(
        "/api/sessions", json={"game": "connect-four", "depth": 2, "human": "second"}
    ).json()["id"]
    state = wait_for_reply(client, sid, 1)
    assert len(state["moves"]) == 1 and state["human_to_move"] and state["side_to_move"] == 1


def test_a_position_is_set_from_a_fen(client):
    sid = client.post("/api/sessions", json={"game": "chess", "depth": 1, "human": "both"}).json()[
        "id"
    ]
    fen = "8/8/8/4k3/8/8/3QK3/8 w - - 0 1"
    state = client.post(f"/api/sessions/{sid}/position", json={"text": fen}).json()
    assert state["position"] == fen and "d2d8" in state["legal"]
    assert "FEN" in error_of(client.post(f"/api/sessions/{sid}/position", json={"text": "8/8 w"}))
    assert client.get(f"/api/sessions/{sid}").json()["position"] == fen  # unchanged


def test_two_games_at_once_keep_their_own_state(client):
    first = client.post("/api/sessions", json={"game": "tictactoe", "depth": 1, "human": "both"})
    second = client.post("/api/sessions", json={"game": "tictactoe", "depth": 1, "human": "both"})
    a, b = first.json()["id"], second.json()["id"]
    assert a != b
    client.post(f"/api/sessions/{a}/move", json={"move": "b2"})
    client.post(f"/api/sessions/{b}/move", json={"move": "a1"})
    client.post(f"/api/sessions/{b}/move", json={"move": "c3"})
    assert client.get(f"/api/sessions/{a}").json()["moves"] == ["b2"]
    assert client.get(f"/api/sessions/{b}").json()["moves"] == ["a1", "c3"]
    assert client.delete(f"/api/sessions/{a}").json() == {"deleted": a}
    assert "no game" in error_of(client.get(f"/api/sessions/{a}"), 404)


def test_the_search_streams_its_lines_and_can_be_stopped(catalog):
    session = GameSession(
        catalog, "chess", "alphabeta(iterative=on, tt=on)", "standard", Limit(time=30.0), set()
    )

    async def collect():
        queue = session.subscribe(asyncio.get_running_loop())
        session.computer_turn()
        events = []
        while True:
            event = await asyncio.wait_for(queue.get(), 30)
            events.append(event)
            if event["type"] == "info" and event["depth"] >= 2:
                await asyncio.to_thread(session.stop_thinking)  # a 30 s search, stopped
            if event["type"] == "done":
                return events

    started = time.monotonic()
    events = asyncio.run(collect())
    assert time.monotonic() - started < 20
    infos = [e for e in events if e["type"] == "info"]
    assert [e["depth"] for e in infos[:2]] == [1, 2] and all(e["pv"] for e in infos)
    assert events[-1]["move"] in [
        catalog.game("chess").move_str(m) for m in catalog.game("chess").legal_moves()
    ]
    session.cancel()


@pytest.mark.parametrize(
    "body, fragment",
    [
        ({"game": "nochess", "depth": 2}, "unknown game 'nochess'"),
        ({"game": "chess", "depth": 2, "searcher": "alphabeta(frobnicate=1)"}, "no option"),
        ({"game": "chess", "depth": 2, "evaluator": "nonesuch"}, "unknown evaluator"),
        ({"game": "chess"}, "give a depth, nodes or time"),
        ({"game": "chess", "depth": 0}, "depth=0"),
        ({"game": "chess", "time": 1e6}, "seconds"),
        ({"game": "chess", "depth": "x"}, "whole numbers"),
        ({"game": "chess", "depth": 2, "human": "everyone"}, "human='everyone'"),
        ({"game": "chess", "depth": 2, "start": "not a fen"}, "FEN"),
        ({"depth": 2}, "'game'"),
    ],
)
def test_bad_games_are_refused_with_a_message(client, body, fragment):
    assert fragment in error_of(client.post("/api/sessions", json=body))


def test_bad_moves_and_requests_are_4xx_never_500(client):
    sid = client.post("/api/sessions", json={"game": "chess", "depth": 1, "human": "first"}).json()[
        "id"
    ]
    assert "not a legal move" in error_of(
        client.post(f"/api/sessions/{sid}/move", json={"move": "e2e5"})
    )
    assert "'move'" in error_of(client.post(f"/api/sessions/{sid}/move", json={}))
    assert "not JSON" in error_of(client.post(f"/api/sessions/{sid}/move", content=b"{oops"))
    assert "JSON object" in error_of(client.post(f"/api/sessions/{sid}/move", json=[1]))
    assert "no move to take back" in error_of(client.post(f"/api/sessions/{sid}/undo"))
    assert error_of(client.post("/api/sessions/g999999/move", json={"move": "e2e4"}), 404)
    assert client.get("/api/nothing").status_code == 404


# ---- watching -----------------------------------------------------------------------------------
def test_runs_are_listed_with_their_tables(client):
    runs = client.get("/api/runs").json()
    assert [(r["kind"], r["played"], r["status"]) for r in runs] == [
        ("match", 4, "finished"),
        ("tournament", 6, "finished"),
        ("spsa", 4, "finished"),
    ]
    match = client.get(f"/api/runs/{runs[0]['id']}").json()
    score = match["match"]
    assert score["wins"] + score["draws"] + score["losses"] == 4
    assert score["summary"][0].startswith("Score of deep vs shallow")
    tournament = client.get(f"/api/runs/{runs[1]['id']}").json()
    standings = tournament["standings"]
    assert sorted(s["name"] for s in standings) == ["a", "b", "c"]
    assert [row["against"][i] for i, row in enumerate(standings)] == [None, None, None]
    assert sum(s["points"] for s in standings) == 6
    tuning = client.get(f"/api/runs/{runs[2]['id']}").json()["tuning"]
    assert tuning["summary"][0] == "2 of 2 pairs, 2 steps of θ, finished"
    assert set(tuning["values"]) == {"depth"} and 1 <= tuning["values"]["depth"] <= 4


def test_a_recorded_game_replays_ply_by_ply(client):
    run_id = client.get("/api/runs").json()[0]["id"]
    game = client.get(f"/api/runs/{run_id}/games/0").json()
    assert len(game["plies"]) == len(game["moves"]) + 1
    assert all(p["svg"].startswith("<svg") for p in game["plies"])
    assert [p["last"] for p in game["plies"][1:]] == game["moves"]
    assert "no game 99" in error_of(client.get(f"/api/runs/{run_id}/games/99"))
    assert "run" in error_of(client.get("/api/runs/999"))
    assert "expected a number" in error_of(client.get("/api/runs/x"))


def test_without_a_database_the_watch_page_says_how_to_get_one(catalog):
    with TestClient(create_app(catalog, None)) as bare:
        assert "--db" in error_of(bare.get("/api/runs"), 404)


# ---- the search on a tree -----------------------------------------------------------------------
def test_searchers_compared_on_the_survey_tree(client):
    found = client.post(
        "/api/tree", json={"tree": "survey T1 (cases 1-5)", "searchers": ["py-alphabeta", "sss*"]}
    ).json()
    assert found["tree"]["value"] == 8
    ab, sss = found["searchers"]
    assert ab["leaves"] == ["1.1", "1.2", "1.3", "2.1", "3.1", "3.2", "3.3"]  # survey case 2
    assert "2.2" not in ab["entered"] and "2" in ab["entered"]  # 2.2 and 2.3 were cut
    assert ab["windows"]["2"][2] <= -8 and ab["windows"]["1.2"] == [-1000001, 8, 12]
    assert set(sss["leaves"]) <= set(ab["leaves"]) and sss["value"] == 8


def test_a_tree_of_ones_own_and_the_thesis_preset(client):
    own = client.post("/api/tree", json={"tree": [[3, 5], [2, 9]], "searchers": ["negamax"]}).json()
    assert own["searchers"][0]["value"] == 3 and own["tree"]["children"][1]["value"] == 2
    thesis = client.post(
        "/api/tree", json={"tree": "thesis deduction (kb4: a from j, v, z)"}
    ).json()
    assert len(thesis["searchers"]) == 4 and len({s["value"] for s in thesis["searchers"]}) == 1
    assert "a number (a leaf)" in error_of(client.post("/api/tree", json={"tree": [[1, "x"]]}))
    assert "preset" in error_of(client.post("/api/tree", json={"tree": "nope"}))
    many = ["alphabeta"] * 7
    assert "1 to 6" in error_of(
        client.post("/api/tree", json={"tree": [[1, 2]], "searchers": many})
    )


# ---- evaluators and benchmarks ------------------------------------------------------------------
def test_the_emotional_evaluator_shows_its_terms_and_fcm_trajectory(client):
    found = client.post("/api/explain", json={"position": START, "evaluator": "emotional"}).json()
    assert set(found["terms"]) >= {"material", "mobility", "king safety"}
    trajectory = found["trajectory"]
    final = found["appraisal"]["final"]
    assert trajectory["nodes"] == list(final)
    assert trajectory["states"][-1] == pytest.approx([final[n] for n in trajectory["nodes"]])
    assert "FEN" in error_of(client.post("/api/explain", json={"position": "xx"}))


def test_a_bench_file_becomes_a_table_and_a_chart(client, tmp_path, capsys):
    path = tmp_path / "bench.jsonl"
    assert (
        main(["bench", "tictactoe", "--depth", "1-3", "--min-time", "0", "--json", str(path)]) == 0
    )
    capsys.readouterr()
    found = client.post("/api/bench", json={"text": path.read_text()}).json()
    assert {r["depth"] for r in found["records"]} == {1, 2, 3}
    assert found["svg"].startswith("<svg") and "alphabeta" in found["svg"]
    assert "no result records" in error_of(
        client.post("/api/bench", json={"text": json.dumps({"type": "manifest"})})
    )
    assert "not JSON" in error_of(client.post("/api/bench", json={"text": "{"}))


# ---- the command --------------------------------------------------------------------------------
def test_serve_listens_on_loopback_unless_told_otherwise(capsys):
    for host in ("127.0.0.1", "::1", "localhost"):
        check_host(host, allow_remote=False)
    check_host("0.0.0.0", allow_remote=True)
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    assert "--allow-remote" in capsys.readouterr().err
    assert main(["serve", "--db", "/nonexistent/results.sqlite"]) == 2
    assert "no such results database" in capsys.readouterr().err
