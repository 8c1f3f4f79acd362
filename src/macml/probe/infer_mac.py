"""Inference on a Mac: Apple silicon or Intel from every sign the evidence holds, the chip, the macOS
version a Darwin kernel release implies, and Rosetta from an x86_64 process on Apple silicon."""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, List, Mapping, Optional, Tuple

from macml.facts import GPU, CPUFacts, InterpreterFacts, MachineFacts
from macml.knowledge.gpu_specs import identify_apple_chip
from macml.knowledge.hardware import mac_model_silicon
from macml.knowledge.compat import INTEL_MAC_LAST_TORCH, TF_FIRST_MACOS_ARM64
from macml.knowledge.macos import macos_for_darwin
from macml.knowledge.macos_builds import macos_for_build
from macml.probe.named_release import named_release, older_than_silicon
from macml.versions import package as package_version

Evidence = Tuple[bool, str]  # (value, where it came from)
PYTHON_FRAMEWORKS = ("torch", "tensorflow", "keras", "jax", "mlx", "plaidml")  # imported only by a Python


def stdout(snapshot: Mapping[str, Any], key: str) -> str:
    record = (snapshot.get("commands") or {}).get(key)
    if not isinstance(record, Mapping) or record.get("returncode") != 0:
        return ""
    return str(record.get("stdout") or "")


def all_text(snapshot: Mapping[str, Any], leave_out: Tuple[str, ...] = ()) -> str:
    records = [r for key, r in (snapshot.get("commands") or {}).items() if key not in leave_out]
    return "\n".join(str(r.get("stdout") or "") for r in records if isinstance(r, Mapping))


def is_apple_gpu(gpu: GPU) -> bool:
    return gpu.vendor == "Apple" or identify_apple_chip(gpu.model) is not None


