"""The one user-facing error type: caught once in the CLI, printed without a traceback."""
import math

MOST_SECONDS = 7 * 24 * 3600.0  # the longest a time option may ask for (a week)
MOST_COUNT = 10**9  # the most steps, epochs or processes an option may ask for


class MacmlError(Exception):
    """Something the user can fix; the message says what to do next."""

    def __init__(self, message: str, hint: str = "", exit_code: int = 2):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.exit_code = exit_code

    def __str__(self) -> str:
        return f"{self.message}\n{self.hint}" if self.hint else self.message


def require_positive(option: str, value: float, most: float, unit: str = "number") -> None:
    """A numeric option is finite, above 0 and at most `most` (inf, nan and 1e300 would reach a timer
    or a loop that cannot take them); else a usage error naming the option."""
    if not (math.isfinite(value) and 0 < value <= most):
        raise MacmlError(f"{option} must be a positive {unit}, at most {most:g}, not {value:g}.")
