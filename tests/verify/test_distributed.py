"""macml verify --nproc: pure launch planning and rules, and real gloo runs on this CPU."""
import json
import os
import socket
import subprocess
import sys

import pytest

from conftest import PROJECT, needs_mnist, SHARED_MNIST
from macml.errors import MacmlError
from macml.verify.distributed import Launch, parse_nproc, plan_launch
from macml.verify.distributed_result import collect, judge

GOOD = [
    {"event": "ranks", "backend": "nccl", "world_size": 2, "nccl": "2.27.5", "ranks": [
        {"rank": 0, "local_rank": 0, "host": "h", "device": "cuda:0", "name": "NVIDIA H200"},
        {"rank": 1, "local_rank": 1, "host": "h", "device": "cuda:1", "name": "NVIDIA H200"}]},
    {"event": "allreduce", "world_size": 2, "exact": True, "max_error": 0.0},
    {"event": "baseline", "processes": 1, "images_per_s": 50000.0, "ms_per_step": 2.56},
    {"event": "data_parallel", "processes": 2, "images_per_s": 90000.0, "ms_per_step": 2.84,
     "param_max_diff": 0.0, "first_loss": 2.30, "final_loss": 0.9},
    {"event": "busbw", "bytes": 134217728, "seconds": 0.001, "algbw_gbs": 134.2, "busbw_gbs": 134.2},
    {"event": "done"},
]


def statuses(events, synthetic=False, peak=None):
    return {c.name: c.status for c in judge(collect(events), True, synthetic, peak, "NVLink")}


def replace(event_name, **fields):
    return [dict(e, **fields) if e["event"] == event_name else e for e in GOOD]


def test_good_run_passes_everything():
    assert statuses(GOOD) == {"devices": "pass", "all-reduce": "pass", "parameters in sync": "pass", "loss": "pass",
                              "scaling": "pass", "all-reduce bandwidth": "pass"}
    assert collect(GOOD).scaling_efficiency == pytest.approx(0.9)


@pytest.mark.parametrize("events, name, status", [
    (replace("allreduce", exact=False, max_error=1.0), "all-reduce", "fail"),
    (replace("data_parallel", param_max_diff=1e-7), "parameters in sync", "fail"),
    (replace("data_parallel", final_loss=2.5), "loss", "fail"),
    (replace("data_parallel", final_loss=float("nan")), "loss", "fail"),
    (replace("data_parallel", images_per_s=55000.0), "scaling", "warn"),
    (replace("ranks", ranks=GOOD[0]["ranks"][:1]), "devices", "fail"),
    (replace("ranks", ranks=[dict(r, device="cuda:0") for r in GOOD[0]["ranks"]]), "devices", "fail"),
    (replace("ranks", ranks=[dict(r, device="cpu") for r in GOOD[0]["ranks"]]), "devices", "fail"),
    ([e for e in GOOD if e["event"] != "done"], "workload", "fail"),
], ids=["wrong-sum", "params-drift", "loss-up", "loss-nan", "poor-scaling", "rank-missing", "shared-gpu",
        "rank-on-cpu", "cut-short"])
def test_rules(events, name, status):
    assert statuses(events)[name] == status


def test_synthetic_judges_only_finite_loss():
    assert statuses(replace("data_parallel", final_loss=2.5), synthetic=True)["loss"] == "pass"


def test_bandwidth_against_the_link_peak():
    (check,) = [c for c in judge(collect(GOOD), True, False, 450.0, "NVLink") if c.name == "all-reduce bandwidth"]
    assert "30% of the NVLink peak 450 GB/s" in check.detail


def test_workload_error_is_the_verdict():
    (check,) = judge(collect([{"event": "error", "kind": "RuntimeError", "message": "local rank 1 has no GPU"}]),
                     True, False)
    assert check.status == "fail" and "no GPU" in check.detail


def test_torchrun_arguments():
    assert Launch(2, device="cpu").torchrun_args() == ["--nproc-per-node", "2", "--standalone"]
    multi = Launch(1, 2, 1, "10.0.0.5:29500").torchrun_args()
    assert multi[multi.index("--rdzv-endpoint") + 1] == "10.0.0.5:29500"
    assert multi[-2:] == ["--rdzv-conf", "is_host=0"]


