"""Set 12's Linux rules (gpu_inventory_rules, package_version_rules, machine_sentence_rules, and the Intel Arc,
ollama and llama.cpp readings they go with), fed literal lines, and what facts make of them."""
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import app_log_rules, import_pastes, log_rules
from macml.probe.paste import gpu_inventory_rules as inventory
from macml.probe.paste import machine_sentence_rules as machine
from macml.probe.paste import package_version_rules as versions
from macml.probe.paste.gpu_names import gpu_names, gpu_value, informal_gpu_names
from macml.recipes.recommend import recommendation


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def _value(facts, fact):
    return next((v for f, v in facts if f == fact), None)


# --- GPUs counted, tabled, or part of a board ---------------------------------------------------------------------

def test_gpu_count_beside_a_gpu_type_is_that_many_gpus():
    found = inventory.answers(["GPU count | 8", "GPU type | [NVIDIA A800-SXM4-80GB", "", "enable nccl"])
    assert list(found) == [1]
    assert [v["index"] for _, v in found[1]] == list(range(8))
    assert {v["name"] for _, v in found[1]} == {"NVIDIA A800-SXM4-80GB"}
    assert inventory.answers(["GPU count | 8"]) == {}  # no model near it
    assert inventory.answers(["GPU count: 1", "GPU type: NVIDIA A100"]) == {}  # one is no list


def test_gpu_count_table_gives_eight_a800s():
    facts = _facts("GPU count | 8\nGPU type | [NVIDIA A800-SXM4-80GB\n")
    assert [g.model for g in facts.gpus] == ["NVIDIA A800-SXM4-80GB"] * 8
    assert {g.compute_capability for g in facts.gpus} == {"8.0"}


def test_xpu_smi_device_row():
    facts = inventory.line_facts("| 0         | Device Name: Intel(R) Arc(TM) A770 Graphics                  |")
    assert facts == [("gpu", {"name": "Intel(R) Arc(TM) A770 Graphics", "vendor": "Intel", "memory_mib": None, "index": 0})]
    assert inventory.line_facts("|           | Vendor Name: Intel(R) Corporation        |") == []


def test_jetson_module_named_in_a_list_or_a_sentence():
    facts = inventory.line_facts("  - Jetson Orin AGX 64GB Developer Kit")
    assert ("platform", "linux") in facts and ("cpu.hardware_arch", "aarch64") in facts
    assert ("cpu.memory_bytes", 64 * 1024**3) in facts and _value(facts, "gpu.mention") == "Jetson Orin AGX"
    assert _value(inventory.line_facts("when I repeated the process on my agx orin (latest software)"), "cpu.hardware_arch") == "aarch64"
    assert inventory.line_facts("it does not run on an AGX Orin") == []


def test_jetson_form_gives_an_orin_gpu():
    facts = _facts("### Jetson-Stats\n\n - Version: 4.3.2\n\n### Jetson hardware\n\n  - Jetson Orin AGX 64GB Developer Kit\n")
    assert facts.cpu.hardware_arch == "aarch64" and facts.cpu.memory_bytes == 64 * 1024**3
    assert [(g.vendor, g.compute_capability) for g in facts.gpus] == [("NVIDIA", "8.7")]


# --- Intel Arc ----------------------------------------------------------------------------------------------------

def test_arc_models_named_without_intel():
    assert informal_gpu_names("Arc B580") == ["Arc B580"]
    assert informal_gpu_names("arc a770") == ["arc a770"]
    assert informal_gpu_names("Arc A700") == []  # no such model
    assert gpu_value("Arc B580")[0][1]["vendor"] == "Intel"
    assert gpu_names("Device Name: Intel(R) Arc(TM) A770 Graphics") == ["Intel(R) Arc(TM) A770 Graphics"]


def test_arc_b580_form_is_an_intel_gpu_machine():
    facts = _facts("- OS: Ubuntu 26.04 LTS\n- GPU: Arc B580\n- CPU: i7- 4770\n")
    assert [(g.vendor, g.model) for g in facts.gpus] == [("Intel", "Arc B580")]
    assert facts.cpu.hardware_arch == "x86_64"
    best = recommendation(facts)
    assert best is None or best.recipe != "pytorch-cuda"


