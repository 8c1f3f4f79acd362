"""What apps and tools print on Macs: Julia Metal.jl's device list, `sysctl -a`'s performance levels,
uname's short answers, old Pythons' platform strings, Homebrew's Python paths, powermetrics' build
number, torch tensors on 'mps:0', an Apple chip named without 'Apple' ('M1 Max with 32GB RAM'), an
x86 Mac in words, a Python that 'reports platform i386', pip installing a wheel file, and the answers a
REPL or `python -c` gives to TensorFlow's and JAX's device questions.

Line rules are pure functions of one line; `answer_facts` pairs a question line with the answer on the
next non-blank line, as `log_rules.repl_facts` does.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.hardware import apple_core_options
from macml.knowledge.mac_families import PLAIN_ONLY_YEARS
from macml.knowledge.macos import APPLE_SILICON_MEMORY_GB
from macml.probe.paste.gpu_names import gib, gpu_names, gpu_record
from macml.probe.paste.packages import canonical
from macml.probe.paste.said_of_this_machine import labels_results, negated

Facts = List[Tuple[str, Any]]

_MTL_DEVICE = re.compile(r"\bMtlDevice\((.+)\)\s*$")  # Metal.jl: 'MtlDevice(AMD Radeon Pro 5500M)'
# 'M1 Pro', 'M2 max', 'M3 Ultra' without 'Apple': only Apple's chips carry these names (not a phone's 'POCO M3 Pro')
_TIERED_CHIP = re.compile(r"(?<![A-Za-z0-9.-])(?<!Apple )(?<!POCO )(?<!Galaxy )(?<!Redmi )"
                          r"M([1-9]\d?)[ -]?(Pro|Max|Ultra)\b", re.IGNORECASE)
_MEMORY_AFTER = re.compile(r"^\W{0,3}(?:with |, ?|\()?\s*(\d{1,3})\s*G(?:B|iB|b)?\s+(?:of\s+)?(?:unified\s+)?"
                           r"(?:RAM|memory)\b", re.IGNORECASE)
# a spec shorthand after the chip: 'M1-Max 32c 64 GB' (GPU cores, then a memory size Apple sells)
_SHORT_SPECS = re.compile(r"^\s+(\d{1,2})c\s+(\d{1,3})\s?GB\b", re.IGNORECASE)
# sysctl keys only Apple silicon answers: a second performance level (efficiency cores), ARM feature flags
_X86_FEATURE_SYSCTL = re.compile(r"^\s*hw\.optional\.(?:avx\w*|sse\w*|supplementalsse3|x86_64|mmx|aes|bmi[12]|fma|f16c|rdrand|adx)"
                                 r"\s*[:=]\s*[01]\s*$")
_ARM_SYSCTL = re.compile(r"^\s*hw\.(?:perflevel1\.\w+|nperflevels|optional\.arm\.FEAT_\w+)\s*[:=]\s*(\d+)\s*$")
# uname's short answers ('uname -sm': 'Darwin arm64'; 'uname -srmp': 'Darwin 25.2.0 arm64 arm')
_UNAME_SHORT = re.compile(r"^\s*Darwin(?:\s+[\w.-]+)*?\s+(arm64|x86_64)(?:\s+(?:arm|i386))?\s*$")
# platform.platform() of Pythons before 3.8 on macOS: 'Darwin-18.6.0-x86_64-i386-64bit'
_OLD_PLATFORM = re.compile(r"\bDarwin-(\d{1,2}\.\d+\.\d+)-(x86_64|arm64)-(?:i386|arm)-64bit\b")
_SAYS_I386 = re.compile(r"\b(?:platform|processor|machine)(?:\.(?:processor|machine)\(\)|\(\))?\s+"
                        r"(?:reports?|returns?|is|gives|says|shows|=|==|->)\s+['\"`]?i386\b"
                        r"|\b(?:reports?|returns?|gives|shows)\s+(?:the\s+)?(?:platform|processor)\s+['\"`]?i386\b",
                        re.IGNORECASE)
# a path inside a Homebrew Python: /usr/local is Homebrew's Intel prefix, /opt/homebrew its Apple-silicon one
_CELLAR_PYTHON = re.compile(r"(/usr/local|/opt/homebrew)/Cellar/python(?:@3\.\d+)?/([23]\.\d{1,2}\.\d{1,2})(?:_\d+)?/"
                            r"(?:Frameworks|bin|lib)\b")
_BUILD_LINE = re.compile(r"^\s*(?:OS version|OS build|System build|BuildVersion|kern\.osversion)\s*[:=]\s*"
                         r"(\d{2}[A-Z]\d{1,5}[a-z]?)\s*$")
_MPS_TENSOR = re.compile(r"""device=['"]mps:\d+['"]|(?:device|设备)\s*[:：]\s*mps:\d+\s*$""")
_X86_MAC = re.compile(r"(?<![A-Za-z0-9])(?:x86(?:[_-]64)?|Intel)(?:[- ]based)?\s*(?:的\s*)?mac(?:book(?: pro| air)?)?"
                      r"(?![A-Za-z])|(?<![A-Za-z0-9])mac\s*的\s*x86", re.IGNORECASE)  # not 'Intel Macs' in general
