"""Readers and knowledge of the set-25 fix round, on literal texts: what they read, and near misses that must not
fire."""
import pytest

from macml.knowledge.cpu_models import mac_model_vectors, mac_name_vectors
from macml.knowledge.hardware import nvidia_compute_capability
from macml.knowledge.rocm import no_rocm_build
from macml.probe.paste.gpu_names import gpu_names, radeon_name
from paste_said import check_levels, facts_of, recommended_for, said_by


@pytest.mark.parametrize("identifier, avx, avx2", [
    ("MacPro3,1", False, False), ("MacPro5,1", False, False), ("MacPro6,1", True, False), ("iMac13,2", True, False),
    ("MacBookPro8,2", True, False), ("MacBookAir3,2", False, False), ("MacBook7,1", False, False),
])
def test_an_intel_macs_identifier_gives_its_cpus_vectors(identifier, avx, avx2):
    known = mac_model_vectors(identifier)
    assert (known.avx, known.avx2) == (avx, avx2)


@pytest.mark.parametrize("identifier", ["MacPro7,1", "MacBookPro15,1", "iMac14,2", "Mac14,2", "iMacPro1,1", ""])
def test_a_mac_with_avx2_or_unknown_lacks_nothing(identifier):
    assert mac_model_vectors(identifier) is None


@pytest.mark.parametrize("name, avx", [
    ("MacBook Pro (15-inch, Early 2011)", True), ("Mid 2010 Macbook Pro", False), ("MacBook Pro (Retina, 13-inch, Early 2013)", True),
    ("iMac (27-inch, Late 2012)", True), ("Mac Pro (Mid 2010)", False), ("MacBook Air 2010", False),
])
def test_a_mac_named_by_its_year_gives_its_cpus_vectors(name, avx):
    known = mac_name_vectors(name)
    assert known.avx is avx and known.avx2 is False


@pytest.mark.parametrize("name", ["MacBook Pro 2013", "MacBook Pro (Retina, 15-inch, Late 2013)", "2015 iMac",
                                  "iMac Pro 2017", "Mac mini 2014", "MacBook Pro"])
def test_a_later_mac_or_an_undecided_year_lacks_nothing(name):
    assert mac_name_vectors(name) is None


def test_a_mac_pro_3_1_without_avx_gets_the_cpu_warning():
    levels = check_levels("MacPro 3,1, 32GB RAM, AMD Radeon 7950 GPU\n\nInstalling 11.2.3 completed but normal boot hangs. "
                          "Can only start Big Sur in safe mode.\n")
    assert levels.get("cpu_features") == "warn"
    assert levels.get("macos_version") in ("warn", "fail")


def test_about_this_macs_name_over_two_lines():
    facts = facts_of("MacBook Pro\n15-inch, Early 2011\nProcessor  2.2 GHz Intel Core i7\nMemory  16 GB 1333 MHz DDR3\n")
    assert facts.cpu.model_name == "MacBook Pro (15-inch, Early 2011)"
    assert facts_of("MacBook Pro\n15-inch, Early 2011\n").cpu.model_name is None  # no other summary line near


@pytest.mark.parametrize("line, model", [("MacPro 3,1, 32GB RAM", "MacPro3,1"), ("> MacPro 5.1 (Mid 2010)", "MacPro5,1"),
                                         ("MacBookPro 11,3 here", "MacBookPro11,3")])
def test_a_model_identifier_typed_with_a_space_or_a_dot(line, model):
    assert ("cpu.model", model) in said_by(line)


def test_a_screen_size_is_not_a_model_identifier():
    assert not any(fact == "cpu.model" for fact, _ in said_by("my iMac 21.5 inch"))


def test_a_release_names_version_key():
    assert ("os.version", "11.0.1") in said_by("Big Sur Version: 11.0.1")
    assert ("os.version", "10.15.7") in said_by("Catalina version: 10.15.7")
    assert not any(fact == "os.version" for fact, _ in said_by("Big Sur version: 12.1"))
    assert not any(fact == "package" for fact, _ in said_by("Catalina version: 10.15.7"))


