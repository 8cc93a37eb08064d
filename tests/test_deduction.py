"""α-β deduction (seed-004 §5 and §7): the thesis's traces 4.1–4.10 in both languages, its
intermediate sets, the lazy deductive game under every searcher, proofs, and bad input."""

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alfabeta import load_catalog
from alfabeta.core import InvalidOptionError, KnowledgeBaseError, Result
from alfabeta.core.walk import perft
from alfabeta.games.deduction.kb import KnowledgeBase, parse_knowledge_base, read_knowledge_base
from alfabeta.games.deduction.proof import (
    is_valid_derivation,
    proof_from_trace,
    prove_with,
    smallest_proof,
)
from alfabeta.games.deduction.thesis import build, deduce, g_path

DATA = Path(__file__).parent / "data" / "deduction"
KB = {name: read_knowledge_base(DATA / f"{name}.txt") for name in ("kb1", "kb2", "kb3", "kb4")}

# seed-004 §5.6, normalised: X->Y "para demostrar X hay que demostrar Y", "X dato" "X es un
# dato", "Fin" "Fin de la demostracion"; typos (hs 2) -> (bs 2) and (j 1) -> (l 1) fixed.
EXAMPLES = {
    "4.1": (
        "kb1",
        "bs,bp",
        "pd",
        """(pd 1)->(pd 2) | (pd 2)->((bs 1) (mc 1)) | (mc 1)->(mc 2) |
        (mc 2)->((bs 2) (bp 1)) | (bp 1)->(bp 3) | (bp 3) dato | (bs 2)->(bs 5) | (bs 5) dato |
        (bs 1)->(bs 6) | (bs 6) dato | Fin""",
    ),
    "4.2": (
        "kb2",
        "b,c",
        "h",
        """(h 1)->(h 2) | (h 2)->((x 1) (a 1)) | (a 1)->(a 3) |
        (a 3)->((c 1) (f 1)) | (f 1)->(f 2) | (f 2)->((b 3) (d 2) (e 1)) | (e 1)->(d 3) |
        (d 3)->((c 5)) | (c 5)->(c 6) | (c 6) dato | (d 2)->(c 4) | (c 4) dato |
        (b 3)->(b 12) | (b 12) dato | (c 1)->(c 8) | (c 8) dato | (x 1)->(b 1) | (b 1) dato |
        Fin""",
    ),
    "4.3": (
        "kb2",
        "b",
        "f",
        """(f 1)->(f 2) | (f 2)->((b 1) (d 1) (e 1)) | (e 1)->(d 4) |
        (d 4)->((x 2) (b 4)) | (b 4)->(b 6) | (b 6) dato | (x 2)->(b 5) | (b 5) dato |
        (d 1)->(d 3) | (d 3)->((x 1) (b 2)) | (b 2)->(b 7) | (b 7) dato | (x 1)->(b 3) |
        (b 3) dato | (b 1)->(b 8) | (b 8) dato | Fin""",
    ),
    "4.4": (
        "kb2",
        "b",
        "a",
        """(a 1)->(a 2) | (a 2)->((g 1) (d 1)) |
        no puedo hacer la demostracion""",
    ),
    "4.5": (
        "kb3",
        "a,k",
        "d",
        """(d 1)->(d 3) | (d 3)->((e 1) (f 1)) | (f 1)->(a 2) |
        (a 2) dato | (e 1)->(e 2) | (e 2)->((k 1) (l 1)) | (l 1)->(a 5) | (a 5) dato |
        (k 1)->(k 2) | (k 2) dato | Fin""",
    ),
    "4.6": (
        "kb3",
        "a,k",
        "b",
        """(b 1)->(b 2) | (b 2)->((i 1) (h 1)) |
        no puedo hacer la demostracion""",
    ),
    "4.7": (
        "kb3",
        "a,c,h",
        "d",
        """(d 1)->(d 2) | (d 2)->((a 1) (b 1) (c 1)) | (c 1)->(c 2) |
        (c 2) dato | (b 1)->(b 2) | (b 2)->((i 1) (h 1)) | (h 1)->(h 4) | (h 4) dato |
        (i 1)->(a 3) | (a 3) dato | (a 1)->(a 6) | (a 6) dato | Fin""",
    ),
    "4.8": (
        "kb3",
        "a,c,h",
        "e",
        """(e 1)->(e 2) | (e 2)->((k 1) (l 1)) |
        no puedo hacer la demostracion""",
    ),
    "4.9": (
        "kb4",
        "j,v,z",
        "a",
        """(a 1)->(b 2) | (b 2)->((g 1) (c 2)) | (c 2)->(c 4) |
        (c 4)->((j 3) (k 2)) | (k 2)->(l 8) | (l 8)->((u 8)) | (u 8)->(u 10) |
        (u 10)->((z 12) (v 10)) | (v 10)->(v 11) | (v 11) dato | (z 12)->(z 13) | (z 13) dato |
        (j 3)->(j 5) | (j 5) dato | (g 1)->(j 2) | (j 2) dato | Fin""",
    ),
    "4.10": (
        "kb4",
        "o,r",
        "a",
        """(a 1)->(b 1) | (b 1)->((o 1) (r 1)) | (r 1)->(r 6) |
        (r 6) dato | (o 1)->(o 6) | (o 6) dato | Fin""",
    ),
}
WORDS = {
    "es": (
        "para demostrar {} hay que demostrar {}",
        "{} es un dato",
        "Fin de la demostracion",
        "no puedo hacer la demostracion",
    ),
    "en": (
        "to prove {} we must prove {}",
        "{} is a datum",
        "End of the proof",
        "I cannot make the proof",
    ),
}


