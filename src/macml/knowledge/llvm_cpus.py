"""LLVM's host CPU names -> the hardware architecture they belong to.

numba -s prints LLVM's host CPU as 'CPU Name : skylake', `llc --version` as 'Host CPU: znver3', Julia's versioninfo as
'LLVM: libLLVM-15.0.7 (ORCJIT, alderlake)'. Source: the names LLVM's sys::getHostCPUName() returns, listed in
llvm/lib/TargetParser/X86TargetParser.cpp (Processors[]) and AArch64TargetParser / AArch64Processors.td. 'generic'
and names of other families say nothing and are left out, as are 32-bit-era x86 names (i686, pentium4, atom).
"""
from __future__ import annotations

import re
from typing import Optional

_X86 = re.compile(r"^(?:nocona|core2|penryn|nehalem|corei7(?:-avx)?|westmere|sandybridge"
                  r"|ivybridge|core-avx-i|haswell|core-avx2|broadwell|skylake(?:-avx512)?|skx|cascadelake|cooperlake"
                  r"|cannonlake|icelake-(?:client|server)|tigerlake|sapphirerapids|emeraldrapids|graniterapids(?:-d)?"
                  r"|alderlake|raptorlake|meteorlake|arrowlake(?:-s)?|lunarlake|pantherlake|gracemont|rocketlake"
                  r"|silvermont|slm|goldmont(?:-plus)?|tremont|sierraforest|grandridge|clearwaterforest"
                  r"|knl|knm|k8(?:-sse3)?|amdfam10|barcelona|btver[12]|bdver[1-4]|znver[1-5]|x86-64(?:-v[234])?)$")
_ARM64 = re.compile(r"^(?:apple-(?:m\d|a\d+)|cyclone|neoverse-[\w-]+|cortex-a(?:5[357]|7[2-8]\w*|[0-9]{3}\w*)"
                    r"|cortex-x\d\w*|thunderx\w*|carmel|a64fx|ampere1\w*|kryo|exynos-m\d|tsv110|falkor|saphira)$")


def llvm_cpu_arch(name: str) -> Optional[str]:
    """'skylake' -> 'x86_64', 'znver3' -> 'x86_64', 'apple-m1' -> 'arm64', 'neoverse-v2' -> 'aarch64'; 'generic' -> None."""
    text = (name or "").strip().lower()
    if _X86.match(text):
        return "x86_64"
    if _ARM64.match(text):
        return "arm64" if text.startswith(("apple-", "cyclone")) else "aarch64"
    return None
