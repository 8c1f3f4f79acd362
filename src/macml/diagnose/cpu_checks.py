"""CPU features the x86 wheels assume: AVX for TensorFlow and jaxlib, AVX2 for fast CPU kernels."""
from __future__ import annotations

from typing import Optional, Sequence

from macml.diagnose.common import install_recipe, macos_at_least, pip_cmd
from macml.facts import MachineFacts, arch_family
from macml.diagnose.findings import Finding, Fix, fail, ok, warn
from macml.knowledge.cpu_models import igpu_vectors, mac_model_vectors, mac_name_vectors, x86_vectors
from macml.recipes.catalog import Recipe

ROSETTA_AVX_MACOS = (15, 0)  # Rosetta 2 translates AVX/AVX2 from macOS 15 Sequoia on; before, no AVX at all


def _x86_python(facts: MachineFacts) -> bool:
    """The interpreter's arch; where no interpreter is known, an x86 machine's Pythons are x86 (off a Mac,
    which alone translates)."""
    interp = facts.interpreter
    if interp is not None and interp.machine:
        return arch_family(interp.machine) == "x86_64"
    return not facts.is_mac and arch_family(facts.cpu.hardware_arch) == "x86_64"


def _tensorflow(facts: MachineFacts) -> Optional[str]:
    return facts.package("tensorflow") or facts.package("tensorflow-cpu") or facts.package("tensorflow-macos")


