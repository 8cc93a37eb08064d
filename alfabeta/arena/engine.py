"""External UCI engines as players: a subprocess spoken to over stdin/stdout.

Written here rather than on python-chess's ``chess.engine``: that module is GPL (an optional
extra, which the core never imports), and the arena needs its own hold on the process — a
reader thread with deadlines, so an engine that hangs is killed at its time margin, and a
restart after any failure. An engine that crashes, stalls or answers with an illegal move
raises :class:`EngineFailure`; the game loop turns that into a lost game, and the next game
starts a fresh process.

Pondering, as cutechess and GUIs drive it: an engine given ``Ponder=true`` is told so with
``setoption`` and, in a game with a clock, thinks on the opponent's time. After each of its
moves that came with ``bestmove … ponder M``, it gets the position after M and ``go ponder``
with the clocks as they then stand. When the opponent plays M, ``ponderhit`` turns that search
into the move's own (the clock runs from the ponderhit); any other reply gets ``stop``, its
answer is dropped, and the real position is searched.
"""

from __future__ import annotations

import collections
import queue
import shlex
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from attrs import define, evolve, field

from alfabeta.core import WIN, AlfabetaError, InvalidOptionError, Limit, Position, SearchResult

STARTUP_SECONDS = 10.0  # python-chess's default too: an engine must say uciok by then
QUIT_SECONDS = 1.0  # after "quit", how long an engine may take to exit before it is killed
STALL_SECONDS = 60.0  # a fixed-depth or fixed-node "go" that takes longer is a hung engine
DEBIAN_GAMES = "/usr/games"
CLOCK_GRACE = 0.05  # read a little past the margin so a just-late bestmove is seen as late
STDERR_LINES = 5  # the last lines of an engine's stderr that a crash report quotes
STDERR_WAIT = 1.0  # how long a crash report waits for the rest of a dead engine's stderr
STOP_SECONDS = 5.0  # between games, how long a pondering engine may take to answer "stop"


class EngineFailure(AlfabetaError):
    """An external engine broke the protocol; ``termination`` says how (``crash``,
    ``stall``, ``illegal move``, ``time forfeit``)."""

    def __init__(self, message: str, termination: str) -> None:
        super().__init__(message)
        self.termination = termination


def engine_command(command: str | Sequence[str]) -> list[str]:
    """The argument vector for ``command`` (a shell-like string or a list of words). A bare
    program name not on the PATH is also looked for in /usr/games, where Debian installs
    engines such as stockfish (outside the PATH of non-login shells)."""
    words = shlex.split(command) if isinstance(command, str) else [str(w) for w in command]
    if not words:
        raise AlfabetaError("uci player: command is empty")
    program = words[0]
    if "/" not in program and shutil.which(program) is None:
        debian = shutil.which(program, path=DEBIAN_GAMES)
        if debian is not None:
            words[0] = debian
    return words


def probe_engine(command: Sequence[str], options: dict[str, Any]) -> None:
    """Start the engine, run its handshake with ``options`` and quit, before a run plays any
    game: an engine that cannot start raises EngineFailure (with what it wrote to stderr),
    and options it does not declare raise InvalidOptionError (an engine ignores them
    silently)."""
    engine = UciEngine(command, options)
    try:
        engine.start()
        unknown = engine.unknown_options()
    finally:
        engine.close()
    if unknown:
        declared = ", ".join(sorted(engine.advertised.values())) or "none"
        raise InvalidOptionError(
            f"{engine.name} has no option {', '.join(map(repr, unknown))} (it declares: {declared})"
        )


