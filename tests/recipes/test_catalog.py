"""Recipes: loading, validation errors that name file and key, and matching to machines."""
from __future__ import annotations

import pytest
from packaging.specifiers import SpecifierSet

from macml.recipes import catalog as recipes
from macml.recipes import recommend
from macml.errors import MacmlError
from macml.facts import CPUFacts, GPU, InterpreterFacts, MachineFacts, OSFacts
from macml.recipes.conditions import python_tags

from conftest import MACHINES, run_macml

SHIPPED = ("jax-metal", "mlx", "plaidml-amd", "pytorch-cpu", "pytorch-cuda", "pytorch-mps", "pytorch-rocm",
           "tensorflow-metal")

GOOD = """
name = "demo"
summary = "demo"
framework = "torch"
[requires]
python = ">=3.9"
[[pins]]
label = "one"
requirements = ["six==1.17.0; python_version >= '3.9'"]
index_url = "https://example.org/simple"
"""


def summary(found) -> str:
    """A match as one line: its pin row or why not, and what it assumes."""
    return "; ".join((found.pin_label, *found.reasons, *(f"fits if {text}" for text in found.fits_if)))



def test_shipped_recipes_load_with_pins_and_https_indexes():
    loaded = recipes.load_all()
    assert tuple(r.name for r in loaded) == SHIPPED
    for recipe in loaded:
        assert recipe.pins, recipe.name
        for pin in recipe.pins:
            assert pin.index_url is None or pin.index_url.startswith("https://")
            assert all("==" in r for r in pin.requirements), f"{recipe.name}: unpinned requirement"


@pytest.mark.parametrize(
    "text, key, problem",
    [
        pytest.param("name = 'x'\nsummary = [", None, "not valid TOML", id="bad-toml"),
        pytest.param(GOOD.replace("https://example.org", "http://example.org"), "pins[0].index_url", "https",
                     id="http-index-url"),
        pytest.param(GOOD.replace('"six==1.17.0;', '"six @ http://example.org/six-1.17.0-py2.py3-none-any.whl ;'),
                     "pins[0].requirements[0]", "direct URLs must use https", id="http-direct-url"),
        pytest.param(GOOD.replace("six==1.17.0", "six 1.17.0"), "pins[0].requirements[0]", "not a valid requirement",
                     id="bad-requirement"),
        pytest.param(GOOD.replace('framework = "torch"', 'framework = "torch"\ncolour = "blue"'), "colour",
                     "unknown key", id="unknown-top-level-key"),
        pytest.param(GOOD.replace('python = ">=3.9"', 'pyhton = ">=3.9"'), "requires.pyhton", "unknown key",
                     id="unknown-condition-key"),
        pytest.param(GOOD.replace('python = ">=3.9"', 'python = "three"'), "requires.python", "not a version specifier",
                     id="bad-specifier"),
        pytest.param(GOOD + '[[post_install]]\naction = "shell"\ncommand = "rm -rf /"\n', "post_install[0].action",
                     "must be one of", id="shell-step-refused"),
        pytest.param(GOOD + '[[post_install]]\naction = "uninstall"\n', "post_install[0].packages", "required",
                     id="step-missing-key"),
        pytest.param(GOOD.split("[[pins]]")[0], "pins", "needs at least one [[pins]] table", id="no-pins"),
        pytest.param(GOOD.replace('[requires]', '[requires]\nplatform = "beos"'), "requires.platform", "unknown value",
                     id="unknown-platform"),
    ],
)
def test_invalid_recipe_errors_name_file_and_key(tmp_path, text, key, problem):
    """What the user reads: the CLI's error line, printed literally (`[[pins]]` stays `[[pins]]`)."""
    path = tmp_path / "mine.toml"
    path.write_text(text)
    result = run_macml("install", "--recipe-file", str(path), "--dry-run", "--offline")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    message = " ".join(result.stderr.split())  # undo the terminal's line wrapping
    assert f"error: Recipe {path}" in message
    assert problem in message
    if key:
        assert f"key '{key}'" in message