def expected_lines(compact, lang):
    step, datum, done, fail = WORDS[lang]
    lines = []
    for item in " ".join(compact.split()).split(" | "):
        if "->" in item:
            lines.append(step.format(*item.split("->")))
        elif item.endswith(" dato"):
            lines.append(datum.format(item[: -len(" dato")]))
        elif item == "Fin":
            lines.append(done)
        else:
            lines.append(fail)
    return lines


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("example", sorted(EXAMPLES, key=lambda e: float(e.split(".")[1])))
def test_ded_the_thesis_trace_comes_out_line_for_line(example, lang):
    kb, data, goal, compact = EXAMPLES[example]
    trace = deduce(KB[kb].for_data(data.split(",")), data.split(","), goal, lang)
    assert list(trace.lines) == expected_lines(compact, lang)
    assert trace.proved == compact.rstrip().endswith("Fin")


@pytest.mark.parametrize(
    "example, e1, e2, won, lost",
    [
        ("4.1", 11, 14, {"bs4", "bs5", "bs6", "bp2", "bp3"}, {"cu1"}),
        ("4.2", 27, 35, 14, {"g1"}),
        ("4.3", 13, 16, {"b3", "b5", "b6", "b7", "b8"}, {"c2", "c3"}),
        ("4.4", 24, 31, 8, {"c1", "c2", "c5", "c6", "c7", "g1"}),
        ("4.5", 16, 21, {"a2", "a3", "a4", "a5", "a6", "k2"}, {"c1", "h1", "h2"}),
        ("4.6", 7, 9, {"a1", "a2"}, {"h1", "h2"}),
        ("4.7", 16, 21, {"a2", "a3", "a4", "a5", "a6", "c2", "h3", "h4"}, {"k1"}),
        ("4.8", 4, 5, {"a1"}, {"k1"}),
        ("4.9", 87, 112, 26, 27),
        ("4.10", 87, 112, 6, 47),
    ],
)
def test_aaj_the_pipeline_sizes_and_g_and_p(example, e1, e2, won, lost):
    kb, data, goal, _ = EXAMPLES[example]
    pipeline = build(KB[kb].for_data(data.split(",")), data.split(","), goal)
    assert (len(pipeline.tree_nodes), len(pipeline.alternated_nodes)) == (e1, e2)
    names = lambda nodes: {f"{n}{k}" for n, k in nodes}  # noqa: E731
    assert (names(pipeline.won) if isinstance(won, set) else len(pipeline.won)) == won
    assert (names(pipeline.lost) if isinstance(lost, set) else len(pipeline.lost)) == lost