def silicon_evidence(facts: MachineFacts, snapshot: Mapping[str, Any]) -> List[Evidence]:
    """Every sign of Apple silicon (True) or an Intel Mac (False), strongest first."""
    cpu, found = facts.cpu, []
    brand = (cpu.brand or "").strip()
    if brand.lower().startswith(("apple", "virtualapple")):
        found.append((True, f"CPU brand string: {brand}"))
    elif "intel" in brand.lower():
        found.append((False, f"CPU brand string: {brand}"))
    if cpu.chip is not None:
        found.append((True, f"chip: {cpu.chip.name}"))
    if cpu.model:
        silicon, chip = mac_model_silicon(cpu.model)
        if silicon is not None:
            found.append((silicon, f"model identifier {cpu.model}" + (f" ({chip})" if chip else "")))
    arm64 = stdout(snapshot, "sysctl -n hw.optional.arm64").strip()
    if arm64 in ("0", "1"):
        found.append((arm64 == "1", f"sysctl hw.optional.arm64: {arm64}"))
    if 0 < len(facts.os.version_tuple) and facts.os.version_tuple < (11,):
        found.append((False, f"macOS {facts.os.version}: Apple-silicon Macs start at macOS 11"))
    darwin = re.match(r"(\d{2})[.A-Z]", facts.os.kernel or facts.os.build or "")
    if not facts.os.version and darwin and int(darwin.group(1)) < 20:  # a kernel or build number: Darwin 20 is macOS 11
        found.append((False, f"Darwin {darwin.group(1)} ({facts.os.kernel or 'build ' + str(facts.os.build)}) is older "
                             "than macOS 11, where Apple-silicon Macs start"))
    if not facts.os.version and older_than_silicon(snapshot):
        found.append((False, older_than_silicon(snapshot)))
    if cpu.hardware_arch in ("arm64", "x86_64"):  # the kernel's own arch, never a process's: before any inference
        found.append((cpu.hardware_arch == "arm64", facts.sources.get("cpu.hardware_arch", f"hardware {cpu.hardware_arch}")))
    arm64_torch = arm64_only_torch(facts)
    if arm64_torch:
        found.append((True, arm64_torch))
    arm64_process = next((s for s in snapshot.get("statements") or () if s.get("fact") == "process.arch"
                          and s.get("value") == "arm64"), None)
    if arm64_process is not None:
        found.append((True, f"an arm64 process runs only on Apple silicon ({arm64_process.get('source')} line "
                      f"{arm64_process.get('line')}: {str(arm64_process.get('text'))[:80]})"))
    if facts.translated_process:
        found.append((True, "a process ran translated by Rosetta 2, which exists only on Apple silicon ("
                      + facts.sources.get("translated_process", "pasted evidence") + ")"))
    if cpu.performance_cores and cpu.efficiency_cores:
        found.append((True, f"{cpu.performance_cores} performance + {cpu.efficiency_cores} efficiency cores"))
    for gpu in facts.gpus:
        if is_apple_gpu(gpu):
            found.append((True, f"Apple GPU entry: {gpu.model}"))
        elif gpu.vendor in ("AMD", "Intel", "NVIDIA") and not gpu.external:
            found.append((False, f"{gpu.vendor} GPU entry: {gpu.model}"))
    for gpu in facts.gpus:
        if gpu.external and gpu.vendor in ("AMD", "NVIDIA"):
            found.append((False, f"external GPU {gpu.model} (macOS drives eGPUs on Intel Macs only)"))
    text = all_text(snapshot)
    found.extend(_text_evidence(text))
    chip = re.search(r"\bApple M\d{1,2}(?: (?:Pro|Max|Ultra))?\b", text)
    if chip:
        found.append((True, f"chip name in the output: {chip.group()}"))
    interp = facts.interpreter
    if interp is not None and interp.translated:
        found.append((True, "the interpreter runs translated by Rosetta 2"))
    elif interp is not None and interp.machine == "arm64":
        found.append((True, "an arm64 interpreter on macOS"))
    elif interp is not None and interp.machine == "x86_64" and interp.translated is False:
        found.append((False, "a native (untranslated) x86_64 interpreter"))
    named = next((s for s in snapshot.get("statements") or () if s.get("fact") == "arch.named"), None)
    if named is not None and named.get("value") == "arm64":  # arm64 code runs on no Intel Mac
        found.append((True, f"the only architecture the text names is arm64 ({named.get('source')} line "
                      f"{named.get('line')}: {str(named.get('text'))[:80]})"))
    return found


_TEXT_SIGNS = (
    (r"machdep\.cpu\.brand_string:\s*Apple\b.*", True), (r"machdep\.cpu\.brand_string:\s*.*Intel.*", False),
    (r"hw\.optional\.arm64\s*[:=]\s*1\b", True), (r"hw\.optional\.arm64\s*[:=]\s*0\b", False),
    (r"RELEASE_ARM64\w*", True), (r"RELEASE_X86_64\b", False),
    (r"hw\.optional\.arm\.FEAT_\w+:\s*[01]\b", True),  # an arm64 kernel's CPU features, also seen from under Rosetta
    (r"machdep\.cpu\.(?:leaf7_)?features:\s*\S+", False),  # x86 CPUID features: an Intel Mac, or Rosetta
)


def _text_evidence(text: str) -> List[Evidence]:
    """Signs in outputs the OS module does not parse (pasted `sysctl -a`, `uname -a`)."""
    found = []
    for pattern, value in _TEXT_SIGNS:
        match = re.search(pattern, text)
        if match:
            found.append((value, f"'{match.group()[:60].strip()}' in the output"))
    return found


