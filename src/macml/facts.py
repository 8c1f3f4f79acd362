"""Facts about a machine and an interpreter, as frozen values.

Everything the doctor decides is a pure function of these. They are built from raw
probe output (live or replayed from a snapshot) by the parse_* functions.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Tuple

from macml import versions
from macml.knowledge.amd_gfx import before_metal

GIB = 1024**3
# The model of a GPU macOS lists only by vendor and device ID: no driver attached, so no Metal.
# One home for each vocabulary that tools spell several ways.
PLATFORM_LABELS = {"darwin": "macOS", "linux": "Linux", "win32": "Windows"}
_ARCH_FAMILIES = {"x86_64": "x86_64", "amd64": "x86_64", "x64": "x86_64", "i386": "x86_64",
                  "arm64": "arm64", "aarch64": "arm64", "arm64e": "arm64"}


def platform_label(platform: str) -> str:
    """'darwin' -> 'macOS', 'linux' -> 'Linux', 'win32' -> 'Windows'."""
    return PLATFORM_LABELS.get(platform, platform)


def arch_family(name: Optional[str]) -> str:
    """Every spelling of a 64-bit CPU architecture -> 'x86_64' or 'arm64' ('AMD64', 'aarch64', ...);
    'unknown' for none. macOS's i386 `processor` is its x86_64 Python (Intel or Rosetta)."""
    if not name:
        return "unknown"
    return _ARCH_FAMILIES.get(name.strip().lower(), name.strip().lower())


def os_arch_name(family: str, platform: str) -> str:
    """How an OS spells an arch family in `uname -m` / platform.machine(): arm64 is 'aarch64' on Linux,
    'ARM64' on Windows, 'arm64' on macOS; x86_64 is 'AMD64' on Windows."""
    if platform == "win32":
        return {"x86_64": "AMD64", "arm64": "ARM64"}.get(family, family)
    if platform == "linux" and family == "arm64":
        return "aarch64"
    return family


def hardware_arch_name(name: Optional[str], platform: str) -> str:
    """An arch as CPUFacts.hardware_arch spells it: 'arm64' on macOS, 'aarch64' on Linux, 'x86_64'."""
    family = arch_family(name)
    return "aarch64" if family == "arm64" and platform == "linux" else family


UNNAMED_GPU = "unknown GPU"  # the model shown for a GPU listed only by vendor and device ID
# the models shown for a GPU whose model nothing gave: 'AMD GPU 3' (rocm-smi's row alone), 'NVIDIA GPU (model not in
# the evidence)'
_UNNAMED_MODEL = re.compile(r"^(?:AMD|NVIDIA|Intel|Apple) (?:Jetson )?GPU (?:\d{1,3}|\(model not in the evidence\))$")


def model_named(model: Optional[str]) -> bool:
    """Does this model string name a model ('Radeon RX 6800'), not stand in for one ('AMD GPU 0')?"""
    return bool(model) and model != UNNAMED_GPU and not _UNNAMED_MODEL.match(model)


@dataclass(frozen=True)
class OSFacts:
    system: str  # "Darwin", "Linux", "Windows"
    name: str  # "macOS", "Debian GNU/Linux 12 (bookworm)", ...
    version: str  # "14.4.1"; "" when unknown
    build: Optional[str] = None  # macOS build "23E224"
    kernel: Optional[str] = None

    @property
    def version_tuple(self) -> Tuple[int, ...]:
        return versions.release(self.version)


@dataclass(frozen=True)
class AppleChip:
    name: str  # "Apple M3 Max"
    family: str  # "M3"
    generation: int  # 3
    tier: str  # "", "Pro", "Max", "Ultra"
    virtual: bool = False


@dataclass(frozen=True)
class CPUFacts:
    brand: str
    hardware_arch: str  # what the hardware is: "arm64" or "x86_64" (not what a process sees)
    apple_silicon: Optional[bool] = None  # None: the evidence does not say (unknown is not no)
    chip: Optional[AppleChip] = None
    cores: Optional[int] = None
    performance_cores: Optional[int] = None
    efficiency_cores: Optional[int] = None
    memory_bytes: Optional[int] = None
    model: Optional[str] = None  # "MacBookPro18,3"
    model_name: Optional[str] = None  # the Mac as the text names it: 'MacBook Pro (15-inch, Late 2013)'
    flags: Optional[Tuple[str, ...]] = None  # lower-case CPU features ("avx2", "neon"); None = unknown


