"""Solvers: retrograde analysis over a game's state graph, and proof-number search."""
