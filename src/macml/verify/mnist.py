"""MNIST for `macml verify`: local IDX files, or a checksummed download into the user cache.

A downloaded file is hashed while it streams into a temporary file beside its final name
and only renamed into place (os.replace) when its md5 matches the published one, so a
corrupt or partial file never carries the real name. Cached files are re-hashed on reuse.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import struct
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from macml.errors import MacmlError
from macml.paths import cache_problem, user_cache_dir

MIRRORS: Tuple[str, ...] = (
    "https://ossci-datasets.s3.amazonaws.com/mnist/",
    "https://storage.googleapis.com/cvdf-datasets/mnist/",
    "http://yann.lecun.com/exdb/mnist/",
)

# The md5 of each .gz file as published by the mirrors (the same values torchvision checks).
PUBLISHED_MD5: Dict[str, str] = {
    "train-images-idx3-ubyte.gz": "f68b3c2dcbeaaa9fbdd348bbdeb94873",
    "train-labels-idx1-ubyte.gz": "d53e105ee54ea40749a09fcbcd1e9432",
    "t10k-images-idx3-ubyte.gz": "9fb629c4189551a2d022fa330f9573f3",
    "t10k-labels-idx1-ubyte.gz": "ec29112dd5afa0611ce80d1b7f02629c",
}

# Names a local directory may use for each file: canonical, uncompressed, and the dotted
# spelling some re-distributions use.
_STEMS = {
    "train_images": "train-images-idx3-ubyte",
    "train_labels": "train-labels-idx1-ubyte",
    "test_images": "t10k-images-idx3-ubyte",
    "test_labels": "t10k-labels-idx1-ubyte",
}
OFFLINE_TRAIN = 8000
TRAIN_BATCH = 128
_DATA_HINT = "Replace the file (or delete it from the cache to download it again), or use --synthetic for a speed-only run."  # the 10k test split alone is cut 8,000 train / 2,000 test

ProgressFn = Callable[[str, int, Optional[int]], None]  # (file name, bytes so far, total or None)


@dataclass(frozen=True)
class MnistFiles:
    """IDX paths the workload reads, plus which part of each file is train and test."""

    train_images: Path
    train_labels: Path
    test_images: Path
    test_labels: Path
    train_slice: str = ":"
    test_slice: str = ":"
    source: str = "cache"  # "cache", "download" or "data-dir"
    full: bool = True  # the 60k/10k split; False: the 8k/2k cut of t10k

    @property
    def description(self) -> str:
        split = "MNIST 60k train / 10k test" if self.full else "MNIST test split cut 8k train / 2k test"
        return f"{split} ({self.source}: {self.train_images.parent})"


@dataclass(frozen=True)
class IdxHeader:
    dims: Tuple[int, ...]
    offset: int  # where the payload starts

    @property
    def payload_bytes(self) -> int:
        size = 1
        for d in self.dims:
            size *= d
        return size


def parse_idx_header(data: bytes) -> IdxHeader:
    """The header of an unsigned-byte IDX file (already decompressed)."""
    if len(data) < 4 or data[0] != 0 or data[1] != 0:
        raise ValueError("not an IDX file (bad magic number)")
    if data[2] != 0x08:
        raise ValueError(f"IDX element type 0x{data[2]:02x} is not unsigned byte")
    ndim = data[3]
    if len(data) < 4 + 4 * ndim:
        raise ValueError("IDX header is truncated")
    dims = struct.unpack(">" + "I" * ndim, data[4 : 4 + 4 * ndim])
    return IdxHeader(tuple(dims), 4 + 4 * ndim)


def read_idx_header(path: Path) -> IdxHeader:
    with open(path, "rb") as fh:
        magic = fh.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    try:
        with opener(path, "rb") as fh:
            return parse_idx_header(fh.read(64))
    except (OSError, EOFError, ValueError) as exc:
        raise MacmlError(f"{path} is not a readable MNIST IDX file: {exc}") from None


# The most payload an IDX file may declare: MNIST's train images are 47 MB, EMNIST's largest split
# 547 MB. A header past this is refused before anything is decompressed.
MAX_IDX_BYTES = 1 << 30
_CHUNK = 1 << 20


def _open_idx(path: Path):
    with open(path, "rb") as fh:
        gzipped = fh.read(2) == b"\x1f\x8b"
    return gzip.open(path, "rb") if gzipped else open(path, "rb")


def _read_declared(fh, header: IdxHeader, values: bool) -> Tuple[int, int, bool]:
    """(payload bytes read, the largest byte value among them (when values) or -1, whether anything follows them):
    never more than the header declares plus one byte, in chunks, so a gzip bomb is caught after what
    it claims to hold and memory stays at one chunk."""
    size, largest = 0, -1
    while size < header.payload_bytes:
        chunk = fh.read(min(_CHUNK, header.payload_bytes - size))
        if not chunk:
            break
        size += len(chunk)
        largest = max(largest, max(chunk)) if values else largest
    return size, largest, bool(fh.read(1))


def read_idx(path: Path, values: bool = False) -> Tuple[IdxHeader, int]:
    """An IDX file (gz or raw) -> its header and, when values, the largest value in its payload (else
    -1, as when empty); any defect is a MacmlError naming the file."""
    try:
        with _open_idx(path) as fh:
            head = fh.read(4)
            header = parse_idx_header(head + fh.read(4 * head[3]) if len(head) == 4 else head)
            if header.payload_bytes > MAX_IDX_BYTES:
                raise ValueError(f"its header declares dims {header.dims}: {header.payload_bytes:,} bytes, more "
                                 f"than the {MAX_IDX_BYTES >> 20} MiB macml reads")
            size, largest, more = _read_declared(fh, header, values)
    except (OSError, EOFError, zlib.error) as exc:
        raise MacmlError(f"{path} is not a complete gzip file: {exc}", hint=_DATA_HINT) from None
    except ValueError as exc:
        raise MacmlError(f"{path} is not a readable MNIST IDX file: {exc}", hint=_DATA_HINT) from None
    if size != header.payload_bytes:
        raise MacmlError(f"{path} is truncated: {size} bytes for dims {header.dims}", hint=_DATA_HINT)
    if more:
        raise MacmlError(f"{path} holds more than its header declares (dims {header.dims}): not an MNIST file "
                         "as written", hint=_DATA_HINT)
    return header, largest


def _slice_length(text: str, n: int) -> int:
    start, _, stop = text.partition(":")
    return len(range(n)[slice(int(start) if start else None, int(stop) if stop else None)])


def validate_pair(images: Path, labels: Path, train_slice: str, test_slice: str) -> None:
    """One images/labels pair: 28x28 images, one label 0-9 per image, a batch to train and images to test."""
    (image_header, _), (label_header, largest_label) = read_idx(images), read_idx(labels, values=True)
    dims = image_header.dims
    if len(dims) != 3 or dims[1:] != (28, 28):
        raise MacmlError(f"{images} holds images of shape {dims[1:]}, not 28x28.", hint=_DATA_HINT)
    if label_header.dims != (dims[0],):
        raise MacmlError(f"{labels} has {label_header.dims} labels for the {dims[0]} images of {images}.",
                         hint=_DATA_HINT)
    if largest_label > 9:
        raise MacmlError(f"{labels} has a label {largest_label}: MNIST labels are 0-9.", hint=_DATA_HINT)
    if train_slice and _slice_length(train_slice, dims[0]) < TRAIN_BATCH:
        raise MacmlError(f"{images} has {_slice_length(train_slice, dims[0])} training images "
                         f"({train_slice!r} of {dims[0]}): fewer than one batch of {TRAIN_BATCH}.", hint=_DATA_HINT)
    if test_slice and _slice_length(test_slice, dims[0]) < 1:
        raise MacmlError(f"{images} leaves no test images ({test_slice!r} of {dims[0]}).", hint=_DATA_HINT)


def validate_mnist(files: MnistFiles) -> None:
    """Every file complete and consistent, before any workload starts (each workload keeps a minimal guard)."""
    if files.train_images == files.test_images:
        validate_pair(files.train_images, files.train_labels, files.train_slice, files.test_slice)
        return
    validate_pair(files.train_images, files.train_labels, files.train_slice, "")
    validate_pair(files.test_images, files.test_labels, "", files.test_slice)


def _find(directory: Path, stem: str) -> Optional[Path]:
    dotted = stem.replace("-idx", ".idx")
    for name in (stem + ".gz", stem, dotted, dotted + ".gz"):
        if (directory / name).is_file():
            return directory / name
    return None


def local_files(directory: Path) -> MnistFiles:
    """IDX files in a user's directory: the full 60k/10k set, or t10k alone (cut 8k/2k)."""
    if not directory.is_dir():
        raise MacmlError(f"--data-dir {directory} is not a directory.")
    found = {key: _find(directory, stem) for key, stem in _STEMS.items()}
    if not (found["test_images"] and found["test_labels"]):
        raise MacmlError(
            f"No MNIST test files (t10k-images-idx3-ubyte[.gz], t10k-labels-idx1-ubyte[.gz]) in {directory}.",
            hint="Point --data-dir at a folder holding the IDX files, or use --synthetic for a speed-only run.",
        )
    for path in found.values():
        if path is not None:
            read_idx_header(path)
    if found["train_images"] and found["train_labels"]:
        return MnistFiles(found["train_images"], found["train_labels"], found["test_images"],
                          found["test_labels"], source="data-dir", full=True)
    t_img, t_lab = found["test_images"], found["test_labels"]
    return MnistFiles(t_img, t_lab, t_img, t_lab, f":{OFFLINE_TRAIN}", f"{OFFLINE_TRAIN}:",
                      source="data-dir", full=False)


