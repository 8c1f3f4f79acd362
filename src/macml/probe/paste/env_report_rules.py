"""Set 11's Linux clues in environment reports written in issues, each a pure function returning stated facts.

- A distribution named in a sentence: 'I'm using 3090 on Pop OS 22.04', 'running on Unbuntu 24.04' (a common
  misspelling), 'Operating System: Kubuntu 25.04', '- OS: [Ubuntu 22.04 server]', 'Operating System: ubuntu';
  Ubuntu's month written short ('Ubuntu 16.4' is 16.04: Ubuntu releases are YY.04 / YY.10).
- Ubuntu's kernel build string ('#42~16.04.1-Ubuntu SMP', '系统=16.04.1-Ubuntu') and old Pythons' platform.platform()
  ('Linux-4.13.0-37-generic-x86_64-with-Ubuntu-16.04-xenial'); os-release's 'PRETTY_NAME="Ubuntu 22.04.5 LTS"'.
- Memory written with a decimal comma (KDE's 'Memory: 30,1 GiB of RAM').
- A GPU written as people say it: a bare model number ('2080Ti', '1050ti', 'nvidia 950m'), 'Nvidia T600', a GPU
  field ending in 'GPU' ('NVIDIA GeForce GTX 1650 Ti GPU'), a line that is only a GPU ('rtx2080super 8G'), Chinese
  answers ('显卡是1050ti' = 'the graphics card is', 'GPU设备为2080Ti', 'python是3.6.9', 'Python版本=Python3.5.5').
- A list item written without the space after its dash ('-GPU: Nvidia T600').
- Tool output (kohya, trtexec, Paddle, NGC banners, MXNet's diagnose.py, pipx, Lightning, lspci) is read by
  env_tool_rules; line_facts and answers here include it, so statements registers one module.
- A package named in prose with its version ('with numba 0.57.0 and cuda-python 12.1.0'), a 'PyTorch Version in
  docker container : 1.9.0' field, and a project's version beside the pip command that installed it.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.paste import env_tool_rules
from macml.probe.paste.gpu_names import gpu_names, gpu_record, informal_gpu_names
from macml.probe.paste.said_of_this_machine import someone_elses, writers_os
from macml.probe.paste.statement_rules import by_key

Facts = List[Tuple[str, Any]]

_NEGATED = re.compile(r"\b(?:not|never|instead of|rather than|except|unlike|vs\.?)\s*$|n't\s*$", re.IGNORECASE)
# How people write each distribution -> the name kept (as written, unless it is a misspelling)
_DISTROS = (r"(?P<name>Pop!?[ _]?OS|K?ubuntu|Xubuntu|Lubuntu|Unbuntu|Ubunutu|Ubunto|Debian|Fedora|CentOS|Rocky Linux"
            r"|AlmaLinux|Linux Mint|Manjaro|openSUSE(?: Leap| Tumbleweed)?|Arch Linux|RHEL)")
_MISSPELT = {"unbuntu": "Ubuntu", "ubunutu": "Ubuntu", "ubunto": "Ubuntu"}
_SPELLED = {"ubuntu": "Ubuntu", "kubuntu": "Kubuntu", "xubuntu": "Xubuntu", "lubuntu": "Lubuntu", "debian": "Debian",
            "fedora": "Fedora", "centos": "CentOS", "manjaro": "Manjaro", "rhel": "RHEL", "almalinux": "AlmaLinux"}
_DISTRO_VERSION = re.compile(r"(?<![\w-])" + _DISTROS + r"(?:\s+Server|\s+Desktop)?\s*(?P<version>\d{1,2}(?:\.\d{1,2}){0,2})"
                             r"(?P<lts>\s+LTS)?(?![\w.]*\d)(?:\s+(?P<arch>amd64|x86_64|arm64|aarch64)\b)?", re.IGNORECASE)
_PROSE_LEAD = re.compile(r"\b(?:on|running|using|with|under|in|use|installed)\s+$", re.IGNORECASE)
_LINE_START = re.compile(r"^\s*(?:[-*>]\s*)?$")


def _needs_care(name: str, version: str) -> bool:
    """A distribution the older rules misread: misspelt, one they do not know, or Ubuntu's month written short."""
    return (name.lower() in _MISSPELT or name.lower() not in _SPELLED
            or name.lower() == "ubuntu" and bool(re.match(r"^\d{2}\.4$", version)))


def _distro(name: str, version: str, lts: str = "") -> str:
    name = _MISSPELT.get(name.lower(), _SPELLED.get(name.lower(), name))
    if name == "Ubuntu":
        short = re.match(r"^(\d{2})\.([1-9])$", version)  # 'Ubuntu 16.4': releases are YY.04 and YY.10
        version = f"{short.group(1)}.0{short.group(2)}" if short and short.group(2) == "4" else version
    return f"{name} {version}{lts or ''}".strip()