@dataclass(frozen=True)
class GPU:
    vendor: str  # "Apple", "AMD", "Intel", "NVIDIA", "unknown"
    model: str
    cores: Optional[int] = None  # Apple GPU cores
    memory_bytes: Optional[int] = None  # VRAM, or unified memory for Apple
    unified_memory: bool = False
    metal: Optional[str] = None  # "Metal 3", "Metal 4", "Metal" (older), None = none/unknown
    external: bool = False
    compute_capability: Optional[str] = None  # "9.0" (NVIDIA)
    driver_version: Optional[str] = None  # NVIDIA/AMD driver
    cuda_driver_version: Optional[str] = None  # newest CUDA the driver supports ("13.0")
    peak_fp32_tflops: Optional[float] = None
    bandwidth_gbs: Optional[float] = None
    driver_loaded: Optional[bool] = None  # False: the OS lists the device but no driver drives it
    integrated: Optional[bool] = None  # shares the CPU's memory and die (Apple, Intel iGPU, Tegra)
    family: Optional[str] = None  # a family that changes what installs: "tegra" (Jetson: JetPack wheels)

    @property
    def usable(self) -> bool:
        """A driver runs it (or nothing says otherwise), so a framework could use it."""
        return self.driver_loaded is not False

    @property
    def display_name(self) -> str:
        """The model with its vendor once: 'AMD Radeon Pro 560X', 'NVIDIA H200', 'Apple M1 Pro'."""
        if self.model.lower().startswith(self.vendor.lower()) or f" {self.vendor.lower()} " in f" {self.model.lower()} ":
            return self.model  # 'GIGABYTE AMD Radeon RX 6650 XT': the board partner's name first
        return f"{self.vendor} {self.model}".strip()


@dataclass(frozen=True)
class InterpreterFacts:
    executable: str
    version: str  # "3.11.7"
    implementation: str  # "cpython"
    machine: str  # as that process sees it: "arm64", "x86_64"
    prefix: str
    base_prefix: str
    conda: bool = False
    externally_managed: bool = False
    pip_version: Optional[str] = None
    packages: Mapping[str, str] = field(default_factory=dict)  # canonical name -> version
    translated: Optional[bool] = None  # sysctl.proc_translated, macOS only
    platform_tag: Optional[str] = None  # sysconfig.get_platform()
    bits: Optional[int] = None  # pointer size: 64 or 32
    mac_ver: Optional[str] = None  # platform.mac_ver(): "10.16" from old-SDK builds, so never trusted alone
    glibc: Optional[str] = None  # "2.36"; None off glibc Linux
    gil_disabled: bool = False  # a free-threaded (3.13t+) build
    markers: Mapping[str, str] = field(default_factory=dict)  # PEP 508 environment markers
    packages_complete: bool = False  # a pasted pip list / freeze / conda list: every installed package

    @property
    def lists_every_package(self) -> bool:
        """Is a package missing from `packages` really not installed? Yes for a probed interpreter or a full
        pasted list; no for a partial list (collect_env names only some libraries)."""
        return self.known or self.packages_complete

    @property
    def venv(self) -> bool:
        return self.prefix != self.base_prefix

    @property
    def known(self) -> bool:
        """Was it probed (a pasted report may give only the version and machine)?"""
        return bool(self.executable)

    @property
    def version_tuple(self) -> Tuple[int, ...]:
        return versions.release(self.version)[:3]

    @property
    def kind(self) -> str:
        if not self.prefix and not self.conda:
            return "unknown"
        if self.conda:
            return "conda"
        if self.venv:
            return "venv"
        return "system"


# Why a framework probe gave no answer (FrameworkFacts.problem).
TIMED_OUT, IMPORT_FAILED, PROBE_CRASHED, MALFORMED, NO_PROBE = (
    "timed_out", "import_failed", "probe_crashed", "malformed", "no_probe_script")
PROBE_PROBLEMS = (TIMED_OUT, IMPORT_FAILED, PROBE_CRASHED, MALFORMED, NO_PROBE)


@dataclass(frozen=True)
class FrameworkFacts:
    """What a framework said about itself inside the target interpreter."""

    name: str  # "torch", "tensorflow", "plaidml", "mlx", "jax"
    ok: bool  # the probe ran and the framework imported
    data: Mapping[str, Any] = field(default_factory=dict)
    error: Optional[str] = None  # the text to show a user
    problem: Optional[str] = None  # one of PROBE_PROBLEMS when not ok

    @property
    def timed_out(self) -> bool:
        return self.problem == TIMED_OUT


@dataclass(frozen=True)
class SystemFacts:
    """What an OS module's build_facts reads from the system commands."""

    os: OSFacts
    cpu: CPUFacts
    gpus: Tuple[GPU, ...] = ()
    problems: Tuple[str, ...] = ()  # what could not be read, in words
    gpu_links: Mapping[str, str] = field(default_factory=dict)  # "0-1" -> "NV18", "PHB", ... (topo -m)


