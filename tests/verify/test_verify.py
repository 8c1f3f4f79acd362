"""`macml verify`: the judging rules on literal events, the streaming runner, and helpers."""
from __future__ import annotations

import sys

import pytest

from macml.errors import MacmlError
from macml.verify.mnist import MnistFiles
from macml.facts import GPU
from macml.verify.command import choose_frameworks, parse_importable, with_peak, workload_args, workload_env
from macml.verify.result import DeviceInfo
from macml.verify.report import FrameworkVerify, VerifyReport
from macml.verify.result import collect, judge
from macml.verify.stream import parse_event, stream_events

CUDA = {"event": "device", "framework": "torch", "version": "2.11.0", "device": "cuda", "backend": "cuda",
        "name": "NVIDIA H200", "parameters": 1199882}
CPU_ONLY = dict(CUDA, device="cpu", backend="cpu", name="CPU", detail="CPU-only build")


def timing(device, ms):
    return {"event": "timing", "device": device, "mode": "eager", "warmup_steps": 5, "warmup_s": 0.5,
            "steps": 100, "median_ms": ms, "min_ms": ms, "max_ms": ms, "threads": 16}


def parity(precision="tf32", logits=1e-4, grads=1.7e-2, finite=True):
    return {"event": "parity", "device": "cuda", "precision": precision, "finite": finite,
            "logits_rel": logits, "grad_rel": grads}


def accuracy(acc=0.985, steps=468, device="cuda", images=60000, loss=0.05):
    return {"event": "accuracy", "device": device, "steps": steps, "train_images": images, "test_images": 10000,
            "train_s": 0.5, "accuracy": acc, "final_loss": loss}


GOOD_RUN = [CUDA, timing("cuda", 0.8), {"event": "matmul", "device": "cuda", "tflops": 50.0}, parity(),
            parity("fp32", 3e-7, 8e-7), timing("cpu", 44.0), accuracy(), {"event": "done"}]


def statuses(events, cpu_requested=False, synthetic=False, full=True):
    checks = judge(collect(events), cpu_requested, synthetic, full)
    return {c.name: c.status for c in checks}


def replace(events, index, new):
    return events[:index] + [new] + events[index + 1:]


def test_good_accelerated_run_passes():
    assert set(statuses(GOOD_RUN).values()) == {"pass"}


@pytest.mark.parametrize("events, name, status", [
    (replace(GOOD_RUN, 3, parity(grads=0.05)), "parity", "fail"),
    (replace(GOOD_RUN, 4, parity("fp32", 1e-7, 2e-4)), "parity", "fail"),
    (replace(GOOD_RUN, 3, parity(finite=False)), "parity", "fail"),
    (replace(GOOD_RUN, 3, parity(grads=float("nan"))), "parity", "fail"),
    (replace(GOOD_RUN, 5, timing("cpu", 0.5)), "speed", "warn"),
    (replace(GOOD_RUN, 6, accuracy(acc=0.96)), "accuracy", "fail"),
    (replace(GOOD_RUN, 6, accuracy(loss=float("nan"))), "accuracy", "fail"),
    (replace(GOOD_RUN, 6, accuracy(acc=0.5, steps=100)), "accuracy", "skip"),
    (replace(GOOD_RUN, 6, accuracy(device="cpu")), "accelerator", "fail"),
    (GOOD_RUN[:-2], "workload", "fail"),
    (GOOD_RUN[:-1] + [{"event": "error", "message": "CUDA out of memory"}], "workload", "fail"),
], ids=["tf32-over-tolerance", "strict-over-tolerance", "inf", "nan", "gpu-slower-is-a-warning",
        "accuracy-below-97", "diverged", "short-run-not-judged", "params-on-cpu", "stopped-early", "error-event"])
def test_rules(events, name, status):
    assert statuses(events)[name] == status


@pytest.mark.parametrize("tflops, status, words", [
    (50.0, "pass", "75% of the 67 peak"),
    (3.0, "warn", "underperforms"),
    (348.0, "warn", "did not run in strict FP32"),
    (348.0, "pass", "in TF32, the framework's default here (the FP32 peak does not apply)"),
], ids=["share-of-peak", "far-below-peak", "above-the-fp32-peak", "tf32-is-not-held-to-the-fp32-peak"])
def test_matmul_is_judged_against_the_fp32_peak(tflops, status, words):
    events = replace(GOOD_RUN, 0, dict(CUDA, peak_tflops=67.0))
    precision = "tf32" if "TF32" in words else "fp32"
    events = replace(events, 2, {"event": "matmul", "device": "cuda", "tflops": tflops, "precision": precision})
    check = next(c for c in judge(collect(events), False, False, True) if c.name == "matmul")
    assert check.status == status and words in check.detail, check


