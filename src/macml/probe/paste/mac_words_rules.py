"""What Mac users write and paste about their machines: a Mac named with its model year ('Mac Pro 2013',
'2019 16" Macbook Pro'), memory written beside a Mac ('16GB MacBook Pro M1', 'M3 Ultra 512 RAM'), the Mac
Pro 2013's FirePro GPUs, 'macos 15.6.1 intel', an Intel Mac named after a preposition ('on x86 mac'), a crash
report's native Code Type, dyld's wrong-architecture error (an x86_64 wheel in an arm64 Python), Homebrew's
prefixes, an 'Architecture' section's bare answers, package versions in a sentence ('sentence-transformers
3.0.1 ... and torch 2.3.1'), issue-template keys ('#- PyTorch Version (e.g., 2.5): 2.6.0', 'Python Version
Used: 3.9.4'), the Ultralytics banner's own version, and a script's 'MPS available: True' (macOS only).

Line rules are pure functions of one line; `keyed_facts` reads a `key: value` pair; `answers` pairs a
heading with the answer lines under it.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.hardware import mac_year_silicon
from macml.knowledge.macos import MAC_MEMORY_GB
from macml.probe.paste.packages import canonical
from macml.probe.paste.mac_model_year_rules import APPLE_SILICON_IDENTIFIER
from macml.probe.paste.statement_rules import by_key
from macml.probe.paste.system_rules import arch_word

Facts = List[Tuple[str, Any]]

_PRODUCT = r"(Mac ?Book ?Pro|Mac ?Book ?Air|Mac ?mini|iMac ?Pro|iMac|Mac ?Pro|Mac ?Studio|Mac ?Book)(?![A-Za-z])"
_SIZE = r"\d{2}(?:\.\d)?\s?(?:[\"”″]|''|-?\s?inch(?:es)?)"
_YEAR_BEFORE = re.compile(r"(?<![\d.])(20[0-3]\d)\s+(?:(?:" + _SIZE + r"|Intel|Retina)\s+){0,2}" + _PRODUCT, re.IGNORECASE)
_YEAR_AFTER = re.compile(_PRODUCT + r"\s*[(,]?\s*(?:(?:Retina|" + _SIZE + r"|Late|Mid|Early|Intel|Touch Bar)[,\s]+){0,4}"
                         r"(20[0-3]\d)(?![\d.])", re.IGNORECASE)
_MEMORY_BEFORE_MAC = re.compile(r"(?<![\d.])(\d{1,3})\s?GB\s+(?:(?:of\s+)?(?:RAM|memory)\s+)?(?:Apple\s+)?" + _PRODUCT,
                                re.IGNORECASE)
_MEMORY_BESIDE_CHIP = re.compile(r"(?<![A-Za-z0-9])M\d{1,2}(?:\s+(?:Pro|Max|Ultra))?[\s,]+(\d{1,3})\s*(?:GB|GiB|G)?\s+"
                                 r"(?:of\s+)?(?:unified\s+)?(?:RAM|memory)\b", re.IGNORECASE)
_FIREPRO = re.compile(r"\b(dual|two|2x?)?\s*(?:AMD\s+)?(?:FirePro\s+)?(?<![\w-])(D[357]00)\b(?:\s+(\d)\s?(?:GB|Go|G)\b)?(?=\s*(?:GPU|graphics|$|[,.;)]))",
                      re.IGNORECASE)
_MACOS_VERSION = re.compile(r"\b(?:mac ?os(?: ?x)?|os ?x)(?:\s+[A-Z][a-z]+)?\s*v?(?:1[0-9]|2[0-9])(?:\.\d+){0,2}\b",
                            re.IGNORECASE)
_INTEL_WORD = re.compile(r"(?<![\w-])intel(?![\w-])(?!\s*(?:\(R\)\s*)?(?:UHD|HD|Iris|Arc|graphics|GPU|MKL|oneAPI|compiler|"
                         r"Fortran|OpenMP|extension|distribution|python|macs|based macs|chips\b))", re.IGNORECASE)
_ARM_WORDS = re.compile(r"\b(?:apple silicon|arm64|aarch64|M[1-9]\b|rosetta)", re.IGNORECASE)
_X86_MAC_AFTER = re.compile(r"\b(?:on|using|with)\s+(?:an?\s+|the\s+)?(?:x86(?:[_-]64)?|Intel)(?:[- ]based)?\s+"
                            r"mac(?:book(?: pro| air)?)?(?![A-Za-z])", re.IGNORECASE)
_NATIVE_CODE_TYPE = re.compile(r"^[\s>]*Code Type:\s*(X86-64|ARM-64)\s*\(Native\)", re.IGNORECASE)
# dyld: "(mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64'))" (macOS 11+ also
# "(have (x86_64), need (arm64e))"): the file is built for `have`, the process loading it runs as `need`
_WRONG_ARCH = re.compile(r"(?:incompatible architecture |^\s*)\(have [('](x86_64|arm64e?)[)'], need [('](x86_64|arm64e?)[)']\)")  # or wrapped
_SITE_PACKAGE = re.compile(r"/site-packages/([A-Za-z_]\w*)/")  # the import whose binary failed (torch, cv2, ...)
_HOMEBREW = re.compile(r"(?:^|[\s'\"`=:])(?:(/opt/homebrew)/(?:bin/|Homebrew/|Cellar/|Caskroom/|opt/)|(/usr/local)/(?:bin/brew|Homebrew/))")
_ARCH_HEADING = re.compile(r"^\s*(?:=+|#+|-{2,}|\*\*)?\s*(?:Architecture|Arch|CPU architecture|uname -m(?: && arch)?|arch)"
                           r"\s*(?:=+|\*\*:?|:)?\s*$", re.IGNORECASE)
_PYTHON_INSTALLED = re.compile(r"\b(?:installed|have|got)\s*:?\s+Python\s?v?(3\.\d{1,2}\.\d{1,2})\b(?![.\d])", re.IGNORECASE)
_ULTRALYTICS = re.compile(r"\bUltralytics\s+(?:YOLOv)?(\d+\.\d+\.\d+)\b")
_TEMPLATE_HASH = re.compile(r"^\s*#-\s*(.+?)\s*(?:\((?:e\.g\.|eg\.|if |use )[^)]*\))?\s*:\s*(\S.*?)\s*$")
_MPS_TRUE = re.compile(r"^\s*[-*]?\s*(?:torch\s+)?MPS (?:is )?(?:available|built)\s*[:=]\s*True\b", re.IGNORECASE)
_PLAIDML_SETUP = re.compile(r"\bplaidml-setup\b")

# Distributions people name with their version in a sentence ('torch 2.3.1'); the spellings they write
PACKAGE_WORDS = {
    "torch": "torch", "pytorch": "torch", "torchvision": "torchvision", "torchaudio": "torchaudio",
    "tensorflow": "tensorflow", "tensorflow-macos": "tensorflow-macos", "tensorflow-metal": "tensorflow-metal",
    "keras": "keras", "jax": "jax", "jaxlib": "jaxlib", "jax-metal": "jax-metal", "mlx": "mlx", "mlx-lm": "mlx-lm",
    "transformers": "transformers", "sentence-transformers": "sentence-transformers", "accelerate": "accelerate",
    "diffusers": "diffusers", "peft": "peft", "datasets": "datasets", "tokenizers": "tokenizers",
    "numpy": "numpy", "scipy": "scipy", "pandas": "pandas", "scikit-learn": "scikit-learn", "spacy": "spacy",
    "ultralytics": "ultralytics", "onnxruntime": "onnxruntime", "coremltools": "coremltools",
    "pytorch-lightning": "pytorch-lightning", "lightning": "lightning", "xformers": "xformers",
    "bitsandbytes": "bitsandbytes", "llama-cpp-python": "llama-cpp-python", "timm": "timm", "plaidml": "plaidml",
    "plaidml-keras": "plaidml-keras", "gensim": "gensim", "open-clip-torch": "open-clip-torch",
    "opencv-python": "opencv-python", "opencv-contrib-python": "opencv-contrib-python",
}
_PACKAGE_IN_WORDS = re.compile(r"(?<![\w./-])(" + "|".join(sorted((re.escape(w).replace(r"\-", "[-_ ]") for w in PACKAGE_WORDS),
                                                                  key=len, reverse=True))
                               + r")(?:\s+nightly)?(?:\s+(?:pre-release\s+)?version)?\s+`?v?(\d+\.\d+(?:\.\d+)+(?:\.?(?:dev|rc|post|a|b)\d+)?(?:\+[\w.]+)?)"
                               r"(?![\w.]*[-+/])", re.IGNORECASE)
_PACKAGE_MINOR = re.compile(r"(?<![\w./-])(?:(?:py)?torch|tensorflow|jax|mlx)\s+v?\d+\.\d+\b", re.IGNORECASE)
_PYTHON_IN_WORDS = re.compile(r"(?<![\w./-])python\s+v?(3\.\d{1,2}(?:\.\d{1,2})?)(?![\w.]*\d)", re.IGNORECASE)
_BUILT_WITH = re.compile(r"(?<![\w.-])[A-Za-z][\w.-]*\s+v?\d+(?:\.\d+)+\s*\($")
_NOT_INSTALLED = re.compile(r"\b(?:upgrad|downgrad|instead|vs\b|versus|than|from\b.*\bto\b|prior|before|after|since|until|"
                            r"requir|needs?\b|supports?\b|compatib|dropp?|deprecat|fixed in|introduced|(?<!pre-)released?\b|minimum|"
                            r"at least|newer|older|latest|pinn?|only works|worked)", re.IGNORECASE)


def mac_model_year(line: str) -> Facts:
    """'a Mac Pro 2013 trashcan', 'on a 2019 16" Macbook Pro', 'MacBook Pro (16-inch, 2019)': a Mac line and
    its model year say Intel or Apple silicon where only one kind was sold that year."""
    found = _YEAR_BEFORE.search(line) or _YEAR_AFTER.search(line)
    if not found or APPLE_SILICON_IDENTIFIER.search(line):  # an Apple-silicon identifier outranks a name
        return []
    product, year = (found.group(2), found.group(1)) if found.re is _YEAR_BEFORE else (found.group(1), found.group(2))
    silicon = False if re.search(r"\bIntel\b", found.group(0), re.IGNORECASE) else mac_year_silicon(product, int(year))
    if silicon is None:
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64" if silicon else "x86_64")]


def memory_beside_mac(line: str) -> Facts:
    """'16GB MacBook Pro M1' (the size before the Mac), 'Mac Studio M3 Ultra 512 RAM' (a size without its unit
    after the chip): the Mac's memory, when the number is one Apple sells."""
    found = _MEMORY_BEFORE_MAC.search(line) or _MEMORY_BESIDE_CHIP.search(line)
    if not found or int(found.group(1)) not in MAC_MEMORY_GB:
        return []
    return [("cpu.memory_bytes", int(found.group(1)) * 1024**3)]


