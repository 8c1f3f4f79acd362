"""PyTorch checks: the build against the hardware, the driver, the GPU architecture."""
from __future__ import annotations

from typing import Optional, Sequence

from macml.knowledge.compat import (INTEL_MAC_LAST_TORCH, before_mps, beyond_intel_mac_torch, driver_tuple, last_torch_for_driver,
                          min_driver_for_cuda, version)
from macml.diagnose.common import install_recipe, pip_cmd, probe_timed_out, timed_out_finding
from macml import versions
from macml.knowledge.nvidia_driver_errors import driver_error
from macml.facts import FrameworkFacts, MachineFacts
from macml.probe.infer import TEGRA
from macml.recipes.catalog import Recipe, match
from macml.recipes.recommend import recipes_on
from macml.diagnose.gpu_support import gpus_torch_cannot_run, rocm_runs_here, unsupported_gpus
from macml.diagnose.findings import Finding, Fix, fail, info, ok, warn
from macml.diagnose.ruled_out import cpu_reason


def torch_facts(facts: MachineFacts) -> Optional[FrameworkFacts]:
    probe = facts.frameworks.get("torch")
    return probe if probe is not None and probe.ok else None


def check_intel_mac_torch(facts: MachineFacts) -> Optional[Finding]:
    """Intel Mac: PyTorch stops at 2.2.2 (the last x86_64 macOS wheel); what still works."""
    if not facts.is_mac or facts.cpu.apple_silicon is not False:
        return None  # Apple silicon, or not known to be an Intel Mac
    amd = [g for g in facts.gpus_by_vendor("AMD") if g.usable]
    wanted = next((spec for spec in facts.packages_wanted.get("torch", ()) if beyond_intel_mac_torch(spec)), None)
    if wanted:
        return warn("PyTorch", f"torch{wanted} has no x86_64 macOS wheel: PyTorch {INTEL_MAC_LAST_TORCH} is the last "
                               "release for Intel Macs",
                    Fix(f"Pin what needs it to a release that accepts torch {INTEL_MAC_LAST_TORCH} (with NumPy 1.x); a newer "
                        "torch needs an Apple-silicon Mac (or a Linux machine):",
                        (pip_cmd(facts, f"install torch=={INTEL_MAC_LAST_TORCH} 'numpy<2'"),)))
    installed = facts.package("torch")
    numpy = version(facts.package("numpy"))
    if installed and version(installed) and version(installed).release[:2] == (2, 2) and numpy and numpy.major >= 2:
        return warn("PyTorch", f"torch {installed} was built against NumPy 1.x but NumPy {numpy} is installed",
                    Fix("Pin NumPy below 2 next to torch 2.2:", (pip_cmd(facts, "install 'numpy<2'"),)))
    amd_name = amd[0].model if amd else "AMD GPU"
    gpu_note = (f"torch {INTEL_MAC_LAST_TORCH} can still use the {amd_name} through MPS (macOS 12.3+)" if amd
                else "MPS skips Intel integrated GPUs, so PyTorch runs on the CPU here" if facts.gpu_list_known
                else f"torch {INTEL_MAC_LAST_TORCH} uses an AMD GPU through MPS (macOS 12.3+) where the Mac has one; "
                     "the evidence does not list its GPUs")
    return info("PyTorch", f"Intel Mac: PyTorch {INTEL_MAC_LAST_TORCH} is the last release for x86_64 macOS; {gpu_note}",
                Fix("Pin it (and NumPy 1.x, which it was built against); newer PyTorch needs Apple silicon:",
                    (pip_cmd(facts, f"install torch=={INTEL_MAC_LAST_TORCH} 'numpy<2'"),)))