def test_gpu_slower_than_cpu_still_passes_and_explains():
    run = collect(replace(GOOD_RUN, 5, timing("cpu", 0.5)))
    speed = [c for c in judge(run, False, False, True) if c.name == "speed"][0]
    assert "launch" in speed.detail and "SLOWER" in speed.detail


def test_no_accelerator_fails_but_keeps_cpu_numbers():
    events = [CPU_ONLY, timing("cpu", 44.0), accuracy(device="cpu"), {"event": "done"}]
    run = collect(events)
    assert statuses(events)["accelerator"] == "fail"
    assert run.cpu.median_ms == 44.0 and run.accel is None
    report = VerifyReport((FrameworkVerify("torch", "py", "d", False, False, run, judge(run, False, False, True)),))
    assert report.exit_code == 1 and report.to_json()["runs"][0]["cpu"]["images_per_s"] == pytest.approx(2909.1, 0.01)


CPU_PARITY = dict(parity("fp32", 2.4e-7, 3.2e-5), device="cpu", reference="numpy-float64")


@pytest.mark.parametrize("extra, verdict, not_judged", [
    ([CPU_PARITY], "PASS", ()),
    ([], "NOT JUDGED", ("parity",)),
    ([dict(CPU_PARITY, grad_rel=1e-3)], "FAIL", ()),
], ids=["float64-parity-passes", "no-parity-not-judged", "parity-over-fp64-tolerance"])
def test_cpu_requested_is_judged_against_float64(extra, verdict, not_judged):
    events = [CPU_ONLY, *extra, timing("cpu", 44.0), accuracy(device="cpu", acc=0.94, steps=62, images=8000),
              {"event": "done"}]
    run = collect(events)
    result = FrameworkVerify("torch", "py", "d", False, True, run, judge(run, True, False, False))
    assert result.verdict == verdict and result.not_judged == not_judged
    assert {c.name: c.status for c in result.checks}["accelerator"] == "pass"


def test_too_few_steps_is_not_a_pass():
    events = replace(GOOD_RUN, 6, accuracy(steps=8))
    run = collect(events)
    result = FrameworkVerify("torch", "py", "d", False, False, run, judge(run, False, False, True))
    assert result.verdict == "NOT JUDGED" and result.not_judged == ("accuracy",) and not result.passed


def test_synthetic_makes_no_accuracy_claim():
    events = [e for e in GOOD_RUN if e.get("event") != "accuracy"]
    checks = {c.name: c for c in judge(collect(events), False, True, True)}
    assert checks["accuracy"].status == "skip" and "NO accuracy claim" in checks["accuracy"].detail


def test_derived_numbers():
    t = collect(GOOD_RUN).accel
    assert t.images_per_s == pytest.approx(160000)
    assert t.epoch_s == pytest.approx(0.8 * 468 / 1000)
    assert t.tflops == pytest.approx(71.57e6 * 160000 / 1e12)


@pytest.mark.parametrize("line, expected", [
    ('{"event": "done"}', {"event": "done"}),
    ("I tensorflow/core: chatter", None),
    ('{"no_event": 1}', None),
    ("{broken", None),
], ids=["event", "chatter", "no-event-key", "bad-json"])
def test_parse_event(line, expected):
    assert parse_event(line) == expected


def test_stream_delivers_events_while_running_and_keeps_stderr():
    code = ("import json,sys\nfor i in range(3):\n print(json.dumps({'event':'progress','done':i}), flush=True)\n"
            "print('noise')\nsys.stderr.write('warned\\n')\n")
    seen = []
    result = stream_events([sys.executable, "-c", code], 30, seen.append)
    assert [e["done"] for e in seen] == [0, 1, 2] and result.returncode == 0
    assert "warned" in result.stderr_tail and not result.timed_out


def test_stream_kills_at_the_deadline():
    code = "import json,time\nprint(json.dumps({'event':'phase'}), flush=True)\ntime.sleep(60)\n"
    result = stream_events([sys.executable, "-c", code], 1.0, lambda e: None)
    assert result.timed_out and result.returncode is None and len(result.events) == 1