def mac_pro_firepro(line: str) -> Facts:
    """'the dual AMD D500 GPU', 'FirePro D700': the Mac Pro 2013's AMD FirePro GPUs (it has two)."""
    found = _FIREPRO.search(line)
    if not found or not re.search(r"\b(?:AMD|FirePro)\b", line, re.IGNORECASE):
        return []
    memory = int(found.group(3)) * 1024 if found.group(3) else None  # '6 Go': French for 6 GB
    record = ("gpu", {"name": f"AMD FirePro {found.group(2).upper()}", "vendor": "AMD", "memory_mib": memory, "index": None})
    if found.group(1):
        return [("platform", "darwin"), ("gpu", dict(record[1], index=0)), ("gpu", dict(record[1], index=1))]
    return [("platform", "darwin"), record]


def intel_beside_macos(line: str) -> Facts:
    """'macos 15.6.1  intel', 'macOS 13.4 (Intel)', 'OS: macOS Sonoma 14.2, Intel i7': a macOS version written
    beside the word Intel names an Intel Mac (not 'Intel Macs', an Intel GPU or MKL)."""
    if len(line) > 100 or not _MACOS_VERSION.search(line) or not _INTEL_WORD.search(line) or _ARM_WORDS.search(line):
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]


def x86_mac_after_preposition(line: str) -> Facts:
    """'the mps device on **x86 mac** with AMD gpu', 'running it on an Intel MacBook': one Intel Mac the text is
    about ('Intel Macs' in general is not one, nor a negated line or one that also names Apple silicon)."""
    if not _X86_MAC_AFTER.search(line.replace("**", "").replace("`", "")) or _ARM_WORDS.search(line) \
            or re.search(r"\b(?:not|never|without)\b|n't\b", line, re.IGNORECASE):
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]


