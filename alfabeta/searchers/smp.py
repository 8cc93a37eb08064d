"""Lazy SMP for the alpha-beta family: helper processes that search the same position as the
main search, all on one transposition table in shared memory.

The compiled search holds the GIL (it lets it go only every few thousand nodes), so threads
could not search at once; processes can. Each helper (``python -m alfabeta.searchers.smp``)
builds its own searcher and evaluator from their specs, maps the table the main process
made, and on ``start`` searches the position with no limit until ``stop``. The helpers'
only effect is what they store: the main search meets their entries (bounds, best moves)
ahead of its own and finishes its iterations sooner. Its move, score and info lines (nodes
included) are its own, and with helpers it is no longer deterministic.

The shared file holds a header (its first byte: the stop flag, which the helpers' searches
read at each clock check) and then the table. It lives in ``/dev/shm`` where there is one,
and is unlinked as soon as every helper has mapped it, so nothing is left behind whatever
happens later. The helpers talk in lines of JSON on their stdin and stdout; a helper whose
parent dies stops searching and exits.
"""

from __future__ import annotations

import json
import mmap
import os
import select
import subprocess
import sys
import tempfile
from typing import IO

from alfabeta.core import AlfabetaError, InvalidOptionError, Position
from alfabeta.searchers.tt import TranspositionTable, table_bytes

READY_SECONDS = 120.0  # a helper imports alfabeta and loads its evaluator in this time at most
STOP_SECONDS = 5.0  # a helper ends its search this soon after ``stop`` (it checks often)
SHARED_DIR = "/dev/shm"  # memory-backed files on Linux; elsewhere the temporary directory
HEADER_BYTES = 64  # byte 0: the stop flag; the table starts on the next cache line


class HelperError(AlfabetaError):
    """A Lazy SMP helper process failed to start, to answer, or to stop in time."""


class SharedStop:
    """The helpers' stop flag: the header's first byte set, or the parent gone (an orphan
    stops searching)."""

    def __init__(self, memory: mmap.mmap, parent: int) -> None:
        self.memory, self.parent = memory, parent

    def is_set(self) -> bool:
        """Whether the search must stop (the ``Limit.stop`` protocol)."""
        return self.memory[0] != 0 or os.getppid() != self.parent


def _shared_table(memory: mmap.mmap, mb: int, ways: int) -> TranspositionTable:
    return TranspositionTable(mb, ways == 2, buffer=memoryview(memory)[HEADER_BYTES:])


