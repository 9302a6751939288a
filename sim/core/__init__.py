"""What every game engine shares: random streams, data loading, the batch runner, results."""
