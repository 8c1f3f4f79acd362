"""Facts stated anywhere in a pasted text, line by line, whatever tool printed them.

The shape detectors read whole outputs they know (collect_env, nvidia-smi, ...). This reader looks at
every line on its own for what it states: an OS and its version, a Darwin kernel release, a chip or
CPU brand, a Mac model identifier, an architecture, memory, GPUs and their driver, a Python version,
package versions, torch's build. Each Statement keeps the line it came from, so every fact it gives
says where it was read. A statement only ever fills what the shaped outputs leave unknown.

The vocabulary lives in statement_rules and inline_rules: `key: value` lines (any dump's "OS: darwin", "- **Python
Version:** 3.12.9", "sys.platform  darwin", '"modelCode" : "Mac15,6"') by key, and patterns found
anywhere in a line ("Darwin Kernel Version 23.5.0", "Apple M2 Pro", "MacBookPro18,3").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import AbstractSet, Any, Dict, List, Mapping, Optional, Sequence, Tuple

from macml.knowledge.macos import mac_only_gpu
from macml.probe.paste import (host_signs_rules, line_readers as readers, mac_hint_rules, mac_host_name_rules,
                               mac_text_rules, os_answer_rules, statement_rules as rules, system_rules)
from macml.probe.paste.base import strip_prompt
from macml.probe.paste.header_table import header_table_rows
from macml.probe.paste.log_rules import journal_line_facts
from macml.probe.paste.requirement_sections import requirement_lines
from macml.probe.paste.said_of_this_machine import only_advised
from macml.probe.paste.struct_pairs import scooby_pairs, struct_pairs
from macml.probe.paste import vm_guest_rules


@dataclass(frozen=True)
class Statement:
    fact: str  # "platform", "os.version", "cpu.brand", "gpu", "package", "torch.version", ...
    value: Any  # a string, or a dict for "gpu" / "package"
    line: int  # 1-based line in the pasted text
    text: str  # that line, as pasted (colour codes and quoting removed)

    def to_json(self, source: str) -> Dict[str, Any]:
        return {"fact": self.fact, "value": self.value, "source": source, "line": self.line,
                "text": self.text.strip()[:300]}


# "key: value", "- key: value", "* **Key:** value", '"key" : "value"', "key    value" (two spaces or a tab),
# "- 🤗 Diffusers version: 0.33.0" (diffusers-cli env puts an emoji before its own name); PyTorch's old issue
# template's "- PyTorch Version (e.g., 1.0): 1.6.0" keeps its example out of the key
_KEY_VALUE = re.compile(r"""^\s*(?:[-*+•]\s+|\d{1,2}[.)]\s*(?=[A-Za-z]))?(?:[\U0001F300-\U0001FAFF\u2600-\u27BF]\uFE0F?\s*)?(?:\*\*)?["'`]?([A-Za-z`][\w .()/+?`-]{0,48}?)(?:\s*\((?:e\.g\.|i\.e\.)[^)]{0,40}\))?["']?(?:\*\*)?\s*"""
                        r"""(?::|==?(?!=)|\s{2,}|\t)\s*(?:\*\*\s*)?(.+?)\s*,?\s*$""")
_SYSCTL_N = re.compile(r"^(?:.*[$%#>λ❯➜]\s*)?((?:sysctl\s+-n|uname\s+-[mpr])\b.*|arch)$")  # λ, ❯, ➜: custom zsh prompts


# a key a word describes ('relevant environment', 'my OS', 'current system'): the key itself
_DESCRIBED_KEY = re.compile(r"^(?:my|our|relevant|current|local|running|runtime|working|test(?:ing)?|dev(?:elopment)?)\s+"
                            r"(environment|env|os|system|operating system|platform)$")


# DxDiag's own field names ('Operating System', 'Card name', 'Display Memory') as a Markdown copy joins them
_DXDIAG_JOINED = frozenset(("OperatingSystem", "SystemManufacturer", "SystemModel", "CardName", "ChipType", "DisplayMemory",
                            "DedicatedMemory", "SharedMemory", "DriverVersion", "DriverDate", "DeviceType", "DacType"))