def distro_in_sentence(line: str) -> Facts:
    """'I'm using 3090 on Pop OS 22.04' -> linux, 'Pop OS 22.04'; 'Ubuntu 16.4 Python 3.5.2' -> 'Ubuntu 16.04';
    'running on Unbuntu 24.04' -> 'Ubuntu 24.04'. Nothing from 'works on Ubuntu but not on Fedora 39', another
    machine's ('in Ubuntu 22.04 on a different machine', 'on our CI runners'), or a line giving the writer another OS."""
    for found in _DISTRO_VERSION.finditer(line):
        before = line[:found.start()]
        if "." not in found.group("version") and found.group("name").lower().endswith(("buntu", "bunto", "bunutu")):
            continue  # Ubuntu's versions all have a month: 'Ubuntu 2' is not one
        lead = _PROSE_LEAD.search(before) or _LINE_START.match(before) and _needs_care(found.group("name"), found.group("version"))
        if lead and not _NEGATED.search(re.sub(r"\s*\b(?:on|with|in|under)\s*$", "", before)) \
                and not _another_machines(line, found.start(), found.end()):
            arch = found.group("arch")
            return [("platform", "linux"), ("os.name", _distro(found.group("name"), found.group("version"),
                                                                found.group("lts") or ""))] + (
                [("cpu.hardware_arch", "aarch64" if arch.lower() in ("arm64", "aarch64") else "x86_64")] if arch else [])
    return []


def _another_machines(line: str, start: int, end: int) -> bool:
    """The sentence around line[start:end] is of another machine, or the rest of the line gives the writer macOS or
    Windows (not through WSL)."""
    sentence = re.split(r"[.;!?](?:\s|$)", line[:start])[-1] + re.split(r"[.;!?](?:\s|$)", line[start:])[0]
    return someone_elses(sentence) or writers_os(line[end:]) in ("darwin", "win32") and "wsl" not in line.lower()


_UBUNTU_KERNEL = re.compile(r"(?<![\d.])(\d{2}\.\d{2}(?:\.\d)?)-Ubuntu\b")
_OLD_PLATFORM = re.compile(r"\bLinux-[\w.+~-]+?-with-(Ubuntu|debian|centos|fedora|redhat|LinuxMint)-(\d+(?:\.\d+)*)", re.IGNORECASE)
# a Debian package version built for one Ubuntu release: 'libnvidia-common-460:amd64 (460.56-0ubuntu0.20.04.1', '1.4-1ubuntu1~22.04.1'
_UBUNTU_PACKAGE = re.compile(r"\d-\d+ubuntu\d+[.~](\d{2}\.\d{2})(?:\.\d+)?\b")
_PRETTY = re.compile(r'^\s*PRETTY_NAME="?([A-Za-z][^"]*?\d[^"]*?)"?\s*$')


def _ubuntu_of_kernel(found: "re.Match[str]") -> str:
    """'#46~16.04.1-Ubuntu': a kernel backported to 16.04 (the '.1' counts the backport builds, not a point
    release); '16.04.1-Ubuntu' alone is the release."""
    backport = found.start() > 0 and found.string[found.start() - 1] == "~"
    return "Ubuntu " + (re.sub(r"^(\d{2}\.\d{2})\.\d$", r"\1", found.group(1)) if backport else found.group(1))


def os_strings(line: str) -> Facts:
    """'#42~16.04.1-Ubuntu SMP' / '系统=16.04.1-Ubuntu' -> 'Ubuntu 16.04.1'; platform.platform()'s
    'Linux-4.13.0-37-generic-x86_64-with-Ubuntu-16.04-xenial' -> 'Ubuntu 16.04'; PRETTY_NAME="Ubuntu 22.04.5 LTS"."""
    for pattern, make in ((_OLD_PLATFORM, lambda m: _distro(m.group(1).capitalize().replace("Centos", "CentOS")
                                                              .replace("Linuxmint", "Linux Mint"), m.group(2))),
                          (_PRETTY, lambda m: m.group(1).strip()),
                          (_UBUNTU_KERNEL, _ubuntu_of_kernel),
                          (_UBUNTU_PACKAGE, lambda m: "Ubuntu " + m.group(1))):
        found = pattern.search(line)
        if found:
            return [("platform", "linux"), ("os.name", make(found))]
    return []


