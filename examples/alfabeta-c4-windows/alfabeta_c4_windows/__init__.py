"""An example evaluator plugin: Connect Four windows of four (see plugin.py)."""