_AT_LEAST = re.compile(r"\((?:or\s+(?:later|newer|higher|above|better)|and\s+(?:later|up|above))\)", re.IGNORECASE)


def _key(raw: str) -> str:
    key = re.sub(r"\.+$", "", raw.replace("`", "").strip().strip("*").strip())  # hashcat's 'Name...........:'
    key = re.sub(r"^([A-Za-z]+)\.([A-Z][a-z]+)$", r"\1 \2", key)  # hashcat's 'Metal.Version.:' is 'Metal Version'
    if key in _DXDIAG_JOINED:  # DxDiag's fields run together in a Markdown copy: 'OperatingSystem'
        key = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key)
    key = re.sub(r"[\s_]+", " ", key.lower())
    key = re.sub(r"^(?:my|our)\s+(.+?)\s+(?:is|are)$", r"\1", key)  # 'My hardware is: RTX3090+...' is the hardware
    described = _DESCRIBED_KEY.match(key)
    return described.group(1) if described else key


_TABLE_ROW = re.compile(r"^\s*\|([^|]+)\|([^|]+)\|?\s*$")  # a Markdown table row: |Memory (System)|16.00GB|
_XML = re.compile(r"^\s*<(\w+)>([^<]+)</\1>\s*$")  # nvidia-smi -q -x: <driver_version>430.64</driver_version>


# spec lists written in Chinese ('内存：16g', '芯片：m1 pro'): the keys' English names
_CJK_KEYS = {"内存": "Memory", "运行内存": "Memory", "显存": "VRAM", "芯片": "Chip", "处理器": "Processor", "显卡": "GPU",
             "操作系统": "OS", "系统": "OS", "机型": "Model", "型号": "Model"}
_CJK_KEY = re.compile(r"^(\s*(?:[-*]\s+)?)?(" + "|".join(sorted(_CJK_KEYS, key=len, reverse=True)) + r")\s*:")


def key_value(line: str) -> Optional[Tuple[str, str]]:
    for shape in (_TABLE_ROW, _XML):
        found = shape.match(line)
        if found and found.group(2).strip() and not set(found.group(1).strip()) <= set("-: "):
            key = _key(found.group(1))
            return ("cuda driver version" if key == "cuda version" and shape is _XML else key), found.group(2).strip()
    line = _CJK_KEY.sub(lambda m: (m.group(1) or "") + _CJK_KEYS[m.group(2)] + ":", line.replace("\uff1a", ":"), count=1)  # full-width colons
    match = _KEY_VALUE.match(line)
    if not match:
        return None
    value = re.sub(r"\s*<-{2,}.*$", "", match.group(2))  # the writer's arrow note after it: '770 <------ onboard'
    value = value.replace("**", "").strip().strip('"').strip("'").strip("*").strip("`").strip()  # Markdown bold anywhere
    return (_key(match.group(1)), value) if value else None


# mmengine's collect_env printed whole: "OrderedDict([('sys.platform', 'linux'), ('PyTorch', '2.3.0+cu121'), ...])"
_REPR_PAIR = re.compile(r"""\(\s*'([A-Za-z][\w .-]{0,48})'\s*,\s*(?:'((?:[^'\\]|\\.)*)'|(True|False|-?\d[\d.]*))\s*\)""")


def piped_pairs(line: str) -> List[Tuple[str, str]]:
    """A log's summary line of 'key: value' fields split by ' | ' ('ℹ️ Python: 3.12.11 | PyTorch: 2.10.0 | CUDA: N/A'):
    each field's pair, where two or more fields are pairs."""
    if " | " not in line:
        return []
    pairs = [key_value(re.sub(r"^[^A-Za-z0-9(]+", "", field)) for field in line.split(" | ")]
    return [p for p in pairs if p] if sum(1 for p in pairs if p) >= 2 else []


