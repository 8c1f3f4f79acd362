"""macml verify workload for MLX (Metal on Apple silicon, CUDA with mlx[cuda], or the CPU):
the spec'd mnist_cnn.

Runs inside the TARGET interpreter: stdlib + mlx (NumPy only where MLX has no float64). The order and the
events are _workload_common.run_mnist's. MLX arrays live in memory both devices share; what
decides where the arithmetic runs is the stream, so placement reports the device of the
stream each trainer's work was put on, read back from MLX.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # loaded by file path (tests), not run as a script
    sys.path.insert(0, HERE)
from _model_spec import ADADELTA, BATCH, DROPOUT  # noqa: E402
from _workload_common import UsageError, main  # noqa: E402


def build_model(nn):
    return nn.Sequential(
        nn.Conv2d(1, 32, 3), nn.ReLU(), nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(DROPOUT[0]),
        lambda x: x.reshape(x.shape[0], -1), nn.Linear(9216, 128), nn.ReLU(), nn.Dropout(DROPOUT[1]),
        nn.Linear(128, 10),
    )


def to_mlx_layout(mx, value):
    """Keras layout -> MLX's: conv (kh,kw,in,out) -> (out,kh,kw,in); dense (in,out) -> (out,in)."""
    if value.ndim == 4:
        return mx.transpose(value, (3, 0, 1, 2))
    return value.T if value.ndim == 2 else value


def to_keras_layout(mx, value):
    if value.ndim == 4:
        return mx.transpose(value, (1, 2, 3, 0))
    return value.T if value.ndim == 2 else value


def set_weights(mx, model, keras_arrays):
    """Keras-layout arrays in SHAPES order -> the model's parameters."""
    from mlx.utils import tree_unflatten
    names = [n for n, _ in model_parameters(model)]
    model.update(tree_unflatten([(n, to_mlx_layout(mx, a)) for n, a in zip(names, keras_arrays)]))


def model_parameters(model):
    """(name, array) in SHAPES order: weight then bias of each conv and dense layer."""
    from mlx.utils import tree_flatten
    flat = dict(tree_flatten(model.parameters()))
    layers = sorted({int(n.split(".")[1]) for n in flat})
    return [(n, flat[n]) for i in layers for n in ("layers.%d.weight" % i, "layers.%d.bias" % i)]


def spec_arrays(mx, weights):
    return [mx.array(memoryview(v)).reshape(s) for _, s, v in weights]


class Trainer:
    def __init__(self, mx, nn, optim, device, x_u8, y, weights):
        self.mx, self.device = mx, device
        with mx.stream(device):
            mx.random.seed(0)
            self.x = x_u8.astype(mx.float32) / 255.0
            self.y = y.astype(mx.int32)
            self.model = build_model(nn)
            set_weights(mx, self.model, spec_arrays(mx, weights))
            self.model.train()
            self.opt = optim.AdaDelta(learning_rate=ADADELTA["learning_rate"], rho=ADADELTA["rho"],
                                      eps=ADADELTA["epsilon"])

            def loss_fn(model, xb, yb):
                return nn.losses.cross_entropy(model(xb), yb, reduction="mean")
            self.loss_and_grad = nn.value_and_grad(self.model, loss_fn)
            mx.eval(self.x, self.y, self.model.parameters())
            self.stream = mx.default_stream(mx.default_device())
        self.mode = "lazy"

    def step(self, idx):
        with self.mx.stream(self.device):
            loss, grads = self.loss_and_grad(self.model, self.x[idx], self.y[idx])
            self.opt.update(self.model, grads)
            self.mx.eval(loss, self.model.parameters(), self.opt.state)  # builds and runs this step's graph
        return loss

    def batches(self, count):
        n = self.x.shape[0]
        per_epoch, done = n // BATCH, 0
        while done < count:
            with self.mx.stream(self.device):
                perm = self.mx.random.permutation(n)
            for b in range(min(per_epoch, count - done)):
                yield perm[b * BATCH:(b + 1) * BATCH]
            done += per_epoch

    def placement(self):
        device = self.stream.device
        kind = "cpu" if "cpu" in str(device).lower() else "gpu"
        return kind, "computed on %s (stream %s); arrays in unified memory" % (device, self.stream)


