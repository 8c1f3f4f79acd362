"""Set 10's Windows rules (windows_tool_rules: WMI's Win32_VideoController table, DxDiag's display devices; ComfyUI's
device memory, ollama's total=, llama.cpp's 'build: N (hash) with ... for TARGET', hipinfo's 'device#', a GPU owned
with its size, AMD GPUs on Windows are x86_64, a non-Mac VM guest), fed literal lines, and what facts make of them."""
from macml.diagnose import run_checks
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste import windows_tool_rules as rules
from macml.probe.paste.app_log_rules import app_log_lines, comfyui_device_memory
from macml.probe.paste.devices import device_facts
from macml.probe.paste.log_rules import log_line_facts
from macml.probe.paste.spec_prose_rules import owned_gpu
from macml.recipes.catalog import load_all

MIB = 1024**2


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def _value(facts, fact):
    return next((v for f, v in facts if f == fact), None)


WMI = """Get-WmiObject Win32_VideoController | format-table Name, VideoProcessor,DriverVersion

Name                    VideoProcessor                         DriverVersion
----                    --------------                         -------------
AMD Radeon(TM) Graphics AMD Radeon Graphics Processor (0x164E) 31.0.24019.1006
AMD Radeon RX 7800 XT   AMD Radeon Graphics Processor (0x747E) 31.0.24019.1006
"""

WMIC = """C:\\>wmic path win32_VideoController get name,driverversion
DriverVersion    Name
32.0.15.6094     NVIDIA GeForce RTX 3060

31.0.101.4502    Intel(R) UHD Graphics 770
"""

DXDIAG = """---------------
Display Devices
---------------
           Card name: NVIDIA GeForce RTX 3070
        Manufacturer: NVIDIA
           Chip type: NVIDIA GeForce RTX 3070
            DAC type: Integrated RAMDAC
          Device Key: Enum\\PCI\\VEN_10DE&DEV_2484&SUBSYS_00000000&REV_A1
      Driver Version: 31.0.15.3713
"""


# --- WMI's Win32_VideoController --------------------------------------------------------------------------------

def test_wmi_query_names_windows():
    assert rules.line_facts("Get-CimInstance Win32_VideoController | Select Name") == [("platform", "win32")]
    assert rules.line_facts("Get-WmiObject is a PowerShell cmdlet") == []


def test_wmi_table_rows_are_gpus_with_their_driver():
    found = rules.wmi_video_controllers(WMI.splitlines())
    names = [v["name"] for facts in found.values() for f, v in facts if f == "gpu"]
    assert names == ["AMD Radeon(TM) Graphics", "AMD Radeon RX 7800 XT"]
    assert _value(found[4], "gpu.driver") == "31.0.24019.1006" and ("platform", "win32") in found[2]


def test_wmic_table_without_rule_and_nvidia_driver_release():
    found = rules.wmi_video_controllers(WMIC.splitlines())
    assert _value(found[2], "gpu")["name"] == "NVIDIA GeForce RTX 3060"
    assert _value(found[2], "gpu.driver") == "560.94"
    assert _value(found[4], "gpu")["vendor"] == "Intel" and _value(found[4], "gpu.driver") is None


def test_a_prose_header_is_not_a_table():
    assert rules.wmi_video_controllers(["Name Description", "AMD Radeon RX 7800 XT  foo"]) == {}


def test_windows_driver_versions():
    assert rules.windows_driver("31.0.15.3713", "NVIDIA") == "537.13"
    assert rules.windows_driver("27.21.14.5671", "NVIDIA") == "456.71"
    assert rules.windows_driver("31.0.24019.1006", "AMD") == "31.0.24019.1006"
    assert rules.windows_driver("5.7", "AMD") is None


def test_wmi_table_gives_two_gpus_and_driver():
    facts = _facts(WMI)
    assert facts.platform == "win32"
    assert sorted(g.model for g in facts.gpus) == ["AMD Radeon RX 7800 XT", "AMD Radeon(TM) Graphics"]
    assert {g.driver_version for g in facts.gpus} == {"31.0.24019.1006"}
    assert facts.cpu.hardware_arch == "x86_64"  # AMD's Windows drivers are x64 only


# --- DxDiag -----------------------------------------------------------------------------------------------------

def test_dxdiag_card_is_a_gpu_on_windows():
    found = rules.dxdiag_display_devices(DXDIAG.splitlines())
    assert ("platform", "win32") in found[3]
    assert _value(found[3], "gpu")["name"] == "NVIDIA GeForce RTX 3070"
    assert _value(found[3], "gpu.driver") == "537.13"


def test_dxdiag_vendor_from_device_key():
    lines = ["Card name: Microsoft Hybrid Display", "Chip type: unknown",
             "Device Key: Enum\\PCI\\VEN_1002&DEV_1638&SUBSYS_10FC1043&REV_C6"]
    assert _value(rules.dxdiag_display_devices(lines)[0], "gpu")["vendor"] == "AMD"


def test_a_lone_card_name_line_is_not_dxdiag():
    assert rules.dxdiag_display_devices(["Card name: my old card", "It broke."]) == {}