_FIRST_PERSON = re.compile(r"\b(?:my|I|I'm|I've|we|our)\b|我")
_LOCALIZED = re.compile(r"^\s*[-*]?\s*(PyTorch|torch)\s*版本\s*[:：]\s*v?(\d+\.\d+\S*)\s*$"
                        r"|^\s*[-*]?\s*(?:torch\s+)?(MPS|CUDA)\s*(?:是否)?(?:可用|available)\s*[:：=]\s*"
                        r"(True|False)\s*$",
                        re.IGNORECASE)
_PIP_WHEEL = re.compile(r"\bpip3?\s+install\s+(?:\S+\s+)*?(?:\S*/)?([A-Za-z][\w.]*)-(\d+(?:\.\d+)+[\w.+]*)"
                        r"-(?:cp|py)\d\w*(?:-[\w.]+){2}\.whl\b")  # name-version-python-abi-platform.whl
_WHEEL_STEM = re.compile(r"`([A-Za-z][\w.]*)-(\d+(?:\.\d+)+[\w.+]*)-cp\d{2,3}[\w.-]*`")  # '`tensorflow_macos-0.1a0-cp38`'
_JAX_DEVICE_LIST = re.compile(r"^\s*\[((?:\w+\(id=\d+\)(?:,\s*)?)+)\]\s*$")  # print(jax.devices()): [CpuDevice(id=0)]
# llama.cpp's ggml_metal_init: 'GPU family: MTLGPUFamilyApple7'
_APPLE_GPU_FAMILY = re.compile(r"\bMTLGPUFamilyApple\d+\b")
_OLLAMA_METAL = re.compile(r'msg="inference compute".*\blibrary=(?:"?)metal\b', re.IGNORECASE)
_PYTHON_IN_WORDS = re.compile(r"\b(?:with|using|on|under|running|via)\s+[Pp]ython\s?v?(3\.\d{1,2}\.\d{1,2})\b(?![.\d])")
_NUM_GPUS = re.compile(r"\bNum GPUs Available:?\s+(\d+)\s*$")  # TensorFlow's own tutorial line


def metal_jl_device(line: str) -> Facts:
    """Julia Metal.jl's devices(): 'MtlDevice(Intel(R) UHD Graphics 630)', one line per GPU Metal sees."""
    found = _MTL_DEVICE.search(line)
    names = gpu_names(found.group(1)) if found else []
    return [("platform", "darwin"), gpu_record(names[0])] if names else []


def tiered_chip(line: str) -> Facts:
    """'Tested on M1 Max with 32GB RAM', 'a M2 max 96 Gb RAM', 'my M1 Pro reports ...': an Apple chip named
    without 'Apple' (the tier makes it one), and the memory written right after it ('M1-Max 32c 64 GB': with its
    GPU cores, a count only the chip's GPU comes in)."""
    found = _TIERED_CHIP.search(line)
    if not found or labels_results(line[found.end():]):
        return []
    brand = f"Apple M{found.group(1)} {found.group(2).capitalize()}"
    year = re.match(r"\s*\(?((?:19|20)\d\d)\b", line[found.end():])
    if year and int(year.group(1)) in PLAIN_ONLY_YEARS.get(int(found.group(1)), ()):  # 'M1 Pro 2020': a MacBook Pro
        brand = f"Apple M{found.group(1)}"  # with the plain M1, the only M1 of 2020
    facts: Facts = [("cpu.brand", brand)]  # a Mac's GPU follows
    memory = _MEMORY_AFTER.match(line[found.end():])
    size = gib(memory.group(1) + " GB") if memory else None
    short, options = _SHORT_SPECS.match(line[found.end():]), apple_core_options(brand)
    if short and options and int(short.group(1)) in options[1] and int(short.group(1)) not in options[0] \
            and int(short.group(2)) in APPLE_SILICON_MEMORY_GB:
        return facts + [("gpu.cores", int(short.group(1))), ("cpu.memory_bytes", int(short.group(2)) * 1024**3)]
    return facts + ([("cpu.memory_bytes", size)] if size else [])


