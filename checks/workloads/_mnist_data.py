"""MNIST for the verify workloads: IDX files (gz or raw), a slice of them, or generated digit-like
images (target interpreter; stdlib, Python 3.6+)."""
import gzip
import random
import struct

from _model_spec import BATCH

SYNTHETIC_IMAGES = 8192


def idx_payload(path):
    """IDX file (gz or raw) -> (dims, payload bytes); a bad or truncated file names itself."""
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, ValueError) as exc:
            raise ValueError("%s is not a complete gzip file: %s" % (path, exc))
    if len(data) < 4 or data[:3] != b"\x00\x00\x08":
        raise ValueError("%s is not an unsigned-byte IDX file" % path)
    ndim = data[3]
    if len(data) < 4 + 4 * ndim:
        raise ValueError("%s is truncated: its header is cut short" % path)
    dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    payload = data[4 + 4 * ndim:]
    expected = 1
    for dim in dims:
        expected *= dim
    if len(payload) != expected:
        raise ValueError("%s is truncated: %d bytes for dims %s" % (path, len(payload), dims))
    return dims, payload


def parse_slice(text, length):
    """"START:STOP" (either part may be empty) -> slice over `length` items."""
    start, _, stop = (text or ":").partition(":")
    return slice(int(start) if start else 0, int(stop) if stop else length)


def read_split(images, labels, where):
    """Two IDX files -> (pixels, labels, n) of the slice; mismatches name the files."""
    dims, pixels = idx_payload(images)
    ldims, labs = idx_payload(labels)
    if len(dims) != 3 or dims[1:] != (28, 28):
        raise ValueError("%s holds images of shape %s, not 28x28" % (images, dims[1:]))
    if len(ldims) != 1 or ldims[0] != dims[0]:
        raise ValueError("%s has %s labels for the %d images of %s" % (labels, ldims, dims[0], images))
    if labs and max(labs) > 9:
        raise ValueError("%s has a label %d: MNIST labels are 0-9" % (labels, max(labs)))
    part = parse_slice(where, dims[0])
    n = len(range(*part.indices(dims[0])))
    start = part.indices(dims[0])[0]
    return pixels[start * 784:(start + n) * 784], labs[start:start + n], n


def stroke_digit(rng):
    """One 28x28 uint8 image like an MNIST digit: 2-3 thick strokes in the centre 20x20 box,
    blank borders. Random pixels are no stand-in: they saturate the softmax and turn one FP32
    step's gradients into a sum of cancelling terms (seen: 1.2e-3 against float64, MNIST 3e-5)."""
    canvas = bytearray(784)
    for _ in range(rng.randint(2, 3)):
        x0, y0, x1, y1 = (rng.uniform(5, 22) for _ in range(4))
        bend_x, bend_y = rng.uniform(-6, 6), rng.uniform(-6, 6)
        for i in range(15):
            t = i / 14.0
            px = x0 + (x1 - x0) * t + bend_x * 4 * t * (1 - t)
            py = y0 + (y1 - y0) * t + bend_y * 4 * t * (1 - t)
            cx, cy = int(px), int(py)
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    value = 255 if dx == dy == 0 else (170 if dx == 0 or dy == 0 else 80)
                    at = (cy + dy) * 28 + cx + dx
                    canvas[at] = max(canvas[at], value)
    return bytes(canvas)


def synthetic_split(n=SYNTHETIC_IMAGES, seed=0):
    """--synthetic: BATCH generated digit-like images with random labels, repeated to n images.
    The first batch (the parity batch) is the generated one: deterministic on every machine."""
    rng = random.Random(seed)
    pixels = b"".join(stroke_digit(rng) for _ in range(BATCH))
    labels = bytes(rng.randrange(10) for _ in range(BATCH))
    reps = n // BATCH
    return pixels * reps, labels * reps, reps * BATCH
