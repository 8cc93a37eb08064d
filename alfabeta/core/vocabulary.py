"""The words of the contracts, as type aliases a plugin author's editor understands.

* ``Move``: a game-encoded move, an ``int`` from ``legal_moves()`` (``parse_move`` makes one
  from text, ``move_str`` writes it back);
* ``Side``: the side to move, 0 (the first player) or 1;
* ``Score``: a value in centipawn-like integer units from the side to move's view (the
  negamax convention); at or beyond ``WIN - MAX_PLY`` it is a proven result.
"""

from typing import TypeAlias

Move: TypeAlias = int
Side: TypeAlias = int
Score: TypeAlias = int