def check_rosetta_avx(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """x86_64 TensorFlow or jaxlib under Rosetta 2, which translates no AVX before macOS 15 ('Illegal instruction')."""
    tf = _tensorflow(facts)
    used = any(name.startswith("tensorflow") for name in facts.frameworks_in_use)  # installed or run in the text
    if not (tf or used) and facts.rosetta and _x86_python(facts):
        return _rosetta_jaxlib(facts, recipes) or _rosetta_paddle(facts) or _rosetta_mkl(facts)
    if not (tf or used) or not facts.rosetta or not _x86_python(facts):
        return None
    if macos_at_least(facts, ROSETTA_AVX_MACOS):
        return None
    when = "on this macOS" if macos_at_least(facts, ROSETTA_AVX_MACOS) is False else "before macOS 15"
    fix = Fix("Use a native arm64 Python and TensorFlow for Apple silicon (apple/tensorflow_macos#72):",
              ("/opt/homebrew/bin/python3 -m venv ~/.venvs/tf",)
              + install_recipe(facts, recipes, "tensorflow", "metal", note=" --python ~/.venvs/tf/bin/python"))
    if not tf:  # the user works with TensorFlow in this x86_64 Python; which build is not shown
        return warn("TensorFlow", f"TensorFlow's x86_64 builds run under Rosetta 2 here, which translates no AVX {when}: "
                    "`import tensorflow` dies with 'Illegal instruction' (tensorflow/tensorflow#25822)", fix)
    return fail("TensorFlow", f"tensorflow {tf} is an x86_64 build under Rosetta 2, which translates no AVX {when}: "
                "`import tensorflow` dies with 'Illegal instruction' (tensorflow/tensorflow#25822)", fix)


def _rosetta_paddle(facts: MachineFacts) -> Optional[Finding]:
    """x86_64 paddlepaddle for macOS is built with AVX, so under Rosetta 2 before macOS 15 `import paddle` dies
    with SIGILL ('illegal hardware instruction', PaddlePaddle/Paddle#49567, #51825)."""
    paddle = facts.package("paddlepaddle")
    if not (paddle or "paddlepaddle" in facts.frameworks_in_use) or macos_at_least(facts, ROSETTA_AVX_MACOS):
        return None
    name = f"paddlepaddle {paddle}" if paddle else "paddlepaddle"
    fix = Fix("Use a native arm64 Python (Miniforge's or Homebrew's) and a paddlepaddle with macOS arm64 wheels:",
              ("/opt/homebrew/bin/python3 -m venv ~/.venvs/paddle", "~/.venvs/paddle/bin/python -m pip install paddlepaddle"))
    return fail("Python", f"{name} here is an x86_64 build under Rosetta 2, which translates no AVX before macOS 15: "
                "`import paddle` dies with 'illegal hardware instruction' (SIGILL)", fix)


def _rosetta_mkl(facts: MachineFacts) -> Optional[Finding]:
    """Intel MKL (x86 only) under Rosetta 2, which shows no AVX before macOS 15: 'Intel MKL FATAL ERROR: ... The
    processor must support the Intel(R) Advanced Vector Extensions (Intel(R) AVX) instructions.'"""
    if not ("mkl" in facts.frameworks_in_use or facts.package("mkl")) or macos_at_least(facts, ROSETTA_AVX_MACOS):
        return None
    fix = Fix("Use a native arm64 Python (Miniforge's or Homebrew's), whose numpy and torch use Accelerate or OpenBLAS "
              "instead of MKL; in an x86_64 conda environment that must stay, `conda install nomkl` swaps MKL out:",
              ("/opt/homebrew/bin/python3 -m venv ~/.venvs/ml", "conda install nomkl"))
    return fail("Python", "Intel MKL in this x86_64 Python needs AVX, which Rosetta 2 does not translate before macOS 15: "
                "'Intel MKL FATAL ERROR: This system does not meet the minimum requirements'", fix)


def _rosetta_jaxlib(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """x86_64 jaxlib's cpu_feature_guard refuses a CPU without AVX, and Rosetta 2 shows none before macOS 15
    (jax-ml/jax#7237, #13886)."""
    jaxlib = facts.package("jaxlib")
    if not (jaxlib or {"jax", "jaxlib"} & set(facts.frameworks_in_use)) or macos_at_least(facts, ROSETTA_AVX_MACOS):
        return None
    name = f"jaxlib {jaxlib}" if jaxlib else "jaxlib"
    fix = Fix("Use a native arm64 Python, whose jaxlib wheels need no AVX:",
              ("/opt/homebrew/bin/python3 -m venv ~/.venvs/jax", "~/.venvs/jax/bin/python -m pip install jax"))
    return fail("JAX", f"{name} here is an x86_64 build under Rosetta 2, which shows no AVX before macOS 15: "
                "`import jax` stops with 'This version of jaxlib was built using AVX instructions' (jax-ml/jax#7237)", fix)


def check_cpu_features(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """An x86 CPU without AVX (TensorFlow and jaxlib die) or AVX2 (CPU builds run slow kernels)."""
    flags = facts.cpu.flags
    if flags is None:
        return _judge_cpu_model(facts, recipes)  # no flag list: perhaps a CPU model known to lack them
    if not _x86_python(facts) or facts.rosetta:
        return None  # Rosetta is check_rosetta_avx's
    found = _judge_vectors(facts, recipes, "avx" in flags, "avx2" in flags, "This CPU")
    return found or ok("System", "CPU features: " + ", ".join(f for f in ("avx", "avx2", "fma", "avx512f", "amx", "neon", "sme")
                                                             if f in flags))


def _judge_cpu_model(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """A stated CPU model the table knows to lack AVX or AVX2 (knowledge/cpu_models.py); any other model
    stays unknown. Every process on an x86 CPU is x86, unless the text shows another arch's Python."""
    known = (x86_vectors(facts.cpu.brand) or mac_model_vectors(facts.cpu.model or "") or mac_name_vectors(facts.cpu.model_name or "")
             or igpu_vectors(tuple(g.model for g in facts.gpus_by_vendor("Intel"))))
    machine = facts.interpreter.machine if facts.interpreter is not None else ""
    if known is None or facts.rosetta or (machine and arch_family(machine) != "x86_64"):
        return None
    who = f"This CPU ({', '.join(part for part in (facts.cpu.brand.strip(), known.family) if part)})"
    return _judge_vectors(facts, recipes, known.avx, known.avx2, who)


def _judge_vectors(facts: MachineFacts, recipes: Sequence[Recipe], avx: bool, avx2: bool, who: str) -> Optional[Finding]:
    tf, jax = _tensorflow(facts), facts.package("jaxlib")
    if not avx and (tf or jax):
        name = f"tensorflow {tf}" if tf else f"jaxlib {jax}"
        return fail("System", f"{who} has no AVX, which {name}'s x86 wheels need: import dies with "
                    "'Illegal instruction' (tensorflow/tensorflow#25822)",
                    Fix("Run it on a CPU with AVX (Intel Sandy Bridge / AMD Bulldozer or newer), build it from "
                        "source without AVX, or use PyTorch, whose CPU wheels pick kernels at run time:",
                        (pip_cmd(facts, "uninstall -y tensorflow jax jaxlib"),) + install_recipe(facts, recipes, "torch")))
    torch = facts.frameworks.get("torch")
    cpu_torch = torch is not None and torch.ok and not (torch.data.get("cuda_version") or torch.data.get("hip_version"))
    nothing_known_installed = not facts.frameworks and not any(facts.package(name) for name in _FRAMEWORK_PACKAGES)
    if not avx and (cpu_torch or nothing_known_installed):
        return warn("System", f"{who} has no AVX or AVX2: TensorFlow's and jaxlib's x86 wheels die with 'Illegal "
                    "instruction', and CPU builds of torch fall back to their slowest kernels",
                    Fix("Use PyTorch (its CPU wheels pick kernels at run time) and a GPU machine for anything but "
                        "small models; TensorFlow needs a build from source without AVX here."))
    if not avx2 and (cpu_torch or jax or nothing_known_installed):
        return warn("System", f"{who} has no AVX2: CPU builds of torch and jax fall back to their slowest kernels",
                    Fix("Expect several times slower CPU training than on an AVX2 CPU (Haswell / Zen or newer); "
                        "use a GPU machine for anything but small models."))
    app = next((f"{name} {facts.package(name)}" for name in _LLAMA_CPP_APPS if facts.package(name)), None)
    if not avx2 and app:
        return warn("System", f"{who} has no {'AVX or AVX2' if not avx else 'AVX2'}: {app} runs llama.cpp, whose CPU "
                    "code falls back to its slower non-AVX2 kernels for every layer not offloaded to a GPU",
                    Fix("Offload all layers to the GPU, or expect several times slower CPU inference than on an AVX2 "
                        "CPU (Haswell / Zen or newer)."))
    return None


# what a machine runs ML with: a package list without them (or an app's version, 'minecraft 1.19.2') has none
_FRAMEWORK_PACKAGES = ("torch", "tensorflow", "tensorflow-cpu", "tensorflow-macos", "jax", "jaxlib", "mlx", "plaidml")


# apps that run models through llama.cpp, whose CPU builds pick AVX / AVX2 / AVX-512 kernels (ollama ships one
# runner per level, cpu / cpu_avx / cpu_avx2: https://github.com/ollama/ollama/blob/main/docs/troubleshooting.md)
_LLAMA_CPP_APPS = ("ollama", "llama-cpp-python", "llama.cpp", "gpt4all", "koboldcpp")
