"""Cloud instance types -> what the machine is: a hypervisor guest or bare metal, with or without a GPU.

Amazon EC2: every instance type is a Nitro/Xen guest except the '.metal' sizes (docs.aws.amazon.com/ec2/latest/
instancetypes/instance-types.html, 'Bare metal instances'). GPUs come only with the accelerated-computing
families below (docs.aws.amazon.com/ec2/latest/instancetypes/ac.html): P (NVIDIA), G (NVIDIA; g4ad AMD Radeon
Pro V520). Other accelerated families carry no GPU: inf/trn (AWS Inferentia/Trainium), dl1 (Habana Gaudi),
dl2q (Qualcomm), f1/f2 (FPGA), vt1 (Xilinx video).

Processors (docs.aws.amazon.com/ec2/latest/instancetypes/ec2-instance-type-specifications.html, 'Processor'): a1 and
the families whose option letters start with 'g' after the generation digit (t4g, m6g, c7gn, g5g, x2gd, im4gn) are
AWS Graviton (Arm); mac families are Mac minis (mac1 Intel, mac2 Apple silicon); every other family is Intel or AMD
x86_64.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

EC2_GPU_FAMILIES = ("p2", "p3", "p3dn", "p4d", "p4de", "p5", "p5e", "p5en", "p6", "g2", "g3", "g3s", "g4dn", "g4ad",
                    "g5", "g5g", "g6", "g6e", "g6f", "gr6", "gr6f")
# family letters + generation digit + option letters, then the size: 't4g.2xlarge', 'm5d.metal', 'p4d.24xlarge'
EC2_TYPE = re.compile(r"\b((?:[a-z]{1,3}\d[a-z-]*)|(?:u-\d+tb\d?))\.(nano|micro|small|medium|large|\d*xlarge|metal(?:-\d+xl)?)\b")


@dataclass(frozen=True)
class Instance:
    name: str  # 't4g.2xlarge'
    virtual: bool  # False only for '.metal' sizes
    has_gpu: bool
    arch: Optional[str] = None  # 'x86_64' or 'aarch64'; None for Mac minis


def _arch(family: str) -> Optional[str]:
    if family.startswith("mac"):
        return None
    return "aarch64" if family == "a1" or re.fullmatch(r"[a-z]+\d+g[a-z-]*", family) else "x86_64"


def ec2_instance(text: str) -> Optional[Instance]:
    """'t4g.2xlarge' -> a guest without a GPU; 'g5.xlarge' -> a guest with one; 'm5.metal' -> bare metal."""
    found = EC2_TYPE.search(text.strip().lower())
    if not found:
        return None
    family, size = found.group(1), found.group(2)
    return Instance(found.group(), virtual=not size.startswith("metal"), has_gpu=family in EC2_GPU_FAMILIES,
                    arch=_arch(family))
