"""torch and Python as issue text states them, each read by a pure function returning stated facts.

- 'PyTorch 1.13 with CUDA 11.7' (the build), 'torch.cuda.is_available() I get False', and a shell one-liner printing
  is_available() with its answer on the next line.
- 'I am running Python 3.8.10'; torch's extension cache '.cache/torch_extensions/py310_cpu/' (torch.utils.cpp_extension
  names it after the running Python's major and minor version), IPython's 'In [4]: torchvision.__version__' / "Out[4]: '0.17.1'".
- the Python that macOS itself ships, by its banner ('This version is included in macOS for compatibility with legacy
  software', /usr/bin/python 2.7 on macOS 10.15-12.2) or its paths in a traceback (the Command Line Tools' or Xcode's
  Python3.framework, /System/Library/Frameworks/Python.framework): where that interpreter lives;
- PyTorch's ROCm wheel index: ROCm wheels are built for Linux x86_64 only (https://pytorch.org/get-started/locally/
  offers ROCm on Linux alone, and download.pytorch.org/whl/rocm* and repo.radeon.com/rocm/manylinux list only
  linux_x86_64 files), so a pip command on it is a Linux x86_64 Python's.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

Facts = List[Tuple[str, Any]]

_TORCH_CUDA = re.compile(r"\b(?:PyTorch|torch)\s+v?\d\.\d{1,2}(?:\.\d{1,2})?\s+(?:with|for|and)\s+CUDA\s+(\d{2}\.\d)\b", re.IGNORECASE)
# A wheel's CUDA tag standing alone ('cu118' = CUDA 11.8; not '+cu118' after a version, nor an index URL's '/cu118')
_CUDA_TAG = re.compile(r"(?<![\w+/.-])cu(\d{2})(\d)(?![\w.])", re.IGNORECASE | re.ASCII)  # ASCII: '匹配cu118的'
_TORCH_WORD = re.compile(r"(?<![\w.-])(?:py)?torch(?![\w.-]|\.\w)", re.IGNORECASE | re.ASCII)
_INSTALL_WORDS = re.compile(r"\b(?:install|upgrade|downgrade|requires?|needs?|should|try|instead|recommend\w*)\b|安装|建议", re.IGNORECASE)
_WARNING_PRINT = re.compile(r"^\S.*?:\d+: \w*Warning: ")  # Python's warnings: 'path:129: UserWarning: ...'
_AVAILABLE_SAID = re.compile(r"cuda\.is_available\(\)[^.;]{0,30}?\b(?:get|gives?|returns?|prints?|is|shows?|says?|=|->)\s*"
                             r"[`'\"]?((?i:false|true))\b"
                             r"|(?<![\w.])(?i:(?:is )?cuda available)\s*[:=]\s*[`'\"]?((?i:false|true))\b")  # '# Cuda available: False'


def torch_said(line: str) -> Facts:
    """'PyTorch 1.13 with CUDA 11.7' -> a CUDA 11.7 build; 'torch.cuda.is_available() I get False' and '# Cuda available: False' -> False;
    'torch三件套 ... 都是匹配cu118' (torch and its companions match cu118) -> a CUDA 11.8 build."""
    facts: Facts = []
    build = _TORCH_CUDA.search(line)
    if build:
        facts.append(("torch.cuda_version", build.group(1)))
    tags = {f"{m.group(1)}.{m.group(2)}" for m in _CUDA_TAG.finditer(line)}
    if not build and len(tags) == 1 and _TORCH_WORD.search(line) and not _INSTALL_WORDS.search(line):
        facts.append(("torch.cuda_version", tags.pop()))
    said = _AVAILABLE_SAID.search(line)
    if said:
        facts.append(("torch.cuda_available", (said.group(1) or said.group(2)).lower() == "true"))
    return facts


def past_warning(lines: Sequence[str], at: int) -> int:
    """The line after a warning Python printed at lines[at] (its 'path:57: UserWarning: ...' line and the indented
    source line under it); `at` itself where lines[at] is no warning."""
    if at < len(lines) and _WARNING_PRINT.match(lines[at]):
        return at + (2 if at + 1 < len(lines) and lines[at + 1][:1].isspace() else 1)
    return at


def answer_after(lines: Sequence[str], index: int, within: int = 2) -> Optional[int]:
    """The first line with text after lines[index], within `within` lines of text, past a warning Python printed
    meanwhile ('.../torch/cuda/__init__.py:129: UserWarning: CUDA initialization: ...' and its source line)."""
    seen, at = 0, index + 1
    while at < len(lines) and seen < within:
        if _WARNING_PRINT.match(lines[at]):
            at += 2 if at + 1 < len(lines) and lines[at + 1][:1].isspace() else 1
            continue
        if lines[at].strip():
            return at
        seen, at = seen + 1, at + 1
    return None


def available_answered(lines: Sequence[str]) -> Dict[int, Facts]:
    """'python -c "import torch;print(torch.cuda.is_available())"' and the next line's 'False'."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines[:-1]):
        if "python" not in line or not re.search(r"print\(\s*torch\.cuda\.is_available\(\)\s*\)", line):
            continue
        answer = lines[index + 1].strip()
        if answer in ("True", "False"):
            found[index + 1] = [("torch.cuda_available", answer == "True")]
    return found


