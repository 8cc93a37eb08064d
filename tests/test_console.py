"""Human-facing tables: rich on a terminal, plain aligned text when piped or with --plain."""

import io

from alfabeta.cli import main
from alfabeta.console import LiveTable, print_table, wants_plain


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_tables_are_rich_on_a_terminal_and_plain_otherwise():
    rows = [("alpha", "x", 12), ("beta-longer", "y", 3456)]
    terminal, piped = Terminal(), io.StringIO()
    print_table(["name", "kind", "nodes"], rows, terminal)
    print_table(["name", "kind", "nodes"], rows, piped)
    assert "┏" in terminal.getvalue() and "alpha" in terminal.getvalue()
    assert piped.getvalue().splitlines() == [
        "name         kind  nodes",
        "alpha        x        12",
        "beta-longer  y      3456",
    ]
    forced = Terminal()
    print_table(["name", "kind", "nodes"], rows, forced, plain=True)
    assert forced.getvalue() == piped.getvalue()
    assert wants_plain(io.StringIO()) and not wants_plain(Terminal())


def test_a_live_table_prints_rows_as_they_come_in_fixed_columns():
    out = io.StringIO()
    table = LiveTable(["searcher", "nodes", "rate"], ["<10", ">8", ">10,.1f"], out)
    table.section("position #1")
    table.add(("ab", 123, 4567.89))
    table.add(("negamax", 45, 12.0))
    table.stop()
    assert out.getvalue().splitlines() == [
        "position #1",
        "searcher      nodes       rate",
        "ab              123    4,567.9",
        "negamax          45       12.0",
    ]
    rich = Terminal()
    table = LiveTable(["searcher", "nodes", "rate"], ["<10", ">8", ">10,.1f"], rich)
    table.section("position #1")
    table.add(("ab", 123, 4567.89))
    table.stop()
    assert "4,567.9" in rich.getvalue() and "┃" in rich.getvalue()


def test_commands_print_plain_tables_when_asked(capsys):
    assert main(["bench", "tictactoe", "--depth", "2", "--min-time", "0", "--plain"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("position #1: ") and lines[1].split()[:4] == [
        "searcher",
        "pos",
        "d",
        "nodes",
    ]
    assert lines[2].split()[:4] == ["alphabeta", "#1", "2", "36"]
    assert main(["plugins", "--kind", "game", "--plain"]) == 0
    assert "  tictactoe " in capsys.readouterr().out
