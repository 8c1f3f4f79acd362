"""Set 17's Linux AMD/Intel rules (code_span_value_rules: a table value set in inline code; device_repr_rules: GPU
device objects as AMDGPU.jl / CUDA.jl / oneAPI.jl print them; rocm_wheel_rules: a '+rocmX.Y' PyTorch wheel is a
Linux one; ubuntu_codename_rules: '24.04.3 LTS (Noble Numbat)' names Ubuntu; package_version_rules past a Python
warning; lspci's bracketed Intel name; '(TM)' in a Radeon name; Radeon Pro WX targets; an 'Arc(TM) A770' is
discrete), fed literal lines."""
from macml.knowledge.amd_gfx import radeon_target
from macml.knowledge.hardware import intel_discrete_gpu
from macml.knowledge.ubuntu_releases import codename_release
from macml.probe.paste import code_span_value_rules as span
from macml.probe.paste import device_repr_rules as device
from macml.probe.paste import package_version_rules as versions
from macml.probe.paste import rocm_wheel_rules as rocm
from macml.probe.paste import ubuntu_codename_rules as ubuntu
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.gpu_text_rules import lspci_device


def test_code_span_table_values():
    assert span.keyed_facts("torch", "`2.12.0+xpu` (PyPI / pytorch.org `whl/xpu`)") == [
        ("package", {"name": "torch", "version": "2.12.0+xpu"}), ("torch.version", "2.12.0+xpu")]
    assert span.keyed_facts("sleap-nn", "`0.2.0` (editable from `main`)") == [
        ("package", {"name": "sleap-nn", "version": "0.2.0"})]
    assert span.keyed_facts("lightning", "`2.6.1`") == [("package", {"name": "lightning", "version": "2.6.1"})]
    assert span.keyed_facts("torch", "2.12.0+xpu") == []  # no code span: by_key reads it itself
    assert span.keyed_facts("install", "`pip install torch`") == []  # a command in code, no version
    assert span.keyed_facts("drm driver", "`i915` (see below)") == []  # a key that names no package


def test_device_reprs():
    facts = device.line_facts('- HIPDevice(name="AMD Radeon Graphics", id=1)')
    assert facts == [("gpu", {"name": "AMD Radeon Graphics", "vendor": "AMD", "memory_mib": None, "index": 1})]
    assert device.line_facts('- HIPDevice(name="AMD Radeon RX 6800 XT", id=2)')[0][1]["name"] == "AMD Radeon RX 6800 XT"
    assert device.line_facts("CuDevice(0): NVIDIA GeForce RTX 3090")[0][1]["index"] == 0
    assert device.line_facts("ZeDevice(GPU, vendor 0x8086, device 0x56a0): Intel(R) Arc(TM) A770 Graphics")[0][1][
        "vendor"] == "Intel"
    assert device.line_facts('Should HIPDevice(name="AMD Radeon RX 7900 XTX", id=1) show up here?') == []  # a question
    assert device.line_facts('my colleague\'s box lists HIPDevice(name="AMD Radeon RX 7900 XTX", id=1)') == []
    # a device ROCm knows by its gfx target alone is still an AMD GPU, named so (the set-41 round)
    assert device.line_facts('HIPDevice(name="gfx1030", id=1)')[0][1]["gfx"] == "gfx1030"
    assert device.line_facts("dev = HIPDevice(1)") == []  # code, no name printed


def test_rocm_wheels_are_linux():
    linux_x86 = [("platform", "linux"), ("cpu.hardware_arch", "x86_64")]  # manylinux x86_64 wheels only
    assert rocm.line_facts("[pip3] torch==2.10.0.dev20250929+rocm7.0") == linux_x86
    assert rocm.line_facts("[conda] torchvision   0.25.0.dev20250930+rocm7.0  pypi_0  pypi") == linux_x86
    assert rocm.line_facts("[pip3] pytorch-triton-rocm==3.5.0+gitbbb06c03") == linux_x86
    assert rocm.line_facts("Is there a torch==2.3.0+rocm6.0 wheel for Windows?") == []  # a question
    assert rocm.line_facts("If you have an AMD card, install torch==2.3.0+rocm6.0") == []  # advice
    assert rocm.line_facts("torch==2.9.0+rocmsdk20251116") == []  # AMD's Windows wheels
    assert rocm.line_facts("[pip3] torch==2.3.0+cu121") == []


