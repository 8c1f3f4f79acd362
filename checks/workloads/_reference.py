"""One training step of the spec'd model in float64: the reference every parity check and the
cross-framework test compare with (target interpreter; stdlib + one array library).

The step is written once against a few array operations (`ArrayOps`), so each workload computes
it in an array library its framework already brings: NumPy (TensorFlow, JAX and PlaidML's Keras
depend on it), torch's own float64 on the CPU, or MLX's float64 on its CPU stream. No framework
needs NumPy installed just for this.

Weights and gradients are in Keras' layout (see _model_spec); dropout is off.
"""
import array
import contextlib
import math


class ArrayOps:
    """The operations the reference step needs, for a NumPy-like namespace `xp` (numpy, mlx.core)."""

    def __init__(self, xp, name):
        self.xp, self.name = xp, name  # name: what the reference was computed in, e.g. "numpy-float64"
        self.f32, self.f64 = xp.float32, xp.float64

    def cast(self, x, dtype=None):
        return x.astype(self.f64 if dtype is None else dtype)

    def context(self):
        return contextlib.ExitStack()  # an empty one: nullcontext is Python 3.7+, PlaidML runs on 3.6

    def floats(self, values, shape):
        """float32 values (array('f'), bytes) -> a float64 array of that shape."""
        return self.xp.frombuffer(values, dtype=self.xp.float32).astype(self.f64).reshape(shape)

    def batch(self, pixels, labels):
        """uint8 pixel and label bytes -> (x (N,28,28,1): float32 /255 then float64, int labels)."""
        xp = self.xp
        x = (xp.frombuffer(pixels, dtype=xp.uint8).astype(xp.float32) / 255.0).astype(self.f64)
        return x.reshape(-1, 28, 28, 1), xp.frombuffer(labels, dtype=xp.uint8).astype(xp.int64)

    def host(self, value):
        """A framework's output (any array it returns) -> a float64 array here."""
        return self.xp.asarray(value, dtype=self.f64)

    def stack(self, items, axis):
        return self.xp.stack(items, axis=axis)

    def tensordot(self, a, b, axes):
        return self.xp.tensordot(a, b, axes=axes)

    def relu(self, x):
        return self.xp.maximum(x, 0.0)

    def positive(self, x):
        return self.cast(x > 0)

    def equal(self, a, b):
        return self.cast(a == b)

    def maximum(self, a, b):
        return self.xp.maximum(a, b)

    def amax(self, x, axes):
        return self.xp.max(x, axis=axes, keepdims=True)

    def sum(self, x, axes=None):
        return self.xp.sum(x, axis=axes)

    def exp(self, x):
        return self.xp.exp(x)

    def log(self, x):
        return self.xp.log(x)

    def pad(self, x, pads):
        """pads: ((before, after), ...) for every axis, as numpy.pad takes them."""
        return self.xp.pad(x, pads)

    def one_hot(self, labels, n):
        return self.cast(labels.reshape(-1, 1) == self.xp.arange(n).reshape(1, n))

    def norm(self, x):
        return self.sum(x * x).item() ** 0.5

    def to_float32(self, value):
        """A framework's output -> (shape, array('f')) for a stdlib .npz."""
        single = self.cast(self.host(value), self.f32)
        return tuple(single.shape), array.array("f", single.reshape(-1).tolist())


class MlxOps(ArrayOps):
    """MLX's float64 exists on the CPU only: every operation runs on the CPU stream."""

    def context(self):
        return self.xp.stream(self.xp.cpu)

    def floats(self, values, shape):
        return self.xp.array(memoryview(values)).astype(self.f64).reshape(shape)

    def batch(self, pixels, labels):
        xp = self.xp
        x = (xp.array(memoryview(pixels)).astype(xp.float32) / 255.0).astype(self.f64)
        return x.reshape(-1, 28, 28, 1), xp.array(memoryview(labels)).astype(xp.int64)

    def host(self, value):
        return self.xp.array(value).astype(self.f64)


class TorchOps(ArrayOps):
    """torch's own float64 on the CPU (torch does not need NumPy)."""

    def __init__(self, torch):
        super().__init__(torch, "torch-float64")

    def cast(self, x, dtype=None):
        return x.to(self.f64 if dtype is None else dtype)

    def floats(self, values, shape):
        torch = self.xp
        return torch.frombuffer(bytearray(values), dtype=torch.float32).to(self.f64).reshape(shape)

    def batch(self, pixels, labels):
        torch = self.xp
        x = (torch.frombuffer(bytearray(pixels), dtype=torch.uint8).float() / 255.0).to(self.f64)
        return x.reshape(-1, 28, 28, 1), torch.frombuffer(bytearray(labels), dtype=torch.uint8).long()

    def host(self, value):
        return value.detach().to("cpu", self.f64)

    def stack(self, items, axis):
        return self.xp.stack(items, dim=axis)

    def tensordot(self, a, b, axes):
        return self.xp.tensordot(a, b, dims=axes)

    def relu(self, x):
        return x.clamp(min=0.0)

    def amax(self, x, axes):
        return self.xp.amax(x, dim=axes, keepdim=True)

    def sum(self, x, axes=None):
        return x.sum() if axes is None else x.sum(dim=axes)

    def pad(self, x, pads):
        flat = [side for before_after in reversed(pads) for side in before_after]  # torch: last axis first
        return self.xp.nn.functional.pad(x, flat)


def numpy_ops():
    """NumPy's float64; raises ImportError where numpy is not installed."""
    import numpy
    return ArrayOps(numpy, "numpy-float64")


