"""One analysis for every game: the results table plus the game's declaration -> tables."""