def _chip(facts: MachineFacts, snapshot: Mapping[str, Any]) -> Tuple[Optional[Any], str]:
    chip = identify_apple_chip(facts.cpu.brand or "")
    named = mac_model_silicon(facts.cpu.model)[1] if facts.cpu.model else None
    sold = identify_apple_chip(named) if named else None
    if chip and sold and sold.family == chip.family and sold.name != chip.name:
        return sold, f"model identifier {facts.cpu.model} (one chip only)"  # 'MacBook m1 pro' in prose, MacBookPro17,1 in a log
    if chip:
        return chip, facts.sources.get("cpu.brand", f"CPU brand: {facts.cpu.brand}")
    for gpu in facts.gpus:
        chip = identify_apple_chip(gpu.model)
        if chip:
            return chip, f"Apple GPU entry: {gpu.model}"
    if facts.cpu.model:
        _, name = mac_model_silicon(facts.cpu.model)
        if name:
            return identify_apple_chip(name), f"model identifier {facts.cpu.model}"
    chip = identify_apple_chip(all_text(snapshot))
    return (chip, f"chip name in the output: {chip.name}") if chip else (None, "")


def apple_chip_gpu(gpu: GPU) -> bool:
    """system_profiler's entry for a real Apple GPU: its cores, or Metal support under a chip's name
    (a macOS guest's GPU is the 'Apple Paravirtual device')."""
    if gpu.vendor != "Apple":
        return False
    chip = identify_apple_chip(gpu.model)
    return bool(gpu.cores or (gpu.metal and chip is not None and not chip.virtual))


def infer_mac_cpu(facts: MachineFacts, snapshot: Mapping[str, Any], sources: Dict[str, str]) -> CPUFacts:
    cpu = facts.cpu
    evidence = silicon_evidence(facts, snapshot)
    if cpu.apple_silicon is None and evidence:
        value, source = evidence[0]
        cpu = dataclasses.replace(cpu, apple_silicon=value)
        sources["cpu.apple_silicon"] = source
    elif cpu.apple_silicon is not None:  # the OS module's own reading: name the evidence it agrees with
        agreeing = [source for value, source in evidence if value == cpu.apple_silicon]
        if agreeing:
            sources["cpu.apple_silicon"] = agreeing[0]
    if cpu.hardware_arch in ("", "unknown") and cpu.apple_silicon is not None:
        cpu = dataclasses.replace(cpu, hardware_arch="arm64" if cpu.apple_silicon else "x86_64")
        sources["cpu.hardware_arch"] = sources.get("cpu.apple_silicon", "Apple silicon")
    elif _hardware_named(evidence) and (cpu.hardware_arch == "arm64") != cpu.apple_silicon \
            and cpu.hardware_arch in ("arm64", "x86_64"):
        # the Mac's own identifier or CPU brand outranks an arch read from one process: a crash report of a
        # MacBookPro18,3 (an M1 Pro) that says 'Code Type: X86-64 (Native)' is of Apple-silicon hardware
        sources["cpu.hardware_arch"] = f"{evidence[0][1]} (not {sources.get('cpu.hardware_arch', cpu.hardware_arch)})"
        cpu = dataclasses.replace(cpu, hardware_arch="arm64" if cpu.apple_silicon else "x86_64")
    if cpu.apple_silicon and cpu.chip is None:
        chip, source = _chip(facts, snapshot)
        if chip is not None:
            cpu = dataclasses.replace(cpu, chip=chip)
            sources["cpu.chip"] = source
    return cpu


def _hardware_named(evidence: List[Evidence]) -> bool:
    """Is the strongest evidence the Mac's hardware itself: its CPU brand string, chip or model identifier?"""
    return bool(evidence) and evidence[0][1].startswith(("CPU brand string", "chip:", "model identifier"))


# sysctl keys only an x86 CPU has (an Intel Mac, or Rosetta's view on Apple silicon)
_X86_FEATURES = re.compile(r"machdep\.cpu\.(?:(?:leaf7_)?features|family|feature_bits|extfeatures|vendor|stepping|"
                           r"signature):\s*\S+")