def check_torch_build(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """torch built without MPS / CUDA / ROCm where the hardware has it, or failing to import."""
    probe = facts.frameworks.get("torch")
    if probe is None:
        return None
    if not probe.ok and probe_timed_out(probe):
        return timed_out_finding(probe)
    if not probe.ok:
        return fail("PyTorch", "torch is installed but fails to import",
                    Fix("Reinstall it in this interpreter:", (pip_cmd(facts, "install --force-reinstall torch"),)),
                    (probe.error or "").splitlines()[-1] if probe.error else "no error text")
    data, kind = probe.data, facts.accelerator_kind
    ver = data.get("version") or "(version not shown)"
    if kind == "mps" and before_mps(str(data.get("version") or "")):
        return fail("PyTorch", f"torch {ver} predates MPS (PyTorch added it in 1.12), so it runs on the CPU only",
                    Fix("Install a torch with MPS:", install_recipe(facts, recipes, "torch", "mps")))
    if kind == "mps" and data.get("mps_built") is False:  # unknown (a pasted version line) is not "without"
        return fail("PyTorch", f"torch {ver} was built without MPS",
                    Fix("Install the macOS arm64 wheel from PyPI (conda 'cpuonly' and x86_64 builds lack MPS):",
                        install_recipe(facts, recipes, "torch", "mps")))
    if kind == "cuda" and not data.get("cuda_version") and data.get("cuda_available") is not True \
            and not data.get("build_unknown") and not _cuda_build_said(data):
        gpu = facts.gpus_by_vendor("NVIDIA")[0].model
        return fail("PyTorch", f"torch {ver} is a CPU-only build on a machine with an {gpu}",
                    Fix("Replace it with a CUDA build that fits the driver:", install_recipe(facts, recipes, "torch", "cuda")))
    if kind == "rocm" and not rocm_runs_here(facts) and data.get("cuda_available") is not True:  # check_rocm_target says why
        return ok("PyTorch", f"torch {ver} imports; no ROCm build runs on this AMD GPU, so it runs on the CPU")
    if kind == "rocm" and not data.get("hip_version") and data.get("cuda_available") is not True \
            and not data.get("build_unknown"):  # torch.cuda answering on an AMD GPU is a ROCm build
        return fail("PyTorch", f"torch {ver} has no ROCm support on a machine with an AMD GPU",
                    Fix("Install a ROCm build:", install_recipe(facts, recipes, "torch", "rocm")))
    backend = {"mps": "MPS", "cuda": f"CUDA {data.get('cuda_version') or '(version not shown)'}",
               "rocm": f"ROCm {data.get('hip_version') or '(version not shown)'}"}
    if kind is None:
        why = cpu_reason(facts)
        return ok("PyTorch", f"torch {ver} imports (no GPU here, so it runs on the CPU)" if why == "no GPU here"
                  else f"torch {ver} imports and runs on the CPU: {why}")
    if kind == "mps" and data.get("mps_built") is None and data.get("mps_available") is not True:
        return ok("PyTorch", f"torch {ver} imports (whether it was built with MPS is not in the evidence)")
    return ok("PyTorch", f"torch {ver} is built with {backend[kind]}")


def _cuda_build_said(data) -> bool:
    """torch's own words that only a CUDA build says: it checked the driver, it named a GPU's capability as
    unsupported, or it printed an arch list of sm_ entries."""
    return bool(data.get("driver_too_old") or data.get("incompatible_capabilities")
                or any(str(a).startswith("sm_") for a in data.get("arch_list") or ()))


def cuda_recipe_fits(facts: MachineFacts, recipes: Sequence[Recipe]) -> bool:
    return any(match(r, facts).ok for r in recipes_on(recipes, "cuda", "torch"))


def check_nvidia_driver(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """NVIDIA driver not working (nvidia-smi or the kernel log says so), or older than the installed torch's CUDA needs."""
    nvidia = facts.gpus_by_vendor("NVIDIA")
    probe = torch_facts(facts)
    if facts.is_mac:
        return None  # no PyTorch build uses CUDA on macOS: check_gpu says so, a driver version changes nothing
    if facts.gpu_driver_errors:
        return driver_broken(facts)
    if not nvidia or len(unsupported_gpus(facts, recipes)) == len(nvidia):
        return None  # a GPU no build runs: a newer driver would not help (check_gpu_generation)
    if not nvidia[0].driver_version:
        return driver_too_old_for_torch(facts, recipes)
    driver = nvidia[0].driver_version
    cuda = probe.data.get("cuda_version") if probe else None
    if probe and probe.data.get("driver_too_old"):
        return driver_too_old_for_torch(facts, recipes)
    too_old = driver_below_every_build(facts, driver, recipes)
    if too_old and not cuda:
        return too_old
    if not cuda:
        return ok("GPU", f"NVIDIA driver {driver} (supports CUDA up to {nvidia[0].cuda_driver_version or '?'})")
    needed = min_driver_for_cuda(cuda)
    if probe.data.get("cuda_available") is True and all(g.family == TEGRA for g in nvidia):
        # a Jetson's JetPack driver numbers its own way ('580.00' runs CUDA 13.0), and torch ran CUDA on it
        return ok("GPU", f"NVIDIA driver {driver} (JetPack) runs torch's CUDA {cuda}: torch reports CUDA available")
    if needed and driver_tuple(driver) < driver_tuple(needed):
        upgrade = UPGRADE_DRIVER
        if cuda_recipe_fits(facts, recipes):
            fix = Fix("Upgrade the driver, or install the torch build this driver can run "
                      "(the recipe picks the CUDA index from the driver):",
                      (upgrade,) + install_recipe(facts, recipes, "torch", "cuda"))
        else:
            fix = Fix("Upgrade the driver: no current PyTorch CUDA build runs on it.", (upgrade,))
        return fail("GPU", f"NVIDIA driver {driver} is too old for torch {probe.data.get('version')} (CUDA {cuda} "
                    f"needs driver >= {needed})", fix,
                    f"driver supports CUDA up to {nvidia[0].cuda_driver_version or 'unknown'}")
    return ok("GPU", f"NVIDIA driver {driver} can run torch's CUDA {cuda} (needs >= {needed})")


UPGRADE_DRIVER = "sudo ubuntu-drivers install  # or your distribution's newest NVIDIA driver"


def driver_broken(facts: MachineFacts) -> Finding:
    """nvidia-smi (or the kernel log) said the driver cannot answer: nothing on the GPU runs until that is mended."""
    said = facts.gpu_driver_errors[0]
    error = driver_error(said)
    meaning, fix = (error.meaning, error.fix) if error else ("the driver did not answer", UPGRADE_DRIVER)
    where = facts.sources.get("gpu_driver_errors")
    return fail("GPU", f"The NVIDIA driver is not working: {meaning}", Fix(fix),
                *((where,) if where else (f"nvidia-smi: {said}",)))  # a pasted line names its own tool


def driver_too_old_for_torch(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """Without the driver's version: torch said so itself, or the CUDA the driver supports (nvidia-smi's
    'CUDA Version', conda's __cuda) is of an older major than torch's build (minor versions are compatible)."""
    probe, gpu = torch_facts(facts), facts.gpus_by_vendor("NVIDIA")[0]
    if probe is None:
        return None
    supports = probe.data.get("driver_too_old") or gpu.cuda_driver_version
    build = probe.data.get("cuda_version")
    said = bool(probe.data.get("driver_too_old"))
    if not supports or not (said or (build and versions.release(build)[:1] > versions.release(supports)[:1])):
        return None
    what = "torch reports" if said else f"torch {probe.data.get('version')} is built for CUDA {build}, but"
    return fail("GPU", f"{what} the NVIDIA driver is too old: it supports CUDA up to {supports}",
                Fix("Upgrade the driver, or install the torch build this driver can run "
                    "(the recipe picks the CUDA index from the driver):",
                    (UPGRADE_DRIVER,) + install_recipe(facts, recipes, "torch", "cuda")))


def driver_below_every_build(facts: MachineFacts, driver: str, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """A driver older than every build the CUDA recipes install: the minimum, and what still runs."""
    minimums = [p.when.min_driver for r in recipes_on(recipes, "cuda", "torch") for p in r.pins if p.when.min_driver]
    if not minimums:
        return None
    oldest = min(minimums, key=driver_tuple)
    if driver_tuple(driver) >= driver_tuple(oldest):
        return None
    last = last_torch_for_driver(driver)
    still = (f"the last PyTorch that runs on it is torch {last[1]} (CUDA {last[2]}, needs driver >= {last[0]})"
             if last else "no PyTorch CUDA build runs on it")
    return fail("GPU", f"NVIDIA driver {driver} is older than every current PyTorch CUDA build needs "
                f"(>= {oldest}); {still}",
                Fix(f"Upgrade the driver to {oldest} or newer, then install the CUDA build"
                    + (f" (or pin torch=={last[1]} from the cu{last[2].replace('.', '')} index)" if last else "") + ":",
                    (UPGRADE_DRIVER,) + install_recipe(facts, recipes, "torch", "cuda")))


def check_cuda_arch(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """A GPU whose compute capability is missing from torch's CUDA arch list."""
    probe = torch_facts(facts)
    missing, arch_list, source = gpus_torch_cannot_run(facts)
    if not (arch_list or missing):
        return None  # unknown
    too_old = unsupported_gpus(facts, recipes)  # no build at all runs this GPU: check_gpu_generation says what to do
    if not missing:
        if too_old:
            return None
        caps = [g.compute_capability for g in facts.gpus_by_vendor("NVIDIA") if g.compute_capability]
        return ok("PyTorch", f"torch's kernels cover this GPU (sm_{(caps[0] if caps else '?').replace('.', '')})",
                  f"arch list ({source}): " + " ".join(arch_list))
    gpu, cap = missing[0]
    torch = f"torch {probe.data.get('version')}" if probe.data.get("version") else "the installed torch"
    level, fix = (warn, Fix("No current PyTorch build has kernels for this GPU either: see the GPU finding for the "
                            "last release that did.")) if too_old else (
        fail, Fix("Install a build that still ships kernels for it (e.g. cu126 for Pascal sm_6x; cu128+ for "
                  "Blackwell sm_120):", install_recipe(facts, recipes, "torch", "cuda")))
    return level("PyTorch", f"{gpu.display_name} (compute capability {cap}) is not in "
                 f"{torch}'s arch list: every CUDA kernel launch fails ('no kernel image is available')", fix,
                 f"arch list ({source}): " + " ".join(arch_list) if arch_list
                 else (f"said by {source}" if source.startswith("torch's own") else source))
