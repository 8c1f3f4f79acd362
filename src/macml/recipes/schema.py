"""The recipe schema: the frozen values a recipe TOML becomes, and the checks that turn a bad file
into an error naming the file and the key (`pins[1].index_url`). The format: recipes/README.md."""
from __future__ import annotations

import datetime
import sys
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence, Tuple

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet

from macml import versions
from macml.errors import MacmlError
from macml.recipes.conditions import Condition

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on older Pythons only
    import tomli as tomllib

CONDITION_KEYS = ("platform", "arch", "native_arm64", "min_os", "below_os", "gpu_vendor", "python",
                  "min_driver", "compute_capability", "rocm_gfx", "vm")
RECIPE_KEYS = ("name", "summary", "framework", "accelerator", "rank", "verify", "audited", "requires", "pins",
               "post_install", "notes", "holds")
# What a recipe makes the framework run on. "metal" covers the Metal plugins (MLX, tensorflow-metal,
# jax-metal, PlaidML's Metal device); "mps" is PyTorch's Metal backend.
ACCELERATORS = ("mps", "metal", "cuda", "rocm", "cpu")
DEFAULT_RANK = 100
PIN_KEYS = ("label", "when", "requirements", "index_url")
# action -> (required keys, optional keys)
STEP_KEYS = {
    "uninstall": (("packages",), ()),
    "plaidml-configure": ((), ("device",)),
    "env-hint": (("variable", "value"), ("reason",)),
    "check-import": (("modules",), ()),
}
PLATFORMS = ("darwin", "linux", "win32")
ARCHES = ("arm64", "x86_64")
VENDORS = ("Apple", "AMD", "Intel", "NVIDIA")


@dataclass(frozen=True)
class PinSet:
    label: str
    when: Condition
    requirements: Tuple[str, ...]
    index_url: Optional[str] = None


@dataclass(frozen=True)
class PostStep:
    action: str  # one of STEP_KEYS
    packages: Tuple[str, ...] = ()
    modules: Tuple[str, ...] = ()
    device: Optional[str] = None
    variable: str = ""
    value: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Recipe:
    name: str
    summary: str
    framework: str  # the doctor's framework probe that shows it worked
    accelerator: Optional[str]  # one of ACCELERATORS; None: installable by name, never recommended
    rank: int  # recommendation order among the recipes that suit a machine: lower first
    verify: Optional[str]  # the `macml verify` workload that proves it, if there is one
    requires: Condition
    pins: Tuple[PinSet, ...]
    post_install: Tuple[PostStep, ...] = ()
    notes: Tuple[str, ...] = ()
    source: str = ""
    audited: Optional[str] = None  # ISO date the pin table was last checked against the indexes
    holds: Mapping[str, str] = field(default_factory=dict)  # package -> why a newer release is not taken