class HelperPool:
    """``count`` helper processes for a main search with ``searcher_spec`` (an alpha-beta
    family searcher with ``tt=on`` and ``iterative=on``), ``evaluator_spec`` and
    ``game_spec``. ``table`` is the shared transposition table of ``mb`` MiB, ``ways``-way,
    that the main search must use (``use_table``). Raises HelperError when a helper cannot
    start; ``close()`` ends them all."""

    def __init__(
        self,
        count: int,
        searcher_spec: str,
        evaluator_spec: str,
        game_spec: str,
        mb: int,
        ways: int = 1,
    ) -> None:
        if count < 1:
            raise InvalidOptionError(f"a helper pool of {count} processes: expected 1 or more")
        self.helpers: list[subprocess.Popen] = []
        self.searching = False
        try:
            self._start(count, (searcher_spec, evaluator_spec, game_spec, mb, ways))
        except OSError as error:  # no room for the table, no process to start
            self.close()
            raise HelperError(f"cannot start the search helpers: {error}") from error
        except BaseException:
            self.close()
            raise

    def _start(self, count: int, specs: tuple[str, str, str, int, int]) -> None:
        """Make the shared file and table, start the helpers and wait for each ``ready``;
        ``specs`` are the searcher's, evaluator's and game's, the table's MiB and ways."""
        mb, ways = specs[3], specs[4]
        size = HEADER_BYTES + table_bytes(mb)
        directory = SHARED_DIR if os.path.isdir(SHARED_DIR) else tempfile.gettempdir()
        descriptor, path = tempfile.mkstemp(prefix="alfabeta-tt-", dir=directory)
        try:
            with os.fdopen(descriptor, "r+b") as file:
                file.truncate(size)
                self.memory = mmap.mmap(file.fileno(), size)
            self.table = _shared_table(self.memory, mb, ways)
            setup = json.dumps([path, *specs])
            for _ in range(count):
                self.helpers.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "alfabeta.searchers.smp", setup],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        text=True,
                    )
                )
            for helper in self.helpers:
                self._answer(helper, "ready", READY_SECONDS)
        finally:
            os.unlink(path)  # every helper has mapped it (or none will): nothing to leave behind

    def _send(self, helper: subprocess.Popen, message: dict) -> None:
        assert helper.stdin is not None
        try:
            helper.stdin.write(json.dumps(message) + "\n")
            helper.stdin.flush()
        except (OSError, ValueError):
            raise HelperError("a search helper process ended unexpectedly") from None

    def _answer(self, helper: subprocess.Popen, expected: str, seconds: float) -> None:
        assert helper.stdout is not None
        ready, _, _ = select.select([helper.stdout], [], [], seconds)
        if not ready:
            raise HelperError(f"a search helper did not answer {expected!r} in {seconds:g} s")
        line = helper.stdout.readline().strip()
        if not line:
            raise HelperError("a search helper process ended unexpectedly")
        if line != expected:
            raise HelperError(f"a search helper failed: {line}")

    def start(self, position: Position) -> None:
        """Every helper begins searching ``position``, with the table's generation as the
        main search finds it (each search then starts a new one)."""
        self.memory[0] = 0
        message = {
            "root": position.root_string(),
            "moves": list(position.move_stack),
            "generation": self.table.generation,
        }
        for helper in self.helpers:
            self._send(helper, message)
        self.searching = True

    def halt(self) -> None:
        """Tell the helpers to stop searching (``stop`` waits until they have)."""
        self.memory[0] = 1

    def stop(self) -> None:
        """End the helpers' searches and wait until each has stopped writing to the table."""
        if not self.searching:
            return
        self.searching = False
        self.halt()
        for helper in self.helpers:
            self._answer(helper, "done", STOP_SECONDS)

    def new_game(self) -> None:
        """The helpers forget the history of the last game (the main search clears the table)."""
        for helper in self.helpers:
            self._send(helper, {"new_game": True})

    def close(self) -> None:
        """Stop and end every helper (one that does not end in STOP_SECONDS is killed)."""
        if hasattr(self, "memory"):
            self.memory[0] = 1
        for helper in self.helpers:
            try:
                if helper.stdin is not None:
                    helper.stdin.close()  # end of input: the helper exits
            except OSError:
                pass
        for helper in self.helpers:
            try:
                helper.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                helper.kill()
                helper.wait()
            if helper.stdout is not None:
                helper.stdout.close()
        self.helpers = []
        self.searching = False


def serve(setup: str, commands: IO[str], answers: IO[str]) -> None:
    """A helper process: build from ``setup`` (see HelperPool), map the table, answer
    ``ready``; then for each ``{"root", "moves", "generation"}`` line, search that position
    until the stop flag and answer ``done``; ``{"new_game"}`` forgets the history; the end
    of input ends it. A failure is answered ``failed: …``."""
    from alfabeta.plugins.catalog import load_catalog

    def answer(text: str) -> None:
        answers.write(" ".join(text.split()) + "\n")
        answers.flush()

    try:
        path, searcher_spec, evaluator_spec, game_spec, mb, ways = json.loads(setup)
        catalog = load_catalog()
        searcher = catalog.searcher(searcher_spec)
        game = catalog.game(game_spec)
        evaluator = catalog.evaluator(evaluator_spec, game)
        with open(path, "r+b") as file:
            memory = mmap.mmap(file.fileno(), HEADER_BYTES + table_bytes(mb))
        table = _shared_table(memory, mb, ways)
    except Exception as error:
        answer(f"failed: {type(error).__name__}: {error}")
        return
    answer("ready")
    stop = SharedStop(memory, os.getppid())
    for line in commands:
        try:
            message = json.loads(line)
            if message.get("new_game"):
                searcher.new_game()
                continue
            position = game.from_string(message["root"])
            for move in message["moves"]:
                position.push(move)
            table.generation = message["generation"]
            searcher.help_search(position, evaluator, table, stop)
        except Exception as error:
            answer(f"failed: {type(error).__name__}: {error}")
            return
        answer("done")


if __name__ == "__main__":
    serve(sys.argv[1], sys.stdin, sys.stdout)
