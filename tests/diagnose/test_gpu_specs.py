import pytest

from macml.knowledge.gpu_specs import APPLE_GPUS, OTHER_GPUS, identify_apple_chip, peak_fp32


@pytest.mark.parametrize(
    "brand, family, generation, tier, virtual",
    [
        ("Apple M1", "M1", 1, "", False),
        ("Apple M1 Pro", "M1", 1, "Pro", False),
        ("Apple M3 Max", "M3", 3, "Max", False),
        ("Apple M4 Pro", "M4", 4, "Pro", False),
        ("Apple M2 Ultra", "M2", 2, "Ultra", False),
        ("Apple M4 Max (Virtual)", "M4", 4, "Max", True),
        ("Apple M1 (Virtual)", "M1", 1, "", True),
        ("Apple M9 Ultra", "M9", 9, "Ultra", False),
        ("Apple M12 Max", "M12", 12, "Max", False),
        ("  apple m5  ", "M5", 5, "", False),
    ],
    ids=lambda v: str(v),
)
def test_identify_apple_chip(brand, family, generation, tier, virtual):
    chip = identify_apple_chip(brand)
    assert chip is not None
    assert (chip.family, chip.generation, chip.tier, chip.virtual) == (family, generation, tier, virtual)
    assert chip.name == f"Apple {family} {tier}".strip()


@pytest.mark.parametrize(
    "brand",
    [
        "Intel(R) Core(TM) i9-9880H CPU @ 2.30GHz",
        "Intel(R) Xeon(R) W-2140B CPU @ 3.20GHz",
        "VirtualApple @ 2.50GHz processor",
        "Apple Paravirtual device",
        "",
        "\ufffd\ufffd\ufffd",
    ],
    ids=["intel-core", "intel-xeon", "rosetta-virtualapple", "paravirtual-gpu", "empty", "garbage"],
)
def test_identify_apple_chip_rejects_non_apple_silicon_names(brand):
    assert identify_apple_chip(brand) is None


def test_every_apple_table_row_is_reachable_by_its_marketing_name():
    for key, spec in APPLE_GPUS.items():
        assert peak_fp32(f"Apple {key}") == (spec.tflops, float(spec.bandwidth_gbs)), key


@pytest.mark.parametrize(
    "model, cores, expected",
    [
        ("Apple M2 Max", None, (13.5, 400.0)),
        ("Apple M2 Max", 38, (13.5, 400.0)),
        ("Apple M1", 8, (2.6, 68.0)),
        ("Apple M1", 7, (2.275, 68.0)),
        ("Apple M3 Max", 30, (10.65, 300.0)),
        ("Apple M4 Max", 32, (14.72, 410.0)),
        ("Apple M4 Max", 40, (18.4, 546.0)),
        ("Apple M4 Max (Virtual)", None, (18.4, 546.0)),
        ("Apple M4 Pro", 16, (7.36, 273.0)),
        ("Apple M1 Pro", 99, (5.2, 200.0)),
        ("NVIDIA H200", None, (67.0, 4800.0)),
        ("NVIDIA H200 NVL", None, (60.0, 4800.0)),
        ("NVIDIA H100 80GB HBM3", None, (67.0, 3350.0)),
        ("NVIDIA H100 PCIe", None, (51.0, 2000.0)),
        ("NVIDIA A100-SXM4-80GB", None, (19.5, 2039.0)),
        ("NVIDIA A100 80GB PCIe", None, (19.5, 1935.0)),
        ("NVIDIA A100-PCIE-40GB", None, (19.5, 1555.0)),
        ("NVIDIA GeForce RTX 4090", None, (82.6, 1008.0)),
        ("NVIDIA GeForce RTX 3090", None, (35.6, 936.0)),
        ("AMD Radeon Pro 5500M", None, (4.0, 192.0)),
        ("AMD Radeon Pro 5600M", None, (5.3, 394.0)),
        ("AMD Radeon Pro 5300M", None, (3.2, None)),
        ("Radeon Pro 560X", None, (2.0, None)),
        ("Radeon Pro 555X", None, (1.4, None)),
        ("AMD Radeon Pro Vega 16", None, (2.4, None)),
        ("AMD Radeon Pro Vega 20", None, (3.2, None)),
        ("Radeon Pro Vega 56", None, (11.0, 400.0)),
        ("AMD Radeon Pro W6800X", None, (16.0, 512.0)),
        ("AMD Radeon Pro W6800X Duo", None, (15.1, 512.0)),
        ("AMD Radeon Pro W6900X", None, (22.0, 512.0)),
    ],
    ids=lambda v: str(v),
)
def test_peak_fp32(model, cores, expected):
    got = peak_fp32(model, cores)
    assert got is not None
    assert got[0] == pytest.approx(expected[0], abs=0.01)
    assert got[1] == expected[1]


@pytest.mark.parametrize(
    "model",
    ["Apple M9 Ultra", "Apple Paravirtual device", "Intel UHD Graphics 630", "NVIDIA GeForce RTX 3090 Ti",
     "Radeon Pro 5600", "", "\ufffd\ufffd"],
    ids=["future-chip", "paravirtual", "intel-igpu", "3090-ti-not-3090", "no-m-suffix", "empty", "garbage"],
)
def test_peak_fp32_unknown_is_none(model):
    assert peak_fp32(model) is None


def test_other_gpu_rows_have_positive_numbers():
    for pattern, tflops, bandwidth in OTHER_GPUS:
        assert tflops > 0 and (bandwidth is None or bandwidth > 0), pattern