def test_gra_arb_and_ar_aa_of_the_loan_example():
    pipeline = build(KB["kb1"], {"bs", "bp"}, "pd")
    assert [f"{n}{k}" for n, k in pipeline.tree_nodes] == [
        "pd1",
        "pe1",
        "bs1",
        "mc1",
        "af1",
        "cu1",
        "bs2",
        "bp1",
        "bs3",
        "ba1",
        "bp2",
    ]
    assert [(d, f"{n}{k}") for d, (n, k) in pipeline.alternated_nodes] == [
        (0, "pd1"),
        (1, "pd2"),
        (1, "pe1"),
        (2, "bs1"),
        (2, "mc1"),
        (3, "mc2"),
        (2, "af1"),
        (3, "af2"),
        (2, "cu1"),
        (4, "bs2"),
        (4, "bp1"),
        (4, "bs3"),
        (4, "ba1"),
        (5, "bp2"),
    ]


def test_gpath_1_the_loan_proof_is_the_thesis_solution_graph():
    nodes, arcs = g_path(KB["kb1"], {"bs", "bp"}, "pd")
    assert nodes == {"pd", "bs", "mc", "bp"}
    assert set(arcs) == {("pd", ("bs", "mc")), ("mc", ("bs", "bp"))}
    assert g_path(KB["kb1"], {"bs", "bp"}, "pe") is None  # cu has no g-path


def test_gpath_2_the_data_copies_in_the_unfolded_tree():
    pipeline = build(KB["kb1"], {"bs", "bp"}, "pd")
    assert {f"{n}{k}" for n, k in pipeline.tree_nodes if n in {"bs", "bp"}} == {
        "bs1",
        "bs2",
        "bs3",
        "bp1",
        "bp2",
    }


def test_ded_4_1_with_the_printed_premise_order_gives_the_other_valid_trace():
    kb = parse_knowledge_base(
        (DATA / "kb1.txt").read_text().replace("bs & bp -> mc", "bp & bs -> mc")
    )
    lines = deduce(kb, ["bs", "bp"], "pd", "en").lines
    assert lines[3] == "to prove (mc 2) we must prove ((bp 1) (bs 2))"


def test_ded_root_values_of_the_loan_example():
    from alfabeta.games.deduction.thesis import _AlphaBeta
    from alfabeta.searchers.thesis import valor

    pipeline = build(KB["kb1"], {"bs", "bp"}, "pd")
    search = _AlphaBeta(pipeline)
    assert valor(search.expand, ("pd", 2), False, None) == 1
    assert valor(search.expand, ("pe", 1), False, None) == -1


def test_ded_h_scores_g_plus_one_p_minus_one():
    from alfabeta.games.deduction.thesis import _AlphaBeta

    pipeline = build(KB["kb1"], {"bs", "bp"}, "pd")
    search = _AlphaBeta(pipeline)
    assert {search.h(n) for n in pipeline.won} == {1} and search.h(("cu", 1)) == -1
    assert search.h(("pd", 1)) == 0


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_ded_thm_success_is_forward_chaining_derivability(example):
    kb, data, goal, _compact = EXAMPLES[example]
    data = data.split(",")
    assert (goal in KB[kb].derivable(data)) == deduce(KB[kb], data, goal).proved


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_the_trace_proof_is_a_valid_derivation(example):
    kb, data, goal, _ = EXAMPLES[example]
    data = data.split(",")
    proof = proof_from_trace(deduce(KB[kb], data, goal), KB[kb])
    assert (proof is None) == (goal not in KB[kb].derivable(data))
    assert proof is None or is_valid_derivation(proof, KB[kb], data)


# ---- the lazy deductive game ------------------------------------------------------------
CATALOG = load_catalog(autoload=False)
EXACT = [
    "py-minimax",
    "py-negamax",
    "py-alphabeta",
    "py-alphabeta(fail=soft)",
    "py-solve",
    "minimax",
    "negamax",
    "alphabeta",
    "negascout",
    "scout",
    "sss*",
    "dual*",
    "mtdf",
    "alphabeta(tt=on, iterative=on, killers=on, history=on)",
]