def infer_macos_version(facts: MachineFacts, snapshot: Mapping[str, Any], sources: Dict[str, str]) -> MachineFacts:
    """The macOS release a build number (powermetrics, kern.osversion) or a Darwin kernel release (uname -a,
    platform.uname(), a crash report) implies; the build names the point release, the kernel only its range."""
    if facts.os.version:
        return facts
    kernel = facts.os.kernel or ""
    uname = re.search(r"\bDarwin\s+\S+\s+(\d{2}\.\d+\.\d+)", stdout(snapshot, "uname -a"))
    release = kernel or (uname.group(1) if uname else "")
    version, why = macos_for_build(facts.os.build or "")
    where = f" ({sources['os.build']})" if "os.build" in sources else ""
    if not version:
        version, why = macos_for_darwin(release)
        where = f" ({sources['os.kernel']})" if "os.kernel" in sources else ""
    if not version:
        version, why, where = named_release(snapshot)
    if not version:
        return facts
    sources["os.version"] = why + where
    return dataclasses.replace(facts, os=dataclasses.replace(facts.os, version=version, name=facts.os.name or "macOS",
                                                             kernel=facts.os.kernel or release))


def arm64_only_torch(facts: MachineFacts) -> str:
    """A torch newer than the last x86_64 macOS wheel (2.2.2) runs only in an arm64 Python, so on Apple
    silicon; '' where that does not follow (conda-forge builds osx-64 torch of its own, and a source build,
    '2.6.0a0+git1eba9b3', builds for whatever Mac it is built on). MLX likewise: PyPI has arm64 macOS wheels of it
    only (pypi.org/project/mlx), so an mlx installed on a Mac is in an arm64 Python."""
    mlx = facts.package("mlx")
    if facts.is_mac and mlx and "+" not in str(mlx):
        return f"mlx {mlx} has macOS wheels for arm64 only: an arm64 Python"
    interp = facts.interpreter
    probe = facts.frameworks.get("torch")
    torch = (probe.data.get("version") if probe is not None else None) or facts.package("torch")
    version, last = package_version(torch), package_version(INTEL_MAC_LAST_TORCH)
    if not facts.is_mac or version is None or last is None or version <= last or (interp is not None and interp.conda) \
            or "+git" in str(torch):
        return ""
    return f"torch {torch} has no x86_64 macOS wheel on PyPI (the last is {INTEL_MAC_LAST_TORCH}): an arm64 Python"


def x86_only_tensorflow(facts: MachineFacts) -> str:
    """A pip `tensorflow` older than 2.13 had only x86_64 macOS wheels, so the Python holding it is x86_64; '' where
    that does not follow (conda builds its own; tensorflow-macos is another distribution)."""
    interp, tf = facts.interpreter, facts.package("tensorflow")
    version, first = package_version(tf), package_version(TF_FIRST_MACOS_ARM64)
    if not facts.is_mac or version is None or first is None or version >= first or (interp is not None and interp.conda) \
            or re.search(r"\+|dev|rc", str(tf)):
        return ""
    return f"tensorflow {tf} has no macOS arm64 wheel on PyPI (the first is {TF_FIRST_MACOS_ARM64}): an x86_64 Python"


def x86_only_old_python(facts: MachineFacts) -> str:
    """CPython runs natively on Apple silicon from 3.8 (conda-forge's osx-arm64 builds start at 3.8, python.org's
    universal2 installers at 3.9.1, bpo-41100): a Python 3.7 or older on an Apple-silicon Mac is x86_64."""
    interp = facts.interpreter
    version = package_version(interp.version) if interp is not None and interp.version else None
    if not facts.is_mac or facts.cpu.apple_silicon is not True or version is None or version >= package_version("3.8"):
        return ""
    return f"Python {interp.version} predates CPython's arm64 macOS builds (3.8 on, bpo-41100): an x86_64 Python"


