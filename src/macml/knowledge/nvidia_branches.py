"""The CUDA version each NVIDIA driver branch supports, as nvidia-smi's header prints it ('CUDA Version: 12.2').

Every driver of one branch (R535: 535.54.03 ... 535.247.01) reports the same CUDA version, the one the toolkit
that shipped with the branch's first release targets; so a printed driver version fixes the driver's CUDA
version the way a GPU name fixes its compute capability. Sources: the CUDA Toolkit release notes, Table 3
(https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/, each toolkit's GA driver names its branch), and the
nvidia-smi headers users paste (535.x 'CUDA Version: 12.2', 550.x '12.4', 570.x '12.8').

Only branches with one CUDA version are listed: R430 printed 10.1 on some releases and 10.2 on others. Drivers
before R410 did not print one; R384 (CUDA 9.0's GA driver, 384.81) and R396 (CUDA 9.2's, 396.26) are the ones of
that time whose CUDA the same Table 3 fixes (R387/R390 straddle 9.0 and 9.1). A Windows driver numbered in a listed branch (535.98, 560.94) is that
branch's; Windows' own numbers (536.x, 551.x) are not looked up. `nvidia_version` turns the DirectX spelling
Windows tools print ('31.0.15.5161') into NVIDIA's ('551.61').
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

NOTES = "CUDA toolkit release notes, Table 3 (toolkit GA driver per branch)"


@dataclass(frozen=True)
class DriverBranch:
    branch: int  # the driver version's first number: 535 for 535.161.08
    cuda: str  # the CUDA version every driver of the branch supports


BRANCHES = tuple(DriverBranch(b, c) for b, c in (
    (384, "9.0"), (396, "9.2"), (410, "10.0"), (418, "10.1"), (440, "10.2"), (450, "11.0"), (455, "11.1"), (460, "11.2"), (465, "11.3"),
    (470, "11.4"), (495, "11.5"), (510, "11.6"), (515, "11.7"), (520, "11.8"), (525, "12.0"), (530, "12.1"),
    (535, "12.2"), (545, "12.3"), (550, "12.4"), (555, "12.5"), (560, "12.6"), (565, "12.7"), (570, "12.8"),
    (575, "12.9"), (580, "13.0"), (590, "13.1"), (595, "13.2"),
))
_BY_BRANCH = {b.branch: b.cuda for b in BRANCHES}
# a Linux-style driver version: '535.161.08', '570.144', '470.82.01'
_DRIVER = re.compile(r"^(\d{3})\.\d{2,3}(?:\.\d{1,2})?$")


def driver_cuda_version(driver: str) -> Optional[str]:
    """'535.161.08' -> '12.2'; '570.144' -> '12.8'; '430.40' (a branch of two) -> None; '31.0.15.5161' -> None."""
    found = _DRIVER.match(driver.strip())
    return _BY_BRANCH.get(int(found.group(1))) if found else None


# Windows names an NVIDIA driver by its DirectX driver version, 'aa.bb.1X.YYYY' (Device Manager, dxdiag, WMI's
# DriverVersion); NVIDIA's own number is the last five digits, 'XYY.YY': 32.0.15.8180 is 581.80, 31.0.15.3623 is
# 536.23 (NVIDIA's driver release notes print both, e.g. "Windows driver version 581.80 ... 32.0.15.8180").
_WINDOWS_VERSION = re.compile(r"^\d{2}\.\d{1,2}\.1(\d)\.(\d{2})(\d{2})$")


# Vulkan's driverVersion of NVIDIA's Windows driver 551.92, unpacked as major.minor.patch, reads '551.92.0'; NVIDIA's
# own three-part Linux numbers pad the third ('535.104.05', '470.42.01'), so a lone '.0' is only ever that padding.
_VULKAN_WINDOWS = re.compile(r"^(\d{3}\.\d{2})\.0$")


def nvidia_version(driver: str) -> str:
    """'32.0.15.8180' -> '581.80'; '551.92.0' (Vulkan's) -> '551.92'; any other spelling unchanged."""
    found = _WINDOWS_VERSION.match(driver.strip())
    vulkan = _VULKAN_WINDOWS.match(driver.strip())
    return f"{found.group(1)}{found.group(2)}.{found.group(3)}" if found else vulkan.group(1) if vulkan else driver
