"""What Linux and Windows users write about a machine: Windows or a distribution named in a sentence or a list
('I am on a windows machine', '- Windows 10 Home', 'on Linux (Ubuntu 22.04)'), a parts list ('(i9 / 32GB / GTX
3070 laptop 8GB vram)', 'Specs: i9-13900K / 64GB / RTX 4090'), an AMD APU and its integrated Radeon, a GPU they
own named as people write it ('my 4080 RTX'), a 'physical machine', zram (Linux's), Windows' own number for an
NVIDIA driver ('25.21.14.1891' = 418.91), a torch version with its CUDA in words, an amd64 .deb installed with
dpkg. What apps print (Unsloth, ComfyUI, ollama, ggml, llama.cpp, conda, detectron2, ...) is in app_log_rules.

One fact is new here: 'gpu.absent' (a vendor whose driver the text shows absent: collect_env's 'No CUDA', ollama
finding no NVIDIA library), which infer turns into MachineFacts.gpus_ruled_out.

Line rules are pure functions of one line; `keyed_facts` reads a `key: value` pair or a form's answer;
`answers` reads what needs the lines around it and returns line index -> facts.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.amd_apus import apu_gfx, codename_gfx
from macml.probe.paste import app_log_rules, general_rules
from macml.probe.paste.gpu_names import gib, gpu_names, gpu_record, gpu_vendor, informal_gpu_names
from macml.probe.paste.linux_clues_rules import _DISTRO_NAMES as DISTRO_NAMES
from macml.probe.paste.said_of_this_machine import NEGATION, someone_elses
from macml.probe.paste.statement_rules import by_key

Facts = List[Tuple[str, Any]]

_NEGATED = re.compile(r"\b(?:not|never|no longer|without|except|but)\b|n't\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|my|we|our|me)\b", re.IGNORECASE)
_WINDOWS_ALONE = re.compile(r"^\s*[-*]?\s*(?:Microsoft\s+)?(Windows\s+(?:10|11|7|8\.1|8|Server\s+20\d\d)\b[\w .-]*?)\s*$")
_WINDOWS_WORDS = re.compile(r"(?:\b(?:on|using|running|runs|run|with|under|have|got)\s+(?:an?\s+|my\s+|the\s+)?|\bmy\s+)"
                            r"(?:windows|win)(?:\s*(?:10|11|7))?(?:\s+(?:machine|pc|laptop|computer|desktop|box|system|host))?\b"
                            r"(?!\s*(?:subsystem|wsl|virtual\s+machine|vm|guest)\b)", re.IGNORECASE)  # a Windows VM is not this machine's OS
_DISTROS = r"Ubuntu|Debian|Fedora|CentOS|Rocky Linux|AlmaLinux|Arch Linux|openSUSE|Linux Mint|Pop!_OS|Manjaro|RHEL|Kali"
_DISTRO_WORDS = re.compile(r"\b(?:on|running|runs|using|under|with)\s+(?:Linux\s*\(\s*)?((?:" + _DISTROS + r")"
                           r"(\s+\d+(?:\.\d+)*(?:\s+LTS)?)?)(?![\w.-])", re.IGNORECASE)
_LINUX_ONLY = re.compile(r"\b(?:zram|zswap)\b", re.IGNORECASE)  # the Linux kernel's compressed swap
_PHYSICAL = re.compile(r"\b(?:an?|my|our|this|the)\s+(?:\(?\w+\)?\s+)?(?:physical|bare[- ]metal)\s+"
                       r"(?:machine|server|box|host|pc|computer|workstation)\b", re.IGNORECASE)
_WINDOWS_DRIVER = re.compile(r"(?<![\d.])(?:2[0-9]|3[0-9])\.\d{1,2}\.(1\d)\.(\d{4})(?![\d.])")
_TORCH_WORDS = re.compile(r"(?<![\w.-])(?:py)?torch(?:\s*版本\s*(?:为|是|[:：=])?\s*|\s+)v?(\d+\.\d+\.\d+)(?:\+(cu\d{2,3}|rocm[\d.]+|cpu))?(?![\w.+])"
                          r"(?:\W{0,4}\s*\(?(?:with|using|built with|for|on)\s+(?:the\s+same\s+)?CUDA\s+(\d{1,2}\.\d))?",
                          re.IGNORECASE)
_DEB = re.compile(r"\bdpkg\s+-i\s+\S+_(amd64|arm64)\.deb\b")
_PARENS = re.compile(r"\(([^()]{3,160})\)")
_SPEC_MEMORY = re.compile(r"^(\d{1,4})\s?GB(?:\s+(?:of\s+)?(?:RAM|memory|DDR\d\w*))?$", re.IGNORECASE)
_SPEC_VRAM = re.compile(r"\b(\d{1,3})\s?GB\s+(?:of\s+)?VRAM\b", re.IGNORECASE)
_SPEC_CPU = re.compile(r"^(?:Intel\s+)?(?:Core\s+)?(i[3579])(?:-\d{4,5}\w*)?$"
                       r"|^(?:AMD\s+)?(Ryzen\s+(?:\d|AI\s+Max\+?|AI\s+\d)(?:\s+(?:PRO|HX))*(?:\s+\d{3,4}\w*)?)$",
                       re.IGNORECASE)
_GFX = re.compile(r"^gfx[0-9a-f]{3,4}$", re.IGNORECASE)
_RYZEN = re.compile(r"\b(?:AMD\s+)?(?:Ryzen\s+)?(AI\s+Max\+?\s+(?:PRO\s+)?3\d\d)\b"
                    r"|(?:\bAMD|\bmy|\bI(?:'m| am)\s+(?:running|using)\s+an?|\bI\s+(?:have|own|use)\s+an?)\s+"
                    r"(Ryzen\s+(?:\d|AI\s+\d)\s+(?:PRO\s+)?(?:HX\s+)?\d{3,4}\w*(?:\s+\d+-Core Processor)?)", re.IGNORECASE)
_APU_GRAPHICS = re.compile(r"\bRyzen\b.*?(?:\bwith|\bw/)\s+((?:AMD\s+)?Radeon(?:\s+(?!Graphics|Gfx)\w+){0,2}(?:\s+(?:Graphics|Gfx))?)\b",
                           re.IGNORECASE)
# the APU's Radeon by number in brackets after the CPU: 'ryzen 5 8600G (760M I think)', '(Radeon 780M)', or by its
# generic name: 'Ryzen 9 Pro 7945 (AMD Radeon Graphics Raphael)'
_APU_IGPU_ASIDE = re.compile(r"\s*\(\s*(?:AMD\s+)?(?:Radeon\s+)?([5-9]\d0M\b|(?<=Radeon )Graphics\b)")
# the APU's GPU said in words: 'AMD Ryzen 5 5600G processor which has an integrated GPU'
_APU_IGPU_WORDS = re.compile(r"\bRyzen\b.*?\b(?:has|with|w/)\s+(?:an?\s+|its\s+)?(?:integrated|built-in|onboard|on-chip)"
                             r"\s+(?:GPU|graphics)\b", re.IGNORECASE)


def os_in_words(line: str) -> Facts:
    """'- Windows 10 Home Single Language v 1809' (a list item), 'I am on a windows machine', 'a laptop with
    Windows'; 'on Linux (Ubuntu 22.04)', 'running Debian 12'; 'zram' (the Linux kernel's)."""
    alone = _WINDOWS_ALONE.match(line)
    if alone:
        return [("platform", "win32"), ("os.name", " ".join(alone.group(1).split()))]
    facts: Facts = []
    windows = _WINDOWS_WORDS.search(line)
    if windows and _FIRST_PERSON.search(line) and not _NEGATED.search(line[:windows.start()]) and "WSL" not in line:
        facts.append(("platform", "win32"))
    distro = _DISTRO_WORDS.search(line)
    if distro and not _NEGATED.search(line[:distro.start()]):
        facts += [("platform", "linux")] + ([("os.name", _distro_spelling(distro.group(1)))] if distro.group(2) else [])
    if _LINUX_ONLY.search(line):
        facts.append(("platform", "linux"))
    return facts


def _distro_spelling(text: str) -> str:
    """'ubuntu 22.04' -> 'Ubuntu 22.04': the distribution as it spells itself (linux_clues_rules' table)."""
    name, _, version = " ".join(text.split()).partition(" ")
    for known in sorted(DISTRO_NAMES, key=len, reverse=True):
        if text.lower().startswith(known + " "):
            name, version = DISTRO_NAMES[known], " ".join(text.split())[len(known) + 1:]
            break
    return f"{name} {version}".strip()


def spec_list(line: str) -> Facts:
    """A machine's parts in parentheses, '(i9 / 32GB / GTX 3070 laptop 8GB vram)', '(gfx1151 / 64GB)'."""
    return [fact for group in _PARENS.finditer(line) if not re.search(r"[:=]", group.group(1))  # no tool's 'name: ...'
            for fact in spec_items(group.group(1))]


def spec_items(text: str) -> Facts:
    """'i9 / 32GB / GTX 3070 laptop 8GB vram', 'Ryzen 9 7950X + RTX 4090, 64 GB RAM': the CPU, the RAM, the GPU
    with its memory, a gfx target; the RAM only beside a CPU, GPU or gfx item (a list of parts)."""
    items = [i.strip() for i in re.split(r"\s+[/+]\s+|\s*[,|;]\s*", text) if i.strip() and not someone_elses(i)]
    parts: Facts = []
    memory: Facts = []
    for item in items:
        cpu, gpus = _SPEC_CPU.match(item), informal_gpu_names(item) or gpu_names(item)
        size = _SPEC_MEMORY.match(item)
        if cpu:
            parts.append(("cpu.brand", f"Intel Core {cpu.group(1).lower()}" if cpu.group(1) else f"AMD {cpu.group(2)}"))
        elif gpus and re.match(r"(?:and|or|but|also|even|except|not)\b", item, re.IGNORECASE):
            return []  # '(and also the GeForce 710, of course)': prose in brackets, not a parts list
        elif gpus:
            vram = _SPEC_VRAM.search(item)
            parts.append(gpu_record(gpus[0], vram.group(1) + " GB" if vram else None))
        elif _GFX.match(item):
            parts.append(("gpu.gfx", item.lower()))
        elif size:
            memory.append(("cpu.memory_bytes", gib(size.group(1) + " GB")))
    return parts + memory[:1] if len(items) >= 2 and parts else []


def amd_cpu(line: str) -> Facts:
    """An AMD CPU named whole ('AMD Ryzen 7 PRO 7840U w/ Radeon 780M Graphics', 'Framework Desktop AI Max+ 395'),
    and the integrated Radeon a Ryzen 'with Radeon Graphics' has, with its gfx target (knowledge/amd_apus.py); an
    APU named by its codename ('Strix Halo')."""
    found = _RYZEN.search(line)
    codename = codename_gfx(line)
    if not found:  # 'Strix Halo': an x86 APU with its Radeon
        return [("cpu.hardware_arch", "x86_64"), ("gpu.present", "AMD"), ("gpu.gfx", codename)] if codename else []
    brand = "AMD Ryzen " + " ".join(found.group(1).split()) if found.group(1) else "AMD " + re.sub(r"^ryzen", "Ryzen", " ".join(found.group(2).split()), flags=re.IGNORECASE)
    facts: Facts = [("cpu.brand", brand)]
    graphics = _APU_GRAPHICS.search(line)
    gfx = apu_gfx(brand)
    in_words = None if graphics else _APU_IGPU_WORDS.search(line)
    aside = None if graphics or in_words else _APU_IGPU_ASIDE.match(line[found.end():])
    if aside and gfx:  # 'my ryzen 5 8600G (760M I think)': its Radeon named in brackets after it
        facts.append(("gpu.mention", f"AMD Radeon {aside.group(1)}"))
        graphics = aside
    elif in_words and gfx and not NEGATION.search(line[found.end():in_words.end()]):
        facts.append(("gpu.mention", "AMD Radeon Graphics"))
        graphics = in_words
    elif graphics:
        named = gpu_names(graphics.group(1)) or [re.sub(r"^(?!AMD )", "AMD ", " ".join(graphics.group(1).split()))]
        facts.append(("gpu.mention", named[0]))
    if gfx and (graphics or found.group(1)):  # Ryzen AI Max parts are all APUs
        facts.append(("gpu.gfx", gfx))
    return facts


_OWNER = re.compile(r"\b(?:I|we)(?:\s+(?:just|recently|also|now))?(?:'ve| have| got| own| use| am using|'m using| bought"
                    r"| purchased| run| am running|'m running)\b"
                    r"|\b(?:my|our)\b", re.IGNORECASE)


_FORMER = re.compile(r"\b(?:previous|former|old|last)\b", re.IGNORECASE)


def owned_gpus(line: str) -> Facts:
    """'I have an AMD 7900XTX', 'my 4080 RTX': a GPU the writer owns, named as people write it (used, like a
    mention, only where no line lists GPUs; general_rules.gpus_in_prose reads the NVIDIA names it knows)."""
    owner = _OWNER.search(line)
    if not owner or general_rules.gpus_in_prose(line):
        return []
    swapped = re.search(r"\breplaced (?:my |the |an? )?.+? with (?:an? |the )?", line, re.IGNORECASE)
    rest = line[max(owner.end(), swapped.end() if swapped else 0):]  # 'I replaced my rx 570 with a 6800 xt': the new one
    rest = re.sub(r"(?<=\d)s\b", "", rest)  # 'my RTX 4090s': a plural of one model
    names = dict.fromkeys(n for n in informal_gpu_names(rest) if not _NEGATED.search(rest[max(0, rest.find(n) - 12):rest.find(n)])
                          and not _FORMER.search(rest[max(0, rest.find(n) - 30):rest.find(n)]))  # 'my previous build (5700XT)'
    return [("gpu.owned", {"name": name, "vendor": gpu_vendor(name), "memory_mib": None, "index": None}) for name in names]


# 'on my CPU-ONLY server', 'our GPU-less box': the writer's machine has no GPU
_CPU_ONLY_MACHINE = re.compile(r"\b(?:my|our)\s+(?:CPU[- ]only|GPU[- ]?less|no[- ]GPU)\s+(?:server|machine|box|VPS|instance|laptop|"
                               r"computer|PC|node|system|device|host)\b", re.IGNORECASE)


def machine_words(line: str) -> Facts:
    """'my CPU-only server' (no GPU), 'an (old) physical machine' (no VM), Windows' number for an NVIDIA driver ('Driver version 25.21.14.1891'
    is NVIDIA's 418.91: the last five digits), 'sudo dpkg -i cuda-repo-..._amd64.deb' (the machine's arch)."""
    facts: Facts = [("gpu.none", "the writer's machine is CPU-only")] if _CPU_ONLY_MACHINE.search(line) else []
    physical = _PHYSICAL.search(line)
    if physical and not _NEGATED.search(line[max(0, physical.start() - 12):physical.start()]):
        facts.append(("hypervisor.none", True))
    driver = _WINDOWS_DRIVER.search(line)
    if driver and re.search(r"\bdriver\b", line, re.IGNORECASE) and re.search(r"nvidia|geforce|quadro|rtx|gtx", line, re.I):
        digits = (driver.group(1) + driver.group(2))[-5:]
        facts += [("platform", "win32"), ("gpu.driver", f"{digits[:3]}.{digits[3:]}")]
    deb = _DEB.search(line)
    if deb:
        facts += [("platform", "linux"), ("cpu.hardware_arch", "x86_64" if deb.group(1) == "amd64" else "aarch64")]
    return facts


def torch_in_words(line: str) -> Facts:
    """'**Pytorch 2.0.1** (with the same cuda 11.8)', 'torch 2.1.0+cu121', 'torch版本为2.6.0' (torch's version is): torch's
    version and the CUDA it was
    built for; never a pin asked for ('pip install torch 2.1' is no sentence about the machine)."""
    found = _TORCH_WORDS.search(re.sub(r"\*\*|`", "", line))  # '**PyTorch `2.9.1+cpu`**' too
    if not found or re.search(r"\b(?:install|upgrade|downgrade|requires?|need|instead|supposedly)\b|\bsupports?\W{0,3}\s*python\b",
                              line, re.IGNORECASE):  # 'torch 1.8.1 supposedly [supports](...) python >= 3.6.2': not installed
        return []
    named = {m.group(1) for m in re.finditer(r"(?<![\w.-])(?:py)?torch\s+(?:version\s+)?v?(\d+\.\d+\.\d+)", line, re.IGNORECASE)}
    if len(named) > 1:  # coremltools' 'Torch version 2.4.0 has not been tested ... Torch 2.2.0 is the most recent': which is installed is unclear
        return []
    version = found.group(1) + (f"+{found.group(2)}" if found.group(2) else "")
    facts: Facts = [("package", {"name": "torch", "version": version}), ("torch.version", version)]
    return facts + ([("torch.cuda_version", found.group(3))] if found.group(3) else [])


# a line that is only a torch build, as a list of versions gives it: 'torch-2.3.0.dev20240309+rocm6.0',
# '- torchaudio-0.12.0+rocm5.1.1' (its companions' builds in the same list)
_TORCH_DASH_LINE = re.compile(r"^\s*[-*]?\s*(?:py)?(torch(?:vision|audio)?)-(\d+\.\d+\.\d+(?:\.?(?:dev|a|b|rc|post)\d+)?)"
                              r"(?:\+(cu\d{2,3}|rocm[\d.]+|cpu))?\s*$")


def torch_dash_line(line: str) -> Facts:
    found = _TORCH_DASH_LINE.match(line)
    if not found:
        return []
    version = found.group(2) + (f"+{found.group(3)}" if found.group(3) else "")
    return ([("package", {"name": found.group(1), "version": version})]
            + ([("torch.version", version)] if found.group(1) == "torch" else []))


def line_facts(line: str) -> Facts:
    facts: Facts = []
    for rule in (os_in_words, spec_list, amd_cpu, owned_gpus, machine_words, torch_in_words, torch_dash_line,
                 app_log_rules.conda_torch_build, app_log_rules.unsloth_banner, app_log_rules.app_log_lines):
        facts += rule(line)
    return facts


_OS_KEYS = ("system", "operating systems", "distro")  # 'os', 'platform', 'distribution' have their own readers
_HARDWARE_KEYS = ("hardware", "machine", "computer", "specs", "system specs", "setup", "pc")


def keyed_facts(key: str, value: str) -> Facts:
    """'**System:** Debian 13 (with kernel 6.18.12 from backports)' and a form's 'Operating systems' answer
    'Linux'; 'Hardware: Framework Desktop AI Max+ 395 (gfx1151 / 64GB)'; collect_env's 'Nvidia driver version:
    No CUDA' (nvidia-smi answered no driver, and torch no CUDA: no NVIDIA GPU this machine can use)."""
    several = len(re.findall(r"\b(?:linux|windows|mac|macos)\b", value, re.IGNORECASE)) > 1  # a multi-select answer
    if key in _OS_KEYS and not several and re.match(r"^\s*(?:linux|ubuntu|debian|fedora|centos|rocky|arch|opensuse|windows)\b",
                                                     value, re.IGNORECASE):
        return by_key("os", value)
    if key in _HARDWARE_KEYS:
        return spec_list(value) + spec_items(re.sub(r"\([^()]*\)", "", value)) + amd_cpu(value)
    if key == "nvidia driver version" and value.strip().lower() == "no cuda":
        return [("gpu.absent", "NVIDIA")]
    return []


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> what the lines around it decide (app_log_rules.answers: detectron2's table, `pip show`, ...)."""
    return app_log_rules.answers(lines)