def test_a_recipe_file_that_is_not_utf8_is_a_clear_error(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(GOOD.replace("x", "\xe9").encode("latin-1"))
    result = run_macml("install", "--recipe-file", str(path), "--dry-run", "--offline")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"Recipe {path}: not UTF-8 text" in " ".join(result.stderr.split())


def test_valid_user_recipe_loads(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(GOOD)
    recipe = recipes.load_recipe_file(path)
    assert recipe.pins[0].requirements == ("six==1.17.0; python_version >= '3.9'",)
    assert recipe.requires.python == SpecifierSet(">=3.9")


@pytest.mark.parametrize("typed, suggested", [("pytorch-mp", "pytorch-mps"), ("tensorflow", "tensorflow-metal"),
                                              ("pytorch_cuda", "pytorch-cuda")])
def test_unknown_recipe_suggests_close_names(typed, suggested):
    with pytest.raises(MacmlError) as err:
        recipes.find_recipe(typed, recipes.load_all())
    assert suggested in err.value.hint


@pytest.mark.parametrize("spec, text", [(">=3.9,<3.13", "cp39–cp312"), (">=3.6,<3.9", "cp36–cp38"), ("==3.8.*", "cp38")])
def test_python_tags_span(spec, text):
    assert python_tags(SpecifierSet(spec)) == text


# (machine file, recipe) -> matches?, a phrase of the pin label or of the reason
TABLE = [
    ("mac-m3-max", "pytorch-mps", True, "torch 2.15.0"),
    ("mac-m3-max", "mlx", True, "mlx 0.32.4"),
    ("mac-m3-max", "jax-metal", True, "jax-metal 0.1.1"),
    ("mac-m3-max", "tensorflow-metal", True, "TF 2.18.1 + tensorflow-metal 1.2.0"),
    ("mac-m3-max", "pytorch-cuda", False, "needs Linux or Windows; this is macOS"),
    ("mac-m3-max", "plaidml-amd", False, "needs an Intel Mac"),
    ("mac-m4-pro", "tensorflow-metal", False, "no wheel for Python 3.13; supported cp38–cp312"),
    ("mac-m1-pro", "pytorch-mps", True, "torch 2.8.0 (macOS 13"),
    ("mac-m1-pro", "mlx", True, "mlx 0.29.3"),
    ("mac-m1-pro", "jax-metal", False, "needs macOS 14.4 or newer; this is macOS 13.6.7"),
    ("mac-m2-rosetta", "pytorch-mps", False, "runs under Rosetta"),
    ("mac-m2-rosetta", "mlx", False, "native arm64 Python"),
    ("mac-m2-rosetta", "pytorch-cpu", True, "torch 2.2.2 (x86_64 macOS"),
    ("mac-intel-5500m", "plaidml-amd", True, "Intel Mac with an AMD GPU"),
    ("mac-intel-5500m", "pytorch-mps", False, "no wheel for Python 3.7; supported cp38–cp315"),
    ("mac-imac-pro-vega56", "pytorch-mps", True, "torch 2.2.2"),
    ("mac-imac-pro-vega56", "tensorflow-metal", True, "tensorflow-metal 1.0.0"),
    ("mac-imac-pro-vega56", "mlx", False, "needs Apple silicon (arm64)"),
    ("mac-intel-uhd630", "pytorch-mps", False, "needs an Apple or AMD GPU; found: Intel UHD Graphics 630"),
    ("mac-intel-uhd630", "pytorch-cpu", True, "torch 2.2.2"),
    ("linux-h200-real", "pytorch-cuda", True, "CUDA 13"),
    ("linux-pascal-cu128", "pytorch-cuda", True, "torch 2.14.1 + CUDA 12.6 (the last 12.x release"),
    # An RTX 3090 on driver 470 (name cut short, so its compute capability is unknown): cu118 runs there.
    ("linux-nvidia-old-driver", "pytorch-cuda", True, "CUDA 11.8 (drivers 450.80-524"),
    ("linux-nvidia-cpu-torch", "pytorch-cpu", True, "torch 2.8.0 CPU build (Linux, Python 3.9)"),
    ("linux-amd-rocm", "pytorch-rocm", True, "ROCm 7.2"),
    ("linux-amd-rocm", "pytorch-cuda", False, "needs an NVIDIA GPU"),
    ("linux-no-gpu", "pytorch-cpu", True, "torch 2.15.0 CPU build (Linux)"),
    ("linux-no-gpu", "mlx", False, "needs macOS; this is Linux"),
]

# (machine, recommended recipe, what must change first). A CPU build is never the answer on a
# machine with a usable GPU: under Rosetta it is MPS once the Python is native; on a 470 driver the
# CUDA 11.8 build, which runs there (tests/recipes/test_rows.py covers drivers no build runs on).
RECOMMENDED = [
    ("mac-m3-max", "pytorch-mps", ""),
    ("mac-m2-rosetta", "pytorch-mps", "a native arm64 Python (not Rosetta)"),
    ("mac-intel-5500m", "plaidml-amd", ""),
    ("mac-imac-pro-vega56", "pytorch-mps", ""),
    ("mac-intel-uhd630", "pytorch-cpu", ""),
    ("linux-h200-real", "pytorch-cuda", ""),
    ("linux-amd-rocm", "pytorch-rocm", ""),
    ("linux-nvidia-old-driver", "pytorch-cuda", ""),
    ("linux-no-gpu", "pytorch-cpu", ""),
]


def _facts(machine: str):
    path = MACHINES / f"{machine}.json"
    if not path.exists():
        pytest.skip(f"recorded machine {path.name} is not in tests/machines")
    from macml.probe.collect import facts_from_snapshot
    from macml.probe.snapshot import load_snapshot

    return facts_from_snapshot(load_snapshot(path))


@pytest.mark.parametrize("machine, recipe, ok, phrase", TABLE, ids=[f"{m}-{r}" for m, r, _, _ in TABLE])
def test_recorded_machine_recipe_table(machine, recipe, ok, phrase):
    found = recipes.match(recipes.find_recipe(recipe, recipes.load_all()), _facts(machine))
    assert found.ok is ok
    assert phrase in summary(found)
    assert bool(found.requirements) is ok


@pytest.mark.parametrize("machine, best, once", RECOMMENDED, ids=[m for m, _, _ in RECOMMENDED])
def test_recommend_on_recorded_machines(machine, best, once):
    found = recommend.recommendation(_facts(machine), recipes.load_all())
    assert (found.recipe, found.once) == (best, once)
    assert (recommend.recommend(_facts(machine)) is None) == bool(once)


def _linux(gpus=(), python="3.11.7", machine="x86_64"):
    interp = InterpreterFacts(executable="/usr/bin/python3", version=python, implementation="cpython",
                              machine=machine, prefix="/v", base_prefix="/usr")
    return MachineFacts(platform="linux", os=OSFacts(system="Linux", name="Ubuntu 24.04", version="24.04"),
                        cpu=CPUFacts(brand="x", hardware_arch=machine), gpus=tuple(gpus), interpreter=interp)


def _nvidia(driver, capability, model="NVIDIA GPU"):
    return GPU(vendor="NVIDIA", model=model, driver_version=driver, compute_capability=capability)


CUDA_CASES = [  # Python 3.11, Linux x86_64; None = PyPI's own wheel (CUDA 13.2)
    ("580.65.06", "9.0", None),
    ("580.95.05", "12.0", None),
    ("575.51.03", "12.0", "cu128"),
    ("570.26", "7.0", "cu126"),  # Volta: 2.11 cu128 dropped sm_70
    ("580.65.06", "7.0", "cu126"),  # and cu130 has no sm_70
    ("565.57.01", "8.6", "cu126"),
    ("580.65.06", "6.1", "cu126"),  # Pascal: cu128+ dropped sm_6x
    ("535.104.05", "8.9", "cu126"),  # CUDA 12 minor-version compatibility
    ("470.82.01", "8.6", "cu118"),  # CUDA 11 minor-version compatibility
]


@pytest.mark.parametrize("driver, capability, index", CUDA_CASES, ids=[f"{d}-sm{c}" for d, c, _ in CUDA_CASES])
def test_cuda_index_from_driver_and_capability(driver, capability, index):
    found = recipes.match(recipes.find_recipe("pytorch-cuda", recipes.load_all()), _linux([_nvidia(driver, capability)]))
    assert found.ok
    assert found.index_url == (f"https://download.pytorch.org/whl/{index}" if index else None)


@pytest.mark.parametrize("driver, capability, phrase", [
    ("565.57.01", "12.0", "sm_120"),  # Blackwell needs cu128+, hence driver >= 570.26
    ("440.33", "8.6", "older than 450.80.02"),
], ids=["blackwell-old-driver", "driver-440"])
def test_cuda_no_fitting_build_says_why(driver, capability, phrase):
    found = recipes.match(recipes.find_recipe("pytorch-cuda", recipes.load_all()), _linux([_nvidia(driver, capability)]))
    assert not found.ok
    assert phrase in summary(found)


def test_unknown_driver_is_a_condition_not_a_refusal():
    found = recipes.match(recipes.find_recipe("pytorch-cuda", recipes.load_all()), _linux([_nvidia(None, "8.6")]))
    assert found.ok and found.fits_if == ("the NVIDIA driver is >= 580.65.06 (check `nvidia-smi`)",)
    assert "fits if" in summary(found)


@pytest.mark.parametrize("gpus, best", [
    ([_nvidia("580.65.06", "9.0")], "pytorch-cuda"),
    ([GPU(vendor="AMD", model="Radeon RX 7900 XTX")], "pytorch-rocm"),
    ([], "pytorch-cpu"),
], ids=["nvidia", "amd", "no-gpu"])
def test_recommend_on_linux(gpus, best):
    assert recommend.recommend(_linux(gpus)).recipe == best


def test_linux_aarch64_interpreter_counts_as_arm64():
    found = recipes.match(recipes.find_recipe("pytorch-cpu", recipes.load_all()), _linux(machine="aarch64"))
    assert found.ok and found.requirements == ("torch==2.15.0",)


def test_a_macos_release_name_alone_is_read_as_a_version_only_where_no_recipe_bound_falls_inside_it():
    from macml.probe.named_release import FLOORED_MAJORS
    bounds = {cond.min_os for recipe in recipes.load_all() for cond in [recipe.requires] + [p.when for p in recipe.pins]}
    bounds |= {cond.below_os for recipe in recipes.load_all() for cond in [recipe.requires] + [p.when for p in recipe.pins]}
    # a 10.x release name is a major.minor ('Mavericks' = 10.9); a later one only a major ('Sonoma' = 14)
    inside = {int(b.split(".")[0]) for b in bounds if b and b.split(".")[1 if int(b.split(".")[0]) > 10 else 2:] not in ([], ["0"])}
    assert inside and inside <= set(FLOORED_MAJORS)
