"""Does any PyTorch build run on this NVIDIA GPU, does the installed one, and do the installed
torch packages come from one build? Arch lists come from torch itself when it was probed, else from
what macml.knowledge.compat records for that release and build."""
from __future__ import annotations

import re
from typing import List, Optional, Sequence, Tuple

from macml.diagnose.common import install_recipe, pip_cmd
from macml.diagnose.findings import Finding, Fix, fail, warn
from macml.facts import GPU, MachineFacts
from macml.knowledge.cuda_capabilities import SOURCE, cuda_too_old
from macml.knowledge.compat import cuda_arch_supported, last_torch_for_gpu, newest_cuda_build, torch_cuda_arches
from macml.knowledge.rocm import ROCM_GFX, no_rocm_build, rocm_gfx_verdict
from macml.knowledge.torch_family import mismatched_companion
from macml.recipes.catalog import Recipe
from macml.recipes.recommend import recipes_on

# Compute capabilities from Kepler to Blackwell, oldest first: to name the oldest one a build takes.
CAPABILITIES = ("3.0", "3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0", "8.6",
                "8.7", "8.9", "9.0", "10.0", "10.3", "11.0", "12.0", "12.1")
_CAPABILITY = re.compile(r"^\d+\.\d+$")


def torch_arch_list(facts: MachineFacts) -> Tuple[Tuple[str, ...], str]:
    """The installed torch's CUDA arch list and where it came from; () when unknown."""
    probe = facts.frameworks.get("torch")
    if probe is None or not probe.ok:
        return (), ""
    if probe.data.get("arch_list"):
        return tuple(probe.data["arch_list"]), "torch.cuda.get_arch_list()"
    version = str(probe.data.get("version") or "")
    build = re.search(r"\+(cu\d+)", version)
    if not build:
        return (), ""
    machine = facts.interpreter.machine if facts.interpreter and facts.interpreter.machine else facts.cpu.hardware_arch
    if not machine or machine == "unknown":  # a capability in neither Linux wheel's list is missing on either
        lists = [torch_cuda_arches(version, build.group(1), m) for m in ("x86_64", "aarch64")]
        if not all(lists):
            return (), ""
        union = tuple(sorted(set(lists[0]) | set(lists[1]), key=lambda a: int(re.sub(r"\D", "", a) or 0)))
        return union, f"recorded arch lists of torch {version}, x86_64 and aarch64 joined; macml.knowledge.compat"
    arches = torch_cuda_arches(version, build.group(1), machine)
    return (arches, f"recorded arch list of torch {version} (macml.knowledge.compat)") if arches else ((), "")


def gpus_torch_cannot_run(facts: MachineFacts) -> Tuple[List[Tuple[GPU, str]], Tuple[str, ...], str]:
    """([(GPU, capability)] the installed CUDA torch has no kernels for, its arch list, the list's source)."""
    probe = facts.frameworks.get("torch")
    nvidia = facts.gpus_by_vendor("NVIDIA")
    cuda_build = probe is not None and (probe.data.get("cuda_version")
                                         or any(str(a).startswith("sm_") for a in probe.data.get("arch_list") or ())
                                         or probe.data.get("cuda_available") is True and facts.gpus_by_vendor("NVIDIA")
                                         and not re.search(r"\+(?:rocm|cpu)", str(probe.data.get("version") or "")))
    said = set(probe.data.get("incompatible_capabilities") or ()) if probe is not None else set()  # torch's own warning
    if probe is None or not probe.ok or not nvidia or not (cuda_build or said):
        return [], (), ""
    arch_list, source = torch_arch_list(facts)
    if not arch_list and not said:
        build = str(probe.data.get("cuda_version") or "")
        newest = "" if build else newest_cuda_build(str(probe.data.get("version") or ""))
        if newest:  # a CUDA build of unknown CUDA: no build of the release has more than the newest
            return _older_cuda_than_gpu(nvidia, newest, f"every build of torch {probe.data['version']} has CUDA {newest} "
                                                        "at most, which")
        return _older_cuda_than_gpu(nvidia, build, f"torch's CUDA {build}")
    source = source or "torch's own warning"  # it named the GPU's capability, whatever the list it printed next
    probed = [c if _CAPABILITY.match(str(c or "")) else None for c in probe.data.get("capabilities") or []]
    caps = probed or [g.compute_capability for g in nvidia]
    missing = [(g, cap) for g, cap in zip(nvidia, caps) if cap and (cap in said or not cuda_arch_supported(cap, arch_list))]
    return missing, arch_list, source


