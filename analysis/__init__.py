"""One analysis for every game: the results table plus the game's declaration -> tables."""

MODEL_GAMES = 100_000  # games the model of winning and the points bootstrap use by default
