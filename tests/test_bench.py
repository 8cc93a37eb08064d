"""``alfabeta bench``: the table, JSON Lines records, the signature, and bad input."""

import json

import pytest

from alfabeta.arena.bench import parse_depths, run_bench, signature
from alfabeta.cli import main
from alfabeta.core import InvalidOptionError

REQUIRED = {
    "game",
    "position",
    "searcher",
    "depth",
    "nodes",
    "leaves",
    "seconds",
    "nodes_per_s",
    "value",
    "move",
}


def test_bench_prints_a_row_per_searcher_position_and_depth(capsys):
    code = main(
        [
            "bench",
            "trgd",
            "--searchers",
            "alphabeta,py-alphabeta",
            "--depth",
            "1-2",
            "--min-time",
            "0",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith(("alphabeta", "py-alphabeta"))]
    assert len(rows) == 2 * 4 * 2  # searchers × the 4 trgd bench positions × depths
    assert "nodes/s" in out and "ebf" in out and "total alphabeta:" in out


def test_bench_writes_json_lines_with_a_manifest(tmp_path, capsys):
    path = tmp_path / "bench.jsonl"
    assert (
        main(
            [
                "bench",
                "fibonacci-nim",
                "--searchers",
                "negascout(tt=on),py-negamax",
                "--depth",
                "3",
                "--min-time",
                "0",
                "--json",
                str(path),
            ]
        )
        == 0
    )
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    head, records = lines[0], lines[1:]
    assert head["type"] == "manifest" and head["compiled"] == {
        "negascout(tt=on)": True,
        "py-negamax": False,
    }
    assert {"alfabeta", "python", "machine", "cpus"} <= set(head)
    assert len(records) == 2 * 4 and all(REQUIRED <= set(r) for r in records)
    assert {r["compiled"] for r in records} == {True, False}


def test_the_signature_is_the_same_twice_and_compiled_equals_reference(capsys):
    args = [
        "bench",
        "tree(branching=5, depth=5)",
        "--searchers",
        "alphabeta,py-alphabeta",
        "--depth",
        "5",
        "--signature",
    ]
    main(args)
    first = capsys.readouterr().out
    main(args)
    assert capsys.readouterr().out == first
    totals = dict(line.split(": ") for line in first.strip().splitlines())
    assert totals["signature alphabeta"] == totals["signature py-alphabeta"]


def test_effective_branching_factor_is_nodes_over_the_previous_depth(catalog):
    records = run_bench(catalog, "connect-four", ["alphabeta"], [2, 3], positions=[""], min_time=0)
    assert records[0].ebf is None
    assert records[1].ebf == pytest.approx(records[1].nodes / records[0].nodes)
    assert signature(records) == {"alphabeta": records[0].nodes + records[1].nodes}


@pytest.mark.parametrize("text", ["0", "x", "5-3", "-2"])
def test_bad_depths_are_refused(text):
    with pytest.raises(InvalidOptionError, match="--depth"):
        parse_depths(text)


def test_bad_bench_input_exits_2(capsys):
    assert main(["bench", "trgd", "--searchers", "alphabta", "--depth", "2"]) == 2
    assert "Did you mean 'alphabeta'" in capsys.readouterr().err
