"""How bots choose: game-agnostic selectors and named presets (weights over move features)."""