def test_stream_missing_interpreter():
    assert stream_events(["/nonexistent/python"], 5, lambda e: None).missing


@pytest.mark.parametrize("gpu, name, peak", [
    (GPU("Apple", "Apple M1 Pro", cores=16, peak_fp32_tflops=5.2, bandwidth_gbs=200.0), "Apple M1 Pro", 5.2),
    (None, "NVIDIA H200", 67.0),
], ids=["mac-gpu-facts", "name-lookup"])
def test_device_line_gets_the_chip_peak(gpu, name, peak):
    info = DeviceInfo(framework="torch", version="2.11", device="cuda" if gpu is None else "mps",
                      backend="cuda" if gpu is None else "mps", name="NVIDIA H200" if gpu is None else "Apple GPU")
    got = with_peak(info, gpu)
    assert (got.name, got.peak_tflops) == (name, peak)


def test_frameworks():
    assert parse_importable("torch\n\nmlx\nrandom\n") == ("torch", "mlx")
    assert choose_frameworks(None, ("torch", "plaidml")) == ("torch",)
    assert choose_frameworks("PyTorch", ("torch",)) == ("torch",)
    with pytest.raises(MacmlError, match="not installed"):
        choose_frameworks("tf", ("torch",))
    with pytest.raises(MacmlError, match="Unknown framework"):
        choose_frameworks("caffe", ("torch",))


def test_workload_args_pass_paths_and_slices(tmp_path):
    t = tmp_path / "t10k"
    files = MnistFiles(t, t, t, t, ":8000", "8000:", "data-dir", False)
    args = workload_args(files, None, 20, 1, 2.0)
    assert args[:2] == ["--device", "auto"] and "--steps" in args and args[-1] == "8000:"
    assert "--synthetic" in workload_args(None, "cpu", None, 1, 2.0)


def verified(framework, events, cpu_requested=False):
    run = collect(events)
    return FrameworkVerify(framework, "py", "d", False, cpu_requested, run, judge(run, cpu_requested, False, True))


def test_all_frameworks_side_by_side_in_text_and_json():
    from io import StringIO
    from rich.console import Console
    cpu_run = [dict(CPU_ONLY, framework="jax", version="0.8"), CPU_PARITY, timing("cpu", 320.0),
               accuracy(device="cpu", acc=0.991), {"event": "done"}]
    report = VerifyReport((verified("torch", GOOD_RUN), verified("jax", cpu_run, cpu_requested=True)))
    rows = {r["framework"]: r for r in report.to_json()["summary"]}
    assert rows["torch"]["device"] == "cuda" and rows["torch"]["ms_per_step"] == 0.8
    assert rows["torch"]["images_per_s"] == 160000.0 and rows["torch"]["verdict"] == "PASS"
    assert rows["torch"]["parity_worst_rel"] == 1.7e-2  # the TF32 mode's gradients
    assert rows["jax"]["device"] == "cpu" and rows["jax"]["ms_per_step"] == 320.0 and rows["jax"]["accuracy"] == 0.991
    out = StringIO()
    report.render_text(Console(file=out, width=160, color_system=None), verbose=False)
    table = out.getvalue().split("side by side")[1]
    torch_line = next(line for line in table.splitlines() if line.startswith("torch"))
    assert "cuda" in torch_line and "160,000" in torch_line and "98.50% (pass)" in torch_line and "PASS" in torch_line
    assert "jax 0.8" in table and "320.0" in table


def test_one_framework_has_no_side_by_side_table():
    from io import StringIO
    from rich.console import Console
    out = StringIO()
    VerifyReport((verified("torch", GOOD_RUN),)).render_text(Console(file=out, width=160), verbose=False)
    assert "side by side" not in out.getvalue()


# ---- a machine without an accelerator: judged by what the doctor's facts say --------------------

CPU_RUN = [CPU_ONLY, CPU_PARITY, timing("cpu", 44.0), accuracy(device="cpu", acc=0.94, steps=62, images=8000),
           {"event": "done"}]


