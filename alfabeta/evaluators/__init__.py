"""Per-game evaluators. Each scores from the side to move's point of view (design §3)."""
