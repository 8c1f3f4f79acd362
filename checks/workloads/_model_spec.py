"""The one model every verify workload implements: Keras' mnist_cnn, as data (stdlib, Python 3.6+).

conv 3x3 1->32 relu, conv 3x3 32->64 relu, maxpool 2, dropout 0.25, flatten, dense 9216->128
relu, dropout 0.5, dense 128->10 (logits), softmax cross-entropy, Adadelta(lr 1.0, rho 0.95,
epsilon 1e-7), batch 128. Kernels start Glorot-uniform and biases at zero, as Keras draws them.

Weights are exchanged in Keras' layout (the canonical one): conv kernels (kh, kw, in, out),
dense kernels (in, out), the flatten in (height, width, channels) order. Each workload
converts to its framework's layout. The initial weights are one fixed draw (seeded, the same
on every machine), readable from and writable to a NumPy .npz with the stdlib alone.
"""
import array
import json
import random
import struct
import sys
import zipfile

BATCH = 128
ADADELTA = {"learning_rate": 1.0, "rho": 0.95, "epsilon": 1e-7}
DROPOUT = (0.25, 0.5)
SHAPES = (
    ("conv1_kernel", (3, 3, 1, 32)), ("conv1_bias", (32,)),
    ("conv2_kernel", (3, 3, 32, 64)), ("conv2_bias", (64,)),
    ("dense1_kernel", (9216, 128)), ("dense1_bias", (128,)),
    ("dense2_kernel", (128, 10)), ("dense2_bias", (10,)),
)
PARAMETERS = 1199882
SEED = 1


def size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def glorot_limit(shape):
    """Keras' glorot_uniform: sqrt(6 / (fan_in + fan_out)), receptive field included."""
    receptive = size(shape[:-2])
    return (6.0 / (shape[-2] * receptive + shape[-1] * receptive)) ** 0.5


def initial_weights(seed=SEED):
    """[(name, shape, array('f'))] in Keras layout: Glorot kernels, and small non-zero biases.

    Training zeroes the biases (see `training_weights`); the parity step keeps them, because
    zero biases put blank MNIST borders exactly on the ReLU kink, where frameworks' derivatives
    legitimately differ."""
    rng = random.Random(seed)
    out = []
    for name, shape in SHAPES:
        if len(shape) > 1:
            limit = glorot_limit(shape)
            values = [rng.uniform(-limit, limit) for _ in range(size(shape))]
        else:
            values = [rng.uniform(0.01, 0.1) * rng.choice((-1.0, 1.0)) for _ in range(size(shape))]
        out.append((name, shape, array.array("f", values)))
    return out


def training_weights(weights):
    """The Keras start: the same kernels, zero biases."""
    return [(n, s, v if len(s) > 1 else array.array("f", bytes(4 * len(v)))) for n, s, v in weights]


def _npy_bytes(shape, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % (tuple(shape),)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    data = values if sys.byteorder == "little" else array.array("f", values)
    if sys.byteorder != "little":
        data.byteswap()
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + data.tobytes()


def write_npz(path, weights):
    with zipfile.ZipFile(path, "w") as zf:
        for name, shape, values in weights:
            zf.writestr(name + ".npy", _npy_bytes(shape, values))


def _parse_npy(blob, where):
    if blob[:6] != b"\x93NUMPY":
        raise ValueError("%s is not a .npy array" % where)
    length = struct.unpack("<H", blob[8:10])[0] if blob[6] == 1 else struct.unpack("<I", blob[8:12])[0]
    start = 10 if blob[6] == 1 else 12
    header = blob[start:start + length].decode("latin1")
    meta = json.loads(header.replace("'", '"').replace("(", "[").replace(")", "]").replace("False", "false")
                      .replace(", }", "}").replace(",]", "]").replace(", ]", "]"))
    if meta["descr"] != "<f4" or meta["fortran_order"]:
        raise ValueError("%s: want little-endian float32 in C order, got %s" % (where, header.strip()))
    values = array.array("f")
    values.frombytes(blob[start + length:])
    if sys.byteorder != "little":
        values.byteswap()
    return tuple(meta["shape"]), values


def read_npz(path):
    """The weights of a .npz in SHAPES order; a missing array or a wrong shape is a clear error."""
    with zipfile.ZipFile(path) as zf:
        out = []
        for name, shape in SHAPES:
            try:
                got, values = _parse_npy(zf.read(name + ".npy"), "%s:%s" % (path, name))
            except KeyError:
                raise ValueError("%s has no array %s" % (path, name))
            if tuple(got) != shape:
                raise ValueError("%s: %s has shape %s, the model needs %s" % (path, name, got, shape))
            out.append((name, shape, values))
    return out


def load_weights(path=None):
    return read_npz(path) if path else initial_weights()


if __name__ == "__main__":  # python _model_spec.py OUT.npz: write the initial weights once
    write_npz(sys.argv[1], initial_weights())
