"""macml verify workload for PyTorch (CUDA, ROCm, MPS or the CPU): the spec'd mnist_cnn.

Runs inside the TARGET interpreter: stdlib + torch (NumPy is never needed), no macml imports.
The order and the events are _workload_common.run_mnist's; this file is the torch half.
On CUDA the whole training step (gather, forward, backward, Adadelta) is one captured
CUDA graph when that works (--no-graphs: eager steps).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # loaded by file path (tests), not run as a script
    sys.path.insert(0, HERE)
from _model_spec import ADADELTA, BATCH, DROPOUT, SHAPES  # noqa: E402
from _workload_common import UsageError, main  # noqa: E402


def build_model(nn):
    return nn.Sequential(
        nn.Conv2d(1, 32, 3), nn.ReLU(), nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2),
        nn.Dropout(DROPOUT[0]), nn.Flatten(), nn.Linear(9216, 128), nn.ReLU(), nn.Dropout(DROPOUT[1]),
        nn.Linear(128, 10),
    )


def to_torch_layout(torch, name, value):
    """A Keras-layout weight -> torch's: conv (kh,kw,in,out) -> (out,in,kh,kw); dense (in,out)
    -> (out,in), with dense1's inputs reordered from Keras' (h,w,c) flatten to torch's (c,h,w)."""
    if name == "dense1_kernel":
        return value.reshape(12, 12, 64, 128).permute(3, 2, 0, 1).reshape(128, 9216)
    if value.dim() == 4:
        return value.permute(3, 2, 0, 1)
    return value.t() if value.dim() == 2 else value


def to_keras_layout(torch, name, value):
    if name == "dense1_kernel":
        return value.reshape(128, 64, 12, 12).permute(2, 3, 1, 0).reshape(9216, 128)
    if value.dim() == 4:
        return value.permute(2, 3, 1, 0)
    return value.t() if value.dim() == 2 else value


def set_weights(torch, model, keras_tensors):
    """Copy Keras-layout tensors (SHAPES order) into the model's parameters."""
    with torch.no_grad():
        for param, (name, _), value in zip(model.parameters(), SHAPES, keras_tensors):
            param.copy_(to_torch_layout(torch, name, value))


def spec_tensors(torch, weights):
    return [torch.frombuffer(bytearray(v.tobytes()), dtype=torch.float32).reshape(s) for _, s, v in weights]


class Trainer:
    """The model, Adadelta and the data on one device; step(idx) never synchronises the host."""

    def __init__(self, torch, device, x_u8, y, weights, graphs):
        self.torch, self.device = torch, device
        self.x = x_u8.to(device).float().div_(255.0)
        self.y = y.to(device)
        self.model = build_model(torch.nn).to(device).train()
        set_weights(torch, self.model, spec_tensors(torch, weights))
        capturable = graphs and device.type == "cuda"
        extra = {"capturable": True} if capturable else {}  # only from torch 2.3; Intel Macs stop at 2.2.2
        self.opt = torch.optim.Adadelta(self.model.parameters(), lr=ADADELTA["learning_rate"], rho=ADADELTA["rho"],
                                        eps=ADADELTA["epsilon"], **extra)
        self.graph, self.mode = None, "eager"
        if capturable:
            try:
                self._capture()
                self.mode = "cuda-graph"
            except Exception as exc:  # capture is an optimisation: fall back, but say why
                from _workload_common import emit
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
        per_epoch, done = self.x.shape[0] // BATCH, 0
        while done < count:
            perm = self.torch.randperm(self.x.shape[0], device=self.device)
            for b in range(min(per_epoch, count - done)):
                yield perm[b * BATCH:(b + 1) * BATCH]
            done += per_epoch

    def placement(self):
        param, batch = next(self.model.parameters()).device, self.x.device
        kind = param.type if param.type == batch.type else "mixed"
        return kind, "parameters on %s, batches on %s" % (param, batch)


