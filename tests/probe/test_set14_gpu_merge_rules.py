"""Set 14's GPU merging (gpu_name_keys, stated_gpus): one card named in several places or spellings is one GPU;
N numbered rows stay N cards. Fed literal lines."""
import pytest

from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste.gpu_name_keys import family_keys, model_key, same_model
from macml.probe.paste.gpu_names import gpu_names


def _gpus(text):
    return [(g.vendor, g.model, g.compute_capability) for g in facts_from_snapshot(import_pastes([text])).gpus]


@pytest.mark.parametrize("first, second", [
    ("RTX3090", "NVIDIA GeForce RTX 3090"),
    ("Intel Iris", "Intel Iris Graphics"),
    ("RTX 3050", "NVIDIA GeForce RTX 3050 6GB Laptop GPU"),
    ("RTX 3050 Laptop GPU", "NVIDIA GeForce RTX 3050 6GB Laptop GPU"),
    ("GTX 1080Ti", "GeForce GTX 1080 Ti"),
    ("Radeon Rx 6600xt", "RX 6600XT 8G"),
])
def test_same_model_across_spellings(first, second):
    assert same_model(first, second) and same_model(second, first)


@pytest.mark.parametrize("first, second", [
    ("RTX 3090", "RTX 3090 Ti"),
    ("Intel Iris", "Intel Iris Pro Graphics"),
    ("RTX 4090", "RTX 4080"),
    ("Radeon RX 6700", "RX 6700 XT"),
    ("Tesla V100", "Tesla V100-SXM2-32GB"),
])
def test_different_models_stay_apart(first, second):
    assert not same_model(first, second)


def test_model_key_sets_brand_and_size_aside():
    assert model_key("NVIDIA GeForce RTX 3050 6GB Laptop GPU") == "rtx3050laptop"
    assert model_key("Intel(R) Iris(TM) Graphics") == "iris"


def test_family_bracket_names_each_model():
    keys = family_keys("0c:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 22 "
                       "[Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT] (rev c1)")
    assert {"6700", "6700xt", "6750xt", "6800m", "6850mxt"} <= keys and "6800" not in keys  # AMD's RX is set aside


def test_form_field_name_is_one_of_the_numbered_devices():
    text = ("**NVIDIA GPU**: RTX3090\n\n"
            "[I] Available Devices:\n"
            '[I]   Device 0: "NVIDIA GeForce RTX 3090" UUID: GPU-9196782c-2fae-91c7-c24f-e9a05e4369a7\n'
            '[I]   Device 1: "NVIDIA GeForce RTX 3090" UUID: GPU-fa724978-a973-65f4-7a78-26d847638556\n'
            "[I] Selected Device: NVIDIA GeForce RTX 3090\n"
            "[I] Compute Capability: 8.6\n")
    assert [m for _, m, _ in _gpus(text)] == ["NVIDIA GeForce RTX 3090"] * 2


def test_two_numbered_rows_of_one_model_stay_two():
    text = "GPU models and configuration:\nGPU 0: Tesla V100-PCIE-16GB\nGPU 1: Tesla V100-PCIE-16GB\n"
    assert [m for _, m, _ in _gpus(text)] == ["Tesla V100-PCIE-16GB"] * 2


def test_prose_and_device_dump_name_one_integrated_gpu():
    text = ("I tried it on my late 2013 MacBook Pro with a 2.6 GHz Dual-Core Intel Core i5 and the built-in Intel Iris GPU.\n\n"
            "1 device:\n- Intel Iris Graphics (0 bytes allocated)\n")
    assert [m for _, m, _ in _gpus(text)] == ["Intel Iris Graphics"]


def test_prose_that_shortens_its_gpu_name_is_one_gpu():
    text = ("After upgrading on Windows, my NVIDIA GeForce RTX 3050 6GB Laptop GPU (Compute Capability 8.6) is detected.\n\n"
            "The model should initialize using the CUDA backend on the RTX 3050 Laptop GPU.\n\n"
            "nvidia-smi correctly detects the RTX 3050 Laptop GPU.\n")
    assert _gpus(text) == [("NVIDIA", "NVIDIA GeForce RTX 3050 6GB Laptop GPU", "8.6")]


def test_lspci_family_bracket_is_the_card_prose_names():
    text = ("i run a dual GPU setup (RX6700XT as the master card, NVIDIA GTX 1660S as the slave card)\n\n"
            "GPU info: '0c:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 22 "
            "[Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT] (rev c1)\n"
            "0d:00.0 VGA compatible controller: NVIDIA Corporation TU116 [GeForce GTX 1660 SUPER] (rev a1)'\n")
    models = [m for _, m, _ in _gpus(text)]
    assert len(models) == 2 and "RX6700XT" in models and "GeForce GTX 1660 SUPER" in models


def test_verb_after_radeon_name_ends_it():
    assert gpu_names("Device with name AMD Radeon Pro Vega 64X supports metal minimum requirements") == [
        "AMD Radeon Pro Vega 64X"]
