"""Cross-framework checks: does each installed framework actually see the GPU?"""
from __future__ import annotations

import dataclasses
from typing import Optional, Sequence

from macml.facts import FrameworkFacts, MachineFacts
from macml import frameworks, versions
from macml.diagnose.common import install_recipe, pip_cmd, probe_timed_out, timed_out_finding
from macml.diagnose.gpu_support import gpus_torch_cannot_run, rocm_runs_here
from macml.recipes.catalog import Recipe, find_recipe, match
from macml.recipes.recommend import preference, recommendation
from macml.diagnose.findings import Finding, Fix, fail, info, ok, warn
from macml.diagnose.ruled_out import driver_fix_text, ruled_out_reason

# Frameworks whose import failures no other check explains (torch: check_torch_build; plaidml:
# check_plaidml_install).
IMPORT_CHECKED = ("tensorflow", "mlx", "jax")

WHY_NOT = {
    "mps": "MPS needs the macOS its torch requires (12.3 for torch 1.12-2.4, 13.0 for 2.5-2.8, 14.0 from 2.9), "
           "a native arm64 Python (or an AMD GPU on an Intel Mac) and a real, not virtual, GPU.",
    "cuda": "Check `nvidia-smi` works for this user, CUDA_VISIBLE_DEVICES, and the driver/CUDA pairing.",
    "rocm": "Check the user is in the render/video groups, HIP_VISIBLE_DEVICES and HSA_OVERRIDE_GFX_VERSION.",
}


def framework_gpu_finding(probe: FrameworkFacts, kind: str, facts: MachineFacts) -> Optional[Finding]:
    area = frameworks.area_of(probe.name)
    if probe.name == "tensorflow" and kind == "mps" and not facts.package("tensorflow-metal"):
        return tensorflow_without_metal(probe)
    version = probe.data.get("version", "")
    named = f"{probe.name} {version}".strip()  # a pasted answer may not show the version
    if probe.name == "tensorflow" and facts.platform == "win32" and _tf_without_windows_gpu(version):
        return tensorflow_on_native_windows(named)  # whatever it lists, it has no GPU code there
    use = frameworks.judge(probe.name, probe.data, kind)
    if use.sees is None or (use.sees and probe.name == "torch" and gpus_torch_cannot_run(facts)[0]):
        return None  # CUDA is there, but not for this GPU: check_cuda_arch says so
    if kind == "rocm" and not rocm_runs_here(facts):  # no ROCm build runs on this AMD GPU: check_rocm_target says why
        return None if use.sees else fail(area, f"{named} finds no GPU: its ROCm builds have no kernels for this AMD "
                                          "GPU's target, so it runs on the CPU", Fix(
                                              "Nothing to install fixes this on this GPU (see the ROCm target finding): "
                                              "train on the CPU, or on an AMD GPU the ROCm builds list, or an NVIDIA one."))
    if use.sees:
        return ok(area, f"{named} uses the GPU: {use.label}")
    missing = probe.data.get("missing_gpu_libraries")
    if missing:
        return fail(area, f"{named} could not load its CUDA libraries ({', '.join(missing)}), so it "
                    "runs on the CPU while this machine has a GPU",
                    Fix("Install the CUDA and cuDNN versions this TensorFlow was built for (tensorflow.org/install/source"
                        "#gpu), or TF 2.14+ with its own CUDA libraries:", (pip_cmd(facts, "install 'tensorflow[and-cuda]'"),)))
    if probe.data.get("ignored_gpu"):  # '3.0 < 3.5': TensorFlow's own log said so
        capability, minimum = str(probe.data["ignored_gpu"]).split(" < ")
        return fail(area, f"{named} skips the GPU (compute capability {capability}; it needs {minimum} or newer), "
                    "so it runs on the CPU", Fix("This TensorFlow build has no kernels for the GPU (its own log says so): "
                                                 "build TensorFlow from source for it, train on a newer or cloud GPU, "
                                                 "or accept CPU speed."))
    cpu_build = cpu_only_build_fix(probe.name, kind, facts)
    if cpu_build is not None:
        return fail(area, f"{named} is a CPU-only build on a machine with an NVIDIA GPU", cpu_build)
    hints = [f"{k}={v}" for k, v in facts.env.items() if "VISIBLE" in k or "HSA_" in k]
    return fail(area, f"{named} imports but finds no GPU, while this machine has one",
                Fix(WHY_NOT[kind] + " Then re-run `macml doctor -v`.", ("macml verify",)), *hints)


