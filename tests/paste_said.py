"""What macml makes of a literal pasted text, for the per-round reader tests: the facts, one line's statements, the
checks' levels and the recommended recipe."""
from macml.diagnose import run_checks
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste.statements import read_statements
from macml.recipes.catalog import load_all
from macml.recipes.recommend import recommendation


def facts_of(text):
    return facts_from_snapshot(import_pastes([text]))


def said_by(line):
    """(fact, value) for each statement one line makes on its own."""
    return [(s.fact, s.value) for s in read_statements([line])]


def check_levels(text):
    return {f.check: f.level for f in run_checks(facts_of(text), load_all())}


def recommended_for(text):
    found = recommendation(facts_of(text), load_all())
    return found.recipe if found else None
