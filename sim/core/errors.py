"""The one exception type that reaches the user as a single line."""


class PlaytestError(Exception):
    """Bad input or an impossible request: the CLI prints the message alone and exits 2."""