def game(kb_text, data, goal):
    return CATALOG.game(f"deduction(rules={kb_text!r}, data={data!r}, goal={goal!r})")


def test_the_game_moves_the_prover_picks_rules_and_the_sceptic_premises():
    position = CATALOG.game(f"deduction(file={str(DATA / 'kb1.txt')!r}, data='bs,bp', goal=pd)")
    assert [position.move_str(m) for m in position.legal_moves()] == ["pe -> pd", "bs & mc -> pd"]
    position.push_str("bs & mc -> pd")
    assert position.side_to_move == 1
    assert [position.move_str(m) for m in position.legal_moves()] == ["bs", "mc"]
    position.push_str("bs")
    assert [position.move_str(m) for m in position.legal_moves()] == ["datum"]
    position.push_str("datum")
    assert position.outcome() == Result.LOSS and position.side_to_move == 1  # the sceptic lost
    assert position.to_string() == "pd / bs & mc -> pd / bs / datum"
    dead_end = position.from_string("pd / pe -> pd / pe / af & cu -> pe / cu")
    assert dead_end.outcome() == Result.LOSS and dead_end.side_to_move == 0


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_every_searcher_plays_the_game_to_the_thesis_result(example):
    kb, data, goal, _ = EXAMPLES[example]
    position = CATALOG.game(
        f"deduction(file={str(DATA / (kb + '.txt'))!r}, data={data!r}, goal={goal!r})"
    )
    derivable = goal in KB[kb].derivable(data.split(","))
    evaluator = CATALOG.evaluator("deduction-h")
    for spec in EXACT:
        assert (CATALOG.searcher(spec).search(position, evaluator).value > 0) == derivable


def random_kb(rng, clauses):
    atoms = [f"a{i}" for i in range(12)]
    rules = []
    for _ in range(clauses):
        head = rng.randrange(len(atoms) - 1)
        premises = rng.sample(range(head + 1, len(atoms)), rng.randint(1, min(3, 11 - head)))
        rules.append((atoms[head], [atoms[p] for p in premises]))
    data = [a for a in atoms if rng.random() < 0.35]
    return KnowledgeBase.from_rules(rules), data


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 30))
def test_property_game_value_is_forward_chaining_and_every_searcher_agrees(seed, clauses):
    kb, data = random_kb(random.Random(seed), clauses)
    derivable = "a0" in kb.derivable(data)
    text = "; ".join(str(c) for c in kb.clauses)
    position = game(text, ",".join(data), "a0")
    evaluator = CATALOG.evaluator("deduction-h")
    for spec in EXACT:
        assert (CATALOG.searcher(spec).search(position, evaluator).value > 0) == derivable, spec
    found = prove_with(position, CATALOG.searcher("py-alphabeta"), evaluator)
    assert found.proved == derivable
    if derivable:
        assert is_valid_derivation(found.proof, position.knowledge_base, data)
        smallest = smallest_proof(position.knowledge_base, data, "a0")
        assert is_valid_derivation(smallest, position.knowledge_base, data)
        assert smallest.rule_applications() <= found.proof.rule_applications()
    else:
        assert found.failed_atom is not None
        assert set(position.knowledge_base.blocking_atoms(data, "a0"))
    assert deduce(position.knowledge_base, data, "a0").proved == derivable


def test_the_game_keeps_the_position_contract():
    position = CATALOG.game(f"deduction(file={str(DATA / 'kb4.txt')!r}, data='j,v,z', goal=a)")
    assert perft(position, 6, check=True) == perft(position, 6)


def test_depth_limited_search_with_the_evaluator_still_finds_the_proof():
    position = CATALOG.game(f"deduction(file={str(DATA / 'kb4.txt')!r}, data='j,v,z', goal=a)")
    found = prove_with(
        position, CATALOG.searcher("py-alphabeta(depth=3)"), CATALOG.evaluator("deduction-h")
    )
    assert found.proved and is_valid_derivation(
        found.proof, position.knowledge_base, ["j", "v", "z"]
    )


