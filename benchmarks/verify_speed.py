"""macml verify's training loops against the loops a user would otherwise write.

torch: the peer is the pytorch/examples mnist style (a torchvision-free Dataset with a per-sample
transform, a DataLoader, `.to(device)` per batch, `.item()` every 10 steps); macml's loop is
workload_torch.Trainer (data on the device, a shuffled index per epoch on the device, no host
sync per step), once as a CUDA graph (CUDA only) and once eager.
JAX: macml's loop is workload_jax.Trainer (the whole step, Adadelta included, one jitted
function, data on the device); the plain loop is the same math un-jitted, op by op, each batch
sliced on the host and put on the device.

Same model, optimiser, device and images in one process; one warm-up pass, then the median of
--reps passes. A framework that is not installed is skipped with a line saying so. Needs only
torch and/or jax (numpy comes with jax), and the stdlib.

    PYTHONPATH=src python3 benchmarks/verify_speed.py --images 60000
    VERIFY_SPEED_IMAGES=512 VERIFY_SPEED_REPS=1 python3 benchmarks/verify_speed.py   # a quick check
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKLOADS = ROOT / "checks" / "workloads"
sys.path.insert(0, str(WORKLOADS))
import _model_spec as spec  # noqa: E402
import _workload_common as common  # noqa: E402


def load(name):
    module_spec = importlib.util.spec_from_file_location(name, WORKLOADS / f"{name}.py")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def host_data(args):
    """(pixels, labels, n, source): the 10k MNIST test split if at --data-dir, else --synthetic's images."""
    data = Path(args.data_dir)
    if not args.synthetic and (data / "t10k-images-idx3-ubyte.gz").is_file():
        pixels, labels, n = common.read_split(str(data / "t10k-images-idx3-ubyte.gz"),
                                              str(data / "t10k-labels-idx1-ubyte.gz"), ":")
        source = f"MNIST t10k from {data}"
    else:
        pixels, labels, n = common.synthetic_split(10240)
        source = "generated digit-like images (--synthetic)"
    reps = -(-args.images // n)
    return (pixels * reps)[: args.images * 784], (labels * reps)[: args.images], args.images, source


def timed_passes(loops, reps):
    """{name: fn() -> images}: one warm-up pass each, then `reps` timed passes; medians in images/s."""
    first, rates = {}, {name: [] for name in loops}
    for rep in range(reps + 1):
        for name, fn in loops.items():
            start = time.perf_counter()
            seen = fn()
            seconds = time.perf_counter() - start
            if rep == 0:
                first[name] = seconds
            else:
                rates[name].append(seen / seconds)
    return {name: (statistics.median(r), first[name]) for name, r in rates.items()}


def print_table(results, images, baseline):
    print(f"{'loop':<14}{'images/s':>12}{'s/pass':>10}{'ms/step':>10}{'warm-up pass s':>16}  {'vs ' + baseline}")
    for name, (rate, warm) in results.items():
        print(f"{name:<14}{rate:>12,.0f}{images / rate:>10.3f}{1000 * spec.BATCH / rate:>10.2f}{warm:>16.2f}"
              f"  {rate / results[baseline][0]:.2f}x")


def torch_section(args, host):
    try:
        import torch
        from torch.utils.data import DataLoader, Dataset
    except ImportError as exc:
        print(f"torch: skipped ({exc})")
        return
    wl = load("workload_torch")
    backend = wl.TorchBackend()
    backend.describe(argparse.Namespace(device=args.device, no_graphs=False))
    device = backend.accel
    x, y = backend.load(*host[:3])
    steps = host[2] // spec.BATCH
    weights = spec.training_weights(spec.initial_weights())
    sync = lambda: backend.sync(device.type, None)  # noqa: E731

    class MnistDataset(Dataset):
        def __len__(self):
            return x.shape[0]

        def __getitem__(self, i):
            return x[i].float().div(255.0), int(y[i])

    model = wl.build_model(torch.nn).to(device)
    wl.set_weights(torch, model, wl.spec_tensors(torch, weights))
    opt = torch.optim.Adadelta(model.parameters(), lr=1.0, rho=0.95, eps=1e-7)
    loader = DataLoader(MnistDataset(), batch_size=spec.BATCH, shuffle=True, num_workers=args.workers,
                        pin_memory=device.type == "cuda", persistent_workers=args.workers > 0, drop_last=True)

    def peer():
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

    def macml(trainer):
        def run():
            for idx in trainer.batches(steps):
                trainer.step(idx)
            sync()
            return steps * spec.BATCH
        return run

    loops = {"peer": peer}
    modes = []
    for graphs in ((True, False) if device.type == "cuda" else (False,)):
        trainer = wl.Trainer(torch, device, x, y, weights, graphs)
        loops[f"macml-{trainer.mode}"] = macml(trainer)
        modes.append(trainer.mode)
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else platform.processor() or "CPU"
    print(f"torch {torch.__version__} on {device.type}: {name}; {torch.get_num_threads()} CPU threads; "
          f"{args.workers} DataLoader worker(s) for the peer; macml modes: {', '.join(modes)}")
    print_table(timed_passes(loops, args.reps), steps * spec.BATCH, "peer")


def jax_section(args, host):
    try:
        import jax
        import numpy as np
    except ImportError as exc:
        print(f"jax: skipped ({exc})")
        return
    wl = load("workload_jax")
    backend = wl.JaxBackend()
    info = backend.describe(argparse.Namespace(device=args.device if args.device != "cuda" else "gpu"))
    device = backend.devices[info["device"]]
    x, y = backend.load(*host[:3])
    steps = host[2] // spec.BATCH
    weights = spec.training_weights(spec.initial_weights())
    jitted = wl.Trainer(jax, device, x, y, weights)

    def macml():
        loss = None
        for idx in jitted.batches(steps):
            loss = jitted.step(idx)
        jax.block_until_ready(loss)
        return steps * spec.BATCH

    params = [jax.device_put(w, device) for w in wl.numpy_weights(np, weights)]
    state = {"params": params, "acc_g": [jax.numpy.zeros_like(p) for p in params],
             "acc_d": [jax.numpy.zeros_like(p) for p in params], "key": jax.random.PRNGKey(0)}
    grad_fn = jax.value_and_grad(lambda p, xb, yb, k: wl.loss_of(jax, p, xb, yb, k), has_aux=True)
    rng = np.random.RandomState(0)

    def plain():
        perm = rng.permutation(x.shape[0])
        loss = None
        for b in range(steps):
            idx = perm[b * spec.BATCH:(b + 1) * spec.BATCH]
            xb = jax.device_put(x[idx].astype(np.float32) / 255.0, device)
            yb = jax.device_put(y[idx].astype(np.int32), device)
            state["key"], sub = jax.random.split(state["key"])
            (loss, _), grads = grad_fn(state["params"], xb, yb, sub)
            state["params"], state["acc_g"], state["acc_d"] = wl.adadelta(
                jax, state["params"], grads, state["acc_g"], state["acc_d"])
            if b % 10 == 0:
                float(loss)  # the usual log line
        jax.block_until_ready(loss)
        return steps * spec.BATCH

    print(f"jax {jax.__version__} on {info['device']}: {info['name']}")
    print_table(timed_passes({"plain-eager": plain, "macml-jit": macml}, args.reps), steps * spec.BATCH, "plain-eager")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="auto")
    ap.add_argument("--images", type=int, default=int(os.environ.get("VERIFY_SPEED_IMAGES", 60000)),
                    help="images per pass (default 60000, or VERIFY_SPEED_IMAGES)")
    ap.add_argument("--reps", type=int, default=int(os.environ.get("VERIFY_SPEED_REPS", 3)))
    ap.add_argument("--data-dir", default=os.environ.get("DATA", str(ROOT.parent / "shared" / "data" / "mnist")))
    ap.add_argument("--synthetic", action="store_true")
    ap.add_argument("--workers", type=int, default=1, help="DataLoader workers for the peer (the example: 1)")
    ap.add_argument("--only", choices=("torch", "jax"))
    args = ap.parse_args(argv)
    host = host_data(args)
    print(f"{time.strftime('%Y-%m-%d %H:%M')} {platform.node()}; {host[3]}; {host[2]} images per pass; "
          f"median of {args.reps} passes after one warm-up pass")
    for name, section in (("torch", torch_section), ("jax", jax_section)):
        if args.only in (None, name):
            print()
            section(args, host)
    return 0


if __name__ == "__main__":
    sys.exit(main())
