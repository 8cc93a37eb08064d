"""Horn-clause deduction as a game (seed-004 §5): knowledge bases, the thesis's α-β deduction
pipeline with its printed traces, and the lazy deductive game every searcher can play."""

from alfabeta.games.deduction.kb import Clause, KnowledgeBase, parse_knowledge_base

__all__ = ["Clause", "KnowledgeBase", "parse_knowledge_base"]