_OS_KEYS = ("os", "operating system", "system", "distro", "distribution", "os version", "os/platform", "platform",
            "os platform and distribution",  # TensorFlow's issue form
            "linux version")  # MONAI's print_config(): 'Linux version: Linux Mint 21.2' (its distro)


_MAC_SHORT = re.compile(r"mac\s?((?:10\.1[0-5]|1[1-5]\.\d|2[6-9]\.\d)(?:\.\d{1,2})?)", re.IGNORECASE)


def os_answer(key: str, value: str) -> Facts:
    """'- OS: [Ubuntu 22.04 server]' -> 'Ubuntu 22.04'; 'OS: mac 15.0.1' -> macOS 15.0.1; 'Operating System: Kubuntu 25.04'; 'Operating System: ubuntu'
    (a distribution without its version, kept as written)."""
    if key not in _OS_KEYS:
        return []
    value = value.strip().strip("[]()").strip()
    mac = _MAC_SHORT.fullmatch(value)
    if mac:  # 'mac 15.0.1': the writer's macOS, its version written whole
        return [("platform", "darwin"), ("os.version", mac.group(1))]
    found = _DISTRO_VERSION.match(value)
    if found:
        return [("platform", "linux"), ("os.name", _distro(found.group("name"), found.group("version"), found.group("lts") or ""))]
    bare = re.fullmatch(_DISTROS, value, re.IGNORECASE)
    return [("platform", "linux"), ("os.name", _MISSPELT.get(value.lower(), value))] if bare else []


_COMMA_MEMORY = re.compile(r"^(\d{1,4}),(\d{1,2})\s*(GiB|GB|TiB|TB)\b", re.IGNORECASE)


def comma_memory(key: str, value: str) -> Facts:
    """KDE Info Center in a German/French locale: 'Memory: 30,1 GiB of RAM' -> 30.1 GiB (not 1 GiB)."""
    found = _COMMA_MEMORY.match(value.strip()) if key in ("memory", "ram", "system memory", "total memory") else None
    if not found:
        return []
    scale = 1024 ** (4 if found.group(3).upper().startswith("T") else 3)
    return [("cpu.memory_bytes", int(float(f"{found.group(1)}.{found.group(2)}") * scale))]


# A GeForce written as its bare number: '2080Ti', '1050ti', 'nvidia 950m'; a data-center part: 'Nvidia T600'
_BARE_GEFORCE = re.compile(r"(?<![\w.-])((?:nvidia\s*)?(\d{3,4})\s?(ti|super|m)?)(?![\w.+-])", re.IGNORECASE)
_LETTER_PART = re.compile(r"(?<![\w.-])(nvidia\s+[ATLHV]\d{1,4}\w*)(?![\w.+-])", re.IGNORECASE)


def _series(number: str) -> str:
    return "rtx" if number[:2] in ("20", "30", "40", "50") and len(number) == 4 else "gtx"


def spoken_gpu(text: str) -> Facts:
    """A GPU as people write it, kept as written, with the capability of the model it names: '2080Ti' -> 7.5,
    'nvidia 950m' -> 5.0, 'rtx2080super' -> 7.5, 'Nvidia T600' -> 7.5. A bare number needs a suffix or 'nvidia'
    ('2080' alone is as likely a port or a year)."""
    text = re.sub(r"\s+GPU\s*$", "", text.strip().strip("[]").strip())
    named = gpu_names(text) or informal_gpu_names(text)
    if named:
        return [gpu_record(named[0])]
    part = _LETTER_PART.search(text)
    if part:
        return [gpu_record(part.group(1))]
    bare = _BARE_GEFORCE.search(text)
    if not bare or not (bare.group(3) or bare.group(1).lower().startswith("nvidia")):
        return []
    if not bare.group(3) and (len(bare.group(2)) == 3 and bare.group(2) < "600" or re.search(r"driver", text, re.I)):
        return []  # 'nvidia 470', 'nvidia 535': driver branches (390-580), not the GTX 470 of 2010
    suffix = (bare.group(3) or "").lower()
    model = bare.group(2) + ("m" if suffix == "m" else f" {suffix}")
    capability = nvidia_compute_capability(f"{_series(bare.group(2))} {model}") or nvidia_compute_capability(f"geforce {model}")
    if capability is None:
        return []
    name, record = bare.group(1), gpu_record(bare.group(1))[1]
    return [("gpu", dict(record, name=name, vendor="NVIDIA", capability=capability))]


_GPU_KEYS = ("gpu", "nvidia gpu", "graphics", "graphics card", "gpu model", "gpu type", "video card", "显卡", "gpu设备")