class _Checker:
    """Validates one file's parsed TOML; every error names the file and the key."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, key: str, problem: str) -> MacmlError:
        return MacmlError(f"Recipe {self.source}: key '{key}': {problem}",
                          "Fix the recipe file (its schema is described in recipes/README.md).")

    def table(self, value: Any, key: str, allowed: Sequence[str]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(key, f"must be a table, got {type(value).__name__}")
        for name in value:
            if name not in allowed:
                prefix = f"{key}." if key else ""
                raise self.fail(f"{prefix}{name}", f"unknown key (allowed: {', '.join(allowed)})")
        return value

    def text(self, value: Any, key: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, "must be a non-empty string")
        return value

    def strings(self, value: Any, key: str, choices: Sequence[str] = ()) -> Tuple[str, ...]:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(v, str) and v for v in items):
            raise self.fail(key, "must be a string or a list of strings")
        for item in items:
            if choices and item not in choices:
                raise self.fail(key, f"unknown value {item!r} (one of: {', '.join(choices)})")
        return tuple(items)

    def specifier(self, value: Any, key: str) -> SpecifierSet:
        try:
            return SpecifierSet(self.text(value, key))
        except InvalidSpecifier:
            raise self.fail(key, f"not a version specifier: {value!r} (e.g. \">=3.10,<3.14\")") from None

    def requirement(self, value: Any, key: str) -> str:
        try:
            parsed = Requirement(self.text(value, key))
        except InvalidRequirement as exc:
            raise self.fail(key, f"not a valid requirement string: {value!r} ({exc})") from None
        if parsed.url is not None and not parsed.url.startswith("https://"):
            raise self.fail(key, f"direct URLs must use https, like index URLs, got {parsed.url!r}")
        return value

    def https_url(self, value: Any, key: str) -> str:
        url = self.text(value, key)
        if not url.startswith("https://") or len(url) <= len("https://"):
            raise self.fail(key, f"index URLs must use https, got {url!r}")
        return url

    def condition(self, value: Any, key: str) -> Condition:
        data = self.table(value, key, CONDITION_KEYS)
        get = data.get
        native = get("native_arm64", False)
        if not isinstance(native, bool):
            raise self.fail(f"{key}.native_arm64", "must be true or false")
        if not isinstance(get("vm", False), bool):
            raise self.fail(f"{key}.vm", "must be true or false")
        return Condition(
            platform=self.strings(get("platform", []), f"{key}.platform", PLATFORMS),
            arch=self.strings(get("arch", []), f"{key}.arch", ARCHES),
            native_arm64=native,
            min_os=self._version(get("min_os"), f"{key}.min_os"),
            below_os=self._version(get("below_os"), f"{key}.below_os"),
            gpu_vendor=self.strings(get("gpu_vendor", []), f"{key}.gpu_vendor", VENDORS),
            python=self.specifier(get("python"), f"{key}.python") if "python" in data else None,
            min_driver=self._version(get("min_driver"), f"{key}.min_driver"),
            compute_capability=(self.specifier(get("compute_capability"), f"{key}.compute_capability")
                                if "compute_capability" in data else None),
            rocm_gfx=self._version(get("rocm_gfx"), f"{key}.rocm_gfx"),
            vm=get("vm"),
        )

    def _version(self, value: Any, key: str) -> Optional[str]:
        if value is None:
            return None
        text = self.text(value, key)
        if not versions.is_release(text):
            raise self.fail(key, f"must be a dotted version like \"14.0\", got {text!r}")
        return text

    def pin(self, value: Any, key: str) -> PinSet:
        data = self.table(value, key, PIN_KEYS)
        reqs = data.get("requirements")
        if not isinstance(reqs, list) or not reqs:
            raise self.fail(f"{key}.requirements", "must be a non-empty list of requirement strings")
        return PinSet(
            label=self.text(data.get("label"), f"{key}.label"),
            when=self.condition(data.get("when", {}), f"{key}.when"),
            requirements=tuple(self.requirement(r, f"{key}.requirements[{i}]") for i, r in enumerate(reqs)),
            index_url=self.https_url(data["index_url"], f"{key}.index_url") if "index_url" in data else None,
        )

    def step(self, value: Any, key: str) -> PostStep:
        if not isinstance(value, Mapping) or value.get("action") not in STEP_KEYS:
            raise self.fail(f"{key}.action", f"must be one of: {', '.join(STEP_KEYS)}")
        required, optional = STEP_KEYS[value["action"]]
        data = self.table(value, key, ("action",) + required + optional)
        for name in required:
            if name not in data:
                raise self.fail(f"{key}.{name}", f"required for action {data['action']!r}")
        return PostStep(
            action=data["action"],
            packages=self.strings(data.get("packages", []), f"{key}.packages"),
            modules=self.strings(data.get("modules", []), f"{key}.modules"),
            device=self.text(data["device"], f"{key}.device") if "device" in data else None,
            variable=str(data.get("variable", "")),
            value=str(data.get("value", "")),
            reason=str(data.get("reason", "")),
        )

    def recipe(self, data: Mapping[str, Any]) -> Recipe:
        self.table(data, "", RECIPE_KEYS)
        pins = data.get("pins")
        if not isinstance(pins, list) or not pins:
            raise self.fail("pins", "needs at least one [[pins]] table")
        verify = data.get("verify")
        return Recipe(
            name=self.text(data.get("name"), "name"),
            summary=self.text(data.get("summary"), "summary"),
            framework=self.text(data.get("framework"), "framework"),
            accelerator=(self.strings(data["accelerator"], "accelerator", ACCELERATORS)[0]
                         if "accelerator" in data else None),
            rank=self._rank(data.get("rank", DEFAULT_RANK)),
            verify=self.text(verify, "verify") if verify is not None else None,
            requires=self.condition(data.get("requires", {}), "requires"),
            pins=tuple(self.pin(p, f"pins[{i}]") for i, p in enumerate(pins)),
            post_install=tuple(self.step(s, f"post_install[{i}]") for i, s in enumerate(data.get("post_install", []))),
            notes=self.strings(data.get("notes", []), "notes"),
            source=self.source,
            audited=self._date(data.get("audited")),
            holds=self._holds(data.get("holds", {})),
        )

    def _rank(self, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.fail("rank", "must be a whole number >= 0 (lower is recommended first)")
        return value

    def _date(self, value: Any) -> Optional[str]:
        if value is None:
            return None
        if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
            return value.isoformat()
        try:
            return datetime.date.fromisoformat(self.text(value, "audited")).isoformat()
        except ValueError:
            raise self.fail("audited", f"must be a date like 2026-12-02, got {value!r}") from None

    def _holds(self, value: Any) -> Mapping[str, str]:
        if not isinstance(value, Mapping):
            raise self.fail("holds", "must be a table of package = \"why the pin is held\"")
        return {str(k): self.text(v, f"holds.{k}") for k, v in value.items()}


def parse_recipe(text: str, source: str) -> Recipe:
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise MacmlError(f"Recipe {source}: not valid TOML: {exc}", "Fix the TOML syntax at that line.") from None
    return _Checker(source).recipe(data)
