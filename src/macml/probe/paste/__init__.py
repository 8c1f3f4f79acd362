"""The importer of pasted reports: raw text from bug reports -> a version-1 snapshot.

Each shape has a pure detector that finds its spans in the text and converts them to snapshot
parts (command outputs keyed by the argv the live probe would have run, interpreter fields,
framework data, packages, CPU flags). `import_pastes` never raises on odd input; what the
pastes do not say stays absent from the snapshot, so it stays unknown in the facts.
"""
from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from macml.knowledge.amd_gfx import linux_only_gpu
from macml.probe.macos import PROFILER_JSON, PROFILER_TEXT
from macml.probe.paste import collect_env, cpu, general_rules, gpu, mac, packages, system
from macml.probe.paste import avx_prose_rules
from macml.probe.paste.base import Part
from macml.probe.paste.gpu import QUERY_KEY
from macml.probe.paste.gpu_names import gpu_vendor
from macml.probe.paste.statements import read_statements, stated_platform
from macml.probe.paste.text import clean_lines, journal_lines
from macml.probe.snapshot import FORMAT_VERSION

# Most specific first: a later finder's part that overlaps lines already claimed is dropped
# (the lscpu and pip lines inside collect_env belong to collect_env).
FINDERS = (
    collect_env.find, gpu.find_nvidia_table, gpu.find_rocm_smi, gpu.find_rocm_product_rows, mac.find_system_profiler_json,
    mac.find_sw_vers, mac.find_system_overview, mac.find_sysctl, system.find_os_release, system.find_uname, cpu.find, cpu.find_proc_cpuinfo,
    general_rules.find_flag_lines,
    gpu.find_nvidia_csv, gpu.find_nvidia_list, gpu.find_rocm_csv, gpu.find_rocm_driver_csv, gpu.find_rocminfo, gpu.find_rocm_concise, mac.find_metal_banner,
    mac.find_applegpuinfo, mac.find_system_profiler_text, packages.find,
    avx_prose_rules.find,  # last: the writer's own words about AVX, where no flag list is pasted
)
JSON_KEY, TEXT_KEY = " ".join(PROFILER_JSON), " ".join(PROFILER_TEXT)
Text = Union[str, Tuple[str, str]]  # the text, or (source name, text)


def find_parts(text: str) -> List[Part]:
    return find_parts_in(clean_lines(text))


def find_parts_in(lines: List[str]) -> List[Part]:
    claimed: set = set()
    found: List[Part] = []
    for finder in FINDERS:
        try:
            parts = finder(lines)
        except Exception as exc:  # a detector bug must not lose the other shapes' evidence
            parts = [Part("unreadable", 1, len(lines), notes=[f"{finder.__module__}.{finder.__name__}: {exc!r}"])]
        for part in parts:
            span = set(range(part.start, part.end + 1))
            if part.shape != "unreadable" and 2 * len(span & claimed) > len(span):
                continue
            claimed |= span
            found.append(part)
    return sorted(found, key=lambda p: p.start)


def _merge_query(old: str, new: str) -> str:
    """nvidia-smi query rows from two pastes: fill each GPU's empty cells from the other."""
    rows = [[c.strip() for c in line.split(",")] for line in old.splitlines() if line.strip()]
    for index, line in enumerate(l for l in new.splitlines() if l.strip()):
        cells = [c.strip() for c in line.split(",")]
        if index >= len(rows):
            rows.append(cells)
        else:
            rows[index] = [a or b for a, b in zip(rows[index], cells)]
    return "\n".join(", ".join(row) for row in rows) + "\n"


def _merge_json(old: str, new: str) -> str:
    merged = dict(mac.close_json(old) or {})
    for key, value in (mac.close_json(new) or {}).items():
        merged.setdefault(key, value)
    return json.dumps(merged, indent=2) + "\n"


def _add_command(commands: Dict[str, str], key: str, stdout: str, notes: List[str], where: str) -> None:
    old = commands.get(key)
    if old is None or old == stdout:
        commands[key] = stdout
    elif key == QUERY_KEY:
        commands[key] = _merge_query(old, stdout)
    elif key == JSON_KEY:
        commands[key] = _merge_json(old, stdout)
    elif key == TEXT_KEY:
        commands[key] = old + "\n" + stdout
    else:
        notes.append(f"conflict: `{key}` from {where} differs from an earlier paste; kept the first")


