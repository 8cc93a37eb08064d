# cython: language_level=3
from alfabeta.core.position cimport MOVE_CLASSES, Position

cdef enum:
    NO_CLASS = -1  # no earlier move to continue from: the root, or a null move


cdef inline int class_of(Position pos, int move) noexcept:
    """``pos.move_class(move)``, kept within 0 … MOVE_CLASSES − 1 whatever a game returns:
    the continuation histories index their tables by it."""
    return <int> (<unsigned int> pos.move_class(move) % MOVE_CLASSES)


cdef class MovePicker:
    cdef bint use_tt_move
    cdef bint use_captures
    cdef bint use_killers
    cdef bint use_history
    cdef bint use_malus          # history with gravity, and a malus for the quiets that failed
    cdef bint use_history_linear  # … whose steps grow linearly with depth, and larger
    cdef bint use_countermove    # the move that last refuted the previous move, after the killers
    cdef bint use_see            # noisy moves that lose material go after the killers
    cdef long long losing_key    # … keyed from here: after the killers, or (losing_last) last
    cdef bint use_conthist       # history also by class after the classes 1 and 2 plies back
    cdef bint use_quiet_hint     # quiet moves also by the game's static order_hint
    cdef bint use_threat_order   # quiet moves also by the game's threat_hints
    cdef int* threat             # the current ordering's threat_hints, one per move
    cdef bint use_quiet_cuts     # only quiet moves become killers, countermoves, history
    cdef bint use_capture_history  # noisy moves also by a history of their own
    cdef long long* capture_history  # per side, hashed by the noisy move
    cdef int max_moves
    cdef unsigned char* noisy_flags  # per ply, which ordered moves are noisy (quiet_cuts...)
    cdef bint active             # does any stage reorder the moves at all?
    cdef int* killer             # two per ply: killer[2 * ply], killer[2 * ply + 1]
    cdef long long* history      # per side, a hashed table of cut-off counts
    cdef int* countermove        # per side, hashed by the move it answers
    cdef short* conthist         # CONT_PLIES tables: earlier class × class
    cdef bint use_pawn_history   # history also by class under the game's structure key
    cdef short* pawn_history     # PAWN_HISTORY_ROWS rows (the structure key hashed) × class
    cdef long long* keys         # per ply, its ordering's keys, in the moves' current order
    cdef int* sorted_from        # per ply, the index from which its moves are all in order
    cdef unsigned char* tt_noisy  # per ply, is its table move a noisy one?
    cdef long long* score        # scratch for ``order_noisy``'s keys
    cdef int* noisy              # scratch for the position's ``mark_noisy``
    cdef unsigned char* is_noisy  # the current ordering's noisy moves, one flag per move

    cdef void new_search(self) noexcept
    cdef long long* history_slot(self, int side, int move) noexcept
    cdef int* countermove_slot(self, int side, int previous) noexcept
    cdef short* continuation(self, int back, int earlier) noexcept
    cdef short* pawn_row(self, Position pos) noexcept
    cdef long long history_of(self, int side, int move) noexcept
    cdef long long quiet_score(self, Position pos, int move, short* follow1,
                               short* follow2) noexcept

    cdef int order(self, Position pos, int* moves, int count, int ply, int tt_move,
                   int previous, int class1, int class2) except -1
    cdef int pick(self, int* moves, int index, int count, int ply) noexcept
    cdef void order_noisy(self, Position pos, int* moves, int count) noexcept
    cdef bint noisy_at(self, int ply, int index) noexcept
    cdef void reward_noisy(self, int side, int ply, int* moves, int index, int depth) noexcept
    cdef long long* capture_slot(self, int side, int move) noexcept
    cdef long long noisy_score(self, Position pos, int move) noexcept
    cdef void reward(self, Position pos, int ply, int move, int depth, int* failed,
                     int failed_count, int failed_index, int previous, int class1,
                     int class2) noexcept
    cdef long long bonus(self, int depth) noexcept
    cdef void penalise(self, int side, int move, int depth) noexcept
    cdef bint is_killer(self, int ply, int move) noexcept
    cdef bint is_countermove(self, int side, int previous, int move) noexcept