def gpu_answer(key: str, value: str) -> Facts:
    """'**NVIDIA GPU**:NVIDIA GeForce GTX 1650 Ti GPU', '-GPU: Nvidia T600', 'GPU: 2080Ti' (what statement_rules
    does not read already)."""
    if key not in _GPU_KEYS or any(fact == "gpu" for fact, _ in by_key(key, value)):
        return []
    return spoken_gpu(value)


_GPU_IN_LINE = re.compile(r"(?<![\w.-])(?:nvidia\s*\d{3,4}(?:\s?(?:m|ti|super))?|\d{3,4}\s?(?:ti|super))(?![\w+-]|\.\d)", re.IGNORECASE)


def gpu_in_line(line: str) -> Facts:
    """A GeForce named by its number in a line that names no GPU otherwise: 'Ubuntu 16.4 Python 3.5.2 CUDA-8.0 nvidia
    950m' -> 'nvidia 950m' (5.0); 'on my 2080Ti' -> '2080Ti' (7.5)."""
    if gpu_names(line) or informal_gpu_names(line) or re.search(r"\bdrivers?\b|驱动", line, re.IGNORECASE):
        return []
    found = _GPU_IN_LINE.search(line)
    return [("gpu.owned", value) for _, value in spoken_gpu(found.group(0))] if found else []


# and with the GPU's role before it or its details in brackets after it: '- internal Nividia GT750M (Capabillities 3.0, ...)'
_LONE_GPU = re.compile(r"^\s*(?:[-*]\s*)?(?:(?:internal|built-in|integrated|discrete|dedicated|onboard)\s+)?(\S+(?:\s\S+)?)"
                       r"(?:\s+\d{1,3}\s?G[Bi]?B?)?\s*(?:\([^()]*\)?)?\s*$", re.IGNORECASE)


def lone_gpu(line: str) -> Facts:
    """A line in a list of parts that is only a GPU (and its memory): 'rtx2080super 8G', '2080Ti', '- 1050ti'."""
    found = _LONE_GPU.match(line)
    return spoken_gpu(found.group(1)) if found and not gpu_names(line) else []  # a whole name: the other rules read it


# Chinese answers: '显卡是1050ti' (the graphics card is), 'GPU设备为2080Ti', 'python是3.6.9', 'Python版本=Python3.5.5',
# 'python版本:3.12.8' (a Chinese key's colon; a bare 'GPU:' is every other reader's)
_CHINESE = re.compile(r"(显卡|GPU\s?设备|GPU|[Pp]ython(?:\s?版本)?|操作系统|系统)\s*(?:是|为|=|：|(?<=[\u4e00-\u9fff]):)\s*([^，。、；,;\s]+)")
_CHINESE_KEYS = {"显卡": "gpu", "gpu设备": "gpu", "gpu": "gpu", "python": "python version", "python版本": "python version",
                 "操作系统": "os", "系统": "os"}


_CHINESE_MEMORY = re.compile(r"^\s*(?:[-*]\s*)?(?:运行)?内存\s*(?:是|为|=|:|：)\s*(\d{1,4}(?:\.\d+)?\s?(?:GiB|GB|G|TB|T))(?![\w.])",
                             re.IGNORECASE)  # a spec list's '内存：24G' (the RAM; the full-width colon is read as ':')


# '用5060ti显卡的电脑' (a computer with a 5060ti graphics card): the card named before the word for it
_CHINESE_CARD_BEFORE = re.compile(r"(?<![\w.])((?:RTX|GTX)?\s?\d{4}\s?(?:ti|super)?)\s*显卡", re.IGNORECASE)


def chinese_answer(line: str) -> Facts:
    memory = _CHINESE_MEMORY.match(line)
    facts: Facts = by_key("ram", memory.group(1)) if memory else []
    card = _CHINESE_CARD_BEFORE.search(line) if not _CHINESE.search(line) else None
    facts += keyed("gpu", card.group(1).strip()) if card else []
    for key, value in _CHINESE.findall(line):
        key = _CHINESE_KEYS[key.lower().replace(" ", "")]  # clean_lines spaces 'python版本' apart
        if key == "python version":
            value = re.sub(r"^[Pp]ython\s*", "", value)
        facts += keyed(key, value) + (by_key(key, value) if key != "gpu" else [])
    return facts


# A package named in prose with its version: 'with numba 0.57.0 and cuda-python 12.1.0'
_PROSE_PACKAGES = ("numba", "cuda-python", "cupy", "jax", "jaxlib", "tensorflow", "onnx", "onnxruntime", "onnxruntime-gpu",
                   "ctranslate2", "faster-whisper", "whisperx", "transformers", "diffusers", "xformers", "triton",
                   "tensorrt", "paddlepaddle", "paddlepaddle-gpu", "mxnet", "llvmlite", "numpy", "tinycudann", "vllm", "sglang",
                   "mlx-lm", "mlx-vlm", "turicreate", "tinygrad", "plaidml")
