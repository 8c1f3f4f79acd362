"""What `--from FILE...` reads: macml snapshots, and any other text as pasted reports (by content)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Sequence

from macml.errors import MacmlError
from macml.paths import TooLarge, read_bounded
from macml.probe.paste import import_pastes
from macml.probe.paste.text import decode_paste
from macml.probe.snapshot import validate_snapshot

SHAPES_HINT = ("macml reads the OS and its version, the chip or CPU, the Mac model, GPUs and their driver, "
               "the Python version and installed packages from any text that states them: paste the output "
               "of `python -m torch.utils.collect_env`, or of uname -a / sw_vers / system_profiler "
               "SPHardwareDataType SPDisplaysDataType / nvidia-smi / lscpu / cat /etc/os-release / pip list.")


@dataclass(frozen=True)
class Inputs:
    snapshot: Dict[str, Any]
    label: str  # the file names, for the report


def _read(path: Path) -> str:
    try:
        return decode_paste(read_bounded(path))
    except TooLarge as exc:
        raise MacmlError(f"{exc}.", "Cut the file down to the pasted command outputs (collect_env, nvidia-smi, ...).") from None
    except OSError as exc:
        raise MacmlError(f"Cannot read snapshot or paste {path}: {exc.strerror or exc}.") from None


def _as_snapshot(text: str, path: Path) -> Any:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        if text.lstrip().startswith("{") and '"macml_snapshot"' in text:  # a damaged snapshot, not a paste
            raise MacmlError(f"{path} is not valid JSON ({exc}).",
                             "Is it a file written by macml doctor --save-snapshot?") from None
        return None
    return data if isinstance(data, dict) and "macml_snapshot" in data else None


def _fill(base: Dict[str, Any], pasted: Dict[str, Any]) -> Dict[str, Any]:
    """A snapshot, with what the pastes add where it says nothing (the snapshot wins)."""
    merged = dict(base)
    merged["commands"] = {**pasted.get("commands", {}), **base.get("commands", {})}
    merged["interpreter"] = {**pasted.get("interpreter", {}), **base.get("interpreter", {})}
    merged["frameworks"] = {**pasted.get("frameworks", {}), **base.get("frameworks", {})}
    if "cpuinfo" in pasted and "cpuinfo" not in base:
        merged["cpuinfo"] = pasted["cpuinfo"]
    merged["evidence"] = list(base.get("evidence") or []) + pasted.get("evidence", [])
    merged["import_notes"] = list(base.get("import_notes") or []) + pasted.get("import_notes", [])
    return merged


def load_inputs(paths: Sequence[Path]) -> Inputs:
    """One snapshot file loads as it always has; other files are imported as pastes, and
    several files merge (a snapshot first, pastes filling what it lacks)."""
    snapshots: List[Dict[str, Any]] = []
    pastes = []
    for path in paths:
        text = _read(path)
        data = _as_snapshot(text, path)
        if data is not None:
            snapshots.append(validate_snapshot(data, str(path)))
        else:
            pastes.append((Path(path).name, text))
    label = ", ".join(str(p) for p in paths)
    if len(snapshots) > 1:
        raise MacmlError("Give --from at most one macml snapshot (the other files may be pasted reports).")
    if not pastes:
        return Inputs(snapshots[0], label)
    pasted = import_pastes(pastes)
    if snapshots:
        return Inputs(_fill(snapshots[0], pasted), label)
    if not pasted["evidence"]:
        if any(text.lstrip().startswith("{") for _, text in pastes):
            raise MacmlError(f"{label} is not a macml snapshot (no 'macml_snapshot' key) nor a pasted report macml reads.",
                             "Make one with: macml doctor --save-snapshot FILE")
        raise MacmlError(f"Found nothing macml can read in {label} (not a snapshot, and no pasted output it knows).",
                         SHAPES_HINT)
    if pasted["platform"] is None:
        pasted["import_notes"].append("platform: nothing in the pastes says which OS the machine runs; "
                                      "what needs it stays unknown")
    return Inputs(pasted, label)


def evidence_lines(snapshot: Dict[str, Any]) -> List[str]:
    """'collect_env (issue.txt lines 3-40)', one per recognised paste, then the import notes."""
    lines = [f"{e.get('shape')} ({e.get('source')} lines {e.get('lines', ['?', '?'])[0]}-{e.get('lines', ['?', '?'])[-1]})"
             for e in snapshot.get("evidence") or [] if isinstance(e, dict)]
    return lines + [str(note) for note in snapshot.get("import_notes") or []]
