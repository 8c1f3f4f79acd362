"""Multi-GPU checks, in-process on facts built from a recorded machine (the real H200 recording)."""
import dataclasses
import json

import pytest

from conftest import MACHINES
from macml.diagnose import multi_gpu_checks as checks
from macml.facts import FrameworkFacts
from macml.probe.collect import facts_from_snapshot


@pytest.fixture(scope="module")
def h200():
    return facts_from_snapshot(json.loads((MACHINES / "linux-h200-real.json").read_text()))


def with_gpus(facts, *models, links=None, env=None, torch_names=None):
    base = facts.gpus_by_vendor("NVIDIA")[0]
    gpus = tuple(dataclasses.replace(base, model=m) for m in models)
    frameworks = dict(facts.frameworks)
    if torch_names is not None:
        torch = frameworks["torch"]
        frameworks["torch"] = FrameworkFacts("torch", True, dict(torch.data, device_names=torch_names))
    return dataclasses.replace(facts, gpus=gpus, gpu_links=links or {}, env=env or {}, frameworks=frameworks)


def test_one_gpu_has_nothing_to_say(h200):
    for check in (checks.check_hidden_gpus, checks.check_mixed_gpus, checks.check_nccl_env, checks.check_gpu_links):
        assert check(h200) is None


def test_gpus_hidden_from_torch(h200):
    facts = with_gpus(h200, "NVIDIA H200", "NVIDIA H200", env={"CUDA_VISIBLE_DEVICES": "1"},
                      torch_names=["NVIDIA H200"])
    finding = checks.check_hidden_gpus(facts)
    assert finding.level == "warn" and "nvidia-smi lists 2, torch sees 1" in finding.message
    assert "export CUDA_VISIBLE_DEVICES=0,1" in finding.fix.commands[0]


def test_hidden_gpus_from_the_variable_alone(h200):
    facts = with_gpus(h200, "NVIDIA H200", "NVIDIA H200", env={"CUDA_VISIBLE_DEVICES": "-1"})
    facts = dataclasses.replace(facts, frameworks={})
    assert "CUDA_VISIBLE_DEVICES names 0" in checks.check_hidden_gpus(facts).message


def test_all_visible_is_fine(h200):
    facts = with_gpus(h200, "NVIDIA H200", "NVIDIA H200", env={"CUDA_VISIBLE_DEVICES": "0,1"},
                      torch_names=["NVIDIA H200", "NVIDIA H200"])
    assert checks.check_hidden_gpus(facts) is None


def test_mixed_models(h200):
    facts = with_gpus(h200, "NVIDIA GeForce RTX 5090", "NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 5090")
    finding = checks.check_mixed_gpus(facts)
    assert finding.level == "warn"
    assert "1x NVIDIA GeForce RTX 4090, 2x NVIDIA GeForce RTX 5090" in finding.message


@pytest.mark.parametrize("env, named", [
    ({"NCCL_P2P_DISABLE": "1"}, "NCCL_P2P_DISABLE"),
    ({"NCCL_IB_DISABLE": "1", "NCCL_NET": "Socket"}, "NCCL_IB_DISABLE, NCCL_NET"),
], ids=["p2p-off", "ib-off-sockets"])
def test_nccl_slow_paths(h200, env, named):
    finding = checks.check_nccl_env(dataclasses.replace(h200, env=env))
    assert finding.level == "warn" and named in finding.message
    assert finding.fix.commands[0].startswith("unset ")


def test_nccl_values_that_change_nothing(h200):
    assert checks.check_nccl_env(dataclasses.replace(h200, env={"NCCL_P2P_DISABLE": "0",
                                                                "NCCL_DEBUG": "INFO"})) is None


def test_links_all_nvlink_names_nccl(h200):
    torch = h200.frameworks["torch"]
    facts = with_gpus(h200, "NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3",
                      links={"0-1": "NV18"})
    facts = dataclasses.replace(facts, frameworks={"torch": FrameworkFacts(
        "torch", True, dict(torch.data, nccl_version="2.27.5"))})
    finding = checks.check_gpu_links(facts)
    assert finding.level == "ok" and "NVLink (NV18)" in finding.message and "NCCL 2.27.5" in finding.message


def test_links_pcie_only(h200):
    facts = with_gpus(h200, "NVIDIA GeForce RTX 5090", "NVIDIA GeForce RTX 5090", links={"0-1": "PHB"})
    finding = checks.check_gpu_links(facts)
    assert finding.level == "info" and "PCIe only" in finding.message
    assert finding.fix.commands == ("macml verify --nproc all",)
