"""The subtraction game as an alfabeta plugin (see plugin.py)."""