_RUNNING_PYTHON = re.compile(r"\b(?:running|using|use|on|with|have|installed)\s+Python\s+(3\.\d{1,2}\.\d{1,2})(?![\d])", re.IGNORECASE)
# the writer's environment named by its Python: 'I am on a mac m1 using python3.10 venv'
_PYTHON_VENV = re.compile(r"\b(?:using|with|in)\s+(?:an?\s+|my\s+)?python\s?(3\.\d{1,2})\s+(?:venv|virtualenv|virtual environment|conda env)\b",
                          re.IGNORECASE)
_PYTHON_ITEM = re.compile(r"^\s*(?:[-*•]\s*)?Python\s*:?\s*v?(3\.\d{1,2}(?:\.\d{1,2})?)\s*$", re.IGNORECASE)
_EXTENSION_CACHE = re.compile(r"/torch_extensions/py(3)(\d{1,2})_(?:cpu|cu\d{2,3})/")
_ROCM_WHEELS = re.compile(r"\bdownload\.pytorch\.org/whl/(?:nightly/)?rocm\d|\brepo\.radeon\.com/rocm/manylinux/")


def python_said(line: str) -> Facts:
    """'I am running Python 3.8.10.' -> 3.8.10; 'using python3.10 venv' -> 3.10; a pip command on PyTorch's ROCm wheel index -> a Linux x86_64 Python."""
    facts: Facts = []
    running = _RUNNING_PYTHON.search(line) or _PYTHON_VENV.search(line)
    if running:
        facts.append(("python.version", running.group(1)))
    item = _PYTHON_ITEM.match(line)  # '- Python 3.10' in an environment list, or 'Python 3.10' on a line alone
    if item and not running:
        facts.append(("python.version" if item.group(1).count(".") == 2 else "python.minor", item.group(1)))
    cache = _EXTENSION_CACHE.search(line)
    if cache and not running:
        facts.append(("python.version", f"{cache.group(1)}.{cache.group(2)}"))
    if _ROCM_WHEELS.search(line):
        facts += [("platform", "linux"), ("python.machine", "x86_64"), ("cpu.hardware_arch", "x86_64")]
    return facts


_APPLE_PYTHON2_BANNER = re.compile(r"^\s*This version is included in macOS for compatibility with legacy software\.?\s*$")
_OS_PYTHON_PATH = re.compile(r"(/Library/Developer/CommandLineTools/Library/Frameworks/Python3\.framework/Versions/3\.\d{1,2}"
                             r"|/Applications/Xcode[\w.-]*\.app/Contents/Developer/Library/Frameworks/Python3\.framework/Versions/3\.\d{1,2}"
                             r"|/System/Library/Frameworks/Python\.framework/Versions/2\.\d)/")


def os_python(line: str) -> Facts:
    """'This version is included in macOS ...' -> /usr/bin/python; a CLT Python3.framework path -> that prefix."""
    if _APPLE_PYTHON2_BANNER.match(line):
        return [("platform", "darwin"), ("python.prefix", "/System/Library/Frameworks/Python.framework/Versions/2.7"),
                ("python.executable", "/usr/bin/python")]
    found = _OS_PYTHON_PATH.search(line)
    if not found:
        return []
    executable = "/usr/bin/python" if found.group(1).startswith("/System/") else "/usr/bin/python3"
    return [("platform", "darwin"), ("python.prefix", found.group(1)), ("python.executable", executable)]


def ipython_versions(lines: Sequence[str]) -> Dict[int, Facts]:
    """IPython's 'In [4]: torchvision.__version__' then "Out[4]: '0.17.1'" -> torchvision 0.17.1."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines[:-1]):
        asked = re.match(r"^\s*In \[(\d+)\]:\s*([A-Za-z_][\w]*)\.__version__\s*$", line)
        if not asked:
            continue
        for follow in range(index + 1, min(len(lines), index + 3)):
            answer = re.match(r"^\s*Out\[(\d+)\]:\s*['\"]([\w.+-]+)['\"]\s*$", lines[follow])
            if answer and answer.group(1) == asked.group(1):
                found[follow] = [("package", {"name": asked.group(2).lower(), "version": answer.group(2)})]
    return found


def line_facts(line: str) -> Facts:
    return torch_said(line) + python_said(line) + os_python(line)
