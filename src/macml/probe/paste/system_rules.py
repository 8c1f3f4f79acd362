"""The vocabulary of system dumps: conda's virtual packages, `sysctl -n` answers, a crashed Python's
crash-report header, and the names shared by every rule module (architectures, Mac model identifiers,
macOS versions that never shipped)."""
from __future__ import annotations

import re
from typing import Any, List, Optional, Tuple

Facts = List[Tuple[str, Any]]

# macOS versions that never shipped: 10.16 (old SDKs' compatibility answer for 11+) and 16-25 (the 26 beta's)
NO_SUCH_MACOS = re.compile(r"^(10\.16|1[6-9]|2[0-5])(\.|$)")
CONDA_VIRTUAL = re.compile(r"\b__(osx|cuda|glibc|linux|win|archspec)=([\w.]+(?:=[\w.]+)?)")  # '__archspec=1=arm64'
MODEL_ID = re.compile(r"\b((?:MacBookPro|MacBookAir|MacBook|Macmini|MacPro|iMacPro|iMac|Mac)\d{1,2},\d{1,2})\b")
# the same identifier with a space people type in it: 'MacPro 3,1', 'MacBookPro 11,3' (not bare 'Mac 14,2')
SPACED_MODEL_ID = re.compile(r"\b(MacBookPro|MacBookAir|MacBook|Macmini|MacPro|iMacPro|iMac) (\d{1,2},\d{1,2})\b(?![.,]?\d)")
# ... or with a dot, as cMP owners write theirs: 'MacPro 5.1' (only these two: 'iMac 21.5' is a screen size)
DOTTED_MODEL_ID = re.compile(r"\b(Mac ?Pro|Mac ?mini) ?([1-9])\.([1-9])\b(?![.\d])")  # also 'Mac Pro 5.1 (Mid 2010)'


def arch_word(value: str) -> Optional[str]:
    word = value.strip().split()[0].lower() if value.strip() else ""
    return {"arm64": "arm64", "aarch64": "aarch64", "x86_64": "x86_64", "amd64": "x86_64", "i386": "x86_64",
            "x86-64": "x86_64", "arm-64": "arm64"}.get(word)


def conda_virtual_packages(line: str) -> Facts:
    """conda's virtual packages state the system: __osx=15.6, __cuda=12.0 (the CUDA the NVIDIA driver
    supports), __glibc / __linux (Linux), __win, __archspec=1=m2 (the CPU's microarchitecture)."""
    facts: Facts = []
    for kind, value in CONDA_VIRTUAL.findall(line):
        if kind == "osx" and not NO_SUCH_MACOS.match(value.split("=")[0]):  # conda info's '__osx=13.0=0': version=build
            facts += [("platform", "darwin"), ("os.version", value.split("=")[0])]
        elif kind == "cuda" and re.match(r"\d+\.\d+", value):
            facts += [("gpu.cuda_driver", value.split("=")[0]), ("gpu.present", "NVIDIA")]
        elif kind in ("glibc", "linux"):
            facts.append(("platform", "linux"))
        elif kind == "win":
            facts.append(("platform", "win32"))
        elif kind == "archspec":
            arch = value.split("=")[-1].lower()
            if re.fullmatch(r"m\d", arch) or arch == "arm64":  # 'arm64': archspec's name for Apple silicon under macOS
                # archspec asks from conda's own Python, which sees an Apple core only when it runs natively
                facts += [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("python.machine", "arm64")]
            elif arch in ("x86_64", "aarch64") or arch.startswith(("zen", "skylake", "haswell", "icelake")):
                facts.append(("cpu.hardware_arch", "x86_64" if arch != "aarch64" else "aarch64"))
    return facts


# sysctl keys only an x86 CPU answers: an Intel Mac, or Rosetta 2's translated view on Apple silicon
X86_SYSCTL = ("machdep.cpu.features", "machdep.cpu.leaf7 features", "machdep.cpu.family", "machdep.cpu.feature bits",
               "machdep.cpu.extfeatures", "machdep.cpu.vendor", "machdep.cpu.stepping", "machdep.cpu.signature")


def crashed_python(key: str, value: str) -> Facts:
    """A crash report's header when the crashed process is Python: 'Version: 3.9.10 (3.9.10)',
    'Code Type: X86-64 (Native)'; in an .ips report 'cpuType' and 'translated'."""
    if key in ("version", "app version") and re.match(r"(?:3\.\d+|2\.7)\.\d+", value):  # python.org's 2.7.12 too
        return [("python.version", re.match(r"(?:3\.\d+|2\.7)\.\d+", value).group())]
    if key in ("code type", "cputype") and arch_word(value):
        return [("python.machine", arch_word(value))]
    return []


def sysctl_value(name: str, value: str) -> Facts:
    """A bare answer of `sysctl -n NAME` (or `uname -m` / `-p` / `-r`) on its own line."""
    if name == "machdep.cpu.brand_string":
        return [("cpu.brand", value)]
    if name == "hw.memsize":
        return [("cpu.memory_bytes", int(value))] if value.isdigit() else []
    if name == "hw.optional.arm64" and value in ("0", "1"):
        return [("cpu.hardware_arch", "arm64" if value == "1" else "x86_64")]
    if name == "sysctl.proc_translated" and value in ("0", "1"):
        return [("process.translated", value == "1")]
    if name == "uname -m":
        return [("process.arch", a) for a in [arch_word(value)] if a]
    darwin = re.fullmatch(r"(?:[89]|[12]\d)\.\d{1,2}\.\d{1,2}", value) if name == "uname -r" else None
    if darwin:  # a bare 'X.Y.Z' release from 8 up is Darwin's (Linux's kernels are 2 to 6, with a suffix)
        return [("platform", "darwin"), ("os.darwin", value)]
    if name in ("machdep.cpu.features", "machdep.cpu.leaf7_features") and re.search(r"\b(SSE2|FPU|AVX)\b", value):
        return [("cpu.x86_features", value[:200])]
    if name == "hw.model":
        return [("cpu.model", value)] if MODEL_ID.fullmatch(value) else []
    return []
