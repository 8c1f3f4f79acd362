"""macml verify workload for MLX (Apple silicon GPU through Metal).

Runs inside the TARGET interpreter: stdlib + mlx only. Same JSON-lines protocol and
arguments as verify_torch.py; devices are "gpu" or "cpu". MLX arrays live in unified
memory; the device is chosen per operation (mx.set_default_device / mx.stream). Written
from the MLX docs; macml's CI has no MLX, so keep it small and plain.
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # loaded by file path (tests), not run as a script
    sys.path.insert(0, HERE)
from _workload_common import (  # noqa: E402
    BATCH, emit, emit_matmul, emit_parity, idx_payload, missing_framework, parse_slice, run_workload,
    time_trainer, train_for, training_steps, workload_parser)


def read_idx(mx, path, where):
    dims, payload = idx_payload(path)
    try:
        flat = mx.array(memoryview(payload))  # the buffer protocol: no copy through Python ints
    except (TypeError, ValueError):
        flat = mx.array(list(payload), dtype=mx.uint8)
    return flat.reshape(dims)[parse_slice(where, dims[0])]


def build_model(nn):
    return nn.Sequential(
        nn.Conv2d(1, 32, 3), nn.ReLU(), nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
        lambda x: x.reshape(x.shape[0], -1), nn.Linear(9216, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, 10),
    )


def count_params(model):
    from mlx.utils import tree_flatten
    return sum(v.size for _, v in tree_flatten(model.parameters()))


class Trainer:
    def __init__(self, mx, nn, optim, device, x_u8, y, seed):
        self.mx = mx
        mx.set_default_device(device)
        mx.random.seed(seed)
        self.x = x_u8.reshape(-1, 28, 28, 1).astype(mx.float32) / 255.0
        self.y = y.astype(mx.int32)
        self.model = build_model(nn)
        self.model.train()
        self.opt = optim.AdaDelta(learning_rate=1.0)

        def loss_fn(model, xb, yb):
            return nn.losses.cross_entropy(model(xb), yb, reduction="mean")
        self.loss_and_grad = nn.value_and_grad(self.model, loss_fn)
        self.mode = "lazy"
        mx.eval(self.x, self.y, self.model.parameters())

    def step(self, idx):
        loss, grads = self.loss_and_grad(self.model, self.x[idx], self.y[idx])
        self.opt.update(self.model, grads)
        self.mx.eval(loss, self.model.parameters(), self.opt.state)  # builds and runs this step's graph
        return loss

    def batches(self, count):
        n = self.x.shape[0]
        per_epoch, done = n // BATCH, 0
        while done < count:
            perm = self.mx.random.permutation(n)
            for b in range(min(per_epoch, count - done)):
                yield perm[b * BATCH:(b + 1) * BATCH]
            done += per_epoch


def time_training(mx, kind, make, label, budget_s, max_steps, chunk, warmup_steps=5):
    loss, fields = time_trainer(make, lambda _loss: mx.synchronize(), label, budget_s, max_steps, chunk,
                                warmup_steps)
    fields["final_loss"] = loss.item()
    emit("timing", device=kind, **fields)


def matmul_probe(mx, kind, device, n):
    mx.set_default_device(device)
    a, b = mx.random.normal((n, n)), mx.random.normal((n, n))
    mx.eval(a @ b)
    start, reps = time.perf_counter(), 10
    for _ in range(reps):
        mx.eval(a @ b)
    emit_matmul(kind, n, reps, time.perf_counter() - start)


def parity(mx, nn, x_u8, y):
    from mlx.utils import tree_flatten
    mx.random.seed(1)
    model = build_model(nn)
    model.eval()  # dropout off
    x = x_u8[:BATCH].reshape(-1, 28, 28, 1).astype(mx.float32) / 255.0
    yb = y[:BATCH].astype(mx.int32)

    def loss_fn(m, xb, lb):
        return nn.losses.cross_entropy(m(xb), lb, reduction="mean")
    out = []
    for device in (mx.cpu, mx.gpu):
        with mx.stream(device):
            logits = model(x)
            _, grads = nn.value_and_grad(model, loss_fn)(model, x, yb)
            mx.eval(logits, grads)
        out.append((logits, [g for _, g in tree_flatten(grads)]))

    def rel(a, b):
        return (mx.linalg.norm(a - b) / mx.maximum(mx.linalg.norm(b), 1e-30)).item()
    ref, (dut_l, dut_g) = out
    finite = all(not mx.any(mx.isnan(t) | mx.isinf(t)).item() for t in [dut_l] + dut_g)
    emit_parity("gpu", "fp32-metal", finite, rel, (dut_l, dut_g), ref)


def main(argv=None):
    args = workload_parser().parse_args(argv)
    try:
        import mlx.core as mx
        import mlx.nn as nn
        import mlx.optimizers as optim
    except ImportError as exc:
        return missing_framework("mlx", exc)
    metal = bool(getattr(mx, "metal", None) and mx.metal.is_available())
    use_gpu = metal and args.device != "cpu"
    kind, dev = ("gpu", mx.gpu) if use_gpu else ("cpu", mx.cpu)
    emit("device", framework="mlx", version=getattr(mx, "__version__", "?"), device=kind,
         backend="metal" if use_gpu else "cpu", name="Apple GPU (Metal)" if use_gpu else "CPU",
         detail="" if metal else "mlx.core.metal.is_available() is False",
         parameters=count_params(build_model(nn)))
    if args.synthetic:
        x = mx.random.randint(0, 256, (8192, 28, 28)).astype(mx.uint8)
        y = mx.random.randint(0, 10, (8192,))
    else:
        x = read_idx(mx, args.train[0], args.train_slice)
        y = read_idx(mx, args.train[1], args.train_slice)
        test_x = read_idx(mx, args.test[0], args.test_slice)
        test_y = read_idx(mx, args.test[1], args.test_slice)
    if use_gpu:
        emit("phase", name="warm-up and timing on the GPU")
        time_training(mx, kind, lambda: Trainer(mx, nn, optim, dev, x, y, 0), "accelerator timing", 1.0, 300, 10)
        matmul_probe(mx, kind, dev, 4096)
        parity(mx, nn, x, y)
    emit("phase", name="timing on CPU")
    time_training(mx, "cpu", lambda: Trainer(mx, nn, optim, mx.cpu, x, y, 0), "CPU timing", args.cpu_seconds,
                  10000, 1, warmup_steps=2)
    matmul_probe(mx, "cpu", mx.cpu, 1024)
    if not args.synthetic:
        emit("phase", name="training")
        trainer = Trainer(mx, nn, optim, dev, x, y, 0)
        steps = training_steps(args, x.shape[0])
        final_loss, train_s = train_for(trainer, steps, lambda loss: loss.item())
        trainer.model.eval()
        tx = test_x.reshape(-1, 28, 28, 1).astype(mx.float32) / 255.0
        correct = mx.sum(mx.argmax(trainer.model(tx), axis=1) == test_y.astype(mx.int32)).item()
        emit("accuracy", device=kind, steps=steps, train_images=x.shape[0], test_images=test_x.shape[0],
             train_s=train_s, accuracy=correct / test_x.shape[0], final_loss=final_loss)
    emit("done")
    return 0


if __name__ == "__main__":
    run_workload(main)