def _older_cuda_than_gpu(nvidia: Sequence[GPU], build: str,
                         said: str) -> Tuple[List[Tuple[GPU, str]], Tuple[str, ...], str]:
    """Without an arch list: the GPUs whose compute capability is newer than the build's CUDA (a cu121 build and
    an sm_120 RTX 5090: CUDA 12.1 cannot compile for it), or than the newest CUDA of every build of the release."""
    missing = [(g, g.compute_capability) for g in nvidia if g.compute_capability and cuda_too_old(g.compute_capability, build)]
    if not missing:
        return [], (), ""
    first = cuda_too_old(missing[0][1], build)
    return missing, (), f"{said} predates compute capability {missing[0][1]} (first in CUDA {first}; {SOURCE})"


def oldest_supported(recipes: Sequence[Recipe]) -> Optional[str]:
    """The oldest compute capability some row of the CUDA recipes installs a build for."""
    specs = [p.when.compute_capability or r.requires.compute_capability
             for r in recipes_on(recipes, "cuda", "torch") for p in r.pins]
    return next((c for c in CAPABILITIES if any(s is None or s.contains(c, prereleases=True) for s in specs)), None)


def unsupported_gpus(facts: MachineFacts, recipes: Sequence[Recipe]) -> List[GPU]:
    """NVIDIA GPUs older than every build the CUDA recipes install (Kepler and older)."""
    oldest = oldest_supported(recipes)
    if oldest is None:
        return []
    floor = tuple(int(x) for x in oldest.split("."))
    return [g for g in facts.gpus_by_vendor("NVIDIA")
            if g.compute_capability and _CAPABILITY.match(g.compute_capability)
            and tuple(int(x) for x in g.compute_capability.split(".")) < floor]


