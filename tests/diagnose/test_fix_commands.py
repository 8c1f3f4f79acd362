"""Every `macml install --recipe NAME` a fix prints names a shipped recipe, on every recorded machine
and real capture: checks ask recipe_for(facts, framework) instead of spelling recipe names."""
import re

import pytest

from conftest import load_json, machine_files
from capture_yardstick import captures_in, read_capture
from macml.diagnose import run_checks
from macml.probe.collect import facts_from_snapshot
from macml.recipes import catalog

RECIPES = catalog.load_all()
SHIPPED = {r.name for r in RECIPES}
CAPTURES = captures_in(machine_files()[0].parents[1] / "captures")
NAMED = re.compile(r"macml install --recipe (\S+)")


def recipe_names(findings):
    return {name for f in findings if f.fix for command in f.fix.commands for name in NAMED.findall(command)}


@pytest.mark.parametrize("path", machine_files(), ids=[p.stem for p in machine_files()])
def test_fixes_on_recorded_machines_name_shipped_recipes(path):
    facts = facts_from_snapshot(load_json(path))
    assert recipe_names(run_checks(facts, RECIPES)) <= SHIPPED


def test_fixes_on_real_captures_name_shipped_recipes():
    named = set()
    for path in CAPTURES:
        try:
            named |= recipe_names(read_capture(path, RECIPES).findings)
        except Exception:  # a capture macml refuses has no findings to check
            continue
    assert named and named <= SHIPPED, sorted(named - SHIPPED)


def test_a_renamed_recipe_is_what_the_fixes_name():
    """Names come from the recipe data: rename pytorch-cuda and the CUDA fix follows."""
    import dataclasses

    renamed = tuple(dataclasses.replace(r, name="torch-on-nvidia") if r.name == "pytorch-cuda" else r for r in RECIPES)
    path = next(p for p in machine_files() if p.stem == "linux-nvidia-cpu-torch")
    facts = facts_from_snapshot(load_json(path))
    assert "torch-on-nvidia" in recipe_names(run_checks(facts, renamed))