@pytest.mark.parametrize("args, gpus, message", [
    (("all", 1, 0, None, "cpu"), 0, "sees no GPU"),
    (("0", 1, 0, None, None), 0, "positive number"),
    (("2", 0, 0, None, None), 0, "--nnodes must be at least 1"),
    (("1", 2, 2, "h:1", None), 0, "--node-rank must be from 0 to 1"),
    (("1", 2, 0, None, None), 0, "--rdzv-endpoint HOST:PORT"),
    (("1", 2, 0, "host-without-port", None), 0, "--rdzv-endpoint HOST:PORT"),
    (("2", 1, 0, None, "tpu"), 0, "--device tpu is not supported"),
    (("2", 1, 0, None, "cuda"), 0, "sees no CUDA GPU"),
    (("4", 1, 0, None, "cuda"), 2, "needs 4 GPUs"),
], ids=["all-no-gpu", "zero", "no-nodes", "rank-out-of-range", "no-endpoint", "endpoint-no-port", "tpu",
        "cuda-without-gpu", "more-than-gpus"])
def test_bad_launches_are_user_errors(args, gpus, message):
    with pytest.raises(MacmlError, match=message):
        plan_launch(*args, gpus=gpus)


def test_all_means_every_gpu():
    assert parse_nproc("all", 8) == 8
    assert plan_launch("all", 1, 0, None, None, gpus=4) == Launch(4, device="cuda")
    assert plan_launch("2", 1, 0, None, None, gpus=0) == Launch(2, device="cpu")


# ---- real runs: gloo on this CPU -------------------------------------------------------------

torch = pytest.importorskip("torch", reason="needs torch in the test interpreter: pip install -e '.[test]'")


def run_cli(*args, timeout=240, pythonpath=str(PROJECT / "src")):
    env = dict(os.environ, PYTHONPATH=pythonpath)
    return subprocess.run([sys.executable, "-m", "macml", "verify", *args], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=PROJECT)


@needs_mnist
@pytest.mark.heavy
def test_two_processes_on_the_cpu_pass_without_numpy(numpy_hidden):
    proc = run_cli("--nproc", "2", "--data-dir", str(SHARED_MNIST), "--steps", "6", "--json", pythonpath=numpy_hidden)
    report = json.loads(proc.stdout)
    assert proc.returncode == 0, (report["checks"], report["stderr_tail"])
    assert report["verdict"] == "PASS" and report["measurements"]["backend"] == "gloo"
    assert [r["device"] for r in report["measurements"]["ranks"]] == ["cpu", "cpu"]
    assert report["measurements"]["param_max_diff"] == 0.0
    assert report["measurements"]["final_loss"] < report["measurements"]["first_loss"]
    assert {c["name"] for c in report["checks"]} >= {"devices", "all-reduce", "parameters in sync", "loss"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.heavy
def test_two_nodes_on_loopback():
    endpoint = f"127.0.0.1:{free_port()}"
    env = dict(os.environ, PYTHONPATH=str(PROJECT / "src"))
    nodes = [subprocess.Popen([sys.executable, "-m", "macml", "verify", "--nproc", "1", "--nnodes", "2",
                               "--node-rank", str(rank), "--rdzv-endpoint", endpoint, "--synthetic",
                               "--steps", "4", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env, cwd=PROJECT) for rank in (0, 1)]
    outputs = [node.communicate(timeout=240) for node in nodes]
    reports = [json.loads(out) for out, _ in outputs]
    assert [n.returncode for n in nodes] == [0, 0], [err[-2000:] for _, err in outputs]
    full = [r for r in reports if r["measurements"]["ranks"]]
    assert len(full) == 1, reports  # the node that got global rank 0 reports for the job
    assert full[0]["measurements"]["world_size"] == 2 and full[0]["verdict"] == "PASS"
    (other,) = [r for r in reports if r is not full[0]]
    assert [c["name"] for c in other["checks"]] == ["this node"] and other["verdict"] == "PASS"


def test_one_rank_judges_no_scaling_or_bandwidth():
    one = [dict(e, world_size=1, ranks=e["ranks"][:1]) if e["event"] == "ranks" else e for e in GOOD]
    found = statuses(one)
    assert found["scaling"] == "skip" and found["all-reduce bandwidth"] == "skip"
    assert found["devices"] == found["parameters in sync"] == "pass"
