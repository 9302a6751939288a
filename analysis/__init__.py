"""pandas: win rates, setup strength, score distributions and game length from results."""