def arm_sysctl(line: str) -> Facts:
    """`sysctl -a`'s 'hw.perflevel1.physicalcpu: 2' (a second performance level: efficiency cores),
    'hw.nperflevels: 2', 'hw.optional.arm.FEAT_FP16: 1': keys only Apple silicon answers (an Intel Mac has
    one performance level and no ARM features)."""
    found = _ARM_SYSCTL.match(line)
    if not found or ("nperflevels" in line and int(found.group(1)) < 2):
        # Darwin's x86 feature keys ('hw.optional.avx512f: 1', xnu's sysctl hw.optional): macOS, on either chip
        # (Rosetta answers them too)
        return [("platform", "darwin")] if _X86_FEATURE_SYSCTL.match(line) else []
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]


def uname_short(line: str) -> Facts:
    """'Darwin arm64' (uname -sm), 'Darwin 25.2.0 arm64 arm' (uname -srmp): macOS, and the shell's arch; an
    arm64 process runs only on Apple silicon, an x86_64 one may be translated by Rosetta 2."""
    found = _UNAME_SHORT.match(line)
    if not found:
        return []
    facts: Facts = [("platform", "darwin"), ("process.arch", found.group(1))]
    return facts + ([("cpu.hardware_arch", "arm64")] if found.group(1) == "arm64" else [])


def old_platform_string(line: str) -> Facts:
    """platform.platform() before Python 3.8 on macOS: 'Darwin-18.6.0-x86_64-i386-64bit' names the Darwin
    release and the interpreter's own machine."""
    found = _OLD_PLATFORM.search(line)
    if not found:
        return []
    return [("platform", "darwin"), ("os.darwin", found.group(1)), ("python.machine", found.group(2))]


def says_i386(line: str) -> Facts:
    """'my M1 Pro reports platform i386', "platform.processor() returns 'i386'": macOS's x86_64 Python
    answers platform.processor() with i386."""
    return [("python.machine", "x86_64")] if _SAYS_I386.search(line) else []


def homebrew_python(line: str) -> Facts:
    """'/usr/local/Cellar/python/3.6.5_1/Frameworks/Python.framework/...': a path inside a Homebrew Python
    names its version, and its prefix the build's arch (/usr/local Intel, /opt/homebrew Apple silicon)."""
    found = _CELLAR_PYTHON.search(line)
    if not found:
        return []
    facts: Facts = [("platform", "darwin"), ("python.version", found.group(2))]
    if found.group(1) == "/opt/homebrew":
        return facts + [("python.machine", "arm64"), ("cpu.hardware_arch", "arm64")]
    return facts + [("python.machine", "x86_64")]


def build_number(line: str) -> Facts:
    """powermetrics' 'OS version: 23E224', sysctl's 'kern.osversion: 23E224': a macOS build number."""
    found = _BUILD_LINE.match(line)
    return [("platform", "darwin"), ("os.build", found.group(1))] if found else []


def mps_tensor(line: str) -> Facts:
    """torch's "tensor([...], device='mps:0')", a script's 'result device: mps:0': a tensor lives on the MPS
    device, so torch was built with MPS and found it (macOS only)."""
    if not _MPS_TENSOR.search(line) or re.search(r"\.to\(|torch\.device\(", line):
        return []
    return [("platform", "darwin"), ("metal.in_use", "mps"), ("torch.mps_built", True), ("torch.mps_available", True)]


# a Mac named with its CPU in brackets, as an issue title sums up the machine: 'MBP(intel CPU)+eGPU(RX6800 16G)'
_MAC_WITH_INTEL = re.compile(r"(?<![A-Za-z0-9])(?:MBP|MBA|Mac\s?Book(?:\s?Pro|\s?Air)?|iMac|Mac\s?mini)\s*\(\s*Intel\b", re.IGNORECASE)


def x86_mac_in_words(line: str) -> Facts:
    """'I use an x86 Mac', '我是用X86的mac', 'on my Intel-based MacBook Pro', 'MBP(intel CPU)': the writer's Mac is an
    Intel one."""
    if _MAC_WITH_INTEL.search(line):
        return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]
    found = _X86_MAC.search(line)
    if not found or not _FIRST_PERSON.search(line) or negated(line[:found.start()]):  # 'not able to test this on an Intel Mac'
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]


def localized_answers(line: str) -> Facts:
    """A script's labelled answers: 'PyTorch版本: 2.6.0a0+git1eba9b3' (版本: version), 'MPS可用: True'
    (可用: available), 'MPS available: False'."""
    found = _LOCALIZED.match(line)
    if not found:
        return []
    if found.group(2):
        return [("package", {"name": "torch", "version": found.group(2)}), ("torch.version", found.group(2))]
    value = found.group(4).lower() == "true"
    return [("torch.mps_available", value)] + ([("torch.mps_built", True)] if value else []) \
        if found.group(3).upper() == "MPS" else [("torch.cuda_available", value)]