def tensorflow_on_native_windows(named: str) -> Finding:
    return fail("TensorFlow", f"{named} has no GPU support on native Windows (TensorFlow 2.11 and later), so it runs "
                "on the CPU while this machine has a GPU", Fix(
                    "Run TensorFlow under WSL2 with its CUDA libraries (tensorflow.org/install/pip#windows-wsl2), "
                    "or use TensorFlow 2.10, the last with native Windows GPU support (CUDA 11.2, cuDNN 8.1):",
                    ("wsl --install", "python3 -m pip install 'tensorflow[and-cuda]'  # inside WSL2")))


def _tf_without_windows_gpu(version: str) -> bool:
    """TensorFlow 2.11 dropped native Windows GPU support (tensorflow.org/install/pip, Windows native); unknown -> False."""
    release = versions.release(version)
    return len(release) >= 2 and release[:2] >= (2, 11)


def tensorflow_without_metal(probe: FrameworkFacts) -> Optional[Finding]:
    """Plain TensorFlow on a Mac lists no GPU: only Apple's tensorflow-metal plugin gives it one."""
    gpus = probe.data.get("gpus")
    if gpus is None or gpus:  # TensorFlow was not asked, or it found a GPU after all
        return None
    named = f"tensorflow {probe.data.get('version') or ''}".strip()
    return warn("TensorFlow", f"{named} lists no GPU and runs on the CPU: on a Mac TensorFlow reaches the "
                "GPU only through Apple's tensorflow-metal plugin, which the evidence does not show installed",
                Fix("Install TensorFlow with a matching tensorflow-metal (a plan is shown first):",
                    ("macml install --recipe tensorflow-metal",)))


def cpu_only_build_fix(name: str, kind: str, facts: MachineFacts) -> Optional[Fix]:
    """The GPU build to install in place of a CPU-only TensorFlow or jax on an NVIDIA machine."""
    if kind != "cuda":
        return None
    packages = facts.interpreter.packages if facts.interpreter else {}
    if name == "tensorflow" and ("tensorflow-cpu" in packages or not any(p.startswith("nvidia-") for p in packages)):
        return Fix("Install TensorFlow with its CUDA libraries (Linux; TF 2.14+):",
                   (pip_cmd(facts, "uninstall -y tensorflow-cpu"), pip_cmd(facts, "install 'tensorflow[and-cuda]'")))
    if name == "jax" and not any(p.startswith(("jax-cuda", "jax_cuda")) for p in packages):
        return Fix("jax found no CUDA plugin: install jax with it (CUDA 12 wheels need driver >= 525):",
                   (pip_cmd(facts, "install -U 'jax[cuda12]'"),))
    return None


