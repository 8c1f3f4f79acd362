"""A Markdown table whose header row names the columns and whose one data row describes this machine (XcodeBenchmark's
'Device | CPU | RAM | SSD | HDD | Xcode | macOS | ...' then 'MacBook Pro 13" 2020 | Apple M1 8-core | 8 | ...'): each
cell read as 'Header: cell', as if the writer had typed it so. A table of two columns is a key | value list, which
key_value reads row by row; a table of several data rows lists several machines (a benchmark's results), so only a
table with a single data row is read.
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

_SEPARATOR_CELL = re.compile(r"^\s*:?-{2,}:?\s*$")
_BARE_SIZE = re.compile(r"^\s*(\d{1,4})\s*$")
_MEMORY_HEADERS = ("ram", "memory", "ram (gb)", "memory (gb)")


def _cells(line: str) -> List[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _is_separator(line: str) -> bool:
    cells = _cells(line) if "|" in line else []
    return len(cells) >= 3 and all(_SEPARATOR_CELL.match(cell) for cell in cells)


def _as_line(header: str, cell: str) -> str:
    """'RAM', '8' -> 'RAM: 8 GB' (a bare number in a RAM column counts gigabytes); 'macOS', '11.0.1' -> 'macOS: 11.0.1'."""
    size = _BARE_SIZE.match(cell)
    if size and header.strip().lower() in _MEMORY_HEADERS:
        cell = f"{size.group(1)} GB"
    return f"{header}: {cell}"


def header_table_rows(lines: Sequence[str]) -> Dict[int, List[str]]:
    """line index of a one-row table's data row -> its cells as 'Header: cell' lines."""
    found: Dict[int, List[str]] = {}
    for index in range(1, len(lines) - 1):
        if not _is_separator(lines[index]):
            continue
        headers, row = _cells(lines[index - 1]), lines[index + 1]
        after = lines[index + 2] if index + 2 < len(lines) else ""
        if "|" not in row or "|" in after or len(headers) < 3:
            continue
        cells = _cells(row)
        if 2 <= len(cells) <= len(headers):  # a row may leave its last cells out
            found[index + 1] = [_as_line(h, c) for h, c in zip(headers, cells) if h and c]
    return found
