"""MNIST files: IDX parsing, the cache location, local directories, and real downloads
from a local HTTP server (good files, a corrupt file, a connection that breaks)."""
from __future__ import annotations

import gzip
import hashlib
import http.server
import json
import struct
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import SHARED_MNIST, load_check_script, local_http_server, needs_mnist
from macml.paths import user_cache_dir
from macml.errors import MacmlError
from macml.verify.mnist import (
    OFFLINE_TRAIN,
    PUBLISHED_MD5,
    fetch_file,
    local_files,
    parse_idx_header,
    resolve_mnist,
    validate_mnist,
)

def idx_bytes(dims, payload: bytes) -> bytes:
    return bytes([0, 0, 0x08, len(dims)]) + struct.pack(">" + "I" * len(dims), *dims) + payload


def parse_idx(data: bytes, tmp_path: Path):
    path = tmp_path / "file.idx"
    path.write_bytes(data)
    return load_check_script("workloads/_workload_common.py").idx_payload(str(path))


@pytest.mark.parametrize("data", [idx_bytes((3,), b"\x01\x02\x03"), gzip.compress(idx_bytes((3,), b"\x01\x02\x03"))],
                         ids=["raw", "gzip"])
def test_parse_idx_reads_dims_and_payload(data, tmp_path):
    assert parse_idx(data, tmp_path) == ((3,), b"\x01\x02\x03")


def test_parse_idx_header_of_images():
    header = parse_idx_header(idx_bytes((2, 28, 28), b""))
    assert header.dims == (2, 28, 28) and header.offset == 16 and header.payload_bytes == 2 * 784


@pytest.mark.parametrize("data, message", [
    (b"\x01\x00\x08\x01", "not an unsigned-byte IDX"),
    (bytes([0, 0, 0x0D, 1]) + struct.pack(">I", 1), "not an unsigned-byte IDX"),
    (bytes([0, 0, 8, 3]) + b"\x00\x00", "header is cut short"),
    (idx_bytes((4,), b"\x00\x01"), "truncated: 2 bytes"),
], ids=["bad-magic", "float-type", "short-header", "short-payload"])
def test_parse_idx_rejects_bad_files(data, message, tmp_path):
    with pytest.raises(ValueError, match=message):
        parse_idx(data, tmp_path)


