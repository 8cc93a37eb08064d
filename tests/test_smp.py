"""Lazy SMP (``alfabeta/searchers/smp.py``): tables sharing one buffer, helper processes that
search into it, and their failures as typed errors (the UCI ``Threads`` option that runs
them is tested with the rest of UCI)."""

import mmap
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from alfabeta import Limit
from alfabeta.core import InvalidOptionError
from alfabeta.searchers.smp import SHARED_DIR, HelperError, HelperPool
from alfabeta.searchers.tt import ENTRY_BYTES, TranspositionTable, table_bytes

FAST = "negascout(tt=on, iterative=on, killers=on, history=on)"
MIDDLEGAME = "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6"


@pytest.fixture
def pool():
    helpers = HelperPool(1, FAST, "material", "chess", 1)
    yield helpers
    helpers.close()


def _shared_files():
    directory = Path(SHARED_DIR if os.path.isdir(SHARED_DIR) else "/tmp")
    return sorted(directory.glob("alfabeta-tt-*"))


def _exited(pid, seconds):
    """Whether process ``pid`` is gone (or a zombie) within ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


def test_tables_on_one_buffer_share_their_entries(catalog):
    buffer = mmap.mmap(-1, table_bytes(1))
    first = TranspositionTable(1, buffer=buffer)
    second = TranspositionTable(1, buffer=buffer)
    assert first.shared and len(first) == len(second) == table_bytes(1) // ENTRY_BYTES
    searcher = catalog.searcher(FAST)
    searcher.use_table(first)
    searcher.search(
        catalog.game("chess").from_string(MIDDLEGAME), catalog.evaluator("material"), Limit(depth=5)
    )
    assert first.hashfull() > 0
    assert second.hashfull() == first.hashfull()  # what one stores, the other reads
    second.clear()
    assert first.hashfull() == 0


def test_a_table_refuses_a_buffer_too_small_and_a_resize():
    with pytest.raises(InvalidOptionError, match="buffer of 100 bytes"):
        TranspositionTable(1, buffer=bytearray(100))
    table = TranspositionTable(1, buffer=mmap.mmap(-1, table_bytes(1)))
    with pytest.raises(InvalidOptionError, match="keeps its size"):
        table.resize(2)
    misaligned = memoryview(mmap.mmap(-1, table_bytes(1) + 8))[8:]
    with pytest.raises(InvalidOptionError, match=f"{ENTRY_BYTES}-byte boundary"):
        TranspositionTable(1, buffer=misaligned)


def test_only_an_iterative_searcher_with_a_table_can_share_one(catalog):
    table = TranspositionTable(1)
    with pytest.raises(InvalidOptionError, match="tt=on and iterative=on"):
        catalog.searcher("negascout(tt=on)").use_table(table)
    with pytest.raises(InvalidOptionError, match="tt=on and iterative=on"):
        catalog.searcher("negascout(iterative=on)").use_table(table)


def test_helpers_search_into_the_shared_table_until_stopped(pool, catalog):
    position = catalog.game("chess").from_string(MIDDLEGAME)
    assert not _shared_files()  # mapped by every helper, then unlinked
    assert pool.table.hashfull() == 0
    pool.start(position)
    time.sleep(0.5)
    pool.stop()
    filled = pool.table.hashfull()
    assert filled > 0  # the main process never searched: the helper stored all of it
    time.sleep(0.2)
    assert pool.table.hashfull() == filled  # stopped: it writes no more


def test_the_main_search_with_helpers_plays_a_legal_move(pool, catalog):
    position = catalog.game("chess").from_string(MIDDLEGAME)
    searcher = catalog.searcher(FAST)
    searcher.use_table(pool.table)
    for depth in (4, 6):  # the pool serves one search after another
        pool.start(position)
        result = searcher.search(position, catalog.evaluator("material"), Limit(depth=depth))
        pool.stop()
        assert result.depth == depth and result.move in position.legal_moves()
    assert position.to_string() == MIDDLEGAME
    pool.new_game()
    pool.close()
    assert not pool.helpers


def test_a_helper_that_cannot_start_is_a_helper_error_naming_the_cause():
    with pytest.raises(HelperError, match=r"UnknownPluginError.*nonsense"):
        HelperPool(1, FAST, "nonsense", "chess", 1)
    with pytest.raises(InvalidOptionError, match="0 processes"):
        HelperPool(0, FAST, "material", "chess", 1)
    assert not _shared_files()


def test_no_room_for_the_shared_table_is_a_helper_error(monkeypatch):
    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("alfabeta.searchers.smp.tempfile.mkstemp", full)
    with pytest.raises(HelperError, match=r"cannot start the search helpers.*No space left"):
        HelperPool(1, FAST, "material", "chess", 1)


def test_a_killed_helper_is_a_helper_error(pool, catalog):
    pool.helpers[0].kill()
    pool.helpers[0].wait()
    with pytest.raises(HelperError, match="ended unexpectedly"):
        pool.start(catalog.game("chess"))
        pool.stop()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_helper_whose_parent_dies_stops_searching_and_exits():
    script = (
        "import os, sys, time\n"
        "from alfabeta import load_catalog\n"
        "from alfabeta.searchers.smp import HelperPool\n"
        f"pool = HelperPool(1, {FAST!r}, 'material', 'chess', 1)\n"
        "pool.start(load_catalog().game('chess'))\n"
        "print(pool.helpers[0].pid, flush=True)\n"
        "time.sleep(0.3)\n"
        "os._exit(0)\n"  # no stop, no close: the helper is searching with no limit
    )
    parent = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    helper = int(parent.stdout.split()[0])
    assert _exited(helper, 10)