def test_no_accelerator_on_a_machine_without_gpu_is_a_cpu_only_pass():
    from io import StringIO
    from rich.console import Console
    from macml.verify.machine import NoAccelerator

    run = collect(CPU_RUN)
    result = FrameworkVerify("torch", "py", "d", False, False, run, judge(run, False, False, False, NoAccelerator(None)))
    accelerator = next(c for c in result.checks if c.name == "accelerator")
    assert result.verdict == "PASS" and VerifyReport((result,)).exit_code == 0
    assert accelerator.status == "pass" and "proves the CPU build works, not acceleration" in accelerator.detail
    out = StringIO()
    VerifyReport((result,)).render_text(Console(file=out, width=300, color_system=None), verbose=False)
    assert "no accelerator found (CPU-only build): judging the CPU run" in out.getvalue()
    assert "torch: PASS (CPU only: the CPU build works; this proves no acceleration)" in out.getvalue()
    as_json = VerifyReport((result,)).to_json()["runs"][0]
    assert as_json["cpu_only"] is True and as_json["accelerator_found"] is False


def test_no_accelerator_where_the_machine_has_a_gpu_fails_with_the_fix():
    from macml.verify.machine import MissedGpu, NoAccelerator

    missed = MissedGpu("NVIDIA H200", "Install the torch build that uses it:", ("macml install --recipe pytorch-cuda",))
    run = collect(CPU_RUN)
    checks = {c.name: c for c in judge(run, False, False, False, NoAccelerator(missed))}
    assert checks["accelerator"].status == "fail"
    assert "this machine has NVIDIA H200" in checks["accelerator"].detail
    assert "macml install --recipe pytorch-cuda" in checks["accelerator"].detail


@pytest.mark.parametrize("machine, framework, gpu, fix", [
    ("linux-nvidia-cpu-torch", "torch", "NVIDIA", "macml install --recipe pytorch-cuda"),
    ("linux-nvidia-cpu-torch", "tensorflow", "NVIDIA", "tensorflow[and-cuda]"),
    ("linux-nvidia-cpu-torch", "jax", "NVIDIA", "jax[cuda12]"),
    ("linux-nvidia-cpu-torch", "mlx", None, None),
    ("linux-amd-rocm", "torch", "AMD", "macml install --recipe pytorch-rocm"),
    ("mac-m2-max", "torch", "Apple", "macml install --recipe pytorch-mps"),
    ("mac-vm-m4-max", "torch", None, None),
    ("linux-no-gpu", "torch", None, None),
    ("linux-no-gpu", "tensorflow", None, None),
], ids=lambda v: str(v))
def test_a_gpu_the_framework_should_use_comes_from_the_doctors_facts(machine_variant, machine, framework, gpu, fix):
    from macml.recipes.catalog import load_all
    from macml.verify.machine import missed_gpu

    found = missed_gpu(framework, machine_variant(machine).facts, load_all())
    if gpu is None:
        assert found is None
    else:
        assert found.gpu.startswith(gpu) and fix in found.sentence


@pytest.mark.parametrize("framework, device", [("torch", "gpu"), ("tensorflow", "cuda"), ("mlx", "mps"),
                                               ("jax", "mps")])
def test_device_a_framework_does_not_name_is_a_usage_error(framework, device):
    from macml import frameworks
    from macml.verify.command import check_device

    with pytest.raises(MacmlError) as err:
        check_device(device, (framework,))
    assert err.value.exit_code == 2 and frameworks.BY_NAME[framework].device_choices in err.value.message


@pytest.mark.parametrize("device, chosen", [("cuda", ("torch", "jax")), ("GPU", ("tensorflow", "mlx")),
                                            ("cpu", ("torch", "tensorflow", "plaidml", "mlx", "jax")),
                                            ("metal_amd_radeon_pro_560x.0", ("plaidml",)), (None, ("torch",))])
def test_devices_each_framework_names(device, chosen):
    from macml.verify.command import check_device

    check_device(device, chosen)


class FakeMachine:
    def __init__(self, answer):
        self.answer, self.started = answer, 0

    def start(self):
        self.started += 1

    def no_accelerator(self, framework):
        return self.answer


def fake_stream(events):
    from macml.verify.stream import StreamResult

    def stream(argv, timeout, on_event, env):
        for event in events:
            on_event(event)
        return StreamResult(tuple(argv), 0, tuple(events))
    return stream


