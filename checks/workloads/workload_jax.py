"""macml verify workload for JAX (CUDA, jax-metal, TPU or the CPU): the spec'd mnist_cnn in
plain JAX, Adadelta written out (no optax), the whole training step one jitted function.

Runs inside the TARGET interpreter: stdlib + jax (numpy comes with it). The order and the
events are _workload_common.run_mnist's. Weights are in Keras' layout (NHWC, HWIO).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # loaded by file path (tests), not run as a script
    sys.path.insert(0, HERE)
from _model_spec import ADADELTA, BATCH, DROPOUT  # noqa: E402
from _workload_common import UsageError, first_batch, main, numpy_batch, numpy_weights  # noqa: E402

ALIASES = {"cuda": "gpu", "rocm": "gpu", "mps": "METAL", "metal": "METAL", "gpu": "gpu", "tpu": "tpu", "cpu": "cpu"}


def forward(jax, params, x, key=None):
    """Logits of the model; with a PRNG key, dropout as in training."""
    lax, jnp = jax.lax, jax.numpy
    w1, b1, w2, b2, w3, b3, w4, b4 = params
    dims = ("NHWC", "HWIO", "NHWC")
    h = jax.nn.relu(lax.conv_general_dilated(x, w1, (1, 1), "VALID", dimension_numbers=dims) + b1)
    h = jax.nn.relu(lax.conv_general_dilated(h, w2, (1, 1), "VALID", dimension_numbers=dims) + b2)
    h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    keys = jax.random.split(key) if key is not None else (None, None)
    h = dropout(jax, h, DROPOUT[0], keys[0]).reshape(x.shape[0], -1)
    h = dropout(jax, jax.nn.relu(h @ w3 + b3), DROPOUT[1], keys[1])
    return h @ w4 + b4


def dropout(jax, h, rate, key):
    if key is None:
        return h
    keep = jax.random.bernoulli(key, 1.0 - rate, h.shape)
    return jax.numpy.where(keep, h / (1.0 - rate), 0.0)


def loss_of(jax, params, x, y, key=None):
    logits = forward(jax, params, x, key)
    return -jax.numpy.mean(jax.nn.log_softmax(logits)[jax.numpy.arange(x.shape[0]), y]), logits


def adadelta(jax, params, grads, acc_g, acc_d):
    rho, eps, lr = ADADELTA["rho"], ADADELTA["epsilon"], ADADELTA["learning_rate"]
    sqrt = jax.numpy.sqrt
    acc_g = [rho * a + (1 - rho) * g * g for a, g in zip(acc_g, grads)]
    delta = [sqrt(d + eps) / sqrt(a + eps) * g for d, a, g in zip(acc_d, acc_g, grads)]
    acc_d = [rho * d + (1 - rho) * u * u for d, u in zip(acc_d, delta)]
    return [p - lr * u for p, u in zip(params, delta)], acc_g, acc_d


_JITTED = {}


def jitted(jax, name, build):
    """One jitted function per purpose and process. jit caches its compilations per function object,
    so the timing and accuracy trainers and every parity step share them: one compile per shape,
    device and matmul precision (jax.default_matmul_precision is part of the cache key)."""
    if name not in _JITTED:
        _JITTED[name] = build(jax)
    return _JITTED[name]


def train_step(jax):
    """(state, x, y, idx) -> (state, loss); the data are arguments, not constants baked into the
    program (that made XLA compile a 25 MB constant), and the state's buffers are donated."""
    def step(state, x, y, idx):
        params, acc_g, acc_d, key = state
        key, sub = jax.random.split(key)
        (loss, _), grads = jax.value_and_grad(lambda p: loss_of(jax, p, x[idx], y[idx], sub), has_aux=True)(params)
        params, acc_g, acc_d = adadelta(jax, params, grads, acc_g, acc_d)
        return (params, acc_g, acc_d, key), loss
    return jax.jit(step, donate_argnums=0)


def loss_and_grads(jax):
    return jax.jit(jax.value_and_grad(lambda p, xb, yb: loss_of(jax, p, xb, yb), has_aux=True))