def md5_of(path: Path) -> str:
    digest = hashlib.md5()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _fetch(url: str, dest: Path, expected_md5: str, progress: Optional[ProgressFn], timeout: float) -> None:
    """Stream url into a temp file beside dest; rename into place only when the md5 matches."""
    import requests

    fd, tmp_name = tempfile.mkstemp(prefix=dest.name + ".", suffix=".part", dir=dest.parent)
    tmp = Path(tmp_name)
    try:
        digest, done = hashlib.md5(), 0
        with os.fdopen(fd, "wb") as out, requests.get(url, stream=True, timeout=timeout) as resp:
            resp.raise_for_status()
            total = int(resp.headers["Content-Length"]) if resp.headers.get("Content-Length", "").isdigit() else None
            for chunk in resp.iter_content(chunk_size=1 << 16):
                out.write(chunk)
                digest.update(chunk)
                done += len(chunk)
                if progress:
                    progress(dest.name, done, total)
        if digest.hexdigest() != expected_md5:
            raise ValueError(f"checksum mismatch (md5 {digest.hexdigest()}, expected {expected_md5})")
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)


def fetch_file(name: str, dest_dir: Path, mirrors: Sequence[str], progress: Optional[ProgressFn] = None,
               timeout: float = 30.0, checksums: Mapping[str, str] = PUBLISHED_MD5) -> Path:
    """A cached, checksum-verified copy of one MNIST file, downloaded from the first mirror that works."""
    import requests

    dest = dest_dir / name
    expected = checksums[name]
    if dest.is_file():
        if md5_of(dest) == expected:
            return dest
        dest.unlink()  # corrupt cache entry: never used, fetched again
    dest_dir.mkdir(parents=True, exist_ok=True)
    failures: List[str] = []
    for base in mirrors:
        url = base.rstrip("/") + "/" + name
        try:
            _fetch(url, dest, expected, progress, timeout)
            return dest
        except (requests.RequestException, ValueError, OSError) as exc:
            failures.append(f"{url}: {short_reason(exc)}")
    raise MacmlError(
        f"Could not download {name} from any MNIST mirror:\n  " + "\n  ".join(failures),
        hint="Offline? Pass --data-dir DIR with the MNIST IDX files (gz or raw), "
        "or --synthetic for a speed-only run with no accuracy claim.",
    )


