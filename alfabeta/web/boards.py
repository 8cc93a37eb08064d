"""SVG drawings of the built-in games, for the web page.

``draw(position)`` returns a :class:`Board`: the SVG text and how a click becomes a move. Every
clickable element carries ``data-token``; the page plays the legal move whose text is the
token, or, after a first click, the two tokens joined by ``join`` (``e2`` + ``e4`` in chess,
``7`` + ``-`` + ``6`` in TRGD). A plugin game draws itself by offering ``to_svg()`` (and
optionally ``svg_join``); a game with neither gets no drawing, and the page shows its text
form and its moves as buttons.
"""

from __future__ import annotations

from html import escape
from typing import Any

from attrs import frozen

SQUARE = 48
GLYPHS = {
    "K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙",
    "k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟",
}  # fmt: skip
LIGHT, DARK, MARK = "#f0d9b5", "#b58863", "#f6f669"


@frozen
class Board:
    """A drawing: ``svg`` text, the ``join`` between two clicked tokens (None: one click is a
    move), and ``promotion`` (chess: a move may need a piece letter appended)."""

    svg: str
    join: str | None = None
    promotion: bool = False


def draw(position: Any, last: str | None = None) -> Board | None:
    """The drawing of ``position`` (``last``: the last move's text, marked where it shows), or
    None when its game has none."""
    own = getattr(position, "to_svg", None)
    if callable(own):
        return Board(str(own()), getattr(position, "svg_join", None))
    drawer = DRAWERS.get(position.name)
    return drawer(position, last) if drawer is not None else None


def _svg(width: int, height: int, body: list[str], label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(label)}">'
        + "".join(body)
        + "</svg>"
    )


def chess_board(position: Any, last: str | None = None) -> Board:
    """The board from White's side: squares carry their names as tokens; the last move's
    squares are marked."""
    placement = position.to_string().split()[0]
    marked = {last[:2], last[2:4]} if last else set()
    body = []
    for rank_index, row in enumerate(placement.split("/")):
        file_index = 0
        cells: list[str] = []
        for ch in row:
            if ch.isdigit():
                cells += [""] * int(ch)
            else:
                cells.append(ch)
        for file_index, piece in enumerate(cells):
            name = "abcdefgh"[file_index] + str(8 - rank_index)
            x, y = file_index * SQUARE, rank_index * SQUARE
            fill = MARK if name in marked else LIGHT if (file_index + rank_index) % 2 == 0 else DARK
            body.append(
                f'<g class="cell" data-token="{name}"><rect x="{x}" y="{y}" width="{SQUARE}" '
                f'height="{SQUARE}" fill="{fill}"/>'
            )
            if piece:
                body.append(
                    f'<text x="{x + SQUARE / 2}" y="{y + SQUARE * 0.78}" font-size="{SQUARE * 0.8}"'
                    f' text-anchor="middle" class="piece">{GLYPHS[piece]}</text>'
                )
            body.append("</g>")
    for i in range(8):
        body.append(
            f'<text x="{i * SQUARE + 3}" y="{8 * SQUARE - 3}" font-size="10" class="coord">'
            f"{'abcdefgh'[i]}</text>"
            f'<text x="{8 * SQUARE - 9}" y="{i * SQUARE + 12}" font-size="10" class="coord">'
            f"{8 - i}</text>"
        )
    return Board(_svg(8 * SQUARE, 8 * SQUARE, body, "chess board"), join="", promotion=True)


def connect_four_board(position: Any, last: str | None = None) -> Board:
    """The grid, bottom row last; a click anywhere in a column plays it."""
    rows = position.to_string().split()[0].split("/")
    height, width = len(rows), len(rows[0])
    cell = 56
    body = [f'<rect width="{width * cell}" height="{height * cell}" fill="#1f4fa8"/>']
    for column in range(width):
        body.append(f'<g class="cell" data-token="{column + 1}">')
        body.append(
            f'<rect x="{column * cell}" y="0" width="{cell}" height="{height * cell}" '
            'fill="transparent"/>'
        )
        for row in range(height):
            mark = rows[row][column]
            color = {"x": "#e23b2e", "o": "#f2c500"}.get(mark, "#ffffff")
            body.append(
                f'<circle cx="{column * cell + cell / 2}" cy="{row * cell + cell / 2}" '
                f'r="{cell * 0.4}" fill="{color}" class="disc-{mark if mark != "." else "empty"}"/>'
            )
        body.append("</g>")
    return Board(_svg(width * cell, height * cell, body, "Connect Four grid"))


