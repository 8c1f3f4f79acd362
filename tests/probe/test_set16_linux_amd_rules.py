"""Set 16's Linux/AMD rules (kernel_log_rules: Ubuntu's kernel stamp, x86 stack-dump markers, amdgpu DKMS versions;
rocm_runtime_rules: ROCr log lines, 'my hardware compatible with ROCm', LM Studio's vramCapacity; own_gpu_words_rules:
'Same Node also runs MI100 and MI210', 'my GPU (Vega 10 XT)', a GeForce number in one sentence of several, the fuller
'rx 7600xt' of an owned '7600xt'; host_os_words_rules: 'my linux host', a '-linux-x64' build the writer runs, a bold
'**Which operating system?**' answer; a Windows VM is not the machine's OS; rocm-smi's unnamed card named by the
text; a mixed AMD node), fed literal lines."""
from macml.diagnose import run_checks
from macml.facts import GPU
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import host_os_words_rules as host
from macml.probe.paste import import_pastes
from macml.probe.paste import kernel_log_rules as kernel
from macml.probe.paste import own_gpu_words_rules as own
from macml.probe.paste import rocm_runtime_rules as rocm
from macml.probe.paste.linux_words_rules import os_in_words
from macml.probe.tool_gpu_names import name_unnamed_amd
from macml.recipes.catalog import load_all
from macml.recipes.recommend import recommendation

RECIPES = load_all()


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def test_ubuntu_kernel_stamp():
    line = "[Fri Jan  6 18:42:01 2023] CPU: 32 PID: 1240 Comm: kworker/32:3 Tainted: P  OE  5.15.0-57-generic #63-Ubuntu"
    assert kernel.ubuntu_kernel(line) == [("platform", "linux"), ("os.name", "Ubuntu 22.04")]
    assert kernel.ubuntu_kernel("Linux box 5.4.0-150-generic #167-Ubuntu SMP Mon May 15 17:35:05 UTC 2023 x86_64")[1] == (
        "os.name", "Ubuntu 20.04")
    assert kernel.ubuntu_kernel("5.15.0-57-generic #63~20.04.1-Ubuntu SMP") == []  # a backport names 20.04 itself
    assert kernel.ubuntu_kernel("Linux host 6.1.0-18-amd64 #1 SMP Debian 6.1.76-1") == []
    assert kernel.ubuntu_kernel("upgraded to 5.15.0-57-generic") == []  # no Ubuntu stamp


def test_x86_trace_markers():
    assert kernel.x86_trace("[Fri Jan  6 18:42:01 2023]  <TASK>") == [("platform", "linux"), ("cpu.hardware_arch", "x86_64")]
    assert kernel.x86_trace("[ 1234.567890]  </IRQ>")[1] == ("cpu.hardware_arch", "x86_64")
    assert kernel.x86_trace("[  12.3] RIP: 0010:amdgpu_device_wreg+0x38/0x50 [amdgpu]")[1] == ("cpu.hardware_arch", "x86_64")
    assert kernel.x86_trace("the <TASK> marker appears in x86 traces") == []
    assert kernel.x86_trace("[  12.3]  dump_backtrace+0x0/0x1e0") == []


def test_dkms_amdgpu():
    path = "[Fri Jan  6 18:42:01 2023] UBSAN: shift-out-of-bounds in /var/lib/dkms/amdgpu/5.18.2.22.40-1504718.22.04/build/x.c:2514:23"
    assert kernel.dkms_amdgpu(path) == [("platform", "linux"), ("gpu.driver", "5.18.2.22.40")]
    assert kernel.dkms_amdgpu("amdgpu/6.3.6-1697589.22.04, 5.15.0-88-generic, x86_64: installed") == [
        ("platform", "linux"), ("gpu.driver", "6.3.6"), ("cpu.hardware_arch", "x86_64")]
    assert kernel.dkms_amdgpu("sudo apt install amdgpu-dkms") == []
    assert kernel.dkms_amdgpu("nvidia/535.104.05, 5.15.0-88-generic, x86_64: installed") == []


def test_rocr_runtime():
    line = ("` rocdevice.cpp            :2728: 0225198107 us: [pid:4807  tid:0x7d4fc8fff640] Callback: Queue 0x7d4de2e00000 "
            "aborting with error : HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid. code: 0x100f `")
    assert rocm.rocr_runtime(line) == [("platform", "linux")]
    assert rocm.rocr_runtime(":1:rocvirtual.cpp           :3018: 1234 us: [pid:1 tid:0x1] Device::callbackQueue") == [("platform", "linux")]
    assert rocm.rocr_runtime("Memory access fault: HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION") == [("platform", "linux")]
    assert rocm.rocr_runtime("Does HSA_STATUS_ERROR_INVALID_ISA mean the GPU is unsupported?") == []
    assert rocm.rocr_runtime(":1:paldevice.cpp :1234: Windows PAL backend") == []
    assert rocm.rocr_runtime("see rocdevice.cpp in the clr repository") == []
    assert rocm.rocr_runtime("Users on Linux get HSA_STATUS_ERROR_INVALID_ISA but on my Windows PC it just hangs") == []
    assert rocm.rocr_runtime("On Linux this would show HSA_STATUS_ERROR_OUT_OF_RESOURCES; I use Windows 11") == []
    assert rocm.rocr_runtime("I use Windows 11 with WSL2 and get HSA_STATUS_ERROR_OUT_OF_RESOURCES") == [("platform", "linux")]
    assert rocm.rocr_runtime(":1:rocdevice.cpp :2728: 1 us: users on Linux would see HSA_STATUS_ERROR_INVALID_ISA") == [
        ("platform", "linux")]  # a log line keeps counting