def native_code_type(line: str) -> Facts:
    """A crash report's 'Code Type: X86-64 (Native)': the crashed process ran natively, and an x86-64 process runs
    natively only on an Intel Mac (Apple silicon reports 'X86-64 (Translated)')."""
    found = _NATIVE_CODE_TYPE.match(line)
    if not found:
        return []
    arch = "x86_64" if found.group(1).upper() == "X86-64" else "arm64"
    return [("platform", "darwin"), ("cpu.hardware_arch", arch), ("process.translated", False)]


def wrong_arch_library(line: str) -> Facts:
    """dyld's "incompatible architecture (have 'x86_64', need 'arm64')" loading '.../site-packages/torch/lib/...':
    the process (the Python) runs as `need`, so arm64 means Apple silicon, and the package's binary was built
    for another arch, so it fails to import."""
    found = _WRONG_ARCH.search(line)
    if not found or found.group(1)[:5] == found.group(2)[:5]:
        return []
    need = "arm64" if found.group(2).startswith("arm64") else "x86_64"
    facts: Facts = [("platform", "darwin"), ("python.machine", need)]
    if need == "arm64":
        facts.append(("cpu.hardware_arch", "arm64"))
    package = _SITE_PACKAGE.search(line)
    if package:
        error = f"its {found.group(1)} binary cannot load in an {need} Python: {line.strip()[:200]}"
        facts.append(("framework.import_failed", {"name": package.group(1), "error": error}))
    return facts


