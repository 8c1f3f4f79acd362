"""What the readers state about a paste survives a snapshot: `--save-snapshot` writes the statements as JSON, and the
snapshot loader accepts every value type a reader emits (numbers, flags, records), so a snapshot of a paste re-imports."""
import json
from pathlib import Path

import pytest

from macml.probe.paste.statements import read_statements
from macml.probe.paste.text import clean_lines
from macml.probe.snapshot import statements_problem

CAPTURES = sorted((Path(__file__).resolve().parents[1] / "captures").glob("*.txt"))[::5]


@pytest.mark.parametrize("capture", CAPTURES, ids=[c.stem for c in CAPTURES])
def test_a_capture_s_statements_reload_from_json(capture):
    statements = read_statements(clean_lines(capture.read_text(encoding="utf-8", errors="replace")))
    as_json = json.loads(json.dumps([s.to_json(capture.name) for s in statements]))
    assert statements_problem(as_json) is None


def test_a_wrong_type_is_still_refused():
    assert "must be int" in statements_problem([{"fact": "cpu.cores", "value": "ten", "line": 1, "text": "x"}])
    assert "must be str or NoneType" in statements_problem([{"fact": "hypervisor", "value": 3, "line": 1, "text": "x"}])