def wheel_installed(line: str) -> Facts:
    """'pip install https://.../tensorflow-2.15.0-cp311-cp311-macosx_14_0_arm64.whl': the wheel's file name
    names the distribution and version installed; so does a wheel's name quoted in code ('I tried to use
    `tensorflow_macos-0.1a0-cp38` with ...')."""
    found = _PIP_WHEEL.search(line) or _WHEEL_STEM.search(line)
    return [("package", {"name": canonical(found.group(1)), "version": found.group(2)})] if found else []


def jax_device_list(line: str) -> Facts:
    """print(jax.devices()): '[CpuDevice(id=0)]', '[METAL(id=0)]', '[CudaDevice(id=0), CudaDevice(id=1)]'."""
    found = _JAX_DEVICE_LIST.match(line)
    if not found:
        return []
    kinds = {k.lower() for k in re.findall(r"(\w+?)(?:Device)?\(id=", found.group(1))}
    return [("jax.platforms", ",".join(sorted(kinds)))]


def tensorflow_gpu_count(line: str) -> Facts:
    """'Num GPUs Available:  0' (len(tf.config.list_physical_devices('GPU')), TensorFlow's tutorial line)."""
    found = _NUM_GPUS.search(line)
    if not found:
        return []
    return [("tensorflow.gpu_device", True)] if int(found.group(1)) else [("tensorflow.no_gpu", True)]


def apple_gpu_runtime(line: str) -> Facts:
    """Runtimes that name an Apple GPU without its name: ggml_metal_init's 'GPU family: MTLGPUFamilyApple7' (only
    Apple's own GPUs are in the Apple families) and Ollama's 'inference compute ... library=metal' (Ollama uses
    Metal on arm64 Macs only; its amd64 build runs on the CPU: ollama gpu/gpu_darwin.go)."""
    if _APPLE_GPU_FAMILY.search(line) or _OLLAMA_METAL.search(line):
        return [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]
    return []


def python_in_words(line: str) -> Facts:
    """'Running on a clean venv with python 3.11.1', 'tested using Python 3.12.4': the Python the writer runs
    (not where the line names two: 'fails on 3.12.1 but works on 3.11.5')."""
    found = _PYTHON_IN_WORDS.search(line)
    if not found or len(set(re.findall(r"\b3\.\d{1,2}\.\d{1,2}\b", line))) > 1:
        return []
    return [("python.version", found.group(1))]


def mac_app_line_facts(line: str) -> Facts:
    facts: Facts = []
    for rule in (metal_jl_device, tiered_chip, arm_sysctl, uname_short, old_platform_string, says_i386,
                 homebrew_python, build_number, mps_tensor, x86_mac_in_words, localized_answers, wheel_installed,
                 jax_device_list, tensorflow_gpu_count, apple_gpu_runtime, python_in_words):
        facts += rule(line)
    return facts


_TF_GPU_QUESTION = re.compile(r"\blist_(?:physical|logical)_devices\(\s*(?:device_type\s*=\s*)?['\"]GPU['\"]\s*\)")
_JAX_BACKEND_QUESTION = re.compile(r"\bjax\.default_backend\(\)")
_JAX_BACKENDS = {"cpu": "cpu", "gpu": "gpu", "cuda": "cuda", "rocm": "rocm", "tpu": "tpu", "metal": "metal"}


def _answer(lines: Sequence[str], index: int) -> Tuple[int, str]:
    follow = next((i for i in range(index + 1, min(len(lines), index + 3)) if lines[i].strip()), None)
    return (follow, lines[follow].strip()) if follow is not None else (-1, "")


def answer_facts(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> what the answer to a device question states: '>>> tf.config.list_physical_devices("GPU")'
    then '[]' (TensorFlow sees no GPU) or '[PhysicalDevice(... device_type='GPU')]'; `python -c 'import jax;
    print(jax.default_backend())'` then 'cpu'."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if _TF_GPU_QUESTION.search(line):
            at, answer = _answer(lines, index)
            if answer == "[]":
                found[at] = [("tensorflow.no_gpu", True)]
            elif re.match(r"^\[(?:Physical|Logical)Device\(name='/(?:physical_)?device:GPU:\d", answer):
                found[at] = [("tensorflow.gpu_device", True)]
        elif _JAX_BACKEND_QUESTION.search(line):
            at, answer = _answer(lines, index)
            if answer.lower() in _JAX_BACKENDS:
                found[at] = [("jax.platforms", _JAX_BACKENDS[answer.lower()])]
    return found
