"""Searchers. ``reference`` holds the pure-Python oracles; ``thesis`` the procedures of the
1991 thesis, ported faithfully for checking its printed values."""