def check_gpu_generation(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """An NVIDIA GPU older than every current PyTorch CUDA build (Kepler and older): no driver fixes that."""
    old = unsupported_gpus(facts, recipes)
    if not old or len(old) < len(facts.gpus_by_vendor("NVIDIA")):
        return None
    gpu, oldest = old[0], oldest_supported(recipes)
    last = last_torch_for_gpu(gpu.compute_capability or "", facts.platform)
    then = (f"The last PyTorch with kernels for it is torch {last[0]} ({last[1]} build, an old Python; "
            f"source: {last[2]}). " if last else "")
    return fail("GPU", f"{gpu.display_name} (compute capability {gpu.compute_capability}) is older than every current "
                f"PyTorch CUDA build, which start at {oldest}: no driver upgrade changes that",
                Fix(then + "Otherwise build PyTorch from source for it, train on a newer or cloud GPU, or use the CPU:",
                    install_recipe(facts, recipes, "torch", "cpu") or ("macml recipes",)))


def rocm_runs_here(facts: MachineFacts) -> bool:
    """Some AMD GPU here is one a ROCm build of PyTorch may run on (its gfx target is not known unsupported)."""
    return any(not no_rocm_build(g.compute_capability) for g in facts.gpus_by_vendor("AMD"))


def check_rocm_target(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """An AMD GPU on Linux whose gfx target no PyTorch ROCm build runs on (an RDNA2/3 APU, Polaris, Vega 10/20)."""
    amd = facts.gpus_by_vendor("AMD")
    if facts.platform != "linux" or not amd or facts.gpus_by_vendor("NVIDIA"):
        return None
    if rocm_runs_here(facts):
        return _target_beside_others(amd)
    gpu = amd[0]
    why = rocm_gfx_verdict(gpu.compute_capability, ROCM_GFX[-1].rocm)[1]
    torch = facts.frameworks.get("torch")
    data = torch.data if torch is not None and torch.ok else {}
    if data.get("cuda_available") is True and "+rocm" in str(data.get("version") or ""):  # an older build that runs here
        pin = f"torch=={data['version']}"
        return warn("GPU", f"{gpu.display_name} ({gpu.compute_capability}) is not a target of current PyTorch ROCm builds: "
                           f"{why}; the installed torch {data['version']} runs on it",
                    Fix("Keep this torch: an upgrade to a newer ROCm wheel would leave the GPU. Pin it for pip:",
                        ("mkdir -p ~/.config/pip", f'echo "{pin}" >> ~/.config/pip/constraints.txt',
                         "export PIP_CONSTRAINT=~/.config/pip/constraints.txt")))
    return warn("GPU", f"{gpu.display_name} ({gpu.compute_capability}) is not a target of PyTorch's ROCm builds: {why}",
                Fix("Frameworks run on the CPU here (HSA_OVERRIDE_GFX_VERSION makes some of these GPUs load the ROCm "
                    "wheels, with wrong results or crashes on some):",
                    install_recipe(facts, recipes, "torch", "cpu") or ("macml recipes",)))


def _target_beside_others(amd: Sequence[GPU]) -> Optional[Finding]:
    """One of several AMD GPUs (an MI50 beside an MI210, a Radeon 780M beside an RX 7900 XTX) that no ROCm build runs on."""
    gpu = next((g for g in amd if no_rocm_build(g.compute_capability)), None)
    if gpu is None:
        return None
    why = rocm_gfx_verdict(gpu.compute_capability, ROCM_GFX[-1].rocm)[1]
    return warn("GPU", f"{gpu.display_name} ({gpu.compute_capability}) is not a target of PyTorch's ROCm builds: {why}; "
                "the other AMD GPUs here may be", Fix("Show ROCm only the GPUs its builds run on, by index:",
                                                     ("rocm-smi --showproductname", "export HIP_VISIBLE_DEVICES=<their indices>")))


_LOCAL = re.compile(r"\+(cu\d+|rocm[\d.]+|cpu|xpu)\b")
_TORCH_FAMILY = ("torch", "torchvision", "torchaudio")


def check_torch_builds_agree(facts: MachineFacts) -> Optional[Finding]:
    """torch, torchvision and torchaudio from different builds (+cu121 beside +rocm6.0 or +cpu)."""
    packages = facts.interpreter.packages if facts.interpreter else {}
    tags = {name: _LOCAL.search(packages.get(name) or "") for name in _TORCH_FAMILY}
    builds = {name: match.group(1) for name, match in tags.items() if match}
    if len(set(builds.values())) < 2:
        return releases_agree(facts, packages)
    listed = ", ".join(f"{name} {packages[name]}" for name in _TORCH_FAMILY if name in builds)
    torch_build = builds.get("torch") or next(iter(builds.values()))
    index = f"https://download.pytorch.org/whl/{torch_build}"
    names = " ".join(n for n in _TORCH_FAMILY if n in packages)
    return fail("PyTorch", f"The torch packages come from different builds ({listed}): their compiled parts do "
                "not load together", Fix(f"Reinstall them together from one index (torch's own, {torch_build}):",
                                          (pip_cmd(facts, f"install --force-reinstall {names} --index-url {index}"),)))



def releases_agree(facts: MachineFacts, packages) -> Optional[Finding]:
    """torchvision / torchaudio of another torch release (torchaudio 2.1 beside torch 2.7): their extensions fail."""
    torch = packages.get("torch") or ""
    wrong = [m for m in (mismatched_companion(torch, n, packages.get(n) or "") for n in _TORCH_FAMILY[1:]) if m]
    if not wrong:
        return None
    names = " ".join(n for n in _TORCH_FAMILY if n in packages)
    return fail("PyTorch", f"The torch packages are of different releases ({'; '.join(wrong)}): their compiled parts "
                "do not load together", Fix("Reinstall them together, so pip picks the matching releases:",
                                            (pip_cmd(facts, f"install --force-reinstall {names}"),)))
