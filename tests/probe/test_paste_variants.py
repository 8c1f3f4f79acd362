"""The same paste, dressed the ways people paste it (UTF-16 from PowerShell's `>`, UTF-8 with a BOM and
CRLF, Markdown-quoted, fenced, inside <details>, coloured by the terminal), concludes what the clean
text concludes, for every real capture."""
from __future__ import annotations

import codecs
import functools
from pathlib import Path

import pytest

from capture_yardstick import captures_in, score_capture
from macml.probe.paste.text import clean_lines, decode_paste, journal_lines
from macml.recipes.catalog import load_all

CAPTURES = [p for p in captures_in(Path(__file__).resolve().parents[1] / "captures")
            if not p.stem.endswith(("-utf16", "-crlf-bom"))]
RECIPES = load_all()


def _lines(text: str):
    return text.replace("\r\n", "\n").split("\n")


VARIANTS = {
    "utf16-crlf": lambda t: codecs.BOM_UTF16_LE + t.replace("\n", "\r\n").encode("utf-16-le"),
    "utf8-bom-crlf": lambda t: codecs.BOM_UTF8 + t.replace("\n", "\r\n").encode("utf-8"),
    "quoted": lambda t: "\n".join("> " + line if line else ">" for line in _lines(t)).encode("utf-8"),
    "fenced": lambda t: ("```text\n" + t + "\n```\n").encode("utf-8"),
    "details": lambda t: ("<details>\n<summary>Environment</summary>\n\n```\n" + t + "\n```\n</details>\n").encode(),
    "ansi": lambda t: "\n".join(f"\x1b[1;32m{line}\x1b[0m" if line else line for line in _lines(t)).encode("utf-8"),
}


def verdicts(path: Path):
    score = score_capture(path, RECIPES)
    return {c.name: c.right for c in score.conclusions}


@functools.lru_cache(maxsize=None)
def clean_verdicts(path: Path):
    """The clean capture's verdicts, worked out once for all six variants."""
    return verdicts(path)


def what_the_reader_sees(text: str):
    """A paste's lines once encoding, line ends, colour codes and quoting are gone, and which carried a journal
    prefix: all that the import reads of a text that is not a snapshot. Two texts that agree here conclude alike."""
    return clean_lines(text), journal_lines(text)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_capture_concludes_the_same_however_it_is_pasted(variant, tmp_path):
    differ = []
    for path in CAPTURES:
        text = decode_paste(path.read_bytes())
        dressed_bytes = VARIANTS[variant](text)
        if what_the_reader_sees(decode_paste(dressed_bytes)) == what_the_reader_sees(text):
            continue  # the same input to every rule: the conclusions cannot differ, so they need not be scored again
        dressed = tmp_path / path.name
        dressed.write_bytes(dressed_bytes)
        dressed.with_suffix(".json").write_bytes(path.with_suffix(".json").read_bytes())
        clean, other = clean_verdicts(path), verdicts(dressed)
        if clean != other:
            differ.append(f"{path.stem}: " + ", ".join(k for k in clean if clean[k] != other.get(k)))
    assert not differ, "\n".join(differ)