def _platform(parts: Sequence[Part], notes: List[str], statements: Sequence[Dict[str, Any]]) -> Optional[str]:
    stated = [p.platform for p in parts if p.platform and p.shape == "collect_env"]
    votes = stated or [p.platform for p in parts if p.platform]
    wsl = any(s.get("fact") == "os.wsl" and s.get("value") for s in statements)
    if wsl and not stated and votes and all(p.shape.startswith("nvidia") for p in parts if p.platform) \
            and stated_platform(statements) == "linux":
        notes.append("platform: a WSL guest, whose nvidia-smi reports the Windows host's driver")
        return "linux"
    if not votes and stated_platform(statements):
        return stated_platform(statements)
    if not votes:
        if any(p.shape.startswith(("nvidia", "rocm")) for p in parts) or any(
                s.get("fact") in ("gpu.driver", "gpu.cuda_driver") and re.search(r"NVIDIA|CUDA|Driver Version|libcuda", str(s.get("text")))
                or s.get("fact") == "gpu" and s["value"].get("vendor") == "NVIDIA"
                or s.get("fact") == "gpu.named" and s["value"] == "NVIDIA Graphics Device"  # the driver's own name
                or s.get("fact") == "gpu.capability" and gpu_vendor(str(s["value"].get("name") or "")) == "NVIDIA"
                for s in statements):
            notes.append("platform: the pastes name no OS; GPU tool output read as Linux")
            return "linux"
        instinct = next((s["value"]["name"] for s in statements if s.get("fact") == "gpu"
                         and linux_only_gpu(str(s["value"].get("name") or ""))), None)
        if instinct:
            notes.append(f"platform: the pastes name no OS; {instinct} has drivers for Linux only")
            return "linux"
        return None
    choice = max(sorted(set(votes)), key=votes.count)
    others = sorted(set(votes) - {choice})
    if others:
        notes.append(f"conflict: pastes point to {choice} and {', '.join(others)}; read as {choice}")
    return choice


def import_pastes(texts: Sequence[Text]) -> Dict[str, Any]:
    """Pasted texts (or (source, text) pairs) -> a version-1 snapshot with an `evidence` list.

    `platform` is None when no paste tells the OS (the caller decides what to do)."""
    commands: Dict[str, str] = {}
    interpreter: Dict[str, Any] = {}
    package_list: Dict[str, str] = {}
    frameworks: Dict[str, Dict[str, Any]] = {}
    cpuinfo: Dict[str, Any] = {}
    evidence: List[Dict[str, Any]] = []
    notes: List[str] = []
    all_parts: List[Part] = []
    statements: List[Dict[str, Any]] = []
    stated_evidence: List[Dict[str, Any]] = []
    for number, item in enumerate(texts, 1):
        source, text = item if isinstance(item, tuple) else (f"paste {number}", item)
        lines = clean_lines(str(text or ""))
        stated = read_statements(lines, journal_lines(str(text or "")))
        statements += [s.to_json(source) for s in stated]
        if stated:
            stated_evidence.append({"source": source, "shape": "statements", "lines": [stated[0].line, stated[-1].line],
                             "gave": sorted({s.fact for s in stated})})
        for part in find_parts_in(lines):
            where = f"{source} lines {part.start}-{part.end}"
            all_parts.append(part)
            for key, stdout in part.commands.items():
                _add_command(commands, key, stdout, notes, where)
            for key, value in part.interpreter.items():
                if key != "packages":
                    interpreter.setdefault(key, value)
            for name, version in part.packages.items():
                package_list.setdefault(name, version)
            for name, data in part.frameworks.items():
                frameworks.setdefault(name, data)
            if part.cpu_flags and not cpuinfo:
                cpuinfo = {"flags": part.cpu_flags, "source": part.shape}
            notes.extend(f"{where}: {note}" for note in part.notes)
            evidence.append({"source": source, "shape": part.shape, "lines": [part.start, part.end],
                             "gave": sorted(part.commands) + sorted(
                                 {"interpreter" for _ in part.interpreter} | {"packages" for _ in part.packages}
                                 | {f"frameworks.{n}" for n in part.frameworks}
                                 | ({"cpuinfo"} if part.cpu_flags else set()))})
    evidence.extend(stated_evidence)  # after the whole outputs: they come first, statements fill in
    if package_list:
        interpreter["packages"] = package_list
        if any(p.shape in ("pip_list", "pip_freeze", "conda_list") for p in all_parts):
            interpreter["packages_complete"] = True
    snapshot: Dict[str, Any] = {
        "macml_snapshot": FORMAT_VERSION,
        "platform": _platform(all_parts, notes, statements),
        "commands": {key: {"returncode": 0, "stdout": stdout, "stderr": ""} for key, stdout in sorted(commands.items())},
        "interpreter": interpreter,
        "frameworks": frameworks,
        "env": {},
        "evidence": evidence,
        "import_notes": notes,
        "statements": statements,
    }
    if cpuinfo:
        snapshot["cpuinfo"] = cpuinfo
    return snapshot
