"""The macOS a text names only by its release name ('MacOS (Mojave)', 'on Catalina'): statements' os.release."""
from __future__ import annotations

import re
from typing import Any, Mapping, Optional, Tuple

from macml.probe.statement_source import where


def _version_tuple(text: str) -> Tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text))


def _release(snapshot: Mapping[str, Any]) -> Optional[Mapping[str, Any]]:
    """The os.release statement, where every one names the same release."""
    named = [s for s in snapshot.get("statements") or () if s.get("fact") == "os.release"]
    return named[0] if named and len({s.get("value") for s in named}) == 1 else None


# The macOS majors inside which a recipe's macOS floor or ceiling falls (recipes/*.toml: pytorch-mps 12.3, mlx 13.5,
# jax-metal 14.4); tests/recipes keeps this in step with the recipes.
FLOORED_MAJORS = (12, 13, 14)


def named_release(snapshot: Mapping[str, Any]) -> Tuple[Optional[str], str, str]:
    """(version, why, where) for a release older than Monterey ('Catalina' -> '10.15'), or from Sequoia on ('macOS
    26' -> '26'). In Monterey, Ventura and Sonoma recipes' macOS floors (12.3, 13.5, 14.4) fall inside the release,
    so its name alone ('12' read as 12.0) would rule them out when the text does not."""
    stated = _release(snapshot)
    if stated is None or _version_tuple(str(stated["value"]))[:1] in {(major,) for major in FLOORED_MAJORS}:
        return None, "", ""
    return stated["value"], f"the release name stands for macOS {stated['value']}", f" ({where(stated)})"


def older_than_silicon(snapshot: Mapping[str, Any]) -> str:
    """Why a named release older than Big Sur means an Intel Mac; '' otherwise."""
    stated = _release(snapshot)
    if stated is None or _version_tuple(str(stated["value"])) >= (11,):
        return ""
    return f"macOS {stated['value']} ({where(stated)}): Apple-silicon Macs start at macOS 11"
