"""Mac hardware that changes the advice: a virtual machine (any guest), 8 GB of unified memory, an eGPU."""
from __future__ import annotations

from typing import Optional, Sequence

from macml.facts import GIB, MachineFacts, format_bytes
from macml.knowledge.thunderbolt import has_thunderbolt3, name_has_thunderbolt3
from macml.diagnose.common import install_recipe, reinstall_recipe
from macml.diagnose.findings import Finding, Fix, warn
from macml.recipes.catalog import Recipe

SMALL_UNIFIED_MEMORY = 8 * GIB


# Desktop hypervisors give a guest an emulated display adapter; cloud ones (KVM, Xen, Hyper-V) often pass a GPU through
_DESKTOP_HYPERVISORS = ("VirtualBox", "VMware", "Parallels", "mvisor",  # mvisor: a desktop VM with an emulated display (QXL)
                        "LinuxKit")  # Docker Desktop's VM: no GPU (its GPU path is WSL 2, whose kernel is not linuxkit)


def check_virtual_machine(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """A virtual machine: no Metal compute for MPS or MLX in a macOS guest; elsewhere no GPU unless one is passed through."""
    if not facts.vm:
        return None
    if not facts.is_mac:
        return _guest_without_gpu(facts, recipes)
    what = facts.hypervisor or "a hypervisor"
    return warn("GPU", f"This macOS runs in a virtual machine ({what}): no GPU training inside it",
                Fix("VirtualBox, VMware, Parallels and QEMU give macOS guests no Metal GPU, and Apple's "
                    "Virtualization framework's paravirtual GPU does not run PyTorch MPS or MLX. Run training "
                    "on the host macOS; inside the VM only CPU builds work.",
                    install_recipe(facts, recipes, "torch", note="  # inside the VM")),
                *((f"evidence: {facts.sources['vm']}",) if "vm" in facts.sources else ()))


def _guest_without_gpu(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """A Windows or Linux guest with no NVIDIA or AMD GPU passed through: a desktop hypervisor's, or one whose
    GPU list was read and holds none."""
    if facts.gpus_by_vendor("NVIDIA") or facts.gpus_by_vendor("AMD"):
        return None
    desktop = any(name.lower() in (facts.hypervisor or "").lower() for name in _DESKTOP_HYPERVISORS)
    if not desktop and not facts.gpu_list_known:
        return None
    what = facts.hypervisor or "a hypervisor"
    return warn("GPU", f"This machine runs in a virtual machine ({what}): no GPU for training unless one is passed through",
                Fix("VirtualBox, VMware and Parallels give a guest an emulated display adapter that no ML framework "
                    "uses. Train on the host, or pass a GPU through (PCI passthrough, Hyper-V DDA, a cloud GPU "
                    "instance); inside this VM only CPU builds work.",
                    install_recipe(facts, recipes, "torch", "cpu", note="  # inside the VM")),
                *((f"evidence: {facts.sources['vm']}",) if "vm" in facts.sources else ()))


def check_unified_memory(facts: MachineFacts) -> Optional[Finding]:
    """Apple silicon with 8 GB of unified memory, shared by the CPU, the GPU and macOS."""
    memory = facts.cpu.memory_bytes
    if not facts.is_mac or not facts.cpu.apple_silicon or facts.vm or not memory or memory > SMALL_UNIFIED_MEMORY:
        return None
    return warn("GPU", f"{format_bytes(memory)} of unified memory: the GPU, the CPU and macOS share it",
                Fix("Train small models with small batches, in float16/bfloat16 where the model allows; for LLMs use "
                    "4-bit models with MLX (mlx-lm). Keep PYTORCH_MPS_HIGH_WATERMARK_RATIO at its default (never 0.0: "
                    "swapping is slower than a clean out-of-memory error), close other apps, and watch Memory "
                    "Pressure in Activity Monitor.", ("unset PYTORCH_MPS_HIGH_WATERMARK_RATIO",)))


def check_egpu(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """An external GPU: macOS drives eGPUs on Intel Macs only, and they must not be unplugged in use."""
    external = [g for g in facts.gpus if g.external]
    if not facts.is_mac or not external:
        return None
    name = external[0].model
    if not external[0].usable:
        vendor = external[0].vendor if external[0].vendor != "unknown" else "an"
        return warn("GPU", f"An external {vendor} GPU is listed only by vendor and device ID: macOS has no driver "
                    "for it, so no framework can use it",
                    Fix("macOS drives only the eGPU cards Apple lists (Apple support article HT208544, 'Use an external graphics processor with your Mac'); this card or its "
                        "enclosure is not one of them on this macOS. Until it has a driver, only CPU builds run."))
    if external[0].vendor == "NVIDIA":
        return warn("GPU", f"{name} is an external NVIDIA GPU: no macOS driver past 10.13 and no ML framework "
                    "uses NVIDIA GPUs on a Mac",
                    Fix("Use it from Linux or Windows (Boot Camp on an Intel Mac, or move the card to a PC); on this "
                        "Mac, an AMD eGPU works with Metal (Intel Macs only)."))  # a recipe for a card it does not have
    if facts.cpu.apple_silicon:
        return warn("GPU", f"{name} is an external GPU: Apple-silicon Macs do not drive eGPUs",
                    Fix("Use the built-in Apple GPU (PyTorch MPS, MLX); the eGPU works only with an Intel Mac.",
                        install_recipe(facts, recipes, "torch", "mps")))
    thunderbolt3 = has_thunderbolt3(facts.cpu.model or "")
    if thunderbolt3 is None:  # no model identifier: the Mac as the text names it ('MacBook Pro 15" Late-2013')
        thunderbolt3 = name_has_thunderbolt3(facts.cpu.model_name or "")
    if thunderbolt3 is False:
        return warn("GPU", f"{name} is an eGPU on a {facts.cpu.model or facts.cpu.model_name}, which has no Thunderbolt 3: macOS does not "
                    "support eGPUs on it",
                    Fix("Apple supports eGPUs only on Thunderbolt 3 Macs (support.apple.com/102363); on older ones they "
                        "need patches such as purge-wrangler, which macOS updates undo (boot loops, a GPU that "
                        "vanishes). Keep the built-in GPU for training, or move the card to a Thunderbolt 3 Mac or a PC."))
    # A warning, not a note: a framework uses the eGPU only when told to, and a job dies when it is unplugged
    return warn("GPU", f"{name} is an eGPU: supported on Intel Macs over Thunderbolt 3 (macOS 10.13.4+), but a "
                "framework uses it only when told to, and a job on it crashes if it is unplugged",
                Fix("Quit every process that uses it before unplugging (a Metal or PlaidML job whose GPU disappears "
                    "crashes). PlaidML must be told to use it (the plaidml-amd recipe picks the best GPU); torch 2.2.2's "
                    "MPS uses the default GPU.", reinstall_recipe(recipes, "plaidml", "metal")))
