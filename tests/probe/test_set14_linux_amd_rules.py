"""Set 14's Linux/AMD rules (linux_amd_rules: a GPU named by its role, 'GPU is X with 4GB', 'on 7900XTX', /opt/rocm
paths, ollama's AVX runners; bare Radeon XT numbers and APU Radeons in gpu_names; 'torch==X' as a torch version;
an 'AMD' CPU form answer; gfx1150 in the ROCm wheels; an unknown torch device answer), fed literal lines."""
from macml.diagnose import run_checks
from macml.frameworks import judge
from macml.knowledge.rocm import no_rocm_build, rocm_gfx_verdict
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste import linux_amd_rules as amd
from macml.probe.paste.form_answer_rules import keyed_facts as form_keyed
from macml.probe.paste.gpu_names import gpu_names, gpu_vendor, informal_gpu_names
from macml.probe.paste.statement_rules import by_key
from macml.recipes.catalog import load_all

RECIPES = load_all()


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def _checks(facts):
    return {f.check: f.level for f in run_checks(facts, RECIPES)}


def test_bare_radeon_numbers():
    assert informal_gpu_names("when running mnist on 7900XTX") == ["7900XTX"]
    assert informal_gpu_names("a 6800 XT here") == ["6800 XT"]
    assert gpu_vendor("7900XTX") == gpu_vendor("9070 XT") == "AMD"
    assert informal_gpu_names("Ryzen 9 7900X") == [] and informal_gpu_names("AMD 7900") == []
    assert informal_gpu_names("integrated graphics is AMD 660M") == ["AMD 660M"]
    assert informal_gpu_names("AMD Radeon 780M Graphics") == []  # the formal reader names it whole
    assert gpu_names("GPU: Radeon 890M (gfx1150, 16GB dynamic VRAM)") == ["Radeon 890M"]


def test_role_gpu():
    assert amd.role_gpu("integrated graphics is AMD 660M") == [
        ("gpu.owned", {"name": "AMD 660M", "vendor": "AMD", "memory_mib": None, "index": None})]
    assert amd.role_gpu("dGPU: RTX 3060")[0][1]["name"] == "RTX 3060"
    assert amd.role_gpu("not using the integrated graphics: AMD 660M") == []
    assert amd.role_gpu("integrated graphics is fine") == []


def test_gpu_with_memory():
    assert amd.gpu_with_memory("GPU is nvidia 3050ti with 4GB ") == [("gpu.memory_of", {"index": None, "memory_mib": 4096})]
    assert amd.gpu_with_memory("GPU: RX 6800 with 16 GB VRAM") == [("gpu.memory_of", {"index": None, "memory_mib": 16384})]
    assert amd.gpu_with_memory("GPU is fine with 4GB") == []
    assert amd.gpu_with_memory("my laptop with 16GB") == []


def test_run_on_gpu():
    line = '# "RuntimeError: HIP error: invalid device function" when running "mnist" on 7900XTX'
    assert amd.run_on_gpu(line) == [("gpu.owned", {"name": "Radeon RX 7900 XTX", "vendor": "AMD", "memory_mib": None, "index": None})]
    assert amd.run_on_gpu("works on 7900XTX but not on RX 6600") == []  # two GPUs: whose is unclear
    assert amd.run_on_gpu("it runs on RTX 4090") == []
    assert amd.run_on_gpu("The same error was reported on 7900XTX in #1234") == []
    assert amd.run_on_gpu("The docs say it should run on 7900XTX") == []


def test_rocm_prefix_and_cpu_runner():
    assert amd.rocm_prefix("user@host:/opt/rocm_sdk_612/docs/examples/pytorch$ ./run.sh") == [("platform", "linux")]
    assert amd.rocm_prefix('export PATH=/opt/rocm/bin:$PATH') == [("platform", "linux")]
    assert amd.rocm_prefix("/opt/rocmish") == [] and amd.rocm_prefix("see docs/opt/rocm") == []
    assert amd.cpu_runner("/tmp/ollama306/runners/cpu_avx2/ollama_llama_server --model x") == [("cpu.hardware_arch", "x86_64")]
    assert amd.cpu_runner(r"C:\Users\me\AppData\Local\Temp\ollama1\runners\cpu_avx\ollama_llama_server.exe") == [
        ("cpu.hardware_arch", "x86_64")]
    assert amd.cpu_runner("/tmp/ollama/runners/cuda_v12/ollama_llama_server") == []


def test_pinned_torch_version():
    assert by_key("torch version", "torch==2.3.0+rocm6.0") == [
        ("package", {"name": "torch", "version": "2.3.0+rocm6.0"}), ("torch.version", "2.3.0+rocm6.0")]
    assert by_key("pytorch version", "torch==2.1.0")[-1] == ("torch.version", "2.1.0")
    assert by_key("numpy version", "torch==2.3.0") == []  # another package's pin


def test_cpu_vendor_answer():
    assert form_keyed("cpu", "AMD") == [("cpu.hardware_arch", "x86_64")]
    assert form_keyed("cpu", "Intel") == [("cpu.hardware_arch", "x86_64")]
    assert form_keyed("cpu", "Apple") == [] and form_keyed("gpu", "AMD") == [("gpu.present", "AMD")]


def test_gfx115x_in_rocm_wheels():
    assert rocm_gfx_verdict("gfx1150", "7.2")[0] is True and not no_rocm_build("gfx1151")


def test_unknown_torch_device_answer():
    assert judge("torch", {"version": "2.6.0+rocm6.2.4", "hip_version": "6.2"}, "rocm").sees is None
    assert judge("torch", {"version": "2.6.0+rocm6.2.4", "hip_version": "6.2", "cuda_available": False}, "rocm").sees is False


def test_issue_form_machine():
    text = ("GPU is nvidia 3050ti with 4GB \nintegrated graphics is AMD 660M\n\n### OS\n\nLinux\n\n### GPU\n\nNvidia\n\n"
            "### CPU\n\nAMD\n")
    facts = _facts(text)
    assert facts.platform == "linux" and facts.cpu.hardware_arch == "x86_64"
    assert [(g.vendor, g.model, g.memory_bytes) for g in facts.gpus] == [
        ("NVIDIA", "nvidia 3050ti", 4 * 1024**3), ("AMD", "AMD 660M", None)]


def test_rocm_torch_on_titled_gpu():
    text = ('# "RuntimeError: HIP error: invalid device function" when running "mnist" on 7900XTX\n\n'
            "* Pytorch version: 2.6.0+rocm6.2.4\n* Operating System and version:  Ubuntu 24.04.2 LTS x86_64\n")
    facts = _facts(text)
    assert [(g.vendor, g.model) for g in facts.gpus] == [("AMD", "Radeon RX 7900 XTX")]
    checks = _checks(facts)
    assert "framework_gpu" not in checks or checks["framework_gpu"] != "fail"  # torch's devices are not shown


def test_apu_gfx_attached():
    text = "OS: Ubuntu 24.04 LTS\nGPU: Radeon 890M (gfx1150, 16GB dynamic VRAM)\nMemory: 64GB DDR5\n"
    facts = _facts(text)
    assert [(g.model, g.compute_capability) for g in facts.gpus] == [("Radeon 890M", "gfx1150")]
    assert _checks(facts).get("rocm_target") in (None, "ok")