def repr_pairs(line: str) -> List[Tuple[str, str]]:
    """The (key, value) tuples of a printed OrderedDict or list of pairs, each value up to its first escaped newline:
    "OrderedDict([('CUDA available', True), ('GPU 0', 'NVIDIA GeForce RTX 4060 Ti')])" -> [('cuda available', 'True'),
    ('gpu 0', 'NVIDIA GeForce RTX 4060 Ti')]."""
    if not re.search(r"(?:OrderedDict\(|^\s*)\[\s*\(\s*'", line):
        return []
    pairs = []
    for key, quoted, bare in _REPR_PAIR.findall(line):
        value = (quoted.split("\\n")[0] if quoted else bare).strip()
        if value:
            pairs.append((_key(key), value))
    return pairs


def _sysctl_answers(lines: Sequence[str]) -> Dict[int, str]:
    """`sysctl -n a b && uname -m` pasted with its bare answers: line index -> the name it answers."""
    answers: Dict[int, str] = {}
    for index, line in enumerate(lines):
        match = _SYSCTL_N.match(strip_prompt(line).strip())
        if not match:
            continue
        names = []
        for piece in re.split(r"\s*(?:&&|;)\s*", match.group(1)):
            piece = re.sub(r"^sysctl\s+-n\s*", "sysctl -n ", piece)
            words = piece.split()
            if words == ["arch"]:  # with no arguments it prints the shell's own arch, as `uname -m` does
                names.append("uname -m")
            elif words[:1] == ["uname"]:
                names.append("uname -m" if "-m" in words or "-p" in words else "uname -r" if "-r" in words else "uname")
            elif words and words[0] != "sysctl":
                names.extend(w for w in words if not w.startswith("-"))
            elif words[:2] == ["sysctl", "-n"]:
                names.extend(words[2:])
        values = _value_lines(lines, [i for i in range(index + 1, min(len(lines), index + 1 + 40)) if lines[i].strip()])
        answers.update(_pair_answers(names, values))
    return answers


_LEAVES = ("hw.memsize", "hw.model", "hw.ncpu", "hw.optional.arm64", "kern.osrelease", "kern.osproductversion",
           "sysctl.proc_translated", "machdep.cpu.brand_string", "uname -m", "uname -r")


def _pair_answers(names: Sequence[str], values: Sequence[int]) -> Dict[int, str]:
    """One answer line per leaf name; a subtree (`machdep.cpu`) prints many, so names after it are
    paired from the last answer backwards."""
    if all(n in _LEAVES or n.count(".") >= 2 for n in names):
        return {v: n for n, v in zip(names, values)}
    first = next(i for i, n in enumerate(names) if not (n in _LEAVES or n.count(".") >= 2))
    paired = {v: n for n, v in zip(names[:first], values)}
    tail = names[first + 1:]
    if tail and len(values) > first:
        paired.update({v: n for n, v in zip(reversed(tail), reversed(values[first:]))})
    return paired


def _value_lines(lines: Sequence[str], candidates: Sequence[int]) -> List[int]:
    """The answer lines: stop at the next prompt or `name: value` line."""
    found = []
    for index in candidates:
        text = lines[index].strip()
        if strip_prompt(lines[index]) != lines[index] or ":" in text and not text.startswith("Apple"):
            break
        found.append(index)
    return found


_CRASHED_PYTHON = re.compile(r"^\s*Process:\s+(?:Python|python3?(?:\.\d+)?)\s+\[\d+\]")


def _crashed_python(lines: Sequence[str]) -> Dict[int, str]:
    """A macOS crash report of Python itself: its header's Version and Code Type are the interpreter's."""
    lines_of_python: Dict[int, str] = {}
    for index, line in enumerate(lines):
        if _CRASHED_PYTHON.match(line):
            for follow in range(index + 1, min(len(lines), index + 12)):
                lines_of_python[follow] = "python"
    return lines_of_python