class TorchBackend:
    name = "torch"

    def add_arguments(self, ap):
        ap.add_argument("--no-graphs", action="store_true", help="eager CUDA steps, no graph capture")

    def preload(self):
        import warnings
        warnings.filterwarnings("ignore", message="Failed to initialize NumPy")  # torch without NumPy: not needed
        import torch
        # The first optimiser built imports torch._dynamo (about 1.2 s): pay that here, before the gate
        # and beside the other runs, not inside the set-up of a timed run. No device is touched.
        torch.optim.Adadelta([torch.zeros(1, requires_grad=True)])

    def describe(self, args):
        self.preload()
        import torch
        self.torch, self.graphs = torch, not args.no_graphs
        self.threads = torch.get_num_threads()
        self.accel = self._pick(args.device)
        self.devices = {"cpu": torch.device("cpu"), self.accel.type: self.accel}
        if self.accel.type == "cuda":
            torch.backends.cudnn.benchmark = False  # autotuning costs more than it saves for 1 epoch
        return self._info()

    def _pick(self, wanted):
        torch = self.torch
        mps = getattr(torch.backends, "mps", None)
        have = {"cuda": torch.cuda.is_available(), "mps": bool(mps and mps.is_available()), "cpu": True}
        if wanted in (None, "", "auto"):
            return torch.device(next(k for k in ("cuda", "mps", "cpu") if have[k]))
        if wanted not in have:
            raise UsageError("torch has no device '%s'; use cuda, mps or cpu" % wanted)
        if not have[wanted]:
            raise UsageError("torch %s cannot use %s on this machine (%s)" % (torch.__version__, wanted, self._why_not()))
        return torch.device(wanted)

    def _why_not(self):
        torch = self.torch
        mps = getattr(torch.backends, "mps", None)
        text = "torch.cuda.is_available() is False (built for CUDA %s)" % (torch.version.cuda or "none: a CPU-only build")
        if mps is not None and mps.is_built():
            text += ", MPS built but not available"
        return text

    def _info(self):
        torch, device = self.torch, self.accel
        name, backend = "CPU", device.type
        if device.type == "cuda":
            name = torch.cuda.get_device_name(device)
            backend = "rocm" if getattr(torch.version, "hip", None) else "cuda"
        elif device.type == "mps":
            name = "Apple GPU (Metal)"
        return {"framework": "torch", "version": torch.__version__, "device": device.type, "backend": backend,
                "name": name, "detail": self._why_not() if device.type == "cpu" else ""}

    def load(self, pixels, labels, n):
        torch = self.torch
        x = torch.frombuffer(bytearray(pixels), dtype=torch.uint8).reshape(n, 1, 28, 28)
        return x, torch.frombuffer(bytearray(labels), dtype=torch.uint8).long()

    def trainer(self, device, x, y, weights):
        return Trainer(self.torch, self.devices[device], x, y, weights, self.graphs)

    def sync(self, device, value):
        if device == "cuda":
            self.torch.cuda.synchronize()
        elif device == "mps":
            self.torch.mps.synchronize()

    def loss_value(self, loss):
        return float(loss.detach())

    def matmul(self, device, n):
        a = self.torch.randn(n, n, device=self.devices[device])
        b = self.torch.randn(n, n, device=self.devices[device])
        return lambda: a @ b

    def precisions(self, device):
        """CUDA trains in TF32 where it is allowed (cuDNN convolutions by default): check both."""
        if device != "cuda":
            return ["fp32-metal" if device == "mps" else "fp32"]
        b = self.torch.backends
        return ["tf32", "fp32"] if (b.cuda.matmul.allow_tf32 or b.cudnn.allow_tf32) else ["fp32"]

    def reference_ops(self):
        from _reference import TorchOps
        return TorchOps(self.torch)

    def step_outputs(self, device, weights, batch, precision):
        torch = self.torch
        b = torch.backends
        saved = (b.cuda.matmul.allow_tf32, b.cudnn.allow_tf32)
        b.cuda.matmul.allow_tf32 = b.cudnn.allow_tf32 = precision == "tf32"
        try:
            dev = self.devices[device]
            model = build_model(torch.nn).eval()  # dropout off
            set_weights(torch, model, spec_tensors(torch, weights))
            model = model.to(dev)
            x, y = self.load(batch[0], batch[1], len(batch[1]))
            # NHWC memory seen as NCHW (the layout this step has always been measured in): on the CPU,
            # oneDNN sums conv1's weight gradient in blocks there (5e-6 from float64 on --synthetic's
            # batch), in plain NCHW in one long chain (6e-4).
            x = x.reshape(-1, 28, 28, 1).permute(0, 3, 1, 2)
            logits = model(x.to(dev).float().div_(255.0))
            loss = torch.nn.functional.cross_entropy(logits, y.to(dev))
            loss.backward()
            grads = [to_keras_layout(torch, name, p.grad.detach()) for (name, _), p in zip(SHAPES, model.parameters())]
            return logits.detach(), float(loss.detach()), grads
        finally:
            b.cuda.matmul.allow_tf32, b.cudnn.allow_tf32 = saved

    def evaluate(self, trainer, x, y):
        torch, device = self.torch, trainer.device
        model = trainer.model.eval()
        correct = torch.zeros((), dtype=torch.long, device=device)
        xs, ys = x.to(device).float().div_(255.0), y.to(device)
        with torch.no_grad():
            for i in range(0, xs.shape[0], 1000):
                correct += (model(xs[i:i + 1000]).argmax(1) == ys[i:i + 1000]).sum()
        return int(correct)


if __name__ == "__main__":
    main(TorchBackend())