def test_a_bare_number_beside_the_release_name():
    facts = facts_of("# 11.2.3 AMD Radeon 7950 not supported?\n\nInstalling 11.2.3 completed. Can only start Big Sur in safe mode.\n")
    assert facts.os.version == "11.2.3"
    assert facts_of("I use CUDA 11.2.1 on Big Sur\n").os.version != "11.2.1"
    assert facts_of("Installing 11.2.3 went fine; upgraded from Catalina to Big Sur.\n").os.version != "11.2.3"


@pytest.mark.parametrize("found, name", [
    ("AMD RADEON 6750M FAILURE", "AMD RADEON 6750M"), ("Radeon Pro 560X dGPU", "Radeon Pro 560X"),
    ("Radeon Pro 5700 XT on Big Sur via", "Radeon Pro 5700 XT"), ("Radion Pro 5500M", "Radeon Pro 5500M"),
    ("AMD Radeon RX 6600 XT Fighter", "AMD Radeon RX 6600 XT Fighter"), ("AMD Radeon Pro Vega II Duo", "AMD Radeon Pro Vega II Duo"),
    ("Radeon Pro activity", None), ("AMD Radeon RX 580 2048SP", "AMD Radeon RX 580 2048SP"),
])
def test_a_radeon_name_ends_with_its_model(found, name):
    assert radeon_name(found) == name


def test_no_radeon_activity_is_no_gpu():
    assert gpu_names("there was no Radeon Pro activity, but Internal GPU activity was high") == []


@pytest.mark.parametrize("name, capability", [("NVIDIA GeForce G210", "1.2"), ("GeForce 9800 GTX", "1.1"),
                                              ("GeForce 8800 GTX", "1.0"), ("GeForce 9400M", "1.1"), ("GeForce GTX 980", "5.2")])
def test_tesla_generation_geforce_capabilities(name, capability):
    assert nvidia_compute_capability(name) == capability


def test_a_tesla_generation_geforce_gets_no_cuda_build():
    text = "          Card name: NVIDIA GeForce G210 \n       Manufacturer: NVIDIA\n     Driver Version: 9.18.13.1422\n"
    assert recommended_for(text) != "pytorch-cuda"


def test_an_apu_in_words_is_an_amd_gpu_no_rocm_build_runs_on():
    text = ("I have an AMD Ryzen 5 5600G processor which has an integrated GPU, and I do not have a separate graphics "
            "card. Am using `Linux Mint 21` Cinnamon.\n")
    facts = facts_of(text)
    assert [(g.vendor, g.compute_capability) for g in facts.gpus] == [("AMD", "gfx90c")]
    assert (facts.os.name, facts.os.version) == ("Linux Mint", "21")
    assert check_levels(text).get("rocm_target") == "warn" and no_rocm_build("gfx90c")
    assert facts_of("My Ryzen 5 5600X does not have an integrated GPU\n").gpus == ()


@pytest.mark.parametrize("line, name", [
    ("Linux nixos 6.15.10-asahi #1-NixOS SMP PREEMPT_DYNAMIC Tue Jan  1 00:00:00 UTC 1980 aarch64 GNU/Linux", "NixOS"),
    ("Upgrade: libnvidia-common-460:amd64 (460.56-0ubuntu0.20.04.1, 460.73.01-0ubuntu0.20.04.1)", "Ubuntu 20.04"),
])
def test_the_distribution_from_kernel_and_package_stamps(line, name):
    assert ("os.name", name) in said_by(line)


def test_chinese_key_colon_and_a_print_that_asks():
    assert ("python.version", "3.12.8") in said_by("python版本:3.12.8")
    assert ("torch.cuda_available", False) in said_by("Is CUDA available? False`")
    assert ("torch.mps_available", True) in said_by("MPS available? True")
    assert not any(f == "torch.cuda_available" for f, _ in said_by("Is CUDA available? I am not sure"))


def test_fastfetch_json_gpu_cores():
    text = ('      "gpus": [\n        {\n          "type": "Integrated",\n          "vendor": "Apple",\n'
            '          "name": "Apple M4 Pro",\n          "driver": "1.0",\n          "coreCount": 20,\n        }\n')
    assert [g.cores for g in facts_of(text).gpus] == [20]


def test_a_gpu_core_count_before_the_chip():
    assert ("gpu.cores", 30) in said_by("30-core (M3 Max)")
    assert not any(f == "gpu.cores" for f, _ in said_by("14-core (M3 Max)"))  # an M3 Max's CPU count


