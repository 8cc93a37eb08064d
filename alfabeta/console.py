"""What alfabeta prints for people: tables drawn by rich on a terminal, and plain aligned text
when the output is piped or ``--plain`` is given (scripts and tests read that form, so it is
stable)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import IO, Any

_WIDTH = re.compile(r"^[<>^]?\d*")  # the alignment and width at the head of a format spec


def wants_plain(out: IO[str], plain: bool | None = None) -> bool:
    """Plain text for ``out``: as asked, or whenever ``out`` is not a terminal."""
    if plain:
        return True
    isatty = getattr(out, "isatty", None)
    return not (isatty is not None and isatty())


def print_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    out: IO[str],
    title: str = "",
    plain: bool | None = None,
    left: int = 2,
) -> None:
    """A table: rich on a terminal, plain aligned text otherwise (or with ``plain``). The
    first ``left`` columns are aligned left (names), the others right (numbers)."""
    plain = wants_plain(out, plain)
    cells = [[str(c) for c in row] for row in rows]
    if not plain:
        from rich.console import Console
        from rich.table import Table

        table = Table(title=title or None)
        for i, header in enumerate(headers):
            table.add_column(header, justify="left" if i < left else "right")
        for row in cells:
            table.add_row(*row)
        Console(file=out).print(table)
        return
    widths = [
        max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)
    ]
    if title:
        print(title, file=out)

    def line(values: Sequence[str]) -> str:
        return "  ".join(
            v.ljust(w) if i < left else v.rjust(w)
            for i, (v, w) in enumerate(zip(values, widths, strict=True))
        ).rstrip()

    print(line(headers), file=out)
    for row in cells:
        print(line(row), file=out)


class LiveTable:
    """A table whose rows arrive one by one (``bench``): on a terminal a rich table redrawn in
    place as it grows; in plain mode each row printed as it comes, in fixed-width columns
    given by ``plain_formats`` (format specs such as ``"<28"`` or ``">11,"``)."""

    def __init__(
        self,
        headers: Sequence[str],
        plain_formats: Sequence[str],
        out: IO[str],
        plain: bool | None = None,
    ) -> None:
        self.headers = list(headers)
        self.formats = list(plain_formats)
        self.out = out
        self.plain = wants_plain(out, plain)
        self.live: Any = None
        self.table: Any = None
        self.header_due = True

    def section(self, title: str) -> None:
        """Start a new group of rows under ``title``."""
        if self.plain:
            print(title, file=self.out)
            self.header_due = True
            return
        self.stop()
        from rich.console import Console
        from rich.live import Live
        from rich.table import Table

        self.table = Table(title=title)
        for i, header in enumerate(self.headers):
            self.table.add_column(header, justify="left" if i < 2 else "right")
        self.live = Live(self.table, console=Console(file=self.out), auto_refresh=False)
        self.live.start()

    def add(self, row: Sequence[Any]) -> None:
        """One row of values, in the headers' order."""
        if not self.plain:  # rich aligns: each value keeps only its precision and grouping
            self.table.add_row(
                *(
                    format(v, _WIDTH.sub("", spec))
                    for v, spec in zip(row, self.formats, strict=True)
                )
            )
            self.live.refresh()
            return
        if self.header_due:
            print(self._line(self.headers, header=True), file=self.out)
            self.header_due = False
        print(self._line(row), file=self.out, flush=True)

    def stop(self) -> None:
        """Leave the last drawn table on the screen."""
        if self.live is not None:
            self.live.stop()
            self.live = None

    def _line(self, values: Sequence[Any], header: bool = False) -> str:
        cells = []
        for value, spec in zip(values, self.formats, strict=True):
            if header:  # a header is text: its column's alignment and width only
                cells.append(format(str(value), spec[: len(spec) - len(_WIDTH.sub("", spec))]))
            else:
                cells.append(format(value, spec))
        return " ".join(cells).rstrip()
