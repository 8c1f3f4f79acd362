"""macml verify --nproc: the mnist_cnn trained data-parallel with torch.distributed (DDP).

Started once per rank by torchrun (its c10d rendezvous; env:// variables), inside the TARGET
interpreter: stdlib + torch only (no NumPy, so none of torch's object collectives, which need it),
no macml imports. NCCL on CUDA, gloo on the CPU. Global rank 0 writes the JSON-line events; the
other ranks report to it through collectives, so one stream describes the whole job.
"""
import json
import os
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # loaded by file path (tests), not run as a script
    sys.path.insert(0, HERE)
from _model_spec import ADADELTA, BATCH, initial_weights, training_weights  # noqa: E402
from _mnist_data import read_split, synthetic_split  # noqa: E402
from _workload_common import emit, workload_parser  # noqa: E402
from workload_torch import build_model, set_weights, spec_tensors  # noqa: E402

WARMUP_STEPS = 3
# Message sizes for the all-reduce bandwidth probe (bytes): large on GPUs, small on the CPU.
GPU_SIZES = (1 << 20, 16 << 20, 128 << 20)
CPU_SIZES = (64 << 10, 1 << 20, 8 << 20)


class Job:
    """This rank's place in the job: device, backend, rank and world size."""

    def __init__(self, torch, dist, wanted):
        self.torch, self.dist = torch, dist
        self.local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        cuda = torch.cuda.is_available() and wanted in ("auto", "cuda")
        if wanted == "cuda" and not torch.cuda.is_available():
            raise RuntimeError("--device cuda, but torch.cuda.is_available() is False on %s" % socket.gethostname())
        if cuda and self.local_rank >= torch.cuda.device_count():
            raise RuntimeError("local rank %d has no GPU: this node sees %d (CUDA_VISIBLE_DEVICES=%s)" % (
                self.local_rank, torch.cuda.device_count(), os.environ.get("CUDA_VISIBLE_DEVICES", "unset")))
        self.device = torch.device("cuda", self.local_rank) if cuda else torch.device("cpu")
        if cuda:
            torch.cuda.set_device(self.device)
        self.backend = "nccl" if cuda else "gloo"
        dist.init_process_group(self.backend)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()

    @property
    def leader(self):
        return self.rank == 0

    def sync(self):
        if self.device.type == "cuda":
            self.torch.cuda.synchronize(self.device)

    def emit(self, event, **fields):
        if self.leader:
            emit(event, **fields)


def gather_json(job, value):
    """Every rank's JSON-able value, on every rank. torch's all_gather_object needs NumPy to
    unpickle; this sends the JSON bytes as a padded uint8 tensor instead."""
    torch = job.torch
    data = json.dumps(value).encode("utf-8")
    sizes = [torch.zeros(1, dtype=torch.long, device=job.device) for _ in range(job.world)]
    job.dist.all_gather(sizes, torch.tensor([len(data)], dtype=torch.long, device=job.device))
    longest = max(int(size) for size in sizes)
    mine = torch.zeros(longest, dtype=torch.uint8, device=job.device)
    mine[:len(data)] = torch.frombuffer(bytearray(data), dtype=torch.uint8).to(job.device)
    everyone = [torch.empty_like(mine) for _ in range(job.world)]
    job.dist.all_gather(everyone, mine)
    return [json.loads(bytes(t[:int(n)].tolist()).decode("utf-8")) for t, n in zip(everyone, sizes)]


def report_ranks(job):
    """Every rank's host and device, gathered on all ranks; rank 0 reports them."""
    torch = job.torch
    name = torch.cuda.get_device_name(job.device) if job.device.type == "cuda" else "CPU"
    mine = {"rank": job.rank, "local_rank": job.local_rank, "host": socket.gethostname(),
            "device": str(job.device), "name": name, "pid": os.getpid()}
    everyone = gather_json(job, mine)
    nccl = torch.cuda.nccl.version() if job.backend == "nccl" else None
    job.emit("ranks", backend=job.backend, world_size=job.world, ranks=everyone, torch=torch.__version__,
             nccl=".".join(str(v) for v in nccl) if isinstance(nccl, tuple) else nccl)


def check_allreduce(job):
    """All-reduce known integers (exact in float32): every element must be the exact sum."""
    torch = job.torch
    pattern = torch.arange(4096, dtype=torch.float32, device=job.device) % 7 + 1
    mine = pattern * (job.rank + 1)
    job.dist.all_reduce(mine)
    expected = pattern * (job.world * (job.world + 1) / 2)
    error = float((mine - expected).abs().max())
    errors = gather_json(job, error)
    job.emit("allreduce", world_size=job.world, elements=int(pattern.numel()), max_error=max(errors),
             exact=all(e == 0.0 for e in errors))


def shard(job, x, y):
    """This rank's share of the training images (every world-th one), as DistributedSampler does."""
    return x[job.rank::job.world], y[job.rank::job.world]


def make_trainer(job, x_u8, y, ddp):
    torch = job.torch
    model = build_model(torch.nn)
    # The spec's initial weights on every rank (DDP also broadcasts rank 0's).
    set_weights(torch, model, spec_tensors(torch, training_weights(initial_weights())))
    model = model.to(job.device).train()
    if ddp:
        ids = [job.device.index] if job.device.type == "cuda" else None
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=ids)
    opt = torch.optim.Adadelta(model.parameters(), lr=ADADELTA["learning_rate"], rho=ADADELTA["rho"],
                               eps=ADADELTA["epsilon"])
    x = x_u8.to(job.device).float().div_(255.0)
    y = y.to(job.device)
    gen = torch.Generator(device="cpu").manual_seed(1000 + job.rank)

    def step():
        idx = torch.randint(0, x.shape[0], (BATCH,), generator=gen).to(job.device)
        opt.zero_grad(set_to_none=False)
        loss = torch.nn.functional.cross_entropy(model(x[idx]), y[idx])
        loss.backward()
        opt.step()
        return loss
    return model, step


