"""The fields of a struct printed with Rust's Debug format, as Bevy logs its system: 'SystemInfo { os: "MacOS 12.7 ",
kernel: "21.6.0", cpu: "Intel(R) Core(TM) i7-4770HQ CPU @ 2.20GHz", core_count: "4", memory: "16.0 GiB" }'. Each
quoted field is a (key, value) pair the keyed rules read like any 'key: value' line."""
from __future__ import annotations

import re
from typing import List, Tuple

# a struct named for the machine (not an adapter or a device, whose 'name' is a GPU's, not the machine's)
_STRUCT = re.compile(r"\b(?:SystemInfo|System|Host|Machine|Platform)\s*\{([^{}]+)\}")
_FIELD = re.compile(r"\b([a-z][a-z_]{1,30}):\s*\"([^\"]*)\"")


def struct_pairs(line: str) -> List[Tuple[str, str]]:
    found = _STRUCT.search(line)
    if not found:
        return []
    return [(key.replace("_", " "), value.strip()) for key, value in _FIELD.findall(found.group(1)) if value.strip()]


# scooby's report (pyvista.Report(), scooby.Report()) sets some versions' fields value first, padded to a column:
# '   7.7 GB : RAM', '     Linux : OS' (github.com/banesullivan/scooby, Report.__repr__); only its own field names
_SCOOBY_REVERSED = re.compile(r"^\s*(\S.*?) : (OS|CPU\(s\)|Machine|Architecture|RAM|Environment|GPU Vendor|GPU Renderer|"
                              r"GPU Version|GPU Details)\s*$")


def scooby_pairs(line: str) -> List[Tuple[str, str]]:
    found = _SCOOBY_REVERSED.match(line)
    return [(found.group(2).lower(), found.group(1).strip())] if found else []
