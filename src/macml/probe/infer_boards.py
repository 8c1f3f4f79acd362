"""The GPU a single-board computer's name or kernel implies: a Raspberry Pi without a PCIe slot has only its SoC's
VideoCore, which no ML framework drives, so its GPU list is known and holds that one GPU."""
from __future__ import annotations

from typing import Any, Dict, Mapping, Tuple

from macml.facts import GPU, MachineFacts
from macml.knowledge.hardware import RASPBERRY_PI_GPU, raspberry_pi_kernel


def raspberry_pi_gpu(facts: MachineFacts, snapshot: Mapping[str, Any], sources: Dict[str, str]) -> Tuple[GPU, ...]:
    """A Raspberry Pi kernel ('6.6.31+rpt-rpi-v8') or a text that names only boards without PCIe ('Raspberry Pi 4
    8gb'; not where it also names a Pi 5, which takes a graphics card): the VideoCore is the machine's GPU."""
    if facts.platform != "linux" or facts.gpus:
        return facts.gpus
    if raspberry_pi_kernel(facts.os.kernel):
        sources["gpus.0"] = f"Raspberry Pi kernel {facts.os.kernel}: the board's GPU is its SoC's VideoCore"
        return (GPU(vendor="Broadcom", model=RASPBERRY_PI_GPU, integrated=True),)
    boards = [s for s in snapshot.get("statements") or () if s.get("fact") == "board"]
    if not boards or any(s["value"].get("pcie") is not False for s in boards):
        return facts.gpus
    said = boards[0]
    sources["gpus.0"] = (f"{said['value']['name']} has no PCIe slot: its GPU is its SoC's VideoCore "
                         f"(line {said.get('line')}: {str(said.get('text'))[:120]})")
    return (GPU(vendor="Broadcom", model=RASPBERRY_PI_GPU, integrated=True),)
