"""macml verify workload for PyTorch: the Keras mnist_cnn on the accelerator and the CPU.

Runs inside the TARGET interpreter: stdlib + torch only, no macml imports. Writes one
JSON object per line to stdout ("event" names the kind); the orchestrator judges them.
"""
import copy
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # loaded by file path (tests), not run as a script
    sys.path.insert(0, HERE)
from _workload_common import (  # noqa: E402
    BATCH, emit, emit_matmul, emit_parity, idx_payload, in_twentieths, missing_framework, parse_slice,
    run_workload, time_trainer, training_steps, workload_parser)


def read_idx(path, torch):
    """IDX file (gz or raw) -> uint8 tensor of its dims; a bad file is a clear error."""
    dims, payload = idx_payload(path)
    return torch.frombuffer(bytearray(payload), dtype=torch.uint8).reshape(dims)


def load_split(images, labels, where, torch):
    x = read_idx(images, torch)
    y = read_idx(labels, torch)
    part = parse_slice(where, x.shape[0])
    return x[part].reshape(-1, 1, 28, 28), y[part].long()


def build_model(nn):
    return nn.Sequential(
        nn.Conv2d(1, 32, 3), nn.ReLU(), nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2),
        nn.Dropout(0.25), nn.Flatten(), nn.Linear(9216, 128), nn.ReLU(), nn.Dropout(0.5),
        nn.Linear(128, 10),
    )


class Trainer:
    """One model + Adadelta on one device, with the data already on that device.

    step(idx) trains on X[idx] without any host synchronisation; on CUDA the whole step
    (gather, forward, backward, optimiser) is one captured CUDA graph when that works.
    """

    def __init__(self, torch, device, x_u8, y, seed, graphs):
        self.torch, self.device = torch, device
        torch.manual_seed(seed)
        self.x = x_u8.to(device).float().div_(255.0)
        self.y = y.to(device)
        self.model = build_model(torch.nn).to(device).train()
        capturable = graphs and device.type == "cuda"
        # `capturable` only exists from torch 2.3; Intel Macs are stuck at 2.2.2.
        extra = {"capturable": True} if capturable else {}
        self.opt = torch.optim.Adadelta(self.model.parameters(), lr=1.0, **extra)
        self.graph = None
        self.mode = "eager"
        if capturable:
            try:
                self._capture()
                self.mode = "cuda-graph"
            except Exception as exc:  # capture is an optimisation: fall back, but say why
                emit("note", message="CUDA graph capture failed, eager steps instead: %s" % exc)
                self.graph = None

    def _eager(self, idx):
        self.opt.zero_grad(set_to_none=False)
        loss = self.torch.nn.functional.cross_entropy(self.model(self.x[idx]), self.y[idx])
        loss.backward()
        self.opt.step()
        return loss

    def _capture(self):
        torch = self.torch
        self.static_idx = torch.randint(0, self.x.shape[0], (BATCH,), device=self.device)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # warm-up creates optimiser state outside the graph
            for _ in range(3):
                self._eager(self.static_idx)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            self.static_loss = self._eager(self.static_idx)
        self.graph = graph

    def step(self, idx):
        if self.graph is None:
            return self._eager(idx)
        self.static_idx.copy_(idx)
        self.graph.replay()
        return self.static_loss

    def batches(self, count):
        """`count` shuffled batch indices, reshuffled every epoch; last partial batch dropped."""
        per_epoch = self.x.shape[0] // BATCH
        done = 0
        while done < count:
            perm = self.torch.randperm(self.x.shape[0], device=self.device)
            for b in range(min(per_epoch, count - done)):
                yield perm[b * BATCH:(b + 1) * BATCH]
            done += per_epoch

    def param_device(self):
        return next(self.model.parameters()).device.type


def synchronize(torch, device):
    if device.type == "cuda":
        torch.cuda.synchronize()
    elif device.type == "mps":
        torch.mps.synchronize()


def time_training(torch, device, make_trainer, label, budget_s, max_steps, chunk, warmup_steps=5):
    """Warm-up (data to the device, graph capture, first steps) timed apart, then the
    median of synchronised chunks of steps."""
    loss, fields = time_trainer(make_trainer, lambda _loss: synchronize(torch, device), label, budget_s,
                                max_steps, chunk, warmup_steps)
    fields.update(final_loss=float(loss.detach()), threads=torch.get_num_threads())
    emit("timing", device=device.type, **fields)


def matmul_probe(torch, device, n, budget_s=0.5):
    a = torch.randn(n, n, device=device)
    b = torch.randn(n, n, device=device)
    a @ b
    synchronize(torch, device)
    reps, start = 0, time.perf_counter()
    while reps < 3 or (time.perf_counter() - start < budget_s and reps < 50):
        a @ b
        reps += 1
        if reps % 5 == 0:
            synchronize(torch, device)
    synchronize(torch, device)
    emit_matmul(device.type, n, reps, time.perf_counter() - start)


def rel_error(a, b):
    a, b = a.double(), b.double()
    return float((a - b).norm() / b.norm().clamp_min(1e-30))