def test_counted_arc_cards():
    facts = _facts("I have 2 Intel Arc A770, but when running:\nPRETTY_NAME=\"Ubuntu 22.04.3 LTS\"\n")
    assert [g.model for g in facts.gpus] == ["Intel Arc A770", "Intel Arc A770"]


def test_the_brand_alone_is_the_card_line():
    facts = _facts("Is Intel Arc not supported officially? My environment is Linux 6.0.9 on Fedora 36.\n")
    best = recommendation(facts)
    assert [g.vendor for g in facts.gpus] == ["Intel"] and (best is None or best.recipe != "pytorch-cuda")


# --- printed and stated versions ----------------------------------------------------------------------------------

def test_printed_versions_after_a_python_command():
    lines = ["python -c \"import torch; import intel_extension_for_pytorch as ipex; print(torch.__version__); "
             "print(ipex.__version__); [print(i) for i in range(torch.xpu.device_count())];\"", "``` ", "",
             "The result is just:", "```", "2.1.0a0+cxx11.abi     ", "2.1.10+xpu           ", "```"]
    found = versions.answers(lines)
    assert ("torch.version", "2.1.0a0+cxx11.abi") in found[5]
    assert ("package", {"name": "intel-extension-for-pytorch", "version": "2.1.10+xpu"}) in found[6]
    assert versions.answers(lines[:1] + ["[W102 23:42:19] Warning: ...", "2.1.0"]) == {}  # not the output


def test_heading_names_the_package_its_version_answers():
    found = versions.answers(["### Jetson-Stats", "", " - Version: 4.3.2"])
    assert found == {2: [("package", {"name": "jetson-stats", "version": "4.3.2"})]}
    assert versions.answers(["### Environment", "", " - Version: 4.3.2"]) == {}


# --- the machine in a sentence ------------------------------------------------------------------------------------

def test_distribution_kernel_and_arch():
    facts = machine.line_facts("Sure. Ubuntu 22.04 5.15.0-71-generic x64 ")
    assert facts == [("platform", "linux"), ("os.name", "Ubuntu 22.04"), ("os.kernel", "5.15.0-71-generic"),
                     ("cpu.hardware_arch", "x86_64")]
    assert machine.line_facts("I upgraded to Ubuntu 22.04 last week") == []


def test_virtual_machine_and_kb_memory():
    facts = machine.line_facts("Running on a virtual machine with 49437012 kB of memory and 16vCPUs")
    assert ("hypervisor", None) in facts and ("cpu.memory_bytes", 49437012 * 1024) in facts
    assert machine.line_facts("I am not running on a VM") == []
    whole = _facts("Running on a virtual machine with 49437012 kB of memory and 16vCPUs\n\nSure. Ubuntu 22.04 5.15.0-71-generic x64\n")
    assert whole.vm is True and whole.platform == "linux" and round(whole.cpu.memory_bytes / 1024**3) == 47


def test_intel_desktop_cpu_number():
    assert machine.line_facts("with Arc A770, 14700K。") == [("cpu.brand", "Intel Core 14700K")]
    assert machine.line_facts("14700k") == [("cpu.brand", "Intel Core 14700K")]
    assert machine.line_facts("RTX 4090 and 14700 points") == []


# --- ollama and llama.cpp logs ------------------------------------------------------------------------------------

def test_ollama_cuda_driver_and_skipped_radeon_igpu():
    line = ('time=2025-04-30T02:46:26.042+08:00 level=INFO source=types.go:130 msg="inference compute" id=GPU-a91a '
            'library=cuda variant=v12 compute=8.9 driver=12.5 name="NVIDIA GeForce RTX 4090" total="23.6 GiB"')
    assert ("gpu.cuda_driver", "12.5") in log_rules._ollama_compute(line)
    igpu = app_log_rules.app_log_lines('time=x level=INFO source=amd_linux.go:296 msg="unsupported Radeon iGPU detected skipping" id=0')
    assert [v["vendor"] for f, v in igpu if f == "gpu"] == ["AMD"]


def test_llama_cpp_build_line_with_program_name():
    facts = app_log_rules.app_log_lines("main: built with cc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0 for x86_64-linux-gnu")
    assert ("platform", "linux") in facts and ("cpu.hardware_arch", "x86_64") in facts