def _mps_memory(lines: Sequence[str]) -> Dict[int, str]:
    """ComfyUI's device list: an 'mps' device's 'VRAM Total' is the Mac's unified memory."""
    found: Dict[int, str] = {}
    for index, line in enumerate(lines):
        if re.search(r"\b(?:Type|Name):\**\s*mps\s*$", line):
            for follow in range(index + 1, min(len(lines), index + 4)):
                if re.search(r"\bVRAM Total:", lines[follow]) and "Torch VRAM" not in lines[follow]:
                    found[follow] = "memory"
    return found


_FORM_HEADING = re.compile(r"^\s*#{2,4}\s+(\S.{0,60}?)\s*$")
_LIST_LABEL = re.compile(r"^\s*(?:\*\*)?([A-Za-z][\w ./()-]{0,40}?)(?:\*\*)?:(?:\*\*)?\s*$")
_LIST_ITEM = re.compile(r"^\s*[-*]\s+\S")
_RULE = re.compile(r"^\s*-{5,}\s*$")


def _form_answers(lines: Sequence[str]) -> Dict[int, str]:
    """A GitHub issue form: '### Python version', a blank line, '3.11.11': line index -> the heading it answers.
    Also a label whose one answer is the list item under it ('Python:' then '- 3.12.11'), and a heading set between
    two dash rules with its answer on the line after them (a script's sectioned report)."""
    found: Dict[int, str] = {}
    for index, line in enumerate(lines):
        heading = _FORM_HEADING.match(line) or _LIST_LABEL.match(line)
        answer = next((i for i in range(index + 1, min(len(lines), index + 4)) if lines[i].strip()), None)
        if not heading or answer is None or _FORM_HEADING.match(lines[answer]):
            continue
        if heading.re is _LIST_LABEL and not (_LIST_ITEM.match(lines[answer]) and not any(
                _LIST_ITEM.match(later) for later in lines[answer + 1:answer + 2])):
            continue  # a label's answer is one list item, not a list
        # a bilingual heading keeps its English half: 'Python version | Python 版本', 'Operating System Version| 操作系统版本'
        key = re.sub(r"\s*\|\s*[^|]*[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af][^|]*$", "", heading.group(1)).strip().lower()
        found[answer] = re.sub(r"^(operating system|os)\s+(?:mode|type|family|kind)$", r"\1", key)  # 'Operating System Mode'
    for index in range(1, len(lines) - 2):  # a heading between dash rules, its answer below: '----\nmacOS\n----\nBig Sur'
        if _RULE.match(lines[index - 1]) and _RULE.match(lines[index + 1]) and lines[index].strip() \
                and not _RULE.match(lines[index]) and lines[index + 2].strip() and not _RULE.match(lines[index + 2]):
            found[index + 2] = lines[index].strip().lower()
    return found



_TOOL_FIELD = re.compile(r"^[a-z][a-z0-9_]{2,24}$")  # a tool's own variable name: fetchcord's 'sysosline', 'gpuinfo'


def inner_pairs(pair: Tuple[str, str]) -> List[Tuple[str, str]]:
    """A debug dump that prints each fetched line under its variable's name ('sysosline: OS: Manjaro Linux x86_64',
    'gpuinfo: GPU: AMD Radeon R7 Graphics GPU: Radeon 500 Series'): the inner pairs, a repeated key split, when
    the inner key is one the rules know."""
    inner = key_value(pair[1]) if _TOOL_FIELD.match(pair[0]) else None
    if not inner or not rules.by_key(*inner):
        return []
    label = re.match(r"\s*([^:]+):", pair[1])
    values = re.split(r"\s+" + re.escape(label.group(1).strip()) + r":\s+", inner[1]) if label else [inner[1]]
    return [(inner[0], value.strip()) for value in values if value.strip()]


