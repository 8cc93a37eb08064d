"""BayesChess learning (seed-002): its parameters and phases, the naive Bayes network that
learns them from self-play, model files, the learning database, the opponent-style classifier
and the adaptive policy, and the paper's experiments."""
