"""What a plan would download: the files pip's `--report` names, with their sizes.

pip's report gives each file's URL but not its size: a local file (file://) is measured on disk, a
remote one asked with HEAD (Content-Length, redirects followed), a few at a time. A size that
cannot be had stays unknown and is shown as such, never guessed.
"""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Optional, Sequence, Tuple

import requests

from macml.recipes.client import local_path

HEAD_TIMEOUT = 10.0
# The GPU libraries PyPI's CUDA builds of torch (and jax[cuda], tensorflow[and-cuda]) pull in.
CUDA_PREFIXES = ("nvidia-", "nvidia_", "cuda-", "cuda_", "triton")


@dataclass(frozen=True)
class Download:
    name: str
    version: str
    url: str = ""
    size: Optional[int] = None  # bytes; None: unknown

    @property
    def local(self) -> bool:
        return self.url.startswith("file:")

    @property
    def cuda(self) -> bool:
        return self.name.lower().startswith(CUDA_PREFIXES)


def parse_report(stdout: str) -> Tuple[Download, ...]:
    """pip's --report JSON -> the packages it would install, with the URL of each file."""
    start = stdout.find("{")
    if start < 0:
        raise ValueError("no JSON report in pip's output")
    report = json.loads(stdout[start:])
    picked = []
    for item in report.get("install") or []:
        meta = item.get("metadata") or {}
        url = str((item.get("download_info") or {}).get("url", ""))
        picked.append(Download(str(meta.get("name", "?")), str(meta.get("version", "?")), url))
    return tuple(picked)


def file_size(url: str) -> Optional[int]:
    if url.startswith("file:"):
        try:
            return local_path(url).stat().st_size
        except OSError:
            return None
    if not url.startswith(("http://", "https://")):
        return None
    try:
        response = requests.head(url, allow_redirects=True, timeout=HEAD_TIMEOUT)
        length = response.headers.get("Content-Length")
        return int(length) if response.ok and length and length.isdigit() else None
    except requests.RequestException:
        return None


def with_sizes(downloads: Sequence[Download], network: bool = True, workers: int = 8) -> Tuple[Download, ...]:
    """The same downloads with their sizes; network=False (--offline) measures local files only."""
    wanted = [d for d in downloads if d.local or network]
    if not wanted:
        return tuple(downloads)
    with ThreadPoolExecutor(max_workers=min(workers, len(wanted))) as pool:
        sizes = dict(zip((d.url for d in wanted), pool.map(file_size, (d.url for d in wanted))))
    return tuple(replace(d, size=sizes.get(d.url)) for d in downloads)


def format_size(count: int) -> str:
    """Decimal units, as pip shows download sizes: 2.9 GB, 195.3 MB, 16 kB."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{max(count // 1000, 1)} kB"


def total(downloads: Sequence[Download]) -> Tuple[int, int]:
    """(bytes known, files whose size is unknown)."""
    return sum(d.size or 0 for d in downloads), sum(1 for d in downloads if d.size is None)


def summary(downloads: Sequence[Download]) -> str:
    """'2.9 GB to download (31 files); 12.0 MB from local files; size unknown for 1 file'."""
    remote = [d for d in downloads if d.url and not d.local]
    local = [d for d in downloads if d.local]
    parts = []
    for group, what in ((remote, "to download"), (local, "from local files")):
        known, unknown = total(group)
        if group and known:
            parts.append(f"{format_size(known)} {what} ({len(group)} file{'s' * (len(group) != 1)})")
        if unknown:
            parts.append(f"size unknown for {unknown} file{'s' * (unknown != 1)} {what}")
    return "; ".join(parts)