def tictactoe_board(position: Any, last: str | None = None) -> Board:
    """Three by three; squares carry their names (``a1`` … ``c3``)."""
    marks = position.to_string().split()[0]
    cell = 80
    body = []
    for index, mark in enumerate(marks):
        column, row = index % 3, index // 3
        name = "abc"[column] + str(3 - row)
        x, y = column * cell, row * cell
        body.append(
            f'<g class="cell" data-token="{name}"><rect x="{x}" y="{y}" width="{cell}" '
            f'height="{cell}" fill="#fafafa" stroke="#333"/>'
        )
        if mark != ".":
            body.append(
                f'<text x="{x + cell / 2}" y="{y + cell * 0.7}" font-size="{cell * 0.6}" '
                f'text-anchor="middle">{mark.upper()}</text>'
            )
        body.append("</g>")
    return Board(_svg(3 * cell, 3 * cell, body, "tic-tac-toe board"))


# TRGD's sixteen points (seed-004): outer square 1-8 clockwise from the top left, inner 9-16
TRGD_POINTS = {
    1: (0, 0), 2: (2, 0), 3: (4, 0), 4: (4, 2), 5: (4, 4), 6: (2, 4), 7: (0, 4), 8: (0, 2),
    9: (1, 2), 10: (1, 1), 11: (2, 1), 12: (3, 1), 13: (3, 2), 14: (3, 3), 15: (2, 3), 16: (1, 3),
}  # fmt: skip
TRGD_LINES = [
    (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 1),
    (10, 11), (11, 12), (12, 13), (13, 14), (14, 15), (15, 16), (16, 9), (9, 10),
    (2, 11), (4, 13), (6, 15), (8, 9),
]  # fmt: skip


def trgd_board(position: Any, last: str | None = None) -> Board:
    """The two squares and their four joins; points carry their numbers; MAX's pieces dark,
    MIN's light. A placement is one click, a slide two (``7`` then ``6`` plays ``7-6``)."""
    step, margin = 70, 24
    mine, theirs = set(position.pieces(0)), set(position.pieces(1))

    def at(point: int) -> tuple[float, float]:
        x, y = TRGD_POINTS[point]
        return margin + x * step, margin + y * step

    body = []
    for a, b in TRGD_LINES:
        (x1, y1), (x2, y2) = at(a), at(b)
        body.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#555" stroke-width="3"/>'
        )
    for point in TRGD_POINTS:
        x, y = at(point)
        fill = "#222" if point in mine else "#fff" if point in theirs else "#bbb"
        radius = 17 if point in mine or point in theirs else 8
        body.append(
            f'<g class="cell" data-token="{point}"><circle cx="{x}" cy="{y}" r="{radius}" '
            f'fill="{fill}" stroke="#222"/><text x="{x + 12}" y="{y - 12}" font-size="11">'
            f"{point}</text></g>"
        )
    size = 2 * margin + 4 * step
    return Board(_svg(size, size, body, "TRGD board"), join="-")


def fibonacci_nim_board(position: Any, last: str | None = None) -> Board:
    """The pile as a row of counters; the moves are buttons (how many to take)."""
    pile = int(position.pile)
    per_row, size = 20, 18
    rows = max(1, (pile + per_row - 1) // per_row)
    body = [
        f'<circle cx="{(i % per_row) * size + size / 2}" cy="{(i // per_row) * size + size / 2}"'
        f' r="{size * 0.4}" fill="#8a5a2b"/>'
        for i in range(pile)
    ]
    return Board(_svg(per_row * size, rows * size, body, f"pile of {pile}"))


def tree_board(position: Any, last: str | None = None) -> Board:
    """The current node and its children (an explicit tree can be too large to draw whole);
    children carry their move numbers."""
    count = len(position.legal_moves())
    width = max(1, count) * 60
    body = [
        f'<circle cx="{width / 2}" cy="24" r="16" fill="#ddd" stroke="#333"/>'
        f'<text x="{width / 2}" y="29" font-size="12" text-anchor="middle">'
        f"{escape(position.to_string())}</text>"
    ]
    for i, move in enumerate(position.legal_moves()):
        x = i * 60 + 30
        token = position.move_str(move)
        body.append(
            f'<line x1="{width / 2}" y1="40" x2="{x}" y2="86" stroke="#333"/>'
            f'<g class="cell" data-token="{token}"><circle cx="{x}" cy="100" r="14" '
            f'fill="#fff" stroke="#333"/><text x="{x}" y="105" font-size="12" '
            f'text-anchor="middle">{token}</text></g>'
        )
    return Board(_svg(width, 130, body, "game tree"))


DRAWERS = {
    "chess": chess_board,
    "connect-four": connect_four_board,
    "tictactoe": tictactoe_board,
    "trgd": trgd_board,
    "fibonacci-nim": fibonacci_nim_board,
    "tree": tree_board,
}