def test_dxdiag_integrated_amd_gpu_facts():
    facts = _facts("Display Devices\n---------------\n           Card name: AMD Radeon(TM) Graphics\n"
                   "        Manufacturer: Advanced Micro Devices, Inc.\n"
                   "           Chip type: AMD Radeon Graphics Processor (0x1638)\n"
                   "          Device Key: Enum\\PCI\\VEN_1002&DEV_1638&SUBSYS_10FC1043&REV_C6\n"
                   "    Dedicated Memory: 496 MB\n")
    assert facts.platform == "win32"
    assert [(g.vendor, g.model, g.memory_bytes) for g in facts.gpus] == [("AMD", "AMD Radeon(TM) Graphics", None)]


# --- apps' logs -------------------------------------------------------------------------------------------------

def test_comfyui_cuda_device_vram_total():
    lines = ["- **Name:** cuda:0 AMD Radeon RX 9070 XT [ZLUDA] : native", "  - **Type:** cuda",
             "  - **VRAM Total:** 17095983104", "  - **Torch VRAM Total:** 268435456"]
    assert comfyui_device_memory(lines) == {2: [("gpu.memory_of", {"index": 0, "memory_mib": 16304})]}
    assert _facts("\n".join(lines)).gpus[0].memory_bytes == 16304 * MIB


def test_comfyui_mps_device_is_left_to_unified_memory():
    assert comfyui_device_memory(["- **Name:** mps", "  - **Type:** mps", "  - **VRAM Total:** 68719476736"]) == {}


def test_ollama_inference_compute_total():
    line = ('time=2024-06-18T15:56:19.574-07:00 level=INFO source=types.go:98 msg="inference compute" id=1 '
            'library=rocm compute=gfx1100 driver=5.7 name="AMD Radeon RX 7900 XTX" total="24.0 GiB" available="23.9 GiB"')
    assert _value(log_line_facts(line), "gpu")["memory_mib"] == 24576


def test_llama_cpp_build_line_names_windows():
    line = ("build: 1239 (b8372ee) with clang version 21.0.0git (git@github.com:Compute-Mirrors/llvm-project "
            "5dcc622b51ecd499912c1062ce2b0ecda60d8e93) for x86_64-pc-windows-msvc")
    assert _value(app_log_lines(line), "platform") == "win32"
    line = ("[50962] 0.00.054.013 I cmn  common_param: common_params_print_info: build 10456 (f275595dd) "
            "with Clang 20.1.8 for Windows x86_64")
    assert _value(app_log_lines(line), "platform") == "win32"
    assert _value(app_log_lines("build: 4 (abc1234) with cc (GCC) 13.2 for aarch64-unknown-linux-gnu"),
                  "cpu.hardware_arch") == "aarch64"


def test_hipinfo_device_header_numbers_the_gpu():
    found = device_facts(["[50962] 0.00.146.008 I cmn  log line", "device#                           0",
                          "Name:                             AMD Radeon RX 9060 XT"])
    assert _value(found[2], "gpu")["index"] == 0


def test_owned_gpu_with_its_size():
    facts = owned_gpu("the same issue on my RX 9060XT 16GB. After installing ROCm 7.14")
    assert _value(facts, "gpu.memory_of") == {"index": None, "memory_mib": 16384}
    assert _value(owned_gpu("on my RX 6600 with 32GB RAM"), "gpu.memory_of") is None
    assert _value(owned_gpu("on my RX 6600 32GB RAM"), "gpu.memory_of") is None


def test_several_amd_gpus_keep_gfx_to_the_named_one():
    text = ('msg="inference compute" id=1 library=rocm compute=gfx1100 name="AMD Radeon RX 7900 XTX" total="24.0 GiB"\n'
            + WMI)
    gpus = {g.model: g.compute_capability for g in _facts(text).gpus}
    # the stated gfx1100 stays with the GPU its line names; the 7800 XT's own name gives its target (Navi 32, gfx1101)
    assert gpus == {"AMD Radeon RX 7900 XTX": "gfx1100", "AMD Radeon(TM) Graphics": None, "AMD Radeon RX 7800 XT": "gfx1101"}


# --- a Windows or Linux guest -----------------------------------------------------------------------------------

def test_windows_virtualbox_guest_warns():
    facts = _facts("OS Name:                   Microsoft Windows 11 Pro\nSystem Manufacturer:       innotek GmbH\n"
                   "System Model:              VirtualBox\nSystem Type:               x64-based PC\n")
    assert facts.vm is True and facts.platform == "win32"
    findings = {f.check: f for f in run_checks(facts, load_all())}
    assert findings["virtual_machine"].level == "warn" and "passed through" in findings["virtual_machine"].message


def test_guest_with_a_passed_through_gpu_does_not_warn():
    facts = _facts("OS Name:                   Microsoft Windows 11 Pro\nSystem Manufacturer:       innotek GmbH\n"
                   "System Model:              VirtualBox\nSystem Type:               x64-based PC\n"
                   "GPU: NVIDIA GeForce RTX 3090\n")
    assert facts.vm is True and facts.gpus_by_vendor("NVIDIA")
    assert "virtual_machine" not in {f.check for f in run_checks(facts, load_all())}
