"""Linux parsers on literal outputs."""
import pytest

from macml.probe.linux import (parse_meminfo_total, parse_nvidia_query, parse_nvidia_smi, parse_os_release,
                               parse_rocm_product, parse_rocm_smi)

SMI_H200 = """+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 580.159.03             Driver Version: 580.159.03     CUDA Version: 13.0     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
|=========================================+========================+======================|
|   0  NVIDIA H200                    On  |   00000000:00:05.0 Off |                    0 |
| N/A   30C    P0             76W /  700W |       0MiB / 143771MiB |      0%      Default |
+-----------------------------------------+------------------------+----------------------+
| Processes:                                                                              |
|    0   N/A  N/A      1234      C   python3                                  500MiB |
"""
SMI_OLD = """| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |
|===============================+======================+======================|
|   0  Tesla T4            Off  | 00000000:00:04.0 Off |                    0 |
| N/A   34C    P8     9W /  70W |      0MiB / 15109MiB |      0%      Default |
|   1  Tesla T4            Off  | 00000000:00:05.0 Off |                    0 |
| N/A   35C    P8     9W /  70W |      0MiB / 15109MiB |      0%      Default |
"""


@pytest.mark.parametrize("text, driver, cuda, names", [
    (SMI_H200, "580.159.03", "13.0", ["NVIDIA H200"]),
    (SMI_OLD, "470.82.01", "11.4", ["Tesla T4", "Tesla T4"]),
    ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.", None, None, []),
    ("", None, None, []),
], ids=["h200-580", "t4-470-two-gpus", "driver-not-loaded", "empty"])
def test_parse_nvidia_smi(text, driver, cuda, names):
    got_driver, got_cuda, gpus = parse_nvidia_smi(text)
    assert (got_driver, got_cuda, [n for n, _ in gpus]) == (driver, cuda, names)


def test_nvidia_smi_memory_and_processes_table():
    _, _, gpus = parse_nvidia_smi(SMI_H200)
    assert gpus == [("NVIDIA H200", 143771 * 1024**2)]  # the process row is not a GPU


def test_parse_nvidia_query_units_and_missing_fields():
    rows = parse_nvidia_query("NVIDIA H200, 580.159.03, 143771 MiB, 9.0\nTesla K80, 470.82.01, 11441 MiB, [N/A]\n")
    assert rows[0] == {"name": "NVIDIA H200", "driver": "580.159.03", "memory": str(143771 * 1024**2), "compute_cap": "9.0"}
    assert rows[1]["compute_cap"] is None


def test_parse_os_release_quotes_and_comments():
    values = parse_os_release('# comment\nNAME="Ubuntu"\nVERSION_ID=\'22.04\'\nID=ubuntu\n')
    assert values == {"NAME": "Ubuntu", "VERSION_ID": "22.04", "ID": "ubuntu"}


def test_parse_meminfo():
    assert parse_meminfo_total("MemTotal:       24591312 kB\nMemFree: 1 kB\n") == 24591312 * 1024
    assert parse_meminfo_total("garbage") is None


ROCM = """========================================= ROCm System Management Interface =========================================
=================================================== Concise Info ===================================================
Device  Node  IDs              Temp    Power  Partitions          SCLK    MCLK    Fan     Perf  PwrCap  VRAM%  GPU%
              (DID,     GUID)  (Edge)  (Avg)  (Mem, Compute, ID)
====================================================================================================================
0       1     0x744c,   53423  34.0°C  20.0W  N/A, N/A, 0         0Mhz    96Mhz   0%      auto  327.0W  1%     0%
1       2     0x744c,   11311  31.0°C  18.0W  N/A, N/A, 0         0Mhz    96Mhz   0%      auto  327.0W  0%     0%
====================================================================================================================
=============================================== End of ROCm SMI Log ================================================
"""
PRODUCT = """GPU[0]		: Card Series: 		Navi31 [Radeon RX 7900 XT/7900 XTX]
GPU[0]		: Card Vendor: 		Advanced Micro Devices, Inc. [AMD/ATI]
GPU[0]		: GFX Version: 		gfx1100
"""


def test_parse_rocm_smi_counts_gpus():
    assert parse_rocm_smi(ROCM) == ["0", "1"]


def test_parse_rocm_product():
    cards = parse_rocm_product(PRODUCT)
    assert cards["0"]["card series"] == "Navi31 [Radeon RX 7900 XT/7900 XTX]"
    assert cards["0"]["gfx version"] == "gfx1100"
