# cython: language_level=3
"""PythonGame: runs a game written in plain Python under every compiled searcher.

The wrapped object implements the Python API of design §2 with int moves (``legal_moves``,
``push``, ``pop``, ``outcome``, ``side_to_move``, ``key``, ``copy``, ``to_string``,
``from_string``, ``move_str``, ``parse_move``) and a class attribute ``max_moves``; optional:
``noisy_moves``, ``push_null``/``pop_null``, ``options``, and ``make(move)``/``unmake(move)``:
the same as ``push``/``pop`` without the legality check. Searchers only play moves the game
itself generated, so when a game offers them the adapter uses them in the search and keeps
``push`` (which validates) for moves from outside.
"""

from libc.stdint cimport uint64_t

from alfabeta.core.position cimport Position

from alfabeta.core.errors import GameProtocolError, IllegalMoveError

REQUIRED = (
    "legal_moves", "push", "pop", "outcome", "side_to_move", "key", "copy",
    "to_string", "from_string", "move_str", "parse_move",
)
KEY_MASK = (1 << 64) - 1


def check_protocol(obj):
    """Raise GameProtocolError naming every part of the game API that ``obj`` lacks."""
    missing = [name for name in REQUIRED if not hasattr(obj, name)]
    if missing:
        raise GameProtocolError(
            f"{type(obj).__name__} is not a game: it lacks {', '.join(missing)}"
        )


cdef class PythonGame(Position):
    """A Position whose state lives in a plain-Python game object."""

    cdef readonly object game
    cdef object _make, _unmake  # the game's unchecked make/unmake, or push/pop

    def __init__(self, game):
        check_protocol(game)
        self.game = game
        unchecked = hasattr(game, "make") and hasattr(game, "unmake")
        self._make = game.make if unchecked else game.push
        self._unmake = game.unmake if unchecked else (lambda move: game.pop())
        self.max_moves = int(getattr(game, "max_moves", 256))
        self.side_to_move = game.side_to_move

    @property
    def name(self):
        return getattr(self.game, "name", type(self.game).__name__)

    cdef int _fill(self, list moves, int* out) except -1:
        cdef int count = len(moves)
        if count > self.max_moves:
            raise GameProtocolError(
                f"{self.name} generated {count} moves, more than its max_moves={self.max_moves}"
            )
        for i in range(count):
            move = moves[i]
            if not isinstance(move, int) or isinstance(move, bool):
                raise GameProtocolError(f"{self.name} generated {move!r}; moves must be ints")
            out[i] = move
        return count

    cdef int generate(self, int* out) except -1:
        return self._fill(list(self.game.legal_moves()), out)

    cdef int generate_noisy(self, int* out) except -1:
        noisy = getattr(self.game, "noisy_moves", None)
        return self._fill(list(noisy()), out) if noisy is not None else 0

    cdef int make(self, int move) except -1:
        self._make(move)
        self.side_to_move = self.game.side_to_move
        return 0

    cdef int unmake(self, int move) except -1:
        self._unmake(move)
        self.side_to_move = self.game.side_to_move
        return 0

    cdef bint make_null(self) except -1:
        push_null = getattr(self.game, "push_null", None)
        if push_null is None or not push_null():
            return False
        self.side_to_move = self.game.side_to_move
        return True

    cdef int unmake_null(self) except -1:
        self.game.pop_null()
        self.side_to_move = self.game.side_to_move
        return 0

    cdef int c_outcome(self) except -1:
        return int(self.game.outcome())

    cdef uint64_t c_key(self) except? 0:
        return int(self.game.key()) & KEY_MASK

    # The Python API delegates to the game so that its own validation and messages apply.
    def push(self, move):
        if not self.is_legal(move):
            raise IllegalMoveError(
                f"{move!r} is not a legal move in {self.name} position {self.to_string()!r}"
            )
        move = int(move)  # is_legal: an integer, perhaps numpy's
        self.make(move)
        self._stack.append(move)

    def options(self):
        options = getattr(self.game, "options", None)
        return options() if options is not None else {}

    def to_string(self):
        return self.game.to_string()

    def from_string(self, text):
        return PythonGame(self.game.from_string(text))

    def move_str(self, move):
        return self.game.move_str(move)

    def parse_move(self, text):
        return self.game.parse_move(text)

    def copy(self):
        twin = PythonGame(self.game.copy())
        twin._stack = list(self._stack)
        return twin

    def __reduce__(self):
        return (_rebuild_python_game, (self.game, tuple(self._stack)))

    def __str__(self):
        return str(self.game)


def _rebuild_python_game(game, stack):
    position = PythonGame(game)
    position._stack = list(stack)
    return position
