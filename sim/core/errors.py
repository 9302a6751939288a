"""The exception types that reach the user as a single line."""


class PlaytestError(Exception):
    """Bad input or an impossible request: the CLI prints the message alone and exits 2."""


class ParameterError(PlaytestError):
    """A parameter out of its range. The message names it as the Python API does
    (``chunk_size``); ``flag()`` names it as the command line does (``--chunk-size``)."""

    def __init__(self, param: str, problem: str):
        self.param, self.problem = param, problem
        super().__init__(f"{param} {problem}")

    def flag(self) -> str:
        return f"--{self.param.replace('_', '-')} {self.problem}"
