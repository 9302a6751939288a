"""One analysis for every game: the results table plus the game's declaration -> tables.

``from analysis import compare, tournament, balance``: two arms on common random numbers with
a sequential test (analysis/comparisons.py), ratings from balanced tables
(analysis/tournaments.py), and every finding across tiers of skill (analysis/balance.py),
beside ``sim.simulate``.
"""

MODEL_GAMES = 100_000  # games the model of winning and the points bootstrap use by default
BAND = 2.0  # percentage points of win rate beyond which the summary flags an effect


def __getattr__(name: str):
    # imported on first use: the command line reads MODEL_GAMES without loading statsmodels
    if name == "compare":
        from analysis.comparisons import compare

        return compare
    if name == "balance":
        from analysis.balance import balance

        return balance
    if name == "tournament":
        from analysis.tournaments import tournament

        return tournament
    raise AttributeError(f"module 'analysis' has no attribute '{name}'")
