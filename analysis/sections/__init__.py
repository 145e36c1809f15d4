"""Report sections, one module per game: ``section(ctx) -> Section`` and ``ORDER`` (place on the page)."""
