"""What nvidia-smi (NVML) prints when the NVIDIA driver cannot answer, what it means and what fixes it.

Sources: NVML API reference, nvmlReturn_t (NVML_ERROR_LIB_RM_VERSION_MISMATCH: "RM has detected an NVML/RM version
mismatch", printed by nvidia-smi as "Failed to initialize NVML: Driver/library version mismatch";
NVML_ERROR_DRIVER_NOT_LOADED: "NVIDIA driver is not running"), https://docs.nvidia.com/deploy/nvml-api/;
nvidia-smi(1) exit codes 9 ("NVIDIA driver is not loaded") and 18 ("Driver/library version mismatch" is RM's);
NVIDIA's Linux driver README, chapter "Common Problems" (the kernel module must match the user-space libraries:
after an upgrade, unload the old module or reboot); the kernel log's side of the same mismatch is the module's
"NVRM: API mismatch: the client ... has the version X, but this kernel module has the version Y" (nvidia.ko's own
message, quoted in NVIDIA's README, "Common Problems"). 'NVRM: RmInitAdapter failed!' / 'rm_init_adapter failed' is
the kernel module failing to bring up the GPU it found (NVIDIA's README, "Common Problems" and the Xid catalogue; on
GSP-firmware GPUs it follows 'Cannot initialize GSP firmware RM': NVIDIA/open-gpu-kernel-modules#876). 'NVRM: No
NVIDIA GPU found.' is the module finding no GPU it supports, as after 'The 595.71.05 NVIDIA driver will ignore this
GPU' for a GPU moved to a legacy branch (NixOS/nixos-hardware#1880). 'Failed to initialize NVML: N/A' and '...: Unknown
Error' are NVML failing to reach the driver at all: in WSL 2, whose NVML is the Windows driver's (/usr/lib/wsl/lib),
when a Linux driver was installed inside the distribution or the Windows driver is too old (NVIDIA's CUDA on WSL User
Guide: "do not install any Linux display driver in WSL"; microsoft/WSL#11755), and in a container that lost its device
access (NVIDIA/nvidia-docker#1671). 'Failed to initialize NVML: GPU access blocked by the operating system' is NVML
denied the GPU by the OS: in WSL 2 a GPU the Windows driver runs in TCC mode, as Windows Server runs data-center GPUs
(NVIDIA's CUDA on WSL User Guide: WSL uses the GPUs of the Windows driver's WDDM model; `nvidia-smi -dm` switches a
GPU's driver model, nvidia-smi(1)). lspci -k's 'Kernel driver in use: nouveau' (or the writer's 'it is using the
opensource driver') is the GPU bound to nouveau, the reverse-engineered driver, which has no CUDA (NVIDIA's CUDA
Installation Guide for Linux: disable nouveau before installing the driver); so is a kernel log line of the nouveau
module about its device ('nouveau 0000:01:00.0: DRM: VRAM: 2048 MiB'). 'NVRM: ... has fallen off the bus' is Xid
79, the GPU gone from the PCIe bus (NVIDIA's Xid catalogue: a hardware, power or thermal fault, or a driver error);
CUDA's 'cudaErrorInsufficientDriver' (error 35, 'CUDA driver version is insufficient for CUDA runtime version') is a
driver older than the CUDA runtime the program was built with (CUDA Runtime API, cudaError).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Pattern, Tuple


@dataclass(frozen=True)
class DriverError:
    pattern: Pattern[str]
    meaning: str
    fix: str
    linux_only: bool  # the message names Linux's kernel module


DRIVER_ERRORS: Tuple[DriverError, ...] = (
    # nvidia-smi's 'Failed to initialize NVML: ...'; nvtop's 'Impossible to initialize nvidia nvml : ...' (nvmlErrorString)
    DriverError(re.compile(r"initiali[sz]e (?:nvidia )?NVML\s*:\s*Driver/library version mismatch", re.IGNORECASE),
                "the loaded NVIDIA kernel module and the driver's libraries are different versions "
                "(a driver was installed or upgraded and the old module is still loaded)",
                "Reboot (or unload and reload the nvidia modules). If it persists, reinstall one driver so the kernel "
                "module and the libraries match: compare `cat /proc/driver/nvidia/version` with `dkms status`.", True),
    DriverError(re.compile(r"NVRM: API mismatch"),
                "the loaded NVIDIA kernel module and a program's NVIDIA user-space libraries are different versions "
                "(the kernel log's side of 'Driver/library version mismatch')",
                "Reboot so the new kernel module loads. If it persists, reinstall one driver so the kernel module and "
                "the libraries match: compare `cat /proc/driver/nvidia/version` with `dkms status`.", True),
    DriverError(re.compile(r"NVRM: (?:GPU [0-9a-fA-F:.]+: )?(?:RmInitAdapter|rm_init_adapter) failed"),
                "the NVIDIA kernel module found the GPU but could not initialise it (no CUDA program can use it)",
                "Power the machine off fully and back on (a warm reboot can leave the GPU in this state). If it persists, "
                "install the newest driver for this GPU, and on a laptop check the BIOS graphics mode; `sudo dmesg | "
                "grep -i -e NVRM -e Xid` shows what failed.", True),
    DriverError(re.compile(r"NVRM: No NVIDIA GPU found"),
                "the NVIDIA kernel module loaded but drives no GPU here (the installed driver branch has dropped this "
                "GPU, or the GPU is not visible to it)",
                "Install the driver branch the kernel log names for this GPU (e.g. the 580.xx legacy driver for "
                "Maxwell, Pascal and Volta), or check that the GPU is enabled in the BIOS; `sudo dmesg | grep NVRM` "
                "says which.", True),
    DriverError(re.compile(r"Failed to initialize NVML:\s*(?:N/A|Unknown Error)", re.IGNORECASE),
                "nvidia-smi could not reach the NVIDIA driver at all (NVML answered no version)",
                "In WSL 2: remove any Linux NVIDIA driver installed inside the distribution (WSL uses the Windows "
                "driver), update the Windows NVIDIA driver, then `wsl --update` and `wsl --shutdown`. In a container: "
                "start it with `--gpus all` again (a `systemctl daemon-reload` on the host can drop its device access).",
                False),
    DriverError(re.compile(r"Failed to initialize NVML:\s*GPU access blocked by the operating system", re.IGNORECASE),
                "the operating system keeps this environment from the GPU (in WSL 2: the Windows driver runs the GPU "
                "in TCC mode, the default for data-center GPUs on Windows Server, and WSL reaches WDDM-mode GPUs only)",
                "In an administrator PowerShell on the Windows host, switch the GPU to WDDM (`nvidia-smi -g 0 -dm 0`), "
                "reboot, then `wsl --shutdown`; data-center GPUs on Windows Server may need NVIDIA's WDDM-capable "
                "driver for them.", False),
    DriverError(re.compile(r"\bfallen off the bus\b", re.IGNORECASE),
                "the GPU fell off the PCIe bus and stopped answering the driver (Xid 79): no program can use it until "
                "the machine is power-cycled",
                "Power the machine off fully and back on. If it recurs, check the GPU's power and cooling (cables, PSU "
                "headroom, temperatures under load) and reseat the card; `sudo dmesg | grep -i xid` shows when it "
                "happens, and `nvidia-bug-report.sh` collects what NVIDIA support asks for.", True),
    DriverError(re.compile(r"\bcudaErrorInsufficientDriver\b|CUDA driver version is insufficient for CUDA runtime version"),
                "the NVIDIA driver is older than the CUDA runtime the program was built with",
                "Update the NVIDIA driver to one that supports this CUDA (NVIDIA's CUDA Toolkit release notes, table 3), "
                "or use a build of the program made for an older CUDA. In WSL 2 the driver is the Windows one: update it "
                "on Windows.", False),
    DriverError(re.compile(r"Kernel driver in use:\s*nouveau\b|\b(?:is|am|are|was)\s+(?:still\s+)?using\s+(?:the\s+)?"
                           r"(?:nouveau|open[- ]?source(?: nouveau)?)\s+driver\b"
                           r"|^\s*(?:\[[^\]]{1,40}\]\s*)?nouveau [0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.\d: ", re.IGNORECASE),
                "the GPU is bound to nouveau, the open-source driver, which has no CUDA: NVIDIA's driver is not in use",
                "Install NVIDIA's driver for this GPU (`sudo ubuntu-drivers install` on Ubuntu; on Pop!_OS `sudo apt "
                "install system76-driver-nvidia`), which blacklists nouveau, then reboot; `lspci -k` should then say "
                "'Kernel driver in use: nvidia'.", True),
    DriverError(re.compile(r"NVIDIA-SMI has failed because it couldn'?t communicate with the NVIDIA driver"
                           r"|\bnvml error: driver not loaded\b", re.IGNORECASE),  # nvidia-container-cli's words for it
                "the NVIDIA driver is not loaded",
                "Install the driver for this GPU (`sudo ubuntu-drivers install` on Ubuntu), make sure Secure Boot is "
                "not blocking its kernel module (enrol the MOK or sign it), then reboot.", False),
)


def driver_error(text: str) -> Optional[DriverError]:
    """The driver failure a line of nvidia-smi's output reports; None for anything else."""
    return next((error for error in DRIVER_ERRORS if error.pattern.search(text)), None)