def parity(torch, device, x_u8, y, strict):
    """One forward+backward from identical weights, dropout off (eval), CPU vs device.

    strict: TF32 off on CUDA, so the comparison is FP32 against FP32; otherwise the
    precision training uses (PyTorch's default lets cuDNN convolutions use TF32).
    """
    saved = (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
    if strict:
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = False
    try:
        torch.manual_seed(1)
        ref = build_model(torch.nn).eval()
        dut = copy.deepcopy(ref).to(device)
        x = x_u8[:BATCH].float() / 255.0
        results = []
        for model, dev in ((ref, torch.device("cpu")), (dut, device)):
            logits = model(x.to(dev))
            torch.nn.functional.cross_entropy(logits, y[:BATCH].to(dev)).backward()
            results.append((logits.detach().cpu(), [p.grad.detach().cpu() for p in model.parameters()]))
        tf32 = device.type == "cuda" and bool(
            torch.backends.cuda.matmul.allow_tf32 or torch.backends.cudnn.allow_tf32)
    finally:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = saved
    (ref_logits, ref_grads), (dut_logits, dut_grads) = results
    finite = bool(torch.isfinite(dut_logits).all()) and all(bool(torch.isfinite(g).all()) for g in dut_grads)
    precision = "tf32" if tf32 else ("fp32-metal" if device.type == "mps" else "fp32")
    emit_parity(device.type, precision, finite, rel_error, (dut_logits, dut_grads), (ref_logits, ref_grads))
    return tf32


def accuracy(torch, device, trainer, test_x, test_y, steps):
    total = steps
    start = time.perf_counter()
    for idx in in_twentieths(trainer.batches(total), total):
        loss = trainer.step(idx)
    synchronize(torch, device)
    train_s = time.perf_counter() - start
    model = trainer.model.eval()
    correct = torch.zeros((), dtype=torch.long, device=device)
    xs, ys = test_x.to(device).float().div_(255.0), test_y.to(device)
    with torch.no_grad():
        for i in range(0, xs.shape[0], 1000):
            correct += (model(xs[i:i + 1000]).argmax(1) == ys[i:i + 1000]).sum()
    emit("accuracy", device=trainer.param_device(), steps=total, images=total * BATCH,
         train_images=trainer.x.shape[0], test_images=xs.shape[0], train_s=train_s,
         accuracy=int(correct) / xs.shape[0], final_loss=float(loss.detach()))


def pick_device(torch, wanted):
    if wanted and wanted != "auto":
        return torch.device(wanted)
    if torch.cuda.is_available():
        return torch.device("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def describe(torch, device):
    name, kind = "CPU", device.type
    if device.type == "cuda":
        name = torch.cuda.get_device_name(device)
        kind = "rocm" if getattr(torch.version, "hip", None) else "cuda"
    elif device.type == "mps":
        name = "Apple GPU (Metal)"
    mps = getattr(torch.backends, "mps", None)
    detail = ""
    if device.type == "cpu":
        detail = "torch %s: torch.cuda.is_available() is False (built for CUDA %s)" % (
            torch.__version__, torch.version.cuda or "none: a CPU-only build")
        if mps is not None and mps.is_built():
            detail += ", MPS built but not available"
    emit("device", detail=detail, framework="torch", version=torch.__version__, device=device.type, backend=kind,
         name=name, cuda_available=torch.cuda.is_available(),
         mps_built=bool(mps and mps.is_built()), mps_available=bool(mps and mps.is_available()),
         parameters=sum(p.numel() for p in build_model(torch.nn).parameters()))


def main(argv=None):
    ap = workload_parser()
    ap.add_argument("--no-graphs", action="store_true")
    args = ap.parse_args(argv)
    try:
        import torch
    except ImportError as exc:
        return missing_framework("torch", exc)
    device = pick_device(torch, args.device)
    describe(torch, device)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
    if args.synthetic:
        gen = torch.Generator().manual_seed(0)
        train_x = torch.randint(0, 256, (8192, 1, 28, 28), dtype=torch.uint8, generator=gen)
        train_y = torch.randint(0, 10, (8192,), generator=gen)
    else:
        train_x, train_y = load_split(args.train[0], args.train[1], args.train_slice, torch)
        test_x, test_y = load_split(args.test[0], args.test[1], args.test_slice, torch)
    emit("data", train_images=train_x.shape[0], test_images=0 if args.synthetic else test_x.shape[0])
    graphs = not args.no_graphs
    cpu = torch.device("cpu")
    if device.type != "cpu":
        emit("phase", name="warm-up and timing on %s" % device.type)
        time_training(torch, device, lambda: Trainer(torch, device, train_x, train_y, 0, graphs),
                      "accelerator timing", 1.0, 300, 10)
        matmul_probe(torch, device, 4096)
        emit("phase", name="parity CPU vs %s" % device.type)
        if parity(torch, device, train_x, train_y, strict=False):
            parity(torch, device, train_x, train_y, strict=True)
    emit("phase", name="timing on CPU")
    time_training(torch, cpu, lambda: Trainer(torch, cpu, train_x, train_y, 0, False), "CPU timing",
                  args.cpu_seconds, 10000, 1, warmup_steps=2)
    matmul_probe(torch, cpu, 1024)
    if not args.synthetic:
        emit("phase", name="training on %s" % device.type)
        trainer = Trainer(torch, device, train_x, train_y, 0, graphs)
        steps = training_steps(args, train_x.shape[0])
        accuracy(torch, device, trainer, test_x, test_y, steps)
    emit("done")
    return 0


if __name__ == "__main__":
    run_workload(main)