class MlxBackend:
    name = "mlx"

    def preload(self):
        import mlx.core  # noqa: F401  (no device is touched yet)

    def describe(self, args):
        import mlx.core as mx
        import mlx.nn as nn
        import mlx.optimizers as optim
        self.mx, self.nn, self.optim = mx, nn, optim
        backend = gpu_backend(mx)
        wanted = (args.device or "auto").lower()
        if wanted not in ("auto", "cpu", "gpu", "mps", "metal", "cuda"):
            raise UsageError("MLX has no device '%s'; use gpu or cpu" % args.device)
        if wanted not in ("auto", "cpu") and backend is None:
            raise UsageError("MLX %s has no GPU here (%s)" % (mx.__version__, self._why_not()))
        if wanted in ("mps", "metal", "cuda") and {"mps": "metal"}.get(wanted, wanted) != backend:
            raise UsageError("MLX's GPU here is %s, not %s" % (backend, wanted))
        use_gpu = backend is not None and wanted != "cpu"
        self.devices = {"cpu": mx.cpu, "gpu": mx.gpu}
        name = "CPU"
        if use_gpu:
            name = "Apple GPU (Metal)" if backend == "metal" else "NVIDIA GPU (CUDA)"
            info = getattr(getattr(mx, backend, None), "device_info", None)
            if info is not None:
                name = (info() or {}).get("device_name") or name
        return {"framework": "mlx", "version": getattr(mx, "__version__", "?"), "device": "gpu" if use_gpu else "cpu",
                "backend": backend if use_gpu else "cpu", "name": name, "detail": "" if backend else self._why_not()}

    def _why_not(self):
        mx = self.mx
        cuda = getattr(getattr(mx, "cuda", None), "is_available", lambda: False)()
        return "mlx.core.metal.is_available() is %s, mlx.core.cuda.is_available() is %s" % (
            mx.metal.is_available(), cuda)

    def load(self, pixels, labels, n):
        mx = self.mx
        x = mx.array(memoryview(pixels)).reshape(n, 28, 28, 1)
        return x, mx.array(memoryview(labels))

    def trainer(self, device, x, y, weights):
        return Trainer(self.mx, self.nn, self.optim, self.devices[device], x, y, weights)

    def sync(self, device, value):
        if value is not None:
            self.mx.eval(value)
        self.mx.synchronize()

    def loss_value(self, loss):
        return loss.item()

    def matmul(self, device, n):
        mx, dev = self.mx, self.devices[device]
        with mx.stream(dev):
            a, b = mx.random.normal((n, n)), mx.random.normal((n, n))
            mx.eval(a, b)

        def run():
            with mx.stream(dev):
                c = a @ b
                mx.eval(c)
            return c
        return run

    def precisions(self, device):
        return ["fp32"] if device == "cpu" else ["fp32-%s" % gpu_backend(self.mx)]

    def reference_ops(self):
        """MLX's own float64 (CPU stream; MLX 0.2x and later), else NumPy where it is installed."""
        from _reference import MlxOps, numpy_ops
        return MlxOps(self.mx, "mlx-float64") if hasattr(self.mx, "float64") else numpy_ops()

    def step_outputs(self, device, weights, batch, precision):
        mx, nn = self.mx, self.nn
        with mx.stream(self.devices[device]):
            model = build_model(nn)
            set_weights(mx, model, spec_arrays(mx, weights))
            model.eval()  # dropout off
            x, y = self.load(batch[0], batch[1], len(batch[1]))
            xb, yb = x.astype(mx.float32) / 255.0, y.astype(mx.int32)

            def loss_fn(m):
                logits = m(xb)
                return nn.losses.cross_entropy(logits, yb, reduction="mean"), logits
            (loss, logits), grads = nn.value_and_grad(model, loss_fn)(model)
            mx.eval(loss, logits, grads)
        from mlx.utils import tree_flatten
        flat = dict(tree_flatten(grads))
        names = [n for n, _ in model_parameters(model)]
        return logits, loss.item(), [to_keras_layout(mx, flat[n]) for n in names]

    def evaluate(self, trainer, x, y):
        mx = self.mx
        trainer.model.eval()
        correct = 0
        with mx.stream(trainer.device):
            for i in range(0, x.shape[0], 1000):
                xb = x[i:i + 1000].astype(mx.float32) / 255.0
                correct += mx.sum(mx.argmax(trainer.model(xb), axis=1) == y[i:i + 1000].astype(mx.int32)).item()
        return correct


def gpu_backend(mx):
    """"metal", "cuda" or None: which GPU back end this MLX build can use here."""
    if getattr(mx, "metal", None) is not None and mx.metal.is_available():
        return "metal"
    cuda = getattr(mx, "cuda", None)
    if cuda is not None and getattr(cuda, "is_available", lambda: False)():
        return "cuda"
    return None


if __name__ == "__main__":
    main(MlxBackend())