def test_smallest_proof_and_blocking_atoms():
    proof = smallest_proof(KB["kb3"], {"a", "k"}, "d")
    assert proof.rule_applications() == 4 and str(proof.rule) == "e & f -> d"
    assert KB["kb1"].blocking_atoms({"bs"}, "pd") == ["bp", "cu"]


# ---- bad input ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, fragment",
    [
        ("a & b -> c\nc d -> e", "line 2, column 1: 'c d' is not an atom name"),
        ("a -> b -> c", "line 1, column 8: more than one '->'"),
        ("a & b", "no '->'"),
        ("-> a", "at least one premise"),
        ("a & & b -> c", "line 1, column 5: an atom is missing"),
        ("a & b -> c\nc -> d\nd & e -> b", "cyclic"),
    ],
)
def test_bad_knowledge_bases_are_rejected_with_line_and_column(text, fragment):
    with pytest.raises(KnowledgeBaseError, match=fragment.replace("(", r"\(")):
        parse_knowledge_base(text)


def test_a_cycle_is_spelled_out():
    with pytest.raises(KnowledgeBaseError) as info:
        parse_knowledge_base("a -> b\nb & x -> c\nc -> a")
    assert "a -> b -> c -> a" in str(info.value)


def test_the_game_rejects_bad_options():
    with pytest.raises(InvalidOptionError, match="goal"):
        game("a -> b", "a", "")
    with pytest.raises(InvalidOptionError, match="exactly one"):
        CATALOG.game("deduction(goal=b)")


def prove(*args):
    return subprocess.run(
        [sys.executable, "-m", "alfabeta.cli", "prove", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_prints_the_thesis_trace_in_spanish():
    done = prove(str(DATA / "kb1.txt"), "--data", "bs,bp", "--goal", "pd", "--lang", "es")
    assert done.returncode == 0
    assert done.stdout.splitlines() == expected_lines(EXAMPLES["4.1"][3], "es")


def test_cli_with_a_searcher_prints_the_proof_and_statistics():
    done = prove(
        str(DATA / "kb1.txt"),
        "--data",
        "bs,bp",
        "--goal",
        "pd",
        "--searcher",
        "py-alphabeta",
        "--tree",
    )
    assert done.returncode == 0
    assert "pd: by bs & mc -> pd" in done.stdout and "mc: by bs & bp -> mc" in done.stdout
    assert "searches" in done.stdout and "└── mc  <=  bs & bp -> mc" in done.stdout


def test_cli_refutation_exits_0_and_names_the_blocking_atoms():
    done = prove(str(DATA / "kb1.txt"), "--data", "bs", "--goal", "pd", "--searcher", "py-solve")
    assert done.returncode == 0
    assert "no proof of pd" in done.stdout and "blocked by: bp, cu" in done.stdout


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["/no/such/kb.txt", "--goal", "a"], "cannot read knowledge base"),
        ([str(DATA / "kb1.txt"), "--goal", " "], "--goal is empty"),
        ([str(DATA / "kb1.txt"), "--data", "b s", "--goal", "pd"], "not an atom name"),
    ],
)
def test_cli_bad_input_is_a_clear_error_and_non_zero_exit(args, fragment):
    done = prove(*args)
    assert done.returncode == 2 and fragment in done.stderr and "Traceback" not in done.stderr


def test_cli_syntax_error_and_cycle(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("a & b -> c\nc -> \n")
    done = prove(str(bad), "--goal", "c")
    assert done.returncode == 2 and "line 2, column 6" in done.stderr
    bad.write_text("a -> b\nb -> a\n")
    done = prove(str(bad), "--goal", "a")
    assert done.returncode == 2 and "cyclic" in done.stderr


def test_cli_missing_goal_is_a_usage_error():
    done = prove(str(DATA / "kb1.txt"), "--data", "bs")
    assert done.returncode == 2 and "--goal" in done.stderr