class Trainer:
    def __init__(self, jax, device, x_u8, y, weights):
        import numpy as np
        self.jax, self.device, jnp = jax, device, jax.numpy
        put = lambda a: jax.device_put(a, device)  # noqa: E731
        self.x = put(x_u8).astype(jnp.float32) / 255.0  # converted where it lives
        self.y = put(y).astype(jnp.int32)
        params = [put(w) for w in numpy_weights(np, weights)]
        zeros = lambda: [put(np.zeros(p.shape, np.float32)) for p in params]  # noqa: E731  (donated: distinct buffers)
        self.state = (params, zeros(), zeros(), put(jax.random.PRNGKey(0)))
        self.mode = "jit"
        self._step = jitted(jax, "train", train_step)
        self.key = jax.random.PRNGKey(1)

    def step(self, idx):
        self.state, loss = self._step(self.state, self.x, self.y, idx)
        return loss

    def batches(self, count):
        n = self.x.shape[0]
        per_epoch, done = n // BATCH, 0
        while done < count:
            self.key, sub = self.jax.random.split(self.key)
            perm = self.jax.device_put(self.jax.random.permutation(sub, n), self.device)
            for b in range(min(per_epoch, count - done)):
                yield perm[b * BATCH:(b + 1) * BATCH]
            done += per_epoch

    @property
    def params(self):
        return self.state[0]

    def placement(self):
        param, batch = devices_of(self.params[0]), devices_of(self.x)
        kinds = {d.platform.lower() for d in param + batch}
        kind = kinds.pop() if len(kinds) == 1 else "mixed"
        return kind, "parameters on %s, batches on %s" % (", ".join(map(str, param)), ", ".join(map(str, batch)))


def devices_of(array):
    found = array.devices() if hasattr(array, "devices") else {array.device()}
    return sorted(found, key=str)