def test_cache_dir_override():
    assert user_cache_dir("mnist", {"MACML_CACHE_DIR": "/tmp/c"}) == Path("/tmp/c/mnist")


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG rule is Linux's")
def test_cache_dir_follows_xdg_on_linux(monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", "/x")
    assert user_cache_dir("mnist", {}) == Path("/x/macml/mnist")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", "/home/u")
    assert user_cache_dir("mnist", {}) == Path("/home/u/.cache/macml/mnist")


def write_set(directory: Path, names, count=4):
    directory.mkdir(parents=True, exist_ok=True)
    for name in names:
        dims = (count, 28, 28) if "images" in name else (count,)
        data = idx_bytes(dims, bytes(count * (784 if "images" in name else 1)))
        (directory / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)


def test_local_test_split_alone_is_cut_8k_2k(tmp_path):
    write_set(tmp_path, ["t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"])
    files = local_files(tmp_path)
    assert not files.full
    assert files.train_images == files.test_images
    assert (files.train_slice, files.test_slice) == (f":{OFFLINE_TRAIN}", f"{OFFLINE_TRAIN}:")


def test_local_full_set_with_raw_and_dotted_names(tmp_path):
    write_set(tmp_path, ["train-images.idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                         "t10k-labels-idx1-ubyte.gz"])
    files = local_files(tmp_path)
    assert files.full and files.train_images.name == "train-images.idx3-ubyte"
    assert files.train_slice == ":" and files.source == "data-dir"


def test_local_directory_without_mnist_names_the_options(tmp_path):
    with pytest.raises(MacmlError) as err:
        local_files(tmp_path)
    assert "--synthetic" in err.value.hint


def test_local_file_that_is_not_idx_is_refused(tmp_path):
    write_set(tmp_path, ["t10k-labels-idx1-ubyte.gz"])
    (tmp_path / "t10k-images-idx3-ubyte.gz").write_bytes(gzip.compress(b"<html>not found</html>"))
    with pytest.raises(MacmlError, match="not a readable MNIST IDX file"):
        local_files(tmp_path)


@needs_mnist
def test_shared_test_split_is_real_mnist(tmp_path):
    images_dims, images = parse_idx((SHARED_MNIST / "t10k-images-idx3-ubyte.gz").read_bytes(), tmp_path)
    label_dims, labels = parse_idx((SHARED_MNIST / "t10k-labels-idx1-ubyte.gz").read_bytes(), tmp_path)
    assert images_dims == (10000, 28, 28) and label_dims == (10000,)
    raw_images = gzip.decompress((SHARED_MNIST / "t10k-images-idx3-ubyte.gz").read_bytes())
    assert hashlib.md5(raw_images).hexdigest() == "2646ac647ad5339dbf082846283269ea"
    assert list(labels[:10]) == [7, 2, 1, 0, 4, 1, 4, 9, 5, 9]
    assert Counter(labels)[1] == 1135


# --- downloads from a local server -------------------------------------------------------

FILES = {name: gzip.compress(idx_bytes((8,), bytes(range(8)))) + name.encode() for name in PUBLISHED_MD5}
SUMS = {name: hashlib.md5(data).hexdigest() for name, data in FILES.items()}


class MirrorHandler(http.server.BaseHTTPRequestHandler):
    """/good/NAME serves the file, /corrupt/NAME flips a byte, /broken/NAME stops halfway."""

    hits: Counter = Counter()

    def do_GET(self):
        kind, _, name = self.path.strip("/").partition("/")
        MirrorHandler.hits[kind] += 1
        if name not in FILES:
            self.send_error(404)
            return
        body = FILES[name]
        if kind == "corrupt":
            body = body[:-1] + bytes([body[-1] ^ 0xFF])
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if kind == "broken":
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    with local_http_server(MirrorHandler) as url:
        yield url


def fetch(server, tmp_path, kinds, **kw):
    mirrors = [f"{server}/{k}/" for k in kinds]
    return fetch_file("t10k-labels-idx1-ubyte.gz", tmp_path, mirrors, checksums=SUMS, timeout=5, **kw)


@pytest.mark.parametrize("kinds", [["good"], ["corrupt", "good"], ["broken", "good"], ["missing", "good"]],
                         ids=["good", "corrupt-then-good", "broken-then-good", "404-then-good"])
def test_download_falls_through_to_a_good_mirror(server, tmp_path, kinds):
    path = fetch(server, tmp_path, kinds)
    assert path.read_bytes() == FILES["t10k-labels-idx1-ubyte.gz"]
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary left behind


@pytest.mark.parametrize("kinds", [["corrupt"], ["broken"], ["corrupt", "broken"]],
                         ids=["corrupt", "broken", "corrupt-and-broken"])
def test_no_good_mirror_is_a_clear_error_and_leaves_no_file(server, tmp_path, kinds):
    with pytest.raises(MacmlError) as err:
        fetch(server, tmp_path, kinds)
    assert "--data-dir" in err.value.hint and "--synthetic" in err.value.hint
    assert list(tmp_path.iterdir()) == []


def test_cache_is_reused_and_a_corrupt_cache_entry_replaced(server, tmp_path):
    path = fetch(server, tmp_path, ["good"])
    before = MirrorHandler.hits["good"]
    assert fetch(server, tmp_path, ["good"]) == path
    assert MirrorHandler.hits["good"] == before  # reused, not downloaded
    path.write_bytes(b"garbage")
    assert fetch(server, tmp_path, ["good"]).read_bytes() == FILES[path.name]
    assert MirrorHandler.hits["good"] == before + 1


def test_resolve_downloads_all_four_and_reports_progress(server, tmp_path):
    seen = []
    files = resolve_mnist(None, [f"{server}/good/"], cache=tmp_path, checksums=SUMS, timeout=5,
                          progress=lambda name, done, total: seen.append((name, done, total)))
    assert files.source == "download" and files.full
    assert {p.name for p in tmp_path.iterdir()} == set(PUBLISHED_MD5)
    assert ("t10k-labels-idx1-ubyte.gz", len(FILES["t10k-labels-idx1-ubyte.gz"]),
            len(FILES["t10k-labels-idx1-ubyte.gz"])) in seen
    again = resolve_mnist(None, [f"{server}/corrupt/"], cache=tmp_path, checksums=SUMS)
    assert again.source == "cache"


def test_unreachable_mirror_gives_a_one_line_reason():
    import socket

    import requests

    from macml.verify.mnist import short_reason

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens here once the socket closes
    try:
        requests.get(f"http://127.0.0.1:{port}/x", timeout=5)
    except requests.RequestException as exc:
        assert short_reason(exc) == "cannot connect"
    else:
        raise AssertionError("expected a connection error")


# --- validation before any workload starts -------------------------------------------------

def valid_set(directory: Path, count=200):
    """A full, valid set of `count` images per file, gzip-compressed."""
    for stem, dims, unit in (("train-images-idx3-ubyte", (count, 28, 28), 784), ("train-labels-idx1-ubyte", (count,), 1),
                             ("t10k-images-idx3-ubyte", (count, 28, 28), 784), ("t10k-labels-idx1-ubyte", (count,), 1)):
        payload = bytes(i % 10 for i in range(count * unit))
        (directory / (stem + ".gz")).write_bytes(gzip.compress(idx_bytes(dims, payload)))


def spoil(directory: Path, defect: str) -> str:
    """Break one file of a valid set; returns the name the error must carry."""
    name = {"cut-gzip": "train-images-idx3-ubyte.gz", "count": "t10k-labels-idx1-ubyte.gz",
            "label-10": "train-labels-idx1-ubyte.gz", "14x14": "t10k-images-idx3-ubyte.gz",
            "short-payload": "train-labels-idx1-ubyte.gz", "few-images": "train-images-idx3-ubyte.gz"}[defect]
    path = directory / name
    if defect == "cut-gzip":
        path.write_bytes(path.read_bytes()[:-40])
    elif defect == "count":
        path.write_bytes(gzip.compress(idx_bytes((199,), bytes(199))))
    elif defect == "label-10":
        path.write_bytes(gzip.compress(idx_bytes((200,), bytes(199) + b"\x0a")))
    elif defect == "14x14":
        path.write_bytes(gzip.compress(idx_bytes((200, 14, 14), bytes(200 * 196))))
    elif defect == "short-payload":
        path.write_bytes(gzip.compress(idx_bytes((200,), bytes(150))))
    elif defect == "few-images":
        path.write_bytes(gzip.compress(idx_bytes((100, 28, 28), bytes(100 * 784))))
        (directory / "train-labels-idx1-ubyte.gz").write_bytes(gzip.compress(idx_bytes((100,), bytes(100))))
    return name


def test_a_valid_set_passes_validation(tmp_path):
    valid_set(tmp_path)
    validate_mnist(local_files(tmp_path))


@pytest.mark.parametrize("defect, message", [
    ("cut-gzip", "not a complete gzip file"), ("count", r"\(199,\) labels for the 200 images"),
    ("label-10", "a label 10: MNIST labels are 0-9"), ("14x14", r"shape \(14, 14\), not 28x28"),
    ("short-payload", "truncated: 150 bytes"), ("few-images", "fewer than one batch"),
])
def test_validation_names_the_defective_file(tmp_path, defect, message):
    valid_set(tmp_path)
    name = spoil(tmp_path, defect)
    with pytest.raises(MacmlError, match=message) as err:
        validate_mnist(local_files(tmp_path))
    assert name in err.value.message and err.value.exit_code == 2
    assert "--synthetic" in err.value.hint


def test_offline_cut_needs_test_images_past_the_cut(tmp_path):
    write_set(tmp_path, ["t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"], count=300)
    with pytest.raises(MacmlError, match="leaves no test images"):
        validate_mnist(local_files(tmp_path))


@needs_mnist
def test_shared_mnist_passes_validation():
    validate_mnist(local_files(SHARED_MNIST))


def test_cli_refuses_bad_data_before_any_workload(tmp_path):
    from conftest import run_macml
    valid_set(tmp_path)
    name = spoil(tmp_path, "label-10")
    proc = run_macml("verify", "--data-dir", str(tmp_path), "--device", "cpu", "--json")
    assert proc.returncode == 2 and name in json.loads(proc.stdout)["error"]


def test_a_gzip_bomb_is_refused_before_it_is_decompressed(tmp_path):
    """A few MB of gzip that inflate to 512 MiB behind a header declaring 10,000 images: read no further
    than the header declares."""
    import zlib

    from conftest import run_macml_measured

    valid_set(tmp_path)
    bomb = tmp_path / "t10k-images-idx3-ubyte.gz"
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip framing
    parts = [packer.compress(idx_bytes((10000, 28, 28), b""))]
    zeros = bytes(1 << 24)
    parts += [packer.compress(zeros) for _ in range(32)]
    bomb.write_bytes(b"".join(parts) + packer.flush())
    assert bomb.stat().st_size < 4 << 20
    run = run_macml_measured("verify", "--data-dir", tmp_path, "--device", "cpu", "--json")
    assert run["returncode"] == 2, run["stderr"][-2000:]
    assert "holds more than its header declares" in json.loads(run["stdout"])["error"]
    assert run["peak_mb"] < 250, run["peak_mb"]