def check_framework_import(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """TensorFlow, MLX or JAX installed but failing to import (or their probe timing out)."""
    for name in IMPORT_CHECKED:
        probe = facts.frameworks.get(name)
        if probe is None or probe.ok:
            continue
        if probe_timed_out(probe):
            return timed_out_finding(probe)
        error = (probe.error or "no error text").strip().splitlines()[-1]
        return fail(frameworks.area_of(name), f"{name} is installed but fails to import",
                    import_fix(name, facts, recipes),
                    error)
    return None


_DISTRIBUTION_OF = {"cv2": "opencv-python", "sklearn": "scikit-learn", "PIL": "Pillow", "yaml": "PyYAML"}


def wrong_arch_wheel(facts: MachineFacts) -> Optional[Finding]:
    """dyld refused a package's binary built for the other architecture ('have x86_64, need arm64'): pip installed
    a wheel for another Python (an x86_64 pip, a cache, a copied site-packages)."""
    failed = next((p for p in facts.frameworks.values() if not p.ok and "binary cannot load in an" in (p.error or "")), None)
    if failed is None:
        return None
    dist = _DISTRIBUTION_OF.get(failed.name, failed.name)
    return fail("Python", f"{failed.name}: its binary is for another architecture than this Python",
                Fix("Reinstall it with this interpreter's own pip, bypassing the cache, so pip picks the wheel for "
                    "this Python's architecture:", (pip_cmd(facts, f"install --force-reinstall --no-cache-dir {dist}"),)),
                (failed.error or "").splitlines()[0][:200])


def import_fix(name: str, facts: MachineFacts, recipes: Sequence[Recipe]) -> Fix:
    if name == "mlx" and not facts.is_mac:
        extra = "cuda" if facts.gpus_by_vendor("NVIDIA") else "cpu"
        return Fix(f"On Linux, plain `mlx` has no backend (libmlx.so is missing): install mlx[{extra}]:",
                   (pip_cmd(facts, f"install -U 'mlx[{extra}]'"),))
    commands = install_recipe(facts, recipes, name) or (pip_cmd(facts, f"install --force-reinstall {name}"),)
    return Fix("Reinstall it in this interpreter (a matching set):", commands)


def check_framework_gpu(facts: MachineFacts) -> Optional[Finding]:
    """A framework that imports but finds no GPU while the hardware has one."""
    kind = facts.accelerator_kind
    if kind is None:
        return None
    found = [framework_gpu_finding(p, kind, facts) for p in facts.frameworks.values() if p.ok]
    listed_tf = facts.package("tensorflow")  # only a version line or a package list: its import was not shown
    if "tensorflow" not in facts.frameworks and listed_tf and facts.platform == "win32" and _tf_without_windows_gpu(listed_tf):
        found.append(tensorflow_on_native_windows(f"tensorflow {listed_tf}"))
    found = [f for f in found if f is not None]
    failures = [f for f in found if f.level == "fail"]
    if failures:
        first = failures[0]
        return fail(first.area, first.message, first.fix, *(first.details + tuple(f.message for f in failures[1:])))
    warnings = [f for f in found if f.level == "warn"]
    if warnings:
        return warn(warnings[0].area, warnings[0].message, warnings[0].fix,
                    *(f.message for f in found if f is not warnings[0]))
    if found:
        return ok("GPU", "; ".join(f.message for f in found))
    return None


def gpu_users(facts: MachineFacts) -> list:
    """Frameworks that run on the GPU: they see it, and (torch) carry kernels for it."""
    kind = facts.accelerator_kind
    return [p.name for p in facts.frameworks.values() if kind and p.ok and frameworks.judge(p.name, p.data, kind).sees
            and not (p.name == "torch" and gpus_torch_cannot_run(facts)[0])]


def check_recommended_recipe(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """The install recipe that fits this machine and interpreter best (the one `macml recipes` marks)."""
    using_gpu = gpu_users(facts)
    if using_gpu:
        verb = "uses" if len(using_gpu) == 1 else "use"
        return ok("Python", f"{' and '.join(using_gpu)} already {verb} the GPU: no recipe needed")
    best = recommendation(facts, recipes)
    if best is None:
        return info("Python", "None of the recipes recommended for this machine fits this interpreter "
                              "(`macml recipes` says why)")
    if best.once:
        return info("Python", f"Recommended recipe: {best.recipe}, once this runs with {best.once}",
                    Fix("Then:", (f"macml install --recipe {best.recipe}",)))
    fit = best.match
    framework, accelerator = find_recipe(best.recipe, recipes).framework, find_recipe(best.recipe, recipes).accelerator
    probe = facts.frameworks.get(framework)
    if probe is not None and probe.ok and facts.accelerator_kind is None and facts.gpu_list_known:
        return ok("Python", f"The recommended recipe, {best.recipe}, is in place: {framework} works (CPU only)")
    pins = f" ({fit.pin_label})" if fit and fit.pin_label else ""
    if fit and fit.fits_if:
        pins += "; fits if " + "; ".join(dict.fromkeys(fit.fits_if))  # several unnamed GPUs ask one thing once
    if probe is None and facts.interpreter is not None and facts.interpreter.lists_every_package \
            and not facts.package(framework):
        pins += f"; {framework} is not installed yet"
    why = ruled_out_reason(facts) if accelerator == "cpu" else ""
    if why:  # only a vendor ruled out (collect_env's 'No CUDA'): say so, and what to do if that GPU is there
        return info("Python", f"Recommended recipe: {best.recipe}{pins}; a CPU build because {why}",
                    Fix("Install it (a plan is shown first). " + driver_fix_text(facts),
                        (f"macml install --recipe {best.recipe}",)))
    return info("Python", f"Recommended recipe: {best.recipe}{pins}",
                Fix("Install it (a plan is shown first):", (f"macml install --recipe {best.recipe}",)))


def check_python_wheels(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """A package whose binary is for another architecture than the Python's, or a Python version with no wheel
    for the framework this hardware wants."""
    foreign = wrong_arch_wheel(facts)
    if foreign is not None:
        return foreign
    interp = facts.interpreter
    if interp is None:
        return None
    names = preference(facts, recipes)
    if not names:
        return None
    preferred = find_recipe(names[0], recipes)
    result = match(preferred, facts)
    python_reasons = [str(s) for s in result.shortfalls_about("python")]
    if result.ok or not python_reasons:
        return None
    any_python = dataclasses.replace(facts, interpreter=dataclasses.replace(interp, version=""))
    if not match(preferred, any_python).ok:
        return None  # something else rules the recipe out too (an old GPU, an old macOS): another check says it
    # Another framework already working here makes this a warning, not a failure.
    level = warn if any(p.ok for p in facts.frameworks.values()) else fail
    return level("Python", f"{preferred.name}: {python_reasons[0]}",
                Fix("Create a venv from a supported Python (e.g. with pyenv or python.org) and install there:",
                    (f"macml install --recipe {preferred.name} --venv ~/.venvs/ml --python /path/to/supported/python",)),
                *python_reasons[1:])