def homebrew_prefix(line: str) -> Facts:
    """'/usr/local/bin/brew' (Homebrew's Intel prefix) and '/opt/homebrew/bin/brew', '/opt/homebrew/Caskroom/...' (its Apple-silicon one,
    where only an arm64 Homebrew installs): Homebrew on macOS (Linux's lives in /home/linuxbrew)."""
    found = _HOMEBREW.search(line)
    if not found:
        return []
    return [("platform", "darwin")] + ([("cpu.hardware_arch", "arm64")] if found.group(1) else [])


def python_installed(line: str) -> Facts:
    """'Already installed: Python 3.10.9 & pip 22.3.1', 'I have Python 3.11.4': the Python the writer has."""
    found = _PYTHON_INSTALLED.search(line)
    if not found or len(set(re.findall(r"\b3\.\d{1,2}\.\d{1,2}\b", line))) > 1:
        return []
    return [("python.version", found.group(1))]


def ultralytics_version(line: str) -> Facts:
    """The Ultralytics banner 'Ultralytics YOLOv8.0.99 🚀 Python-3.11.3 torch-2.0.1 CPU' or 'Ultralytics 8.3.0 🚀
    ...': the ultralytics package's own version (YOLOv5's 'YOLOv5 🚀 v6.1' is a repository, not it)."""
    found = _ULTRALYTICS.search(line)
    return [("package", {"name": "ultralytics", "version": found.group(1)})] if found else []


def packages_in_words(line: str) -> Facts:
    """'I am using Python 3.10, sentence-transformers 3.0.1, accelerate 0.31 and torch 2.3.1', 'spaCy version
    3.0.0', 'Pytorch pre-release version 1.13.0.dev20220922': known distributions with the version the writer
    has, to its patch level ('accelerate 0.31' could be any 0.31.x), not where the line compares, requires or
    changes versions."""
    if _NOT_INSTALLED.search(line):
        return []
    found: Dict[str, List[str]] = {}
    for match in _PACKAGE_IN_WORDS.finditer(line):
        if _BUILT_WITH.search(line[:match.start()]):  # 'mlx-serve 26.6.6 (MLX 0.31.2)': the library an app links
            continue
        name = PACKAGE_WORDS[canonical(match.group(1).replace(" ", "-"))]
        found.setdefault(name, []).append(match.group(2))
    facts: Facts = []
    for name, versions in found.items():
        if len(set(versions)) == 1:  # 'torch 2.1 ... torch 2.3' in one line: which one is installed is unclear
            facts.append(("package", {"name": name, "version": versions[0]}))
            facts += [("torch.version", versions[0])] if name == "torch" else []
    listed = found or _PACKAGE_MINOR.search(line)  # 'pytorch 1.7': a package version, if only to its minor
    pythons = {m.group(1) for m in _PYTHON_IN_WORDS.finditer(line)} if listed else set()
    if len(pythons) == 1:  # 'pytorch 1.7 , python 3.8 on debian 10': the Python beside the packages, as exact as written
        version = pythons.pop()
        facts.append(("python.version" if version.count(".") == 2 else "python.minor", version))
    return facts