def test_rocm_fit():
    line = "On `Mission Control`, `Runtime` show as my hardware compatible with ROCm llama.cpp (Linux) but it fails"
    assert rocm.rocm_fit(line) == [("gpu.present", "AMD")]
    assert rocm.rocm_fit("my GPU is supported by ROCm 6.2") == [("gpu.present", "AMD")]
    assert rocm.rocm_fit("Is my hardware compatible with ROCm?") == []
    assert rocm.rocm_fit("my hardware is not compatible with ROCm") == []
    assert rocm.rocm_fit("their hardware is compatible with ROCm") == []


def test_vram_capacity():
    assert rocm.vram_capacity('          "vramCapacity": 17179869184,') == [("gpu.memory_of", {"index": None, "memory_mib": 16384})]
    assert rocm.vram_capacity('"vramCapacity": 0,') == []
    assert rocm.vram_capacity('"ramCapacity": 33555337216,') == []


def test_machine_holds():
    facts = own.machine_holds("Same Node also runs MI100 and MI210 successfully. I don't see any hardware errors")
    assert [v["name"] for _, v in facts] == ["MI100", "MI210"] and {v["vendor"] for _, v in facts} == {"AMD"}
    assert [v["name"] for _, v in own.machine_holds("this server has an RTX 4090")] == ["RTX 4090"]
    assert own.machine_holds("The other node runs MI100 and MI210") == []
    assert own.machine_holds("Does the same node also run MI100?") == []
    assert own.machine_holds("this machine doesn't have an MI100") == []
    assert own.machine_holds("this server has 64 GB of RAM") == []
    assert own.machine_holds("If this machine has an RTX 4090, you should use the cu124 wheel") == []
    assert own.machine_holds("Make sure this machine has an RTX 3090 before running the benchmark") == []


def test_codename_gpu():
    assert own.codename_gpu("this is the output for my GPU (Vega 10 XT) of rocm-smi:") == [
        ("gpu.owned", {"name": "Vega 10 XT", "vendor": "AMD", "memory_mib": None, "index": None})]
    assert own.codename_gpu("my card is a Navi 21 XTX")[0][1]["name"] == "Navi 21 XTX"
    assert own.codename_gpu("Vega 10 is gfx900") == []
    assert own.codename_gpu("not my GPU (Vega 10 XT), a friend's") == []
    assert own.codename_gpu("Does it work if my GPU is Navi 14") == []
    assert own.codename_gpu("I wonder whether my card is a Navi 21 XTX") == []


def test_sentence_geforce():
    line = "My Nvidia 1050 is detected properly by koboltcpp btw. My previous 6800 XT had no issues being detected."
    assert [(f, v["name"], v["capability"]) for f, v in own.sentence_geforce(line)] == [("gpu.owned", "Nvidia 1050", "6.1")]
    assert own.sentence_geforce("The Nvidia 1050 works. The RX 6800 XT does too.") == []  # nobody's
    assert own.sentence_geforce("I installed the nvidia 535 driver. My 6800 XT is fine.") == []
    assert own.sentence_geforce("My Nvidia 1050 works") == []  # one sentence: env_report_rules reads it
    assert own.sentence_geforce("My friend's Nvidia 1050 works fine. I have an RX 6800 XT.") == []
    assert own.sentence_geforce("Would my Nvidia 1050 work? I have the 535 driver.") == []


def test_fuller_spelling():
    lines = ["I have 7600xt now, and some error coming out.", "", "please support rx 7600xt pytorch rocm 6 version"]
    assert own.fuller_spelling(lines) == {2: [("gpu.mention", "rx 7600xt")]}
    assert own.fuller_spelling(["I have 7600xt now", "the rx 6600xt works for others"]) == {}
    assert own.fuller_spelling(["the 7600xt is new", "please support rx 7600xt"]) == {}  # no owner named
    names = [g.model for g in _facts("\n".join(lines + ["rocdevice.cpp :2728: 1 us: HSA_STATUS_ERROR_INVALID_ISA"])).gpus]
    assert names == ["Radeon RX 7600 XT"]


