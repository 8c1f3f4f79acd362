"""`yolo checks` (Ultralytics) prints torch's CUDA on a row of its own under the banner: 'CUDA                11.4'.
That row is torch.version.cuda (the CUDA torch was built with), not a toolkit's or the driver's, but only where the
text is that report: a banner ('Ultralytics 8.3.69 🚀 ... torch-...') or its 'Setup complete ✅' line above it.
Its 'CUDA                None' is printed where torch.cuda.is_available() is False (ultralytics/utils/checks.py,
collect_system_info: '"CUDA": torch.version.cuda if cuda else None')."""
from __future__ import annotations

import re
from typing import Dict, Sequence

from macml.probe.paste.statement_rules import Facts

_REPORT = re.compile(r"\bUltralytics\s+(?:YOLOv\d+\s+)?v?\d+\.\d+\.\d+\b.*\btorch[- ]\d|^\s*(?:[-*]\s+)?Setup complete ✅")
_SETUP_RAM = re.compile(r"^\s*(?:[-*]\s+)?Setup complete ✅ \(\d+ CPUs, (\d+(?:\.\d+)?) GB RAM\b")
_RAM_ROW = re.compile(r"^\s*RAM\s{2,}\d+\.\d\d GB\s*$")
_CUDA_ROW = re.compile(r"^\s*CUDA\s{2,}(\d{1,2}\.\d{1,2}|None)\s*$")


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    start = next((i for i, line in enumerate(lines) if _REPORT.search(line)), None)
    if start is None:
        return {}
    found: Dict[int, Facts] = {}
    precise = any(_RAM_ROW.match(line) for line in lines[start:start + 40])  # the report's own, finer 'RAM  14.54 GB'
    for index in [] if precise else range(start, min(len(lines), start + 4)):  # check_yolo's '(8 CPUs, 16.0 GB RAM, ...)'
        ram = _SETUP_RAM.search(lines[index])
        if ram:
            found[index] = [("cpu.memory_bytes", int(float(ram.group(1)) * 1024**3))]
            break
    for index in range(start + 1, min(len(lines), start + 40)):
        row = _CUDA_ROW.match(lines[index])
        if row:
            found[index] = ([("torch.cuda_available", False)] if row.group(1) == "None"
                            else [("torch.cuda_version", row.group(1))])
            break
    return found
