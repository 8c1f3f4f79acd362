"""`macml snapshot import FILE... -o snap.json`: pasted reports -> a version-1 snapshot."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional, Sequence

from rich.console import Console

from macml.probe.inputs import evidence_lines, load_inputs
from macml.probe.snapshot import save_snapshot


@dataclass(frozen=True)
class ImportReport:
    snapshot: Dict[str, Any]
    written_to: Optional[str]
    exit_code: int = 0

    def to_json(self) -> Dict[str, Any]:
        return {"written_to": self.written_to, "platform": self.snapshot.get("platform"),
                "evidence": evidence_lines(self.snapshot), "snapshot": self.snapshot}

    def render_text(self, console: Console, verbose: bool) -> None:
        if not self.written_to:
            print(json.dumps(self.snapshot, indent=2, sort_keys=True))
            return
        console.print(f"Snapshot ({self.snapshot.get('platform')}) written to {self.written_to}", markup=False)
        for line in evidence_lines(self.snapshot):
            console.print(f"  read: {line}", markup=False, highlight=False)


def run_import(files: Sequence[Path], output: Optional[Path]) -> ImportReport:
    snapshot = load_inputs(files).snapshot
    if output:
        save_snapshot(snapshot, output)
    return ImportReport(snapshot, str(output) if output else None)
