# cython: language_level=3
from alfabeta.games.chess.board cimport Chess


cdef int endgame_score(Chess board, int score) noexcept
cdef void build_tables() noexcept