_PROSE_PACKAGE = re.compile(r"(?<![\w./-])(" + "|".join(map(re.escape, sorted(_PROSE_PACKAGES, key=len, reverse=True)))
                            + r")(?: v| ?== ?| version (?:is )?| )(\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?"
                            r"(?:\+[a-z0-9]+(?:\.[a-z0-9]+)*)?)(?![\w+-]|\.\w)", re.IGNORECASE)  # PEP 440's pre/dev/local parts


# not a version this machine has: a question, one pip could not install, a bound ('after tensorflow 2.16.2')
_NOT_HELD = re.compile(r"\bcan(?:'|no)?t\s+install\b|\bunable\s+to\s+install\b|\bno\s+(?:release|wheel)\b", re.IGNORECASE)
_BOUND = re.compile(r"\b(?:after|before|until|than|since|below|above|beyond|past)\s+$", re.IGNORECASE)


def prose_packages(line: str) -> Facts:
    """'with numba 0.57.0 and cuda-python 12.1.0': the versions a sentence says are here; nothing from a question
    ('Why no ... after tensorflow 2.16.2?') or from 'I can't install tensorflow 2.17'."""
    if line.rstrip().endswith("?") or _NOT_HELD.search(line):
        return []
    return [("package", {"name": found.group(1).lower(), "version": found.group(2)}) for found in _PROSE_PACKAGE.finditer(line)
            if not _BOUND.search(line[:found.start()])]


_QUALIFIED_KEY = re.compile(r"^(.+?\bversion)\s+(?:in|inside|of|on|for)\b.*$")


def keyed(key: str, value: str) -> Facts:
    """Every `key: value` rule here."""
    facts = os_answer(key, value) + comma_memory(key, value) + gpu_answer(key, value)
    qualified = _QUALIFIED_KEY.match(key)
    if qualified:  # 'PyTorch Version in docker container : 1.9.0'
        facts += by_key(qualified.group(1), value)
    return facts


_PIP_INSTALL = re.compile(r"\bpip3?\s+install\s+(?:-\S+\s+)*([A-Za-z][\w.-]*)")
_PROJECT_VERSION = re.compile(r"([A-Za-z][\w-]*)\s*(?:版本|\s+version)\s*[:：=]?\s*(?:\1\s*(?:版本)?)?\s*v?(\d+\.\d+\.\d+)\b",
                              re.IGNORECASE)


def installed_project(lines: Sequence[str]) -> Dict[int, Facts]:
    """'PaddlePaddle版本：PaddlePaddle版本1.4.1' beside 'pip3 install paddlepaddle-gpu': the one distribution the pip
    command installed whose name begins with the project's is at that version."""
    installed = {m.group(1).lower() for line in lines for m in _PIP_INSTALL.finditer(line)}
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        for project, version in _PROJECT_VERSION.findall(line):
            dists = [d for d in installed if d == project.lower() or d.startswith(project.lower() + "-")]
            if len(dists) == 1:
                found.setdefault(index, []).append(("package", {"name": dists[0], "version": version}))
    return found


_KEY_VALUE = re.compile(r"^\s*(?:[-*+•]\s*)?(?:\*\*)?([A-Za-z\u4e00-\u9fff][\w ()/\u4e00-\u9fff-]{0,48}?)(?:\*\*)?\s*[:：]"
                        r"\s*(?:\*\*)?\s*(\S.*?)\s*$")


def line_facts(line: str, following: str = "") -> Facts:
    """Every one-line rule here, and the `key: value` rules on the line's pair."""
    facts = (distro_in_sentence(line) + os_strings(line) + chinese_answer(line) + env_tool_rules.line_facts(line, following)
             + prose_packages(line))
    pair = _KEY_VALUE.match(line)
    if pair:
        facts += keyed(" ".join(pair.group(1).lower().replace("_", " ").split()), pair.group(2).strip().strip("*").strip())
    elif not facts:
        facts = lone_gpu(line)
    if not any(fact.startswith("gpu") for fact, _ in facts):
        facts += gpu_in_line(line)
    return facts


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """Line index -> the facts this module reads there (placed before the other rules' facts on that line)."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        facts = line_facts(line, lines[index + 1] if index + 1 < len(lines) else "")
        if facts:
            found[index] = facts
    for reader in (env_tool_rules.answers, installed_project):
        for index, facts in reader(lines).items():
            found[index] = found.get(index, []) + facts
    return found