def option_text(value: Any) -> str:
    """A ``setoption`` value: booleans as ``true``/``false``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class UciEngine:
    """One engine process. ``start()`` runs the ``uci``/``setoption``/``isready`` handshake;
    ``search(...)`` sends ``position`` and ``go`` and returns the ``bestmove`` with the last
    ``info`` it saw."""

    def __init__(self, command: Sequence[str], options: dict[str, Any] | None = None) -> None:
        self.command = list(command)
        self.options = dict(options or {})
        self.name = self.command[0]
        self.process: subprocess.Popen | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self.advertised: dict[str, str] = {}  # option names the engine declared, by lower case
        self.stderr_reader: threading.Thread | None = None

    # ---- process ------------------------------------------------------------------------
    def start(self) -> None:
        """Start the engine process and run the ``uci`` handshake, the ``setoption`` lines and
        ``isready``; an engine that fails or stalls raises EngineFailure. The ``option``
        lines of the handshake are kept in ``advertised``."""
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineFailure(f"cannot start {self.command[0]!r}: {error}", "crash") from None
        self.lines = queue.Queue()
        self.stderr.clear()
        threading.Thread(target=self._read, args=(self.process, self.lines), daemon=True).start()
        self.stderr_reader = threading.Thread(
            target=self._keep_stderr, args=(self.process, self.stderr), daemon=True
        )
        self.stderr_reader.start()
        self.send("uci")
        for line in self._until(lambda line: line == "uciok", STARTUP_SECONDS, "uci"):
            if line.startswith("id name "):
                self.name = line[8:].strip()
            elif line.startswith("option name "):
                name = line[len("option name ") :].partition(" type ")[0].strip()
                self.advertised[name.lower()] = name
        for key, value in self.options.items():
            self.send(f"setoption name {key} value {option_text(value)}")
        self.ready()

    @staticmethod
    def _read(process: subprocess.Popen, lines: queue.Queue) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line.rstrip("\r\n"))
        lines.put(None)  # end of output: the process is gone

    @staticmethod
    def _keep_stderr(process: subprocess.Popen, kept: collections.deque[str]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            if line.strip():
                kept.append(line.rstrip("\r\n"))

    def unknown_options(self) -> list[str]:
        """The names among ``options`` that the engine did not declare in its handshake (UCI
        option names are not case sensitive); call after ``start()``."""
        return [key for key in self.options if key.lower() not in self.advertised]

    @property
    def alive(self) -> bool:
        """Whether the process is running."""
        return self.process is not None and self.process.poll() is None

    def send(self, line: str) -> None:
        """Send one line to the engine; a dead engine raises EngineFailure."""
        if self.process is None or self.process.stdin is None:
            raise EngineFailure(f"{self.name} is not running", "crash")
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            try:  # an engine that died before reading: report its code and stderr
                code = self.process.wait(STDERR_WAIT)
            except subprocess.TimeoutExpired:
                code = None
            raise self._crash(code, line) from None

    def _until(
        self, done: Callable[[str], bool], seconds: float, waiting_for: str
    ) -> Iterator[str]:
        """Yield output lines until ``done(line)``; a deadline or the end of output fails."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(0.0, left))
            except queue.Empty:
                raise EngineFailure(
                    f"{self.name} did not answer {waiting_for!r} within {seconds:.2f}s", "stall"
                ) from None
            if line is None:
                code = self.process.wait() if self.process is not None else None
                raise self._crash(code, waiting_for)
            yield line
            if done(line):
                return

    def _crash(self, code: int | None, during: str) -> EngineFailure:
        """The failure of an engine that exited with ``code`` during the command ``during``."""
        return EngineFailure(
            f"{self.name} exited (code {code}) during {during!r}" + self._last_words(), "crash"
        )

    def _last_words(self) -> str:
        """What the engine last wrote to stderr, for a crash report ('' if nothing)."""
        if self.stderr_reader is not None:  # the process has ended: its stderr is ending too
            self.stderr_reader.join(STDERR_WAIT)
        return f"; its stderr ended: {' | '.join(self.stderr)}" if self.stderr else ""

    def ready(self, seconds: float = STARTUP_SECONDS) -> None:
        """Send ``isready`` and wait ``seconds`` at most for ``readyok``."""
        self.send("isready")
        for _ in self._until(lambda line: line == "readyok", seconds, "isready"):
            pass

    def new_game(self) -> None:
        """Tell the engine a new game starts (``ucinewgame``) and wait until it is ready."""
        self.send("ucinewgame")
        self.ready()

    def close(self) -> None:
        """Ask the engine to quit, and kill it if it does not."""
        process, self.process = self.process, None
        if process is None:
            return
        try:
            if process.poll() is None and process.stdin is not None:
                process.stdin.write("quit\n")
                process.stdin.flush()
        except (OSError, ValueError):
            pass
        try:
            process.wait(QUIT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    # ---- searching --------------------------------------------------------------------------
    def search(self, position_command: str, go_command: str, seconds: float) -> tuple[str, dict]:
        """Send a search; the ``bestmove`` text and the last ``info`` fields (score, depth,
        nodes, pv) within ``seconds``, else :class:`EngineFailure` ``stall``."""
        best, infos = self.analyse(position_command, go_command, seconds)
        return best, last_info(infos)

    def analyse(
        self, position_command: str, go_command: str, seconds: float
    ) -> tuple[str, list[dict]]:
        """Send a search; the ``bestmove`` text and the fields of every ``info`` line in the
        order sent (with ``MultiPV`` > 1, each line's ``multipv`` says which line it is)."""
        self.send(position_command)
        self.send(go_command)
        best, _, infos = self.answer(seconds, "go")
        return best, infos

    def answer(self, seconds: float, waiting_for: str) -> tuple[str, str | None, list[dict]]:
        """Read the running search's answer: the ``bestmove`` text, its ``ponder`` move (None
        if it names none) and the fields of every ``info`` line before it."""
        infos: list[dict] = []
        for line in self._until(lambda line: line.startswith("bestmove"), seconds, waiting_for):
            if line.startswith("info "):
                fields = parse_info(line)
                if fields:
                    infos.append(fields)
            elif line.startswith("bestmove"):
                words = line.split()
                best = words[1] if len(words) > 1 else ""
                ponder = words[3] if len(words) > 3 and words[2] == "ponder" else None
                return best, ponder, infos
        raise AssertionError("unreachable")  # pragma: no cover


def parse_info(line: str) -> dict[str, Any]:
    """The fields of an ``info`` line the arena records: depth, nodes, multipv, score (as a
    search value: centipawns, or ±(WIN − plies) for a mate) and pv."""
    words = line.split()
    found: dict[str, Any] = {}
    i = 1
    while i < len(words):
        word = words[i]
        try:
            if word in ("depth", "nodes", "multipv") and i + 1 < len(words):
                found[word] = int(words[i + 1])
                i += 2
                continue
            if word == "score" and i + 2 < len(words):
                kind, amount = words[i + 1], int(words[i + 2])
                if kind == "cp":
                    found["score"] = amount
                elif kind == "mate":
                    plies = 2 * amount - 1 if amount > 0 else -2 * amount
                    found["score"] = WIN - plies if amount > 0 else -(WIN - plies)
                i += 3
                continue
        except ValueError:
            pass
        if word == "pv":
            found["pv"] = words[i + 1 :]
            break
        if word == "string":
            break
        i += 1
    return found


def last_info(infos: Sequence[dict]) -> dict[str, Any]:
    """The search's last word on each field of its ``info`` lines."""
    info: dict[str, Any] = {}
    for fields in infos:
        info.update(fields)
    return info


def position_command(root: str, moves: Sequence[str]) -> str:
    """The ``position`` line for a start FEN and the moves played from it."""
    return f"position fen {root}" + (f" moves {' '.join(moves)}" if moves else "")


def go_command(limit: Limit, ponder: bool = False) -> str:
    """The ``go`` line for a Limit (clock times in ms); ``go ponder …`` with ``ponder``."""
    parts = ["go", "ponder"] if ponder else ["go"]
    for name in ("wtime", "btime", "winc", "binc"):
        value = getattr(limit, name)
        if value is not None:
            parts += [name, str(max(0, int(value * 1000)))]
    if limit.movestogo is not None:
        parts += ["movestogo", str(limit.movestogo)]
    if limit.depth is not None:
        parts += ["depth", str(limit.depth)]
    if limit.nodes is not None:
        parts += ["nodes", str(limit.nodes)]
    if limit.time is not None:
        parts += ["movetime", str(max(1, int(limit.time * 1000)))]
    return " ".join(parts)


@define
class UciPlayer:
    """An external engine as a player (chess only: UCI speaks FEN and long algebraic moves).
    ``margin`` is the time margin in seconds; ``stall`` how long a search without a clock
    may take before the engine counts as hung. With ``Ponder=true`` among its options it
    ponders in games with a clock (see the module docstring)."""

    command: list[str]
    options: dict[str, Any] = field(factory=dict)
    label: str = "uci"
    margin: float = 0.1
    stall: float = STALL_SECONDS
    engine: UciEngine | None = field(default=None, repr=False)
    pondering: str | None = field(default=None, repr=False)  # the position being pondered

    @property
    def ponders(self) -> bool:
        """Whether this player thinks on its opponent's time: ``Ponder=true``, in any case."""
        return any(key.lower() == "ponder" and value is True for key, value in self.options.items())

    def new_game(self) -> None:
        """Start (or restart) the engine process and announce a new game; a search still
        pondering the last game is stopped first."""
        if self.pondering is not None and self.engine is not None:
            try:
                self._stop_pondering(STOP_SECONDS)
            except EngineFailure:
                self.close()
        if self.engine is None or not self.engine.alive:
            self.close()
            engine = UciEngine(self.command, self.options)
            try:
                engine.start()
            except EngineFailure:
                engine.close()
                raise
            self.engine = engine
        self.engine.new_game()

    def choose(
        self, position: Position, notify: Callable[..., Any], limit: Limit | None = None
    ) -> tuple[int, SearchResult | None]:
        """The engine's move for ``position`` under ``limit`` (the Player protocol), reporting its
        search to ``notify``."""
        limit = limit or Limit()
        if self.engine is None:
            self.new_game()
        assert self.engine is not None
        root = position.root_string()
        moves = [position.move_str(m) for m in position.move_stack]
        command = position_command(root, moves)
        own = limit.wtime if position.side_to_move == 0 else limit.btime
        if own is not None:
            seconds = own + self.margin + CLOCK_GRACE
        elif limit.time is not None:
            seconds = limit.time + self.margin + CLOCK_GRACE
        else:
            seconds = self.stall
        start = time.perf_counter()
        try:
            if self.pondering == command:  # the opponent played the expected move
                self.pondering = None
                self.engine.send("ponderhit")
            else:
                self._stop_pondering(seconds)
                self.engine.send(command)
                self.engine.send(go_command(limit))
            text, expected, infos = self.engine.answer(seconds, "go")
        except EngineFailure as failure:
            self.close()  # restarted for the next game
            if failure.termination == "stall" and own is not None:
                failure.termination = "time forfeit"
            raise
        elapsed = time.perf_counter() - start
        try:
            move = position.parse_move(text)
        except AlfabetaError:
            self.close()
            raise EngineFailure(
                f"{self.label} played the illegal move {text!r}", "illegal move"
            ) from None
        info = last_info(infos)
        result = SearchResult(
            move=move,
            value=info.get("score", 0),
            depth=info.get("depth", 0),
            nodes=info.get("nodes", 0),
            leaves=0,
            pv=(move,),
            elapsed=elapsed,
        )
        if self.ponders and own is not None and expected is not None:
            self._ponder(position, move, expected, limit, own - elapsed)
        return move, result

    def _ponder(
        self, position: Position, move: int, expected: str, limit: Limit, left: float
    ) -> None:
        """Start pondering the position after ``move`` and the ``expected`` reply, with this
        side's clock at ``left`` seconds before its increment. A reply that is not legal
        there, or one that leaves no move to answer, is not pondered."""
        after = position.copy()
        after.push(move)
        try:
            reply = after.parse_move(expected)  # legal moves only
        except AlfabetaError:
            return
        after.push(reply)
        if not after.legal_moves():
            return
        side = position.side_to_move
        increment = (limit.winc if side == 0 else limit.binc) or 0.0
        own = max(0.0, left) + increment
        clocks = evolve(limit, wtime=own) if side == 0 else evolve(limit, btime=own)
        command = position_command(
            after.root_string(), [after.move_str(m) for m in after.move_stack]
        )
        assert self.engine is not None
        self.engine.send(command)
        self.engine.send(go_command(clocks, ponder=True))
        self.pondering = command

    def _stop_pondering(self, seconds: float) -> None:
        """Stop a pondering search, if any, and drop its answer."""
        if self.pondering is None:
            return
        self.pondering = None
        assert self.engine is not None
        self.engine.send("stop")
        self.engine.answer(seconds, "stop")

    def close(self) -> None:
        """Quit the engine, killing it if it does not exit in time."""
        self.pondering = None
        if self.engine is not None:
            self.engine.close()
            self.engine = None
