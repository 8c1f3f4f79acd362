"""nvidia-smi topo -m / nvlink -s parsers, fed outputs pasted in public reports (sources beside each)."""
import pytest

from macml.probe.nvidia_topology import (describe_link, nvlink_peak_gbs, parse_nvlink_status,
                                         parse_topology, slowest_link)

# NVIDIA/nccl#1617 (4x H100, NV6, one NIC per GPU), as pasted.
H100_NV6 = """        GPU0    GPU1    GPU2    GPU3    NIC0    NIC1    NIC2    NIC3    CPU Affinity    NUMA Affinity   GPU NUMA ID
GPU0     X      NV6     NV6     NV6     PIX     SYS     SYS     SYS     6,14,22,30      3               N/A
GPU1    NV6      X      NV6     NV6     SYS     PIX     SYS     SYS     4,12,20,28      1               N/A
GPU2    NV6     NV6      X      NV6     SYS     SYS     PIX     SYS     7,15,23,31      7               N/A
GPU3    NV6     NV6     NV6      X      SYS     SYS     SYS     PIX     5,13,21,29      5               N/A
NIC0    PIX     SYS     SYS     SYS      X      SYS     SYS     SYS
NIC1    SYS     PIX     SYS     SYS     SYS      X      SYS     SYS
NIC2    SYS     SYS     PIX     SYS     SYS     SYS      X      SYS
NIC3    SYS     SYS     SYS     PIX     SYS     SYS     SYS      X 

Legend:

  X    = Self
  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
"""

# noonghunna/club-3090#1229 (2x RTX 5090 on a Threadripper), tab-separated as nvidia-smi prints it.
RTX5090_PHB = """\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID
GPU0\t X \tPHB\t0-63\t0\t\tN/A
GPU1\tPHB\t X \t0-63\t0\t\tN/A

Legend:

  X    = Self
  NV#  = Connection traversing a bonded set of # NVLinks
"""

# kubernetes/kubernetes#53497 (8 GPUs over PCIe, two sockets), first five rows as pasted.
PCIE_8 = """        GPU0    GPU1    GPU2    GPU3    GPU4    GPU5    GPU6    GPU7    mlx4_0  CPU Affinity
GPU0     X      PIX     PHB     PHB     SYS     SYS     SYS     SYS     PHB     0-9,20-29
GPU1    PIX      X      PHB     PHB     SYS     SYS     SYS     SYS     PHB     0-9,20-29
GPU2    PHB     PHB      X      PIX     SYS     SYS     SYS     SYS     PHB     0-9,20-29
GPU3    PHB     PHB     PIX      X      SYS     SYS     SYS     SYS     PHB     0-9,20-29
GPU4    SYS     SYS     SYS     SYS      X      PIX     PHB     PHB     SYS     10-19,30-39
"""

# Azure/azhpc-diagnostics#73 (a V100 with two inactive links), as pasted.
V100_INACTIVE = """GPU 3: Tesla V100-SXM2-32GB (UUID: ...)
         Link 0: 25.781 GB/s
         Link 1: 25.781 GB/s
         Link 2: 25.781 GB/s
         Link 3: <inactive>
         Link 4: 25.781 GB/s
         Link 5: <inactive>
"""

# NVIDIA/k8s-test-infra#371 (GB200, 18 links), first GPU as pasted.
GB200 = "GPU 0: NVIDIA GB200 (UUID: GPU-d1b93026-6d5b-03bd-3a71-f85b47a61bde)\n" + "".join(
    f"         Link {i}: 53.125 GB/s\n" for i in range(18))


# `nvidia-smi topo -m` on the one-H200 device machine, driver 580 (benchmarks/results/h200-nvidia-smi-topo.txt):
# the header is underlined with ANSI escapes even into a pipe.
H200_ONE = "\t\x1b[4mGPU0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\nGPU0\t X \t0-15\t0\t\tN/A\n"


def test_ansi_header_of_a_single_gpu():
    topo = parse_topology(H200_ONE)
    assert topo.gpus == (0,) and topo.links == {}


def test_ansi_header_with_two_gpus():
    topo = parse_topology(H200_ONE.replace("GPU0\tCPU", "GPU0\tGPU1\tCPU").replace(" X \t0-15", " X \tNV18\t0-15")
                          + "GPU1\tNV18\t X \t0-15\t0\t\tN/A\n")
    assert topo.links == {(0, 1): "NV18"}


def test_nvlink_matrix_ignores_nic_rows_and_affinity():
    topo = parse_topology(H100_NV6)
    assert topo.gpus == (0, 1, 2, 3)
    assert set(topo.links.values()) == {"NV6"} and len(topo.links) == 6
    assert topo.nvlink_pairs == 6 and topo.slowest == "NV6"


def test_tab_separated_pcie_pair():
    topo = parse_topology(RTX5090_PHB)
    assert topo.links == {(0, 1): "PHB"}
    assert describe_link(topo.slowest) == "PCIe and a PCIe host bridge (the CPU)"


def test_partial_matrix_keeps_what_it_saw():
    topo = parse_topology(PCIE_8)
    assert topo.link(0, 1) == "PIX" and topo.link(3, 2) == "PIX" and topo.link(0, 4) == "SYS"
    assert topo.slowest == "SYS"


@pytest.mark.parametrize("text", ["", "NVIDIA-SMI has failed because it couldn't communicate with the driver.",
                                  "GPU0\n", "\tGPU0\nGPU0\t X \n"], ids=["empty", "driver-error", "row-only", "one-gpu"])
def test_nothing_to_link(text):
    topo = parse_topology(text)
    assert topo is None or topo.links == {}


def test_nvlink_status_inactive_links():
    status = parse_nvlink_status(V100_INACTIVE)
    assert status == {3: [25.781, 25.781, 25.781, None, 25.781, None]}
    assert nvlink_peak_gbs(status, gpu=3) == pytest.approx(103.124)
    assert nvlink_peak_gbs(status, gpu=0) is None


def test_nvlink_status_gb200_peak():
    assert nvlink_peak_gbs(parse_nvlink_status(GB200)) == pytest.approx(18 * 53.125)


def test_slowest_link_orders_nvlink_by_count():
    assert slowest_link(["NV18", "NV4"]) == "NV4"
    assert slowest_link(["NV18", "PIX"]) == "PIX"
    assert slowest_link([]) is None
