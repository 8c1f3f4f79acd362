"""Install recipes: TOML data in recipes/, loaded into frozen objects and matched to a host.

A recipe says what a host needs (platform, arch, OS, GPU, Python), and holds a table of
pinned requirement sets; the first row whose conditions hold for this host is the one
installed. Matching is a pure function of MachineFacts. The schema: recipes/README.md.
"""
from __future__ import annotations

import dataclasses
import difflib
import functools
import sys
import datetime
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet

from macml import versions
from macml.errors import MacmlError
from macml.facts import UNNAMED_GPU, MachineFacts
from macml.infer import TEGRA_GPU
from macml.recipes.conditions import (Condition, effective_arch, fits_if, is_virtual_machine, python_tags,
                                      unmet_conditions)
from macml.resources import recipes_dir

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on older Pythons only
    import tomli as tomllib

CONDITION_KEYS = ("platform", "arch", "native_arm64", "min_os", "below_os", "gpu_vendor", "python",
                  "min_driver", "compute_capability", "rocm_gfx", "vm")
RECIPE_KEYS = ("name", "summary", "framework", "verify", "audited", "requires", "pins", "post_install", "notes", "holds")
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
    verify: Optional[str]  # the `macml verify` workload that proves it, if there is one
    requires: Condition
    pins: Tuple[PinSet, ...]
    post_install: Tuple[PostStep, ...] = ()
    notes: Tuple[str, ...] = ()
    source: str = ""
    audited: Optional[str] = None  # ISO date the pin table was last checked against the indexes
    holds: Mapping[str, str] = field(default_factory=dict)  # package -> why a newer release is not taken


@dataclass(frozen=True)
class RecipeMatch:
    recipe: str
    ok: bool
    reasons: Tuple[str, ...] = ()  # why not, when not ok
    requirements: Tuple[str, ...] = ()  # the pinned set for this host, when ok
    index_url: Optional[str] = None
    pin_label: str = ""
    fits_if: Tuple[str, ...] = ()  # when ok: what must hold of facts the evidence does not give

    @property
    def line(self) -> str:
        if self.ok:
            return f"{self.recipe}: {self.pin_label}" + (f" (fits if {'; '.join(self.fits_if)})" if self.fits_if else "")
        return f"{self.recipe}: {'; '.join(self.reasons)}"


# ---------------------------------------------------------------- loading and validation


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
            verify=self.text(verify, "verify") if verify is not None else None,
            requires=self.condition(data.get("requires", {}), "requires"),
            pins=tuple(self.pin(p, f"pins[{i}]") for i, p in enumerate(pins)),
            post_install=tuple(self.step(s, f"post_install[{i}]") for i, s in enumerate(data.get("post_install", []))),
            notes=self.strings(data.get("notes", []), "notes"),
            source=self.source,
            audited=self._date(data.get("audited")),
            holds=self._holds(data.get("holds", {})),
        )

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


def load_recipe_file(path: Path) -> Recipe:
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise MacmlError(f"Cannot read recipe file {path}: {exc.strerror or exc}",
                         "Pass --recipe-file with the path of a TOML recipe.") from None
    except UnicodeDecodeError as exc:
        raise MacmlError(f"Recipe {path}: not UTF-8 text (byte {exc.start}: {exc.object[exc.start:exc.start + 1]!r})",
                         "TOML files are UTF-8: save the recipe as UTF-8 text.") from None
    return parse_recipe(text, str(path))


def load_all(directory: Optional[Path] = None) -> Tuple[Recipe, ...]:
    """The recipes in directory; by default the shipped ones, read once per process."""
    return _load_directory(Path(directory)) if directory else _shipped_recipes()


@functools.lru_cache(maxsize=1)
def _shipped_recipes() -> Tuple[Recipe, ...]:
    return _load_directory(recipes_dir())


def _load_directory(directory: Path) -> Tuple[Recipe, ...]:
    found: Dict[str, Recipe] = {}
    for path in sorted(directory.glob("*.toml")):
        recipe = load_recipe_file(path)
        if recipe.name in found:
            raise MacmlError(f"Recipe {path}: key 'name': {recipe.name!r} is also defined in "
                             f"{found[recipe.name].source}")
        found[recipe.name] = recipe
    return tuple(found.values())


def find_recipe(name: str, recipes: Sequence[Recipe]) -> Recipe:
    for recipe in recipes:
        if recipe.name == name:
            return recipe
    names = [r.name for r in recipes]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f"Did you mean: {', '.join(close)}?" if close else f"Known recipes: {', '.join(names)}."
    raise MacmlError(f"No recipe named {name!r}.", hint + " `macml recipes` lists them all.")


# ---------------------------------------------------------------- matching


def match(recipe: Recipe, facts: MachineFacts) -> RecipeMatch:
    reasons = unmet_conditions(recipe.requires, facts)
    if reasons:
        return RecipeMatch(recipe.name, False, tuple(reasons))
    assumed = fits_if(recipe.requires, facts)
    misses: List[str] = []
    for pin in recipe.pins:
        pin_reasons = unmet_conditions(pin.when, facts)
        if not pin_reasons:
            return RecipeMatch(recipe.name, True, (), pin.requirements, pin.index_url, pin.label,
                               _merge_assumptions(assumed, fits_if(pin.when, facts)))
        if _same_kind(pin.when, facts):  # rows for other OSes or CPUs are noise
            misses.append(f"{pin.label}: {', '.join(pin_reasons)}")
    if not misses:
        return RecipeMatch(recipe.name, False, (f"no pinned set for {facts.platform}",))
    if len(misses) == 1:
        return RecipeMatch(recipe.name, False, tuple(misses))
    return RecipeMatch(recipe.name, False, ("no pinned set fits this host (" + " | ".join(misses) + ")",))