def read_statements(lines: Sequence[str], journaled: AbstractSet[int] = frozenset()) -> List[Statement]:
    """Every fact each line states, in line order (`journaled`: the lines that had a syslog prefix)."""
    found: List[Statement] = []
    sysctl = _sysctl_answers(lines)
    python_header = _crashed_python(lines)
    mps_memory = _mps_memory(lines)
    form = _form_answers(lines)
    required = requirement_lines(lines)  # '## System Requirements' then '- 32 GB RAM': not this machine's
    # Whole-text readers' facts, by line; their order on a line is the order facts are added.
    answer_sets = [reader(lines) for reader in readers.LINE_ANSWERS]
    table_rows = header_table_rows(lines)
    vm_host = vm_guest_rules.host_lines(lines)
    python_process = any(re.search(r'"(?:procName|app_name)"\s*:\s*"Python"', line) for line in lines[:60])
    for index, line in enumerate(lines):
        text = line.rstrip()
        if not text.strip() or len(text) > 2000 or index in required:
            continue
        facts: List[Tuple[str, Any]] = []
        for answers in answer_sets:
            facts += answers.get(index, [])
        if index in table_rows:  # a header-and-row table's cells, each read as 'Header: cell'
            facts += [(cell.fact, cell.value) for cell in read_statements(table_rows[index])]
        facts += mac_text_rules.early_line_facts(text)  # before by_key: it reads 'RAM: used / total' as the used
        if index in sysctl:
            facts.extend(system_rules.sysctl_value(sysctl[index], text.strip()))
        pair = key_value(text)
        for each in (([pair] + inner_pairs(pair) if pair else []) + repr_pairs(text) + piped_pairs(text) + struct_pairs(text)
                     + scooby_pairs(text)):
            facts.extend(readers.pair_facts(*each))
            if index in python_header or python_process:
                facts.extend(system_rules.crashed_python(*each))
            if index in mps_memory:
                facts.extend(rules.by_key("memory", each[1]))
        if index in form:
            for keyed in readers.FORM_KEYED:
                facts.extend(keyed(form[index], re.sub(r"^[-*]\s+", "", text.strip())))
        facts.extend(readers.line_rule_facts(text))
        facts = host_signs_rules.drop_elsewhere(text, facts + host_signs_rules.line_facts(text))
        if index in journaled:
            facts.extend(journal_line_facts(text))
        if mac_hint_rules.other_machine(text) or index in vm_host:  # a machine named to compare with, a VM's host
            facts = [(f, v) for f, v in facts if not f.startswith(("cpu.", "gpu", "platform"))]
        facts = [(f, v) for f, v in facts if f != "package" or not only_advised(text, str(v.get("version")))]
        facts = mac_hint_rules.chips_of_other_macs(text, facts)
        if _AT_LEAST.search(text):  # an issue form's floor ('M1 Max (or later)', '64GB (or higher)'): not the machine's own
            facts = [(f, v) for f, v in facts if not f.startswith(("cpu.brand", "cpu.memory", "memory.", "gpu"))]
        seen = set()
        for fact, value in facts:
            marker = (fact, repr(value))
            if marker not in seen:
                seen.add(marker)
                found.append(Statement(fact, value, index + 1, text))
    host_name = mac_host_name_rules.unless_cpu_stated(lines, [(s.fact, s.value) for s in found])
    return found + [Statement(fact, value, line, text) for line, fact, value, text in host_name]


def stated_platform(statements: Sequence[Mapping[str, Any]]) -> Optional[str]:
    """The OS most statements name (a Mac model, an Apple chip or a Metal device also names macOS)."""
    declared = os_answer_rules.declared_platform(statements)
    if declared:
        return declared
    votes = [s["value"] for s in statements if s.get("fact") == "platform" and s.get("value") in ("darwin", "linux", "win32")]
    if not votes and any(s.get("fact") in ("cpu.model", "os.darwin") or _names_a_mac(s) for s in statements):
        votes = ["darwin"]
    return max(sorted(set(votes)), key=votes.count) if votes else None


def _names_a_mac(statement: Mapping[str, Any]) -> bool:
    """An Apple chip, or a GPU only Macs have (Radeon Pro 580, Vega 20, ...)."""
    value = statement.get("value")
    name = value.get("name", "") if isinstance(value, Mapping) else str(value or "")
    return (statement.get("fact") in ("gpu", "gpu.mention", "gpu.owned", "cpu.brand")
            and (mac_only_gpu(name) or bool(re.match(r"Apple M\d", name))))
