"""Per-game analysis modules; each registers its commands in `analysis.commands` when imported."""
