"""Where the files that ship beside the code live: checks/ (scripts run in the target
interpreter) and recipes/ (recipe TOML). In a wheel they sit inside the package as
_checks/_recipes; in a source checkout (editable install) at the project root."""
from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _locate(packaged: str, in_tree: str) -> Path:
    inside = _PACKAGE / packaged
    if inside.is_dir():
        return inside
    return _PACKAGE.parents[1] / in_tree


def checks_dir() -> Path:
    return _locate("_checks", "checks")


def recipes_dir() -> Path:
    return _locate("_recipes", "recipes")


def check_script(name: str) -> Path:
    return checks_dir() / name
