"""Every recorded machine, diagnosed through the real CLI (`macml doctor --from FILE --json`)."""
import json

import pytest

from conftest import load_json, lookup, machine_files, run_macml

MACHINES = machine_files()


@pytest.fixture(scope="module", params=MACHINES, ids=[p.stem for p in MACHINES])
def diagnosis(request):
    result = run_macml("doctor", "--from", str(request.param), "--json")
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    return load_json(request.param), json.loads(result.stdout), result.returncode


def test_expected_facts(diagnosis):
    fixture, report, _ = diagnosis
    for path, expected in fixture["expect"].get("facts", {}).items():
        assert lookup(report["facts"], path) == expected, path


def test_expected_findings(diagnosis):
    fixture, report, _ = diagnosis
    levels = {f["check"]: f["level"] for f in report["findings"]}
    for check, level in fixture["expect"].get("findings", {}).items():
        assert levels.get(check) == level, f"{check}: expected {level}, got {levels.get(check)}"
    for check in fixture["expect"].get("not_findings", []):
        assert levels.get(check) not in ("warn", "fail"), f"{check} fired: {levels.get(check)}"


def test_exit_code_follows_failures(diagnosis):
    _, report, code = diagnosis
    failing = any(f["level"] == "fail" for f in report["findings"])
    assert code == (1 if failing else 0) == report["exit_code"]


def test_every_problem_has_a_fix(diagnosis):
    _, report, _ = diagnosis
    for finding in report["findings"]:
        if finding["level"] in ("warn", "fail"):
            assert finding["fix"] and finding["fix"]["text"], finding


@pytest.mark.parametrize("path", MACHINES[:1], ids=lambda p: p.stem)
def test_text_checklist_renders(path):
    result = run_macml("doctor", "--from", str(path), "-v")
    assert result.returncode in (0, 1)
    assert "macml doctor" in result.stdout
    assert "replayed from snapshot" in result.stdout
