"""What macml knows about each ML framework, in one record per framework.

The doctor's probes, its GPU-use judgement, its output sections, `macml verify`'s workloads
and the names users type all read these records: adding a framework is one `Framework` entry
plus `checks/probes/probe_<name>.py` (and, for verify, `checks/workloads/workload_<name>.py`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Tuple

from macml.errors import MacmlError


@dataclass(frozen=True)
class GpuUse:
    """Does a framework use the GPU the hardware offers? `sees` is None when this build was never
    meant to (a CPU-only build, plain TensorFlow on a Mac): another check explains that."""

    sees: Optional[bool]
    label: str = ""


def _torch(data: Mapping, kind: str) -> GpuUse:
    if kind == "mps":
        if not data.get("mps_built"):
            return GpuUse(None)  # check_torch_build explains a build without MPS
        return GpuUse(bool(data.get("mps_available")), "MPS")
    if not data.get("cuda_version") and not data.get("hip_version"):
        return GpuUse(None)
    names = ", ".join(data.get("device_names") or [])
    label = f"{'ROCm' if kind == 'rocm' else 'CUDA'} ({names})" if names else kind.upper()
    available = data.get("cuda_available")  # None: a pasted torch version that says nothing of its devices
    return GpuUse(None if available is None else bool(available), label)


def _tensorflow(data: Mapping, kind: str) -> GpuUse:
    return GpuUse(bool(data.get("gpus")), ", ".join(data.get("gpus") or []) or "GPU")


def _mlx(data: Mapping, kind: str) -> GpuUse:
    if kind == "mps":
        return GpuUse(bool(data.get("metal_available")), "Metal")
    if kind == "cuda" and data.get("cuda_built"):  # a CPU-only or Metal wheel was never meant to use CUDA
        available = data.get("cuda_available")  # None: an MLX too old to say
        return GpuUse(None if available is None else bool(available), "CUDA")
    return GpuUse(None)


def _jax(data: Mapping, kind: str) -> GpuUse:
    platforms = set(data.get("platforms") or [])
    return GpuUse(bool(platforms - {"cpu"}), ", ".join(data.get("devices") or []))


def _plaidml(data: Mapping, kind: str) -> GpuUse:
    devices = [d for d in data.get("devices") or [] if not d.startswith("llvm_cpu")]
    return GpuUse(bool(devices), ", ".join(devices))


@dataclass(frozen=True)
class Framework:
    name: str  # the key everywhere: probe output, snapshot, --framework
    area: str  # the doctor's section heading
    dists: Tuple[str, ...]  # installed distributions that mean "this framework is installed"
    module: str  # what `import` finds in the target
    gpu_use: Callable[[Mapping, str], GpuUse]
    aliases: Tuple[str, ...] = ()
    has_workload: bool = True
    verify_by_default: bool = True  # auto mode of `macml verify` runs it
    devices: Tuple[str, ...] = ("gpu", "cpu")  # what `macml verify --device` takes, as the framework names them
    device_ids: bool = False  # --device may also be one of the framework's device ids (PlaidML's)
    # The machine's accelerator kinds (MachineFacts.accelerator_kind) some build of it uses: where the
    # hardware offers one, a verify run that found no accelerator is a failure, not a CPU-only pass.
    gpu_kinds: Tuple[str, ...] = ()

    @property
    def probe_script(self) -> str:
        return f"probes/probe_{self.name}.py"

    @property
    def workload_script(self) -> Optional[str]:
        return f"workloads/workload_{self.name}.py" if self.has_workload else None

    def judge(self, data: Mapping, kind: str) -> GpuUse:
        return self.gpu_use(dict(data), kind)

    def accepts_device(self, device: str) -> bool:
        return device in self.devices or (self.device_ids and "." in device)

    @property
    def device_choices(self) -> str:
        """'cuda, mps or cpu' (and PlaidML's ids)."""
        text = ", ".join(self.devices[:-1]) + f" or {self.devices[-1]}"
        return text + (" (or a device id such as metal_amd_radeon_pro_560x.0)" if self.device_ids else "")


FRAMEWORKS: Tuple[Framework, ...] = (
    Framework("torch", "PyTorch", ("torch",), "torch", _torch, aliases=("pytorch",), devices=("cuda", "mps", "cpu"),
              gpu_kinds=("cuda", "rocm", "mps")),
    Framework("tensorflow", "TensorFlow", ("tensorflow", "tensorflow-macos", "tensorflow-cpu"), "tensorflow",
              _tensorflow, aliases=("tf", "keras"), gpu_kinds=("cuda", "mps")),
    # plaidml needs its own set-up and an old Keras: verified only when asked for.
    Framework("plaidml", "PlaidML", ("plaidml",), "plaidml", _plaidml, aliases=("plaidml-keras",),
              verify_by_default=False, device_ids=True, gpu_kinds=("mps",)),
    # A CPU-only MLX on an NVIDIA machine is no failure (mlx[cuda] is a choice); jax-metal is unmaintained.
    Framework("mlx", "MLX", ("mlx",), "mlx", _mlx, gpu_kinds=("mps",)),
    Framework("jax", "JAX", ("jax",), "jax", _jax, devices=("gpu", "cuda", "rocm", "metal", "tpu", "cpu"),
              gpu_kinds=("cuda", "rocm")),
)
BY_NAME: Mapping[str, Framework] = {f.name: f for f in FRAMEWORKS}


def get(name: str) -> Optional[Framework]:
    return BY_NAME.get(name)


def area_of(name: str) -> str:
    framework = BY_NAME.get(name)
    return framework.area if framework else name


def with_workload() -> Tuple[Framework, ...]:
    return tuple(f for f in FRAMEWORKS if f.has_workload)


def resolve(typed: str) -> Framework:
    """A name or alias the user typed -> the framework with a verify workload, or a MacmlError."""
    key = typed.lower()
    for framework in with_workload():
        if key == framework.name or key in framework.aliases:
            return framework
    names = ", ".join(f.name for f in with_workload())
    raise MacmlError(f"Unknown framework '{typed}'.", hint=f"Use --framework {names}.")


def installed_in(packages: Mapping[str, str]) -> Tuple[Framework, ...]:
    """Frameworks whose distributions are installed, from an interpreter's package list."""
    return tuple(f for f in FRAMEWORKS if any(d in packages for d in f.dists))


def judge(name: str, data: Mapping, kind: str) -> GpuUse:
    framework = BY_NAME.get(name)
    return framework.judge(data, kind) if framework else GpuUse(None)