def test_a_paravirtual_metal_device_by_its_empty_mps_out_of_memory():
    line = ("RuntimeError: MPS backend out of memory (MPS allocated: 0 bytes, other allocations: 0 bytes, max allowed: "
            "7.93 GB). Tried to allocate 256 bytes on private pool.")
    assert ("hypervisor", "Apple Virtual Machine") in said_by(line)
    real = ("MPS backend out of memory (MPS allocated: 8.89 GB, other allocations: 172.98 MB, max allowed: 9.07 GB). "
            "Tried to allocate 6.25 MB on private pool.")
    assert not any(f == "hypervisor" for f, _ in said_by(real))


def test_os_uname_from_python_and_the_arch_command():
    line = ("posix.uname_result(sysname='Darwin', nodename='m.local', release='21.3.0', version='Darwin Kernel Version "
            "21.3.0: Wed Jan  5 21:37:58 PST 2022; root:xnu-8019.80.24~20/RELEASE_ARM64_T6000', machine='x86_64')")
    assert ("python.machine", "x86_64") in said_by(line)
    facts = facts_of("I have a 2020 MacBook Air with M1 chip.\n\n```\narch\n> i386\n\npip install tsgm\npython -c 'import tsgm'\n```\n")
    assert facts.rosetta is True and facts.interpreter.machine == "x86_64"


def test_tf_answer_legacy_pip_rows_and_a_wheel_stem():
    assert ("package", {"name": "tensorflow", "version": "2.16.2"}) in said_by("TensorFlow version: tf 2.16.2")
    facts = facts_of("tensorflow (1.1.0)\ntensorflow-gpu (1.0.1)\n")
    assert {n: facts.package(n) for n in ("tensorflow", "tensorflow-gpu")} == {"tensorflow": "1.1.0", "tensorflow-gpu": "1.0.1"}
    assert facts_of("I use tensorflow (1.1.0) here\n").package("tensorflow") is None  # one row alone is prose
    said = said_by("I tried to use `tensorflow_macos-0.1a0-cp38` with MBP16 2019")
    assert ("package", {"name": "tensorflow-macos", "version": "0.1a0"}) in said


def test_vllm_devices_list_and_root_prompt():
    text = ("root@ai66:/workspace# CUDA_VISIBLE_DEVICES=0,1 vllm serve model --port 1\n"
            "WARNING 06-03 01:55:23 [cuda.py:409] Detected different devices in the system: NVIDIA GeForce RTX 3090, "
            "NVIDIA GeForce RTX 3090, NVIDIA GeForce GTX 1080 Ti. Please make sure to set `CUDA_DEVICE_ORDER=PCI_BUS_ID`\n"
            "INFO 06-03 01:55:32 [api_server.py:1043] vLLM API server version 0.8.5.post1\n")
    facts = facts_of(text)
    assert facts.platform == "linux" and len(facts.gpus) == 3 and facts.package("vllm") == "0.8.5.post1"


def test_a_driver_that_failed_to_initialise_the_gpu():
    text = ("[   84.811879] NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x62:0x40:1941)\n"
            "[   84.813774] NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0\n")
    assert check_levels(text).get("nvidia_driver") in ("warn", "fail")


def test_wmi_video_controller_and_an_arrow_note():
    assert ("platform", "win32") in said_by("__CLASS                      : Win32_VideoController")
    assert ("platform", "win32") in said_by("Device ID = VideoController1")
    facts = facts_of("Graphics Adapter = Intel(R) UHD Graphics 770 <------ onboard\nGraphics Adapter = AMD Radeon RX 7800 XT\n")
    assert {g.model for g in facts.gpus} == {"Intel(R) UHD Graphics 770", "AMD Radeon RX 7800 XT"}


def test_an_opening_xt_number_in_a_rocm_report():
    assert any(f == "gpu.owned" and v["name"] == "AMD Radeon RX 7800 XT"
               for f, v in said_by("7800 XT, tried using both stable and unstable versions of ROCm (6.2 & 6.3)"))
    assert not any(f == "gpu.owned" for f, v in said_by("7800 XT, is it supported by ROCm?"))


def test_a_mnt_path_is_linux():
    assert ("platform", "linux") in said_by('  File "/mnt/cluster_home/u/git/x.py", line 49, in forward')
