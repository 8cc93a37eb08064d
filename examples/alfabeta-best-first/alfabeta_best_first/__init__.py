"""An example searcher plugin: best-first minimax (see plugin.py)."""
