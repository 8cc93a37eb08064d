"""Chess: a compiled bitboard board behind the position contract, FEN and SAN, draw rules."""
