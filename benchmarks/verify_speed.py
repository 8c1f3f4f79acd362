"""macml verify's training loop against the loop a user would otherwise write.

The peer is the pytorch/examples mnist style: a (torchvision-free) Dataset with a
per-sample transform, a DataLoader, `.to(device)` per batch and `.item()` every 10 steps.
macml's loop is checks/verify_torch.py's Trainer: data on the device, a shuffled index per
epoch on the device, no host sync per step, a CUDA graph on CUDA. Same model, optimiser,
device and number of images, in one process; several repetitions, medians.

    PYTHONPATH=src python3 benchmarks/verify_speed.py --device cuda --images 60000
"""
from __future__ import annotations

import argparse
import importlib.util
import platform
import statistics
import sys
import time
from pathlib import Path

import torch
from torch.utils.data import DataLoader, Dataset

ROOT = Path(__file__).resolve().parents[1]


def load_workload():
    spec = importlib.util.spec_from_file_location("verify_torch", ROOT / "checks" / "workloads" / "workload_torch.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class MnistDataset(Dataset):
    """What a user writes without torchvision: index -> (normalised image, label)."""

    def __init__(self, images_u8, labels):
        self.images, self.labels = images_u8, labels

    def __len__(self):
        return self.images.shape[0]

    def __getitem__(self, i):
        image = self.images[i].float().div(255.0)
        return (image - 0.1307) / 0.3081, int(self.labels[i])


def images_for(args, wl):
    data = Path(args.data_dir)
    if not args.synthetic and (data / "t10k-images-idx3-ubyte.gz").is_file():
        x = wl.read_idx(str(data / "t10k-images-idx3-ubyte.gz"), torch).reshape(-1, 1, 28, 28)
        y = wl.read_idx(str(data / "t10k-labels-idx1-ubyte.gz"), torch).long()
        source = f"real MNIST from {data}"
    else:
        x = torch.randint(0, 256, (10000, 1, 28, 28), dtype=torch.uint8)
        y = torch.randint(0, 10, (10000,))
        source = "random MNIST-shaped images"
    reps = -(-args.images // x.shape[0])
    return x.repeat(reps, 1, 1, 1)[: args.images], y.repeat(reps)[: args.images], source


def peer_pass(model, opt, loader, device, sync):
    model.train()
    seen = 0
    for batch_idx, (data, target) in enumerate(loader):
        data, target = data.to(device), target.to(device)
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(data), target)
        loss.backward()
        opt.step()
        seen += data.shape[0]
        if batch_idx % 10 == 0:
            loss.item()  # the example's log line
    sync()
    return seen


def macml_pass(trainer, steps, batch, sync):
    for idx in trainer.batches(steps):
        trainer.step(idx)
    sync()
    return steps * batch


def time_it(fn):
    start = time.perf_counter()
    seen = fn()
    return time.perf_counter() - start, seen


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="auto")
    ap.add_argument("--images", type=int, default=60000, help="images per pass (one 'epoch')")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data" / "mnist"))
    ap.add_argument("--synthetic", action="store_true")
    ap.add_argument("--workers", type=int, default=1, help="DataLoader workers for the peer (the example: 1)")
    ap.add_argument("--no-graphs", action="store_true", help="macml loop without CUDA graphs")
    args = ap.parse_args(argv)
    wl = load_workload()
    device = wl.pick_device(torch, args.device)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
    sync = lambda: wl.synchronize(torch, device)  # noqa: E731
    x, y, source = images_for(args, wl)
    steps = x.shape[0] // wl.BATCH

    torch.manual_seed(0)
    model = wl.build_model(torch.nn).to(device)
    opt = torch.optim.Adadelta(model.parameters(), lr=1.0)
    loader = DataLoader(MnistDataset(x, y), batch_size=wl.BATCH, shuffle=True, num_workers=args.workers,
                        pin_memory=device.type == "cuda", persistent_workers=args.workers > 0)
    setup_start = time.perf_counter()
    spec = wl.sys.modules["_model_spec"]
    weights = spec.training_weights(spec.initial_weights())
    trainer = wl.Trainer(torch, device, x, y, weights, graphs=not args.no_graphs)
    macml_setup = time.perf_counter() - setup_start

    results = {"peer": [], "macml": []}
    first = {}
    for rep in range(args.reps + 1):  # rep 0 is warm-up (cudnn autotune, workers start)
        for name, fn in (("peer", lambda: peer_pass(model, opt, loader, device, sync)),
                         ("macml", lambda: macml_pass(trainer, steps, wl.BATCH, sync))):
            seconds, seen = time_it(fn)
            if rep == 0:
                first[name] = seconds
            else:
                results[name].append(seen / seconds)
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else platform.processor() or "CPU"
    print(f"{time.strftime('%Y-%m-%d')} torch {torch.__version__} on {device.type}: {name}; "
          f"{torch.get_num_threads()} CPU threads; {source}; {x.shape[0]} images per pass; "
          f"median of {args.reps} passes after one warm-up pass; macml loop mode: {trainer.mode}")
    print(f"{'loop':<8}{'images/s':>12}{'s/pass':>10}{'ms/step':>10}{'warm-up pass s':>16}")
    med = {}
    for key in ("peer", "macml"):
        med[key] = statistics.median(results[key])
        print(f"{key:<8}{med[key]:>12,.0f}{x.shape[0] / med[key]:>10.3f}"
              f"{1000 * wl.BATCH / med[key]:>10.2f}{first[key]:>16.2f}")
    print(f"ratio macml/peer: {med['macml'] / med['peer']:.2f}x  (macml setup incl. graph capture: {macml_setup:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