def mps_answer(line: str) -> Facts:
    """A script's 'MPS available: True' / 'MPS built: True': torch builds MPS on macOS only."""
    return [("platform", "darwin")] if _MPS_TRUE.match(line) else []


def plaidml_setup_run(line: str) -> Facts:
    """'reran plaidml-setup': plaidml's Python package (x86_64 wheels only) is installed in an x86_64 Python."""
    return [("python.machine", "x86_64")] if _PLAIDML_SETUP.search(line) else []


def template_hash_line(line: str) -> Facts:
    """Lightning's environment template '#- PyTorch Version (e.g., 2.5): 2.6.0', '#- OS (e.g., Linux): MacOS 15.3.2':
    the key without its hint and its answer."""
    found = _TEMPLATE_HASH.match(line)
    if not found:
        return []
    key = " ".join(found.group(1).replace("`", "").lower().split())
    return keyed_facts(key, found.group(2)) or by_key(key, found.group(2))


def keyed_facts(key: str, value: str) -> Facts:
    """Keys the shared vocabulary does not read: 'Python architecture: arm64' (platform.machine()), 'spaCy Version
    Used: 3.0.0', 'PyTorch Lightning Version: 2.5.1' (a distribution named in words)."""
    if key in ("python architecture", "python arch", "python machine", "interpreter architecture"):
        return [("python.machine", a) for a in [arch_word(value)] if a]
    used = re.fullmatch(r"(.+? version) (?:used|installed)", key)
    if used:
        return by_key(used.group(1), value)
    named = re.fullmatch(r"([a-z][\w .-]*?) version", key)
    words = canonical(named.group(1).replace(" ", "-")) if named and " " in named.group(1) else ""
    if words in PACKAGE_WORDS:
        version = re.match(r"v?(\d+(?:\.\d+)+)\b", value.strip())
        return [("package", {"name": PACKAGE_WORDS[words], "version": version.group(1)})] if version else []
    return []


# TensorFlow's Mac packages as people shorten them: 'tf-macos: 2.9.2, tf-metal: 0.5.0'
_TF_SHORT = re.compile(r"\btf-(macos|metal)\s*[:=]{1,2}\s*v?(\d+\.\d+(?:\.\d+)?)\b", re.IGNORECASE)


def tf_short_names(line: str) -> Facts:
    """'tf-macos: 2.9.2, tf-metal: 0.5.0' -> tensorflow-macos 2.9.2, tensorflow-metal 0.5.0 (both macOS-only)."""
    found = [("package", {"name": f"tensorflow-{name.lower()}", "version": version}) for name, version in _TF_SHORT.findall(line)]
    return [("platform", "darwin")] + found if found else []


LINE_RULES = (tf_short_names, mac_model_year, memory_beside_mac, mac_pro_firepro, intel_beside_macos, x86_mac_after_preposition,
              native_code_type, wrong_arch_library, homebrew_prefix, python_installed, ultralytics_version,
              packages_in_words, mps_answer, plaidml_setup_run, template_hash_line)


def line_facts(line: str) -> Facts:
    facts: Facts = []
    for rule in LINE_RULES:
        facts += rule(line)
    return facts


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> facts: an 'Architecture' heading ('=== Architecture ===', '$ arch') and the bare arch words
    under it ('arm64' twice: `uname -m` and `arch`), each the answering process's arch."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if not _ARCH_HEADING.match(re.sub(r"^\s*[$%#>]\s+(?=\w)", "", line)):
            continue
        for follow in range(index + 1, min(len(lines), index + 4)):
            word = lines[follow].strip()
            arch = "x86_64" if word == "i386" else arch_word(word) if len(word.split()) == 1 else None
            if arch is None:
                break
            found[follow] = [("process.arch", arch)]
    return found