def test_ubuntu_by_codename():
    assert codename_release("Noble Numbat") == "24.04"
    assert ubuntu.line_facts("24.04.3 LTS (Noble Numbat)") == [("platform", "linux"), ("os.name", "Ubuntu 24.04.3 LTS")]
    assert ubuntu.line_facts("OS: 22.04 (Jammy Jellyfish)") == [("platform", "linux"), ("os.name", "Ubuntu 22.04")]
    assert ubuntu.line_facts("22.04 LTS (Noble Numbat)") == []  # the code name is another release's
    assert ubuntu.line_facts("upgrading to 24.04 (Noble Numbat) broke it") == []  # in a sentence: maybe a plan
    assert ubuntu.line_facts("12.2 (Bookworm Edition)") == []  # no Ubuntu code name


def test_printed_versions_past_a_warning():
    lines = ['python -c "import torch; import intel_extension_for_pytorch as ipex; print(torch.__version__); '
             'print(ipex.__version__)"',
             "/home/u/envs/ipex/lib/python3.10/site-packages/intel_extension_for_pytorch/llm/__init__.py:9: UserWarning: x",
             '  warnings.warn(f"failed {e}.")', "2.3.1+cxx11.abi", "2.3.110+xpu"]
    found = versions.answers(lines)
    assert found[3][0] == ("package", {"name": "torch", "version": "2.3.1+cxx11.abi"})
    assert found[4] == [("package", {"name": "intel-extension-for-pytorch", "version": "2.3.110+xpu"})]
    # a traceback instead of the output: nothing read
    assert versions.answers([lines[0], "Traceback (most recent call last):", "2.3.1"]) == {}
    # the versions must follow one another: a warning between them breaks the pairing
    assert versions.answers([lines[0], "2.3.1+cxx11.abi", "Some other line", "2.3.110+xpu"]) == {}


def test_lspci_intel_bracket_and_radeon_tm():
    facts = lspci_device("03:00.0 VGA compatible controller: Intel Corporation DG2 [Arc A380] (rev 05)")
    assert facts[0][1]["name"] == "Intel Arc A380"
    assert lspci_device("00:02.0 VGA compatible controller: Intel Corporation CoffeeLake-S GT2 [UHD Graphics 630]"
                        )[0][1]["name"] == "Intel UHD Graphics 630"
    assert lspci_device("00:02.0 VGA compatible controller: Intel Corporation Device 56a0 (rev 08)")[0][1]["name"] == (
        "Intel Corporation Device 56a0")  # no marketing name: the whole name
    assert lspci_device("I think lspci said Intel Corporation DG2 [Arc A380]") == []  # not an lspci line
    assert gpu_names("2x AMD Radeon (TM) Pro WX 5100 Graphics") == ["AMD Radeon (TM) Pro WX 5100 Graphics"]
    assert gpu_names("AMD Radeon(TM) Graphics") == []  # an APU's generic name, read elsewhere


def test_radeon_pro_wx_targets_and_arc_tm():
    assert radeon_target("AMD Radeon (TM) Pro WX 5100 Graphics") == "gfx803"
    assert radeon_target("Radeon Pro WX 9100") == "gfx900"
    assert radeon_target("Radeon Pro W6800") is None  # RDNA2, not in the table
    assert radeon_target("Radeon Pro WX 6100") is None  # no such card
    assert intel_discrete_gpu("Intel(R) Arc(TM) A770 Graphics")
    assert not intel_discrete_gpu("Intel(R) Arc(TM) Graphics")  # Core Ultra's integrated Arc