def windows(ops, x):
    """(N,H,W,C) -> (N,H-2,W-2,3,3,C): every 3x3 patch (stride 1, valid)."""
    h, w = x.shape[1] - 2, x.shape[2] - 2
    rows = [ops.stack([x[:, i:i + h, j:j + w, :] for j in range(3)], 3) for i in range(3)]
    return ops.stack(rows, 3)


def _window_parts(blocks):
    """(n,12,2,12,2,c) pool windows -> their four elements in row-major order, each (n,12,12,c)."""
    return [blocks[:, :, a, :, b, :] for a in (0, 1) for b in (0, 1)]


def _from_parts(ops, parts):
    rows = [ops.stack(parts[2 * a:2 * a + 2], 3) for a in (0, 1)]  # (n,12,12,2,c) each
    return ops.stack(rows, 2)  # (n,12,2,12,2,c)


def first_max(ops, blocks):
    """(n,12,2,12,2,c) pool windows -> a mask of the one element each window's gradient goes
    to: the first maximum in row-major order, as torch and TensorFlow route it."""
    hits = _window_parts(ops.equal(blocks, ops.amax(blocks, (2, 4))))
    taken, firsts = hits[0] * 0.0, []
    for hit in hits:
        firsts.append(hit * (1.0 - taken))
        taken = ops.maximum(taken, hit)
    return _from_parts(ops, firsts)


def every_max(ops, blocks):
    """The mask of every maximum in each pool window: where PlaidML sends the gradient of a tie
    (a blank image region gives four equal values), where torch, TF, JAX and MLX pick one."""
    return ops.equal(blocks, ops.amax(blocks, (2, 4)))


POOL_ROUTES = {"first": first_max, "every": every_max}


def conv_input_grad(ops, d_patches):
    """(n,24,24,3,3,c) gradients of the patches -> (n,26,26,c) gradient of the input they came from."""
    total = None
    for i in range(3):
        for j in range(3):
            part = ops.pad(d_patches[:, :, :, i, j, :], ((0, 0), (i, 2 - i), (j, 2 - j), (0, 0)))
            total = part if total is None else total + part
    return total


def reference_step(ops, x, labels, weights, pool_ties="first"):
    """x (N,28,28,1) in [0,1] and integer labels (from ops.batch), weights [8 float64 arrays]
    -> (logits, loss, [grads]), all float64 in `ops`' arrays.
    pool_ties: which maxima of a tied pool window get its gradient ("first" or "every")."""
    with ops.context():
        return _step(ops, x, labels, weights, POOL_ROUTES[pool_ties])


def _step(ops, x, labels, weights, route):
    w1, b1, w2, b2, w3, b3, w4, b4 = weights
    n = x.shape[0]
    onehot = ops.one_hot(labels, 10)
    p1 = windows(ops, x)
    z1 = ops.tensordot(p1, w1, 3) + b1
    a1 = ops.relu(z1)
    p2 = windows(ops, a1)
    z2 = ops.tensordot(p2, w2, 3) + b2
    a2 = ops.relu(z2)
    blocks = a2.reshape(n, 12, 2, 12, 2, 64)
    pooled = ops.amax(blocks, (2, 4))
    flat = pooled.reshape(n, -1)
    z3 = flat @ w3 + b3
    h = ops.relu(z3)
    logits = h @ w4 + b4
    shifted = logits - ops.amax(logits, (1,))
    log_probs = shifted - ops.log(ops.sum(ops.exp(shifted), (1,))).reshape(n, 1)
    loss = -ops.sum(onehot * log_probs).item() / n
    d_logits = (ops.exp(log_probs) - onehot) / n
    g_w4, g_b4 = h.T @ d_logits, ops.sum(d_logits, (0,))
    d_z3 = (d_logits @ w4.T) * ops.positive(z3)
    g_w3, g_b3 = flat.T @ d_z3, ops.sum(d_z3, (0,))
    d_pooled = (d_z3 @ w3.T).reshape(n, 12, 1, 12, 1, 64)
    d_z2 = (route(ops, blocks) * d_pooled).reshape(n, 24, 24, 64) * ops.positive(z2)
    g_w2, g_b2 = ops.tensordot(p2, d_z2, ([0, 1, 2], [0, 1, 2])), ops.sum(d_z2, (0, 1, 2))
    d_a1 = conv_input_grad(ops, ops.tensordot(d_z2, w2, ([3], [3])))  # (n,24,24,3,3,32) -> (n,26,26,32)
    d_z1 = d_a1 * ops.positive(z1)
    g_w1, g_b1 = ops.tensordot(p1, d_z1, ([0, 1, 2], [0, 1, 2])), ops.sum(d_z1, (0, 1, 2))
    return logits, loss, [g_w1, g_b1, g_w2, g_b2, g_w3, g_b3, g_w4, g_b4]


def rel_error(ops, a, b):
    """|a - b| / |b| (Frobenius norms) of a framework's output a against a float64 array b."""
    with ops.context():
        return ops.norm(ops.host(a) - b) / max(ops.norm(b), 1e-30)


def all_finite(ops, arrays):
    """No NaN or Inf in any of a framework's outputs (a norm of them is finite exactly then)."""
    with ops.context():
        return all(math.isfinite(ops.norm(ops.host(a))) for a in arrays)


def host_step(ops, outputs):
    """A framework's (logits, loss, [grads]) -> the same in float64 arrays of `ops`."""
    logits, loss, grads = outputs
    with ops.context():
        return ops.host(logits), loss, [ops.host(g) for g in grads]
