"""Dice Theme Park (Alley Cat Games): the game as data; the engine follows."""