def _same_kind(when: Condition, facts: MachineFacts) -> bool:
    return ((not when.platform or facts.platform in when.platform)
            and (not when.arch or effective_arch(facts) in when.arch))


def _merge_assumptions(general: Sequence[str], specific: Sequence[str]) -> Tuple[str, ...]:
    """A pin row's "fits if" replaces the recipe's on the same subject ("macOS is 14.0 or newer" over
    "macOS is 12.3 or newer")."""
    merged: Dict[str, str] = {}
    for text in (*general, *specific):
        merged[text.split(" is ")[0]] = text
    return tuple(merged.values())


def match_all(facts: MachineFacts, recipes: Optional[Sequence[Recipe]] = None) -> Tuple[RecipeMatch, ...]:
    return tuple(match(r, facts) for r in (load_all() if recipes is None else recipes))


@dataclass(frozen=True)
class Recommendation:
    """The one recommendation `macml doctor` and `macml recipes` both show."""

    recipe: str
    match: Optional[RecipeMatch]  # how it fits this interpreter (not ok when `once` is set)
    once: str = ""  # what must change first, e.g. "a native arm64 Python (not Rosetta)"


def preference(facts: MachineFacts) -> Tuple[str, ...]:
    """Recipe names in the order worth recommending for this kind of machine. A CPU build is never
    among them where a GPU is known, except in a VM (the GPU cannot be reached from inside): there the
    answer is a GPU recipe, or none with the reasons why none fits (a driver to update, a GPU that no
    current build covers); the user decides whether to train on the CPU."""
    vendors = {g.vendor for g in facts.gpus if g.model != UNNAMED_GPU}
    if facts.is_mac and is_virtual_machine(facts):
        return ("pytorch-cpu",)  # no Metal compute inside a VM
    if facts.is_mac and facts.cpu.apple_silicon:
        return ("pytorch-mps", "mlx", "tensorflow-metal", "jax-metal")
    if facts.is_mac and "AMD" in vendors:
        return ("pytorch-mps", "plaidml-amd", "tensorflow-metal")
    if facts.is_mac and facts.cpu.apple_silicon is None and not facts.gpu_list_known:
        return ("pytorch-mps", "mlx", "pytorch-cpu")  # each shown with what it assumes
    if not facts.is_mac and "NVIDIA" in vendors:
        if all(g.model.startswith(TEGRA_GPU) for g in facts.gpus_by_vendor("NVIDIA")):
            return ()  # a Jetson runs NVIDIA's JetPack wheels, which no recipe installs
        return ("pytorch-cuda",)
    if facts.platform == "linux" and "AMD" in vendors:
        return ("pytorch-rocm",)
    return ("pytorch-cpu",)


def recommendation(facts: MachineFacts, recipes: Optional[Sequence[Recipe]] = None) -> Optional[Recommendation]:
    """The first preferred recipe that fits this interpreter; else the first choice with what must
    change first (a native arm64 Python instead of Rosetta, a supported Python, a newer NVIDIA
    driver). None when nothing fits."""
    names = preference(facts)
    recipes = load_all() if recipes is None else recipes
    matches = {m.recipe: m for m in match_all(facts, recipes)}
    for name in names:
        found = matches.get(name)
        if found is not None and found.ok:
            return Recommendation(name, found)
    if facts.rosetta and names:
        return Recommendation(names[0], matches.get(names[0]), once="a native arm64 Python (not Rosetta)")
    if names:
        once = _fits_once(find_recipe(names[0], recipes), facts)
        if once:
            return Recommendation(names[0], matches.get(names[0]), once=once)
    return None


def _fits_once(recipe: Recipe, facts: MachineFacts) -> str:
    """What must change for `recipe` to fit: a supported Python, a newer NVIDIA driver, or both
    (the same match with that fact unknown); "" when neither is enough."""
    interp = facts.interpreter
    python = (dataclasses.replace(facts, interpreter=dataclasses.replace(interp, version=""))
              if interp is not None and interp.version and recipe.requires.python is not None else None)
    tags = python_tags(recipe.requires.python) if python is not None else ""
    changes = [(python, f"a supported Python ({tags})")]
    if recipe.name == "pytorch-cuda" and facts.gpus_by_vendor("NVIDIA"):
        changes.append((_any_driver(facts), "a newer NVIDIA driver"))
        if python is not None:
            changes.append((_any_driver(python), f"a supported Python ({tags}) and a newer NVIDIA driver"))
    for changed, text in changes:
        if changed is not None and match(recipe, changed).ok:
            return text
    return ""


def _any_driver(facts: MachineFacts) -> MachineFacts:
    return dataclasses.replace(facts, gpus=tuple(dataclasses.replace(g, driver_version=None) for g in facts.gpus))


def recommend(facts: MachineFacts, recipes: Optional[Sequence[Recipe]] = None) -> Optional[RecipeMatch]:
    """The recommended recipe's match when it fits this interpreter as it is."""
    found = recommendation(facts, recipes)
    return found.match if found is not None and not found.once else None
