"""One reading of version numbers from outside: ASCII digits only."""
import pytest

from macml import versions


@pytest.mark.parametrize("text, expected", [
    ("14.4.1", (14, 4, 1)), ("3.13.0rc1", (3, 13)), ("550.54.15", (550, 54, 15)), ("12", (12,)),
    ("", ()), (None, ()), ("unknown", ()), ("¹.2", ()), ("14.¹", (14,)), ("٣.1", ()),
], ids=["macos", "pre-release", "driver", "major-only", "empty", "none", "word", "superscript",
        "superscript-minor", "arabic-indic-digit"])
def test_release(text, expected):
    assert versions.release(text) == expected


@pytest.mark.parametrize("text, expected", [("16", 16), ("¹", None), (" 16", None), ("", None), (None, None)],
                         ids=["digits", "superscript", "space", "empty", "none"])
def test_number(text, expected):
    assert versions.number(text) == expected


@pytest.mark.parametrize("text, expected", [("2.5.1+cu121", "2.5.1"), ("2.13.0", "2.13.0"), ("nightly", None), ("", None)],
                         ids=["local-dropped", "plain", "not-a-version", "empty"])
def test_package(text, expected):
    found = versions.package(text)
    assert (str(found) if found else None) == expected