def infer_native_python(facts: MachineFacts, sources: Dict[str, str]) -> MachineFacts:
    """The interpreter's arch where only an arm64 (or only an x86_64) Python could hold what the evidence shows."""
    interp, why = facts.interpreter, arm64_only_torch(facts)
    x86_why = x86_only_tensorflow(facts) or x86_only_old_python(facts)
    if not (why or x86_why) or (why and x86_why) or interp is None or interp.machine:
        return facts
    sources["interpreter.machine"] = why or x86_why
    return dataclasses.replace(facts, interpreter=dataclasses.replace(interp, machine="arm64" if why else "x86_64"))


def intel_mac_python(facts: MachineFacts, sources: Dict[str, str]) -> MachineFacts:
    """On an Intel Mac every process is x86_64 (Rosetta 2 runs only on Apple silicon), the Python included: the
    interpreter the facts describe, or the one a Python framework shown in use ('import tensorflow') ran in."""
    interp = facts.interpreter
    if interp is None and any(name in PYTHON_FRAMEWORKS for name in facts.frameworks_in_use):
        interp = InterpreterFacts(executable="", version="", implementation="", machine="", prefix="", base_prefix="")
    if not facts.is_mac or facts.cpu.apple_silicon is not False or interp is None or interp.machine:
        return facts
    sources["interpreter.machine"] = "an Intel Mac runs x86_64 processes only (" + sources.get(
        "cpu.apple_silicon", "Intel Mac") + ")"
    return dataclasses.replace(facts, interpreter=dataclasses.replace(interp, machine="x86_64"))


def infer_translation(facts: MachineFacts, snapshot: Mapping[str, Any],
                      statements: Any, sources: Dict[str, str]) -> MachineFacts:
    """On Apple silicon, an x86_64 process is translated by Rosetta 2: a shell whose `uname -m` says
    x86_64, sysctl answering with x86 CPU features, or an x86_64 Python (platform.processor() i386)."""
    if not facts.is_mac or facts.cpu.apple_silicon is not True or facts.translated_process is not None:
        return facts
    signs = []
    process = next((s for s in statements or () if s.get("fact") == "process.arch"), None)
    if process is not None:
        if process.get("value") != "x86_64":
            return dataclasses.replace(facts, translated_process=False)
        signs.append(f"{process.get('source')} line {process.get('line')}: {str(process.get('text'))[:100]}")
    features = _X86_FEATURES.search(all_text(snapshot))
    stated = next((s for s in statements or () if s.get("fact") == "cpu.x86_features"), None)
    if features:
        signs.append(f"x86 CPU features in sysctl ('{features.group()[:50]}')")
    elif stated is not None:
        signs.append(f"x86 CPU features in sysctl ({stated.get('source')} line {stated.get('line')})")
    if not signs:
        return facts
    sources["translated_process"] = "an x86_64 process on Apple silicon runs under Rosetta 2: " + signs[0]
    return dataclasses.replace(facts, translated_process=True)


def mps_gpu_on_intel(facts: MachineFacts, gpus: Tuple[GPU, ...], sources: Dict[str, str]) -> Tuple[GPU, ...]:
    """torch finding MPS on an Intel Mac: its MPS backend skips low-power (Intel) GPUs, so the Mac has a
    discrete AMD GPU (pytorch aten/src/ATen/mps/MPSDevice.mm picks the first device that is not isLowPower)."""
    probe = facts.frameworks.get("torch")
    if not facts.is_mac or facts.cpu.apple_silicon is not False or probe is None:
        return gpus
    if probe.data.get("mps_available") is not True or any(g.vendor in ("AMD", "Apple") for g in gpus):
        return gpus
    where = sources.get("frameworks.torch.mps_available") or sources.get("frameworks.torch", "pasted evidence")
    sources[f"gpus.{len(gpus)}"] = f"torch finds MPS on an Intel Mac, where it runs only on a discrete (AMD) GPU ({where})"
    return gpus + (GPU(vendor="AMD", model="AMD GPU (model not in the evidence)", metal="Metal"),)