@dataclass(frozen=True)
class MachineFacts:
    platform: str  # "darwin", "linux", "win32"
    os: OSFacts
    cpu: CPUFacts
    gpus: Tuple[GPU, ...] = ()
    interpreter: Optional[InterpreterFacts] = None
    frameworks: Mapping[str, FrameworkFacts] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=dict)
    problems: Tuple[str, ...] = ()  # probe problems worth showing (unparseable output, timeouts)
    gpu_links: Mapping[str, str] = field(default_factory=dict)  # "0-1" -> "NV18", "PHB", ... (topo -m)
    gpu_list_known: bool = True  # False: no probe that lists GPUs answered, so `gpus` may be incomplete
    gpus_ruled_out: Tuple[str, ...] = ()  # vendors whose GPU the evidence rules out ("NVIDIA": no driver answered)
    gpu_driver_errors: Tuple[str, ...] = ()  # a GPU tool's own words that its driver is broken (NVML version mismatch)
    vm: Optional[bool] = None  # a virtual machine; None = the evidence does not say
    hypervisor: Optional[str] = None  # "VirtualBox", "Apple Virtual Machine", "KVM", ...
    egpu: Optional[bool] = None  # an external GPU is attached (None when the GPU list is unknown)
    sources: Mapping[str, str] = field(default_factory=dict)  # derived fact -> the evidence it came from
    translated_process: Optional[bool] = None  # a pasted process (shell, crashed app) ran under Rosetta
    frameworks_in_use: Tuple[str, ...] = ()  # what the text shows imported, installed or run ('tensorflow', 'mlx')
    packages_wanted: Mapping[str, Tuple[str, ...]] = field(default_factory=dict)  # asked for, not got: 'torch' -> ('>=2.4',)

    @property
    def is_mac(self) -> bool:
        return self.platform == "darwin"

    @property
    def rosetta(self) -> Optional[bool]:
        """An x86_64 interpreter translated on Apple-silicon hardware; None when that is unknown."""
        interp = self.interpreter
        if self.is_mac and self.cpu.apple_silicon is False:
            return False  # Rosetta 2 runs only on Apple silicon
        if self.is_mac and (interp is None or not interp.machine) and self.translated_process is not None:
            return self.translated_process  # the evidence's process ran translated; a Python started beside it would too
        if interp is None or not interp.machine or not self.is_mac:
            known_pc = self.platform in ("linux", "win32") or self.cpu.apple_silicon is False
            return False if known_pc else None  # an unknown OS on unknown hardware may be an Apple-silicon Mac's
        if interp.translated is not None:
            return bool(interp.translated)
        if interp.machine != "x86_64":
            return False
        return None if self.cpu.apple_silicon is None else self.cpu.apple_silicon

    @property
    def has_metal_gpu(self) -> bool:
        """A GPU PyTorch's MPS, tensorflow-metal or MLX would use (they skip Intel iGPUs, a VM's GPU and AMD's
        pre-Metal TeraScale GPUs)."""
        if not self.is_mac or self.vm:
            return False
        return any(g.usable and (g.vendor == "Apple" or g.vendor == "AMD" and not before_metal(g.model)) for g in self.gpus)

    @property
    def accelerator_kind(self) -> Optional[str]:
        """'mps', 'cuda', 'rocm' or None: what the hardware offers a framework."""
        if self.has_metal_gpu:
            return "mps"
        if self.gpus_by_vendor("NVIDIA"):
            return "cuda"
        if not self.is_mac and self.gpus_by_vendor("AMD"):
            return "rocm"
        return None

    def gpus_by_vendor(self, vendor: str) -> Tuple[GPU, ...]:
        return tuple(g for g in self.gpus if g.vendor == vendor)

    def package(self, name: str) -> Optional[str]:
        return self.interpreter.packages.get(name) if self.interpreter else None


def format_bytes(count: int) -> str:
    """1.5 GiB, 512 MiB: whole GiB where that is honest, MiB below 1 GiB."""
    if count < GIB:
        return f"{count / 1024**2:.0f} MiB"
    return f"{count / GIB:.0f} GiB" if count % GIB == 0 or count >= 8 * GIB else f"{count / GIB:.1f} GiB"


def describe_gpu(gpu: GPU) -> str:
    parts = [gpu.display_name]
    if gpu.cores:
        parts.append(f"{gpu.cores} GPU cores")
    if gpu.memory_bytes:
        kind = "unified memory" if gpu.unified_memory else "VRAM"
        parts.append(f"{format_bytes(gpu.memory_bytes)} {kind}")
    if gpu.metal:
        parts.append(gpu.metal)
    if gpu.compute_capability:
        parts.append(f"compute {gpu.compute_capability}")
    if gpu.external:
        parts.append("external")
    return ", ".join(parts)


def to_jsonable(value: Any) -> Any:
    """Dataclasses (and their properties that matter) to plain JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, InterpreterFacts):
            out["kind"] = value.kind
        if isinstance(value, MachineFacts):
            out["rosetta"] = value.rosetta
        return out
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    return value
