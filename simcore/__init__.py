"""cardsim's vectorized core: cards, dealing, figure kernels, the runner and the game registry."""

__version__ = "0.1.0"
