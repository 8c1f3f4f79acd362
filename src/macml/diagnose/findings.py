"""Findings: what a check concludes, with the fix a user can apply."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

LEVELS = ("ok", "info", "warn", "fail")


@dataclass(frozen=True)
class Fix:
    text: str
    commands: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Finding:
    area: str  # "System", "GPU", "Python", "PyTorch", "TensorFlow", "PlaidML", "MLX", "JAX"
    level: str  # one of LEVELS
    message: str
    fix: Optional[Fix] = None
    details: Tuple[str, ...] = ()
    check: str = ""  # filled in from the check function's name

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"unknown finding level {self.level!r}")
        if self.level in ("warn", "fail") and self.fix is None:
            raise ValueError(f"a {self.level} finding needs a fix: {self.message}")


def ok(area: str, message: str, *details: str) -> Finding:
    return Finding(area, "ok", message, details=details)


def info(area: str, message: str, fix: Optional[Fix] = None, *details: str) -> Finding:
    return Finding(area, "info", message, fix, details)


def warn(area: str, message: str, fix: Fix, *details: str) -> Finding:
    return Finding(area, "warn", message, fix, details)


def fail(area: str, message: str, fix: Fix, *details: str) -> Finding:
    return Finding(area, "fail", message, fix, details)
