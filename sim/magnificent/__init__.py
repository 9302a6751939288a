"""The Magnificent (Aporta Games): the game as data; the engine follows."""