def test_linux_mine():
    line = ("I'm running in a dual GPU setup for gaming. One weaker GPU (Nvidia 1050) for my linux host and my stronger GPU "
            "(9070 XT) for gaming within my Windows virtual machine.")
    assert host.linux_mine(line) == [("platform", "linux"), ("hypervisor.none", True)]
    assert host.linux_mine("I'm on linux 100% of the time.") == [("platform", "linux")]
    assert host.linux_mine("I'm on a linux VM at work") == []
    assert host.linux_mine("I'm not on linux") == []
    assert host.linux_mine("Can my linux machine run it?") == []
    for line in ["This works on my Linux machine but fails on my Mac",
                 "It runs fine on my linux box, but on Windows 11 I get this error",
                 "I'm running Linux in a VM on my MacBook",
                 "I ssh from my Mac into my Linux server where the training runs"]:
        assert host.linux_mine(line) == [], line
    assert host.linux_mine("my linux box has a 3090 and it crashes") == [("platform", "linux")]
    assert ("platform", "win32") not in os_in_words(line)  # a Windows VM is not this machine's OS
    assert ("platform", "win32") in os_in_words("I am on my windows machine")


def test_linux_build():
    line = "When opening the latest version of koboltcpp (koboldcpp-linux-x64-nocuda to be precise) it is not able to detect"
    assert host.linux_build(line) == [("platform", "linux"), ("cpu.hardware_arch", "x86_64")]
    assert host.linux_build("I run llama-b4000-bin-linux-arm64 on my Pi")[1] == ("cpu.hardware_arch", "aarch64")
    assert host.linux_build("Is there a koboldcpp-linux-arm64 build?") == []
    assert host.linux_build("Please download koboldcpp-linux-x64 from the releases") == []
    assert host.linux_build("I use Windows, not koboldcpp-linux-x64") == []
    assert host.linux_build("I downloaded koboldcpp-linux-x64 by mistake, I am on Windows") == []
    assert host.linux_build("I see only koboldcpp-linux-x64 and koboldcpp.exe in the release, I'm on macOS") == []


def test_bold_os_answers():
    lines = ["**Which operating system?**", "Slackware Linux 15.0-current x86-64", "", "**What is the bug?**"]
    assert host.bold_os_answers(lines) == {1: [("platform", "linux"), ("os.name", "Slackware Linux 15.0-current x86-64")]}
    assert host.bold_os_answers(["**OS:**", "Fedora 40"])[1][1] == ("os.name", "Fedora 40")
    assert host.bold_os_answers(["**Which operating system?**", "**What is the bug?**"]) == {}
    assert host.bold_os_answers(["**What is the bug?**", "Ubuntu 22.04 crashes"]) == {}


def test_rocm_smi_card_named_by_text():
    text = ("I am using rocm 3.3.0, and this is the output for my GPU (Vega 10 XT) of rocm-smi:\n\n"
            "========================ROCm System Management Interface========================\n"
            "================================================================================\n"
            "GPU  Temp   AvgPwr  SCLK    MCLK    Fan    Perf  PwrCap  VRAM%  GPU%\n"
            "1    25.0c  10.0W   852Mhz  167Mhz  14.9%  auto  170.0W  N/A    0%\n"
            "================================================================================\n")
    assert [(g.model, g.compute_capability) for g in _facts(text).gpus] == [("Vega 10 XT", "gfx900")]
    owned = [{"fact": "gpu.owned", "value": {"name": "Vega 10 XT", "vendor": "AMD"}, "line": 1, "text": "x"}]
    two = [GPU(vendor="AMD", model="AMD GPU 0"), GPU(vendor="AMD", model="AMD GPU 1")]
    assert name_unnamed_amd(two, owned, {}) == two  # which of two: unknown
    named = [GPU(vendor="AMD", model="Radeon RX 6800")]
    assert name_unnamed_amd(named, owned, {}) == named


def test_mixed_amd_node():
    text = ("Somewhere recently our MI50 stopped working.\n"
            "Same Node also runs MI100 and MI210 successfully.\n"
            "[Fri Jan  6 18:42:01 2023] CPU: 32 PID: 1240 Comm: kworker/32:3 Tainted: P  OE  5.15.0-57-generic #63-Ubuntu\n"
            "[Fri Jan  6 18:42:01 2023]  <TASK>\n")
    facts = _facts(text)
    assert [g.model for g in facts.gpus] == ["MI50", "MI100", "MI210"]
    assert facts.platform == "linux" and facts.cpu.hardware_arch == "x86_64"
    levels = {f.check: f.level for f in run_checks(facts, RECIPES)}
    assert levels["rocm_target"] == "warn"  # the MI50 (gfx906), beside GPUs the wheels may run on
    assert recommendation(facts, RECIPES).recipe == "pytorch-rocm"
    alone = _facts("Somewhere recently our MI50 stopped working.\n[  1.0]  <TASK>\n5.15.0-57-generic #63-Ubuntu\n")
    assert recommendation(alone, RECIPES) is None or recommendation(alone, RECIPES).recipe != "pytorch-rocm"