def timed_steps(job, step, steps, label):
    """Warm-up, then `steps` synchronised steps -> (seconds per step, first loss, last loss).
    Every rank runs the same count: a rank that stopped early would hang the others."""
    first = float(step().detach())
    for _ in range(WARMUP_STEPS - 1):
        step()
    job.sync()
    start = time.perf_counter()
    loss = None
    for i in range(steps):
        loss = step()
        if job.leader and (i + 1) % max(1, steps // 10) == 0:
            emit("progress", phase=label, done=(i + 1) / steps)
    job.sync()
    return (time.perf_counter() - start) / steps, first, float(loss.detach())


def single_process_baseline(job, x, y, steps):
    """Rank 0 alone, no DDP, on its own device, while the others wait: the 1-process throughput."""
    if job.leader:
        _, step = make_trainer(job, x, y, ddp=False)
        per_step, _, _ = timed_steps(job, step, steps, "1-process timing")
        emit("baseline", processes=1, device=str(job.device), ms_per_step=1000 * per_step,
             images_per_s=BATCH / per_step)
    job.dist.barrier()


def data_parallel_run(job, x, y, steps):
    torch = job.torch
    model, step = make_trainer(job, *shard(job, x, y), ddp=True)
    per_step, first, last = timed_steps(job, step, steps, "%d-process timing" % job.world)
    flat = torch.cat([p.detach().reshape(-1) for p in model.parameters()])
    high, low = flat.clone(), flat.clone()
    job.dist.all_reduce(high, op=job.dist.ReduceOp.MAX)
    job.dist.all_reduce(low, op=job.dist.ReduceOp.MIN)
    losses = torch.tensor([first, last], dtype=torch.float64, device=job.device)
    job.dist.all_reduce(losses)
    losses /= job.world
    job.emit("data_parallel", processes=job.world, steps=steps, ms_per_step=1000 * per_step,
             images_per_s=job.world * BATCH / per_step, param_max_diff=float((high - low).abs().max()),
             parameters=int(flat.numel()), first_loss=float(losses[0]), final_loss=float(losses[1]))


def bus_bandwidth(job, reps):
    """nccl-tests' all-reduce bus bandwidth: algbw * 2(n-1)/n, at a few message sizes."""
    torch = job.torch
    sizes = GPU_SIZES if job.device.type == "cuda" else CPU_SIZES
    for size in sizes:
        buf = torch.ones(size // 4, dtype=torch.float32, device=job.device)
        for _ in range(2):
            job.dist.all_reduce(buf)
        job.sync()
        job.dist.barrier()
        start = time.perf_counter()
        for _ in range(reps):
            job.dist.all_reduce(buf)
        job.sync()
        seconds = (time.perf_counter() - start) / reps
        algbw = size / seconds / 1e9
        job.emit("busbw", bytes=size, seconds=seconds, algbw_gbs=algbw,
                 busbw_gbs=algbw * 2 * (job.world - 1) / job.world)


def load_data(args, torch):
    """Training images as uint8 (n, 1, 28, 28) and labels, from the IDX files or --synthetic."""
    if args.synthetic or not args.train:
        pixels, labels, n = synthetic_split(4096)
    else:
        pixels, labels, n = read_split(args.train[0], args.train[1], args.train_slice)
    x = torch.frombuffer(bytearray(pixels), dtype=torch.uint8).reshape(n, 1, 28, 28)
    return x, torch.frombuffer(bytearray(labels), dtype=torch.uint8).long()


def main(argv=None):
    ap = workload_parser("torch, data-parallel")
    ap.add_argument("--bus-reps", type=int, default=10)
    args = ap.parse_args(argv)
    try:
        import torch
        import torch.distributed as dist
    except ImportError as exc:
        emit("error", kind="missing-framework", message="cannot import torch: %s" % exc)
        return 3
    job = Job(torch, dist, args.device)
    try:
        report_ranks(job)
        check_allreduce(job)
        x, y = load_data(args, torch)
        steps = args.steps or 30
        job.emit("phase", name="1-process timing")
        single_process_baseline(job, x, y, steps)
        job.emit("phase", name="%d-process timing" % job.world)
        data_parallel_run(job, x, y, steps)
        job.emit("phase", name="all-reduce bandwidth")
        bus_bandwidth(job, args.bus_reps)
        job.emit("done")
    finally:
        dist.destroy_process_group()
    return 0


def run():
    """Any exception becomes an "error" event (from rank 0) and status 1. The process ends with
    os._exit once its output is flushed: at interpreter teardown, a thread torch's gloo backend
    leaves behind aborts the process now and then ("terminate called without an active exception",
    seen in about 1 run in 5 under load), after every event was written."""
    try:
        code = main()
    except Exception as exc:  # the orchestrator turns this into a failed check with the message
        emit("error", kind=type(exc).__name__, message=str(exc))
        code = 1
    # Leave without C++ static destructors: gloo's threads at exit sometimes end the process with
    # "terminate called without an active exception" (SIGABRT) after the job has finished.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    run()