def short_reason(exc: BaseException) -> str:
    """One line a person can act on, instead of urllib3's nested retry message."""
    import requests

    if isinstance(exc, requests.ConnectionError):
        text = str(exc)
        if "NameResolutionError" in text or "Name or service not known" in text or "nodename nor servname" in text:
            return "cannot resolve the host (no network?)"
        if "timed out" in text.lower():
            return "connection timed out"
        return "cannot connect"
    if isinstance(exc, requests.Timeout):
        return "timed out"
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__


def resolve_mnist(data_dir: Optional[Path] = None, mirrors: Sequence[str] = MIRRORS, cache: Optional[Path] = None,
                  progress: Optional[ProgressFn] = None, timeout: float = 30.0,
                  checksums: Mapping[str, str] = PUBLISHED_MD5) -> MnistFiles:
    """--data-dir if given; else the cache, downloading what is missing or corrupt."""
    if data_dir is not None:
        return local_files(Path(data_dir))
    cache = cache or user_cache_dir("mnist")
    fresh = any(not (cache / name).is_file() for name in PUBLISHED_MD5)
    problem = cache_problem(cache) if fresh else None
    if problem:
        raise MacmlError(f"Cannot download MNIST into the cache: {problem}.",
                         "Set MACML_CACHE_DIR to a writable folder, pass --data-dir DIR with the MNIST IDX files, "
                         "or use --synthetic for a speed-only run.")
    paths = {name: fetch_file(name, cache, mirrors, progress, timeout, checksums) for name in PUBLISHED_MD5}
    return MnistFiles(
        paths["train-images-idx3-ubyte.gz"], paths["train-labels-idx1-ubyte.gz"],
        paths["t10k-images-idx3-ubyte.gz"], paths["t10k-labels-idx1-ubyte.gz"],
        source="download" if fresh else "cache", full=True,
    )