@pytest.mark.parametrize("events, cpu_requested, probed", [
    (CPU_RUN, False, True), (CPU_RUN, True, False), (GOOD_RUN, False, False),
], ids=["no-accelerator-probes-the-machine", "cpu-asked-for", "accelerated"])
def test_the_machine_is_probed_only_where_no_accelerator_was_found(events, cpu_requested, probed):
    from macml.verify.command import Setting, run_framework
    from macml.verify.machine import NoAccelerator

    machine = FakeMachine(NoAccelerator(None))
    setting = Setting("py", (), "d", False, cpu_requested, False, machine)
    result = run_framework(setting, "torch", stream=fake_stream(events))
    assert (machine.started > 0) is probed and result.verdict == "PASS"


def test_cpu_timing_from_beside_the_accelerator_run_is_merged_and_said():
    from io import StringIO
    from rich.console import Console
    from macml.verify.command import Setting, finish_run
    from macml.verify.machine import NoAccelerator
    from macml.verify.stream import StreamResult

    setting = Setting("py", (), "d", False, False, True, FakeMachine(NoAccelerator(None)))
    main = StreamResult(("py",), 0, tuple(e for e in GOOD_RUN if e.get("device") != "cpu"))
    beside = dict(timing("cpu", 40.0), cores=15, beside_accelerator=True)
    cpu = StreamResult(("py",), 0, (beside, {"event": "matmul", "device": "cpu", "tflops": 1.2}, {"event": "done"}))
    run = finish_run(setting, "torch", main, cpu)
    assert run.verdict == "PASS" and run.measurements.cpu_matmul_tflops == 1.2
    speed = next(c for c in run.checks if c.name == "speed")
    assert speed.detail == "50.0x faster than the CPU (16 threads on 15 cores, beside the accelerator run)"
    out = StringIO()
    VerifyReport((run,)).render_text(Console(file=out, width=300, color_system=None), verbose=False)
    assert "The CPU was timed in a second process pinned to 15 cores" in out.getvalue()
    failed = finish_run(setting, "torch", main, StreamResult(("py",), 1, ({"event": "error", "message": "boom"},)))
    assert failed.verdict == "PASS" and failed.measurements.cpu is None  # the speed goes unjudged, nothing else
    assert "the CPU timing beside the accelerator run failed: boom" in failed.measurements.notes
    assert next(c for c in failed.checks if c.name == "speed").detail == "no CPU timing"


def test_timeline_says_when_each_measurement_arrived():
    stamped = [dict(e, t=float(i)) for i, e in enumerate(GOOD_RUN)]
    line = dict(collect(stamped).timeline)
    assert line == {"device": 0.0, "timing:cuda": 1.0, "matmul:cuda": 2.0, "parity:cuda": 3.0, "timing:cpu": 5.0,
                    "accuracy": 6.0, "done": 7.0}  # the first of each: the TF32 parity, not the FP32 one


def test_workloads_get_jax_s_persistent_compilation_cache_in_macml_s_cache(tmp_path):
    env = workload_env({"MACML_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin"})
    assert env["JAX_COMPILATION_CACHE_DIR"] == str(tmp_path / "jax-compile") and (tmp_path / "jax-compile").is_dir()
    assert env["PATH"] == "/usr/bin" and env["PYTHONUNBUFFERED"] == "1"


def test_a_user_s_own_jax_cache_wins_and_an_unusable_cache_means_none(tmp_path):
    mine = workload_env({"MACML_CACHE_DIR": str(tmp_path), "JAX_COMPILATION_CACHE_DIR": "/mine"})
    assert mine["JAX_COMPILATION_CACHE_DIR"] == "/mine" and not (tmp_path / "jax-compile").exists()
    (tmp_path / "a-file").write_text("")
    assert "JAX_COMPILATION_CACHE_DIR" not in workload_env({"MACML_CACHE_DIR": str(tmp_path / "a-file")})


@pytest.mark.parametrize("environ, jaxlib, flags", [
    ({}, "0.11.2", "--xla_gpu_enable_triton_gemm=false"),
    ({"XLA_FLAGS": "--xla_gpu_autotune_level=2"}, "0.11.2", None),
    ({}, "0.4.7", None),
    ({}, None, None),
], ids=["default", "users-flags-win", "jaxlib-older-than-the-flag", "no-jaxlib-metadata"])
def test_jax_workload_asks_xla_for_cublas_dots_unless_told_otherwise(environ, jaxlib, flags):
    from conftest import load_check_script

    workload = load_check_script("workloads/workload_jax.py")
    assert workload.cublas_dots(environ, jaxlib) == flags