class JaxBackend:
    name = "jax"

    def preload(self):
        import jax  # noqa: F401  (no device is touched yet)

    def describe(self, args):
        import jax
        self.jax = jax
        wanted = (args.device or "auto").lower()
        if wanted not in ("auto",) + tuple(ALIASES):
            raise UsageError("JAX has no device '%s'; use gpu, metal, tpu or cpu" % args.device)
        try:
            accel = jax.devices()[0] if wanted == "auto" else jax.devices(ALIASES[wanted])[0]
        except RuntimeError as exc:
            raise UsageError("JAX %s has no %s backend here: %s" % (jax.__version__, wanted, str(exc).splitlines()[0]))
        self.devices = {"cpu": jax.devices("cpu")[0], accel.platform.lower(): accel}
        kind = accel.platform.lower()
        backend = {"gpu": "rocm" if "rocm" in str(getattr(accel, "client", "")).lower() else "cuda"}.get(kind, kind)
        return {"framework": "jax", "version": jax.__version__, "device": kind, "backend": backend,
                "name": "CPU" if kind == "cpu" else getattr(accel, "device_kind", str(accel)),
                "detail": "" if kind != "cpu" else "jax.devices() lists only the CPU (jax %s, backend %s)" % (
                    jax.__version__, jax.default_backend())}

    def load(self, pixels, labels, n):
        import numpy as np
        x = np.frombuffer(pixels, dtype=np.uint8).reshape(n, 28, 28, 1)
        return x, np.frombuffer(labels, dtype=np.uint8)

    def trainer(self, device, x, y, weights):
        return Trainer(self.jax, self.devices[device], x, y, weights)

    def prepare(self, device, train, data_host, weights):
        """Compile the training step and every parity step by running each once (their jit caches are
        the run's), before the accelerator gate: beside the run before this one, not after it. (In
        threads it was no faster on the H200: benchmarks/results/h200-jax-compile.txt.)"""
        jax = self.jax
        trainer = self.trainer(device, train[0], train[1], train[2])
        jax.block_until_ready(trainer.step(next(trainer.batches(1))))
        batch = first_batch(data_host)
        self.step_outputs("cpu", weights, batch, "fp32")
        for precision in self.precisions(device):
            self.step_outputs(device, weights, batch, precision)

    def sync(self, device, value):
        if value is not None:
            self.jax.block_until_ready(value)

    def loss_value(self, loss):
        return float(loss)

    def matmul(self, device, n):
        jax = self.jax
        key = jax.device_put(jax.random.PRNGKey(0), self.devices[device])
        a = jax.random.normal(key, (n, n))
        b = jax.random.normal(jax.random.split(key)[0], (n, n))
        mm = jitted(jax, "matmul", lambda jax: jax.jit(lambda p, q: p @ q))
        return lambda: mm(a, b)

    def matmul_precision(self, device):
        """JAX's default, which the training uses: TF32 on NVIDIA. (A strict-FP32 matmul made XLA
        autotune Triton kernels for 9 s on the H200, for one number.)"""
        return self.precisions(device)[0]

    def precisions(self, device):
        """On NVIDIA GPUs JAX's default FP32 matmul/conv precision is TF32: check it and strict FP32."""
        return ["tf32", "fp32"] if device == "gpu" else (["fp32-metal"] if device == "metal" else ["fp32"])

    def reference_ops(self):
        from _reference import numpy_ops
        return numpy_ops()  # JAX depends on NumPy

    def step_outputs(self, device, weights, batch, precision):
        import numpy as np
        jax = self.jax
        x, y = numpy_batch(np, batch)
        weights = numpy_weights(np, weights)
        put = lambda a: jax.device_put(a, self.devices[device])  # noqa: E731
        params = [put(w) for w in weights]
        with jax.default_matmul_precision(matmul_mode(device, precision)):
            (loss, logits), grads = jitted(jax, "loss_and_grads", loss_and_grads)(params, put(x), put(y.astype(np.int32)))
        return np.asarray(logits), float(loss), [np.asarray(g) for g in grads]

    def evaluate(self, trainer, x, y):
        """Test predictions with the loss-and-gradients program parity compiled for this device, at
        its batch size and precision (the last batch padded): a forward-only program at another size
        made XLA compile and tune new convolutions, 8-10 s on the H200 when nothing was cached."""
        import numpy as np
        jax = self.jax
        kind = trainer.device.platform.lower()
        logits_of = jitted(jax, "loss_and_grads", loss_and_grads)
        labels = np.zeros(BATCH, np.int32)  # the loss is not used; the program takes labels
        correct = 0
        with jax.default_matmul_precision(matmul_mode(kind, self.precisions(kind)[-1])):
            for i in range(0, x.shape[0], BATCH):
                xb, count = x[i:i + BATCH], min(BATCH, x.shape[0] - i)
                if count < BATCH:
                    xb = np.concatenate([xb, np.zeros((BATCH - count,) + xb.shape[1:], xb.dtype)])
                pixels = jax.device_put(xb.astype(np.float32) / np.float32(255.0), trainer.device)
                (_, logits), _ = logits_of(trainer.params, pixels, jax.device_put(labels, trainer.device))
                correct += int((np.asarray(logits)[:count].argmax(axis=1) == y[i:i + count]).sum())
        return correct


def matmul_mode(device, precision):
    """jax.default_matmul_precision's value for one of precisions()' names on a device."""
    if precision.startswith("fp32-"):
        return "default"
    return "tensorfloat32" if precision == "tf32" and device not in ("cpu", "metal", "tpu") else "float32"


def cublas_dots(environ, jaxlib_version):
    """XLA_FLAGS for the run: cuBLAS for the dense layers instead of XLA's Triton GEMMs, whose
    autotuning took about 9 s of a cold run's 17 s of compiling on the H200 while the step ran no
    faster (benchmarks/results/h200-jax-compile.txt). A user's own XLA_FLAGS win; a jaxlib older than
    the flag (which aborts on flags it does not know) gets none."""
    if "XLA_FLAGS" in environ or not jaxlib_version:
        return None
    release = tuple(int(p) for p in jaxlib_version.split(".")[:3] if p.isdigit())
    return "--xla_gpu_enable_triton_gemm=false" if release >= (0, 4, 20) else None


def jaxlib_version():
    try:
        from importlib.metadata import version
        return version("jaxlib")
    except Exception:  # Python 3.7, or no jaxlib metadata: leave XLA as it is
        return None


if __name__ == "__main__":
    flags = cublas_dots(os.environ, jaxlib_version())
    if flags:
        os.environ["XLA_FLAGS"] = flags
    main(JaxBackend())
