"""The system line of an EasyBuild test report (the comment `eb --upload-test-report` posts on an easyconfigs pull
request, easybuild-framework's tools/testing.py): host, OS, CPU, GPUs and Python on one line,

'jrc0850.jureca - Linux Rocky Linux 9.5 (Blue Onyx), x86_64, AMD EPYC 7443 24-Core Processor, 8 x AMD AMD Instinct
MI250X / MI250 (model: 0x740c, driver:  "6.12.12"), Python 3.9.21'

(the GPU part is '<count> x <vendor> <name> (model: <pci id>, driver: "<version>")', vendor repeated by the tool, and
left out on a machine without GPUs; an NVIDIA GPU's is '<count> x NVIDIA <name>, <driver>', and the arch may be
capitalised: 'jrc0901.jureca - Linux Rocky Linux 9.6, AArch64, ARM UNKNOWN (neoverse_v2), 1 x NVIDIA NVIDIA GH200
480GB, 580.95.05, Python 3.9.21')."""
from __future__ import annotations

import re

from macml.probe.paste.statement_rules import Facts

_REPORT = re.compile(r"^\s*\S+ - Linux (?P<os>[A-Z][^,]{2,60}), (?P<arch>(?i:x86_64|aarch64|ppc64le|riscv64)), (?P<cpu>[^,]{4,80}),"
                     r"(?P<gpus>.*?),? Python (?P<python>\d\.\d{1,2}\.\d{1,2})\b")
_GPU = re.compile(r"(\d{1,2}) x (NVIDIA|AMD|Intel) (?:\2 )?([^(,]+?)\s*(?:\(model:[^,)]*,\s*driver:\s*\"?([\w.-]+)\"?\)"
                  r"|,\s*(\d{3}\.\d{1,3}(?:\.\d{1,3})?)(?=,))")


def line_facts(line: str) -> Facts:
    report = _REPORT.match(line)
    if not report:
        return []
    facts: Facts = [("platform", "linux"), ("os.name", report.group("os").strip()),
                    ("cpu.hardware_arch", report.group("arch").lower()), ("cpu.brand", report.group("cpu").strip()),
                    ("python.version", report.group("python"))]
    for count, vendor, name, driver, nvidia_driver in _GPU.findall(report.group("gpus") + ","):
        name, driver = f"{vendor} {name.strip()}", driver or nvidia_driver
        facts += [("gpu", {"name": name, "vendor": vendor, "memory_mib": None, "index": i}) for i in range(int(count))]
        facts.append(("gpu.driver", driver))
    return facts
