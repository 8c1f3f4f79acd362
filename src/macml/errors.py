"""The one user-facing error type: caught once in the CLI, printed without a traceback."""


class MacmlError(Exception):
    """Something the user can fix; the message says what to do next."""

    def __init__(self, message: str, hint: str = "", exit_code: int = 2):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.exit_code = exit_code

    def __str__(self) -> str:
        return f"{self.message}\n{self.hint}" if self.hint else self.message
