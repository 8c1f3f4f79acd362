"""Ubuntu release -> the kernel series it ships as its own (GA) kernel. Pure data.

Source: Ubuntu's kernel release cycle (ubuntu.com/kernel/lifecycle, wiki.ubuntu.com/Kernel/Support and each
release's notes): 16.04 ships 4.4, 18.04 4.15, 20.04 5.4, 22.04 5.15, 24.04 6.8, and each interim release its
own series. Ubuntu stamps its kernels '#63-Ubuntu' in their version string; a kernel backported to an older
LTS (HWE) is stamped '#63~20.04.1-Ubuntu' instead, so only an unstamped-by-'~' Ubuntu build of a series
below is that release's own kernel.
"""
from __future__ import annotations

from typing import Optional

GA_KERNELS = {
    "4.4.0": "16.04", "4.10.0": "17.04", "4.13.0": "17.10", "4.15.0": "18.04", "4.18.0": "18.10",
    "5.0.0": "19.04", "5.3.0": "19.10", "5.4.0": "20.04", "5.8.0": "20.10", "5.11.0": "21.04", "5.13.0": "21.10",
    "5.15.0": "22.04", "5.19.0": "22.10", "6.2.0": "23.04", "6.5.0": "23.10", "6.8.0": "24.04", "6.11.0": "24.10",
    "6.14.0": "25.04", "6.17.0": "25.10",
}


def ubuntu_release_of_kernel(series: str) -> Optional[str]:
    """'5.15.0' -> '22.04'; None for a series no Ubuntu release ships as its own."""
    return GA_KERNELS.get(series.strip())
