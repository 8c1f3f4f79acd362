"""What a pasted file holds, before any shape is looked for: bytes in whatever encoding the user's
tool wrote (UTF-16 from PowerShell's `>`, UTF-8 with a BOM, Latin-1), CRLF line ends, terminal colour
codes, and Markdown dressing ("> " quotes, code fences, <details>). `clean_lines` returns the lines
as the tool printed them, one for one with the file's lines, so line numbers stay the file's own.
"""
from __future__ import annotations

import codecs
import itertools
import re
from typing import FrozenSet, List

from macml.probe.paste.base import runs

# ESC [ ... final byte (CSI), ESC ] ... BEL/ST (OSC), other two-byte ESC sequences, and the visible
# remnants a copy from a web page leaves when the ESC itself was lost ("[0m", "[1;32m").
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\[(?:\d{1,3};)*\d{1,3}m")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]")
_QUOTE = re.compile(r"^\s{0,3}(?:>\s?)+")
_FENCE = re.compile(r"^\s*(?:```|~~~)[\w+-]*\s*$")
# the keys neofetch / fastfetch print beside their ASCII logo ('  ((((((//*,,,,,,,,,......  Kernel: Linux 6.18 ...')
_FETCH_KEYS = (r"(?:OS|Host|Kernel|Uptime|Packages|Shell|Display \([^)]*\)|Resolution|DE|WM|WM Theme|Theme|Icons|Font|"
               r"Cursor|Terminal|Terminal Font|CPU|GPU|Memory|Swap|Disk \([^)]*\)|Local IP \([^)]*\)|Battery|Locale)")
# A logger's prefix before each line ("07/10 16:07:35 - mmengine - INFO - ", "2026-01-14T14:19:07.42 - ").
_LOG_PREFIX = re.compile(r"^\s*\[?\d{1,4}[-/]\d{1,2}(?:[-/]\d{2,4})?[ T]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\]?"
                         r"(?:\s*[-|]\s*(?:INFO|DEBUG|WARNING|WARN|ERROR|CRITICAL)\s*[-|]\s*[\w.]+(?=\s*[-|]\s)"  # '- INFO - separator -'
                         r"|(?:\s*[-|]\s*[\w.]+)?(?:\s*[-|]\s*(?:INFO|DEBUG|WARNING|WARN|ERROR|CRITICAL))?)\s*[-|:]\s"
                         r"|^\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} \([\w.]+\.py\) \(Line \d+\) \[(?:INFO|DEBUG|WARNING|ERROR|CRITICAL)\] : "
                         # Demucs GUI's log: '2024-05-21 18:23:42,161 (GuiMain.py) (Line 2049) [INFO] : '
                         r"|^\s*\d{1,2}:\d{2}:\d{2}, Frame \d+, (?:LOG|WARNING|ERROR|EXCEPTION) \u00bb\s+"  # a Unity game's log
                         r"|^\s*`?\d{1,2}:\d{2}:\d{2}\.\d{3}: (?=\S)"  # OBS Studio's log: '16:50:34.899: OS Version: ...'
                         r"|^\s*\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[-+]\d{2}(?::?\d{2})? \S+ [\w.-]+\[\d+\]: (?=\S)"  # macOS install.log
                         r"|^\s*\[\d{1,2}:\d{2}:\d{2}(?:\.\d{3})?\]\s+(?=\S)"  # a bracketed time: '[15:57:29.160] ℹ️ OS: ...'
                         r"|^\s*\++ string='(?=[A-Za-z][\w ]{0,30}: )"  # `bash -x neofetch`: + string='GPU: ...'
                         r"|^\s*\[(?i:info|warning|warn|error|debug)\] (?=\S)"  # libobs's '[Info] CPU Name: ...', ComfyUI's '[INFO] ...'
                         r"|^\s*\[[A-Z][\w.-]* (?:INFO|DEBUG|WARN|WARNING|ERROR)\]\s+"
                         r"|^\s*(?:INFO|DEBUG|WARNING|ERROR|CRITICAL):root:(?=\S)"  # Python logging's default: 'INFO:root:'
                         r"|^[a-z][\w.-]*?[-_]\d{1,2}\s+\|\s(?=\s*\S)"  # docker compose's service column: 'tabby_1  | '
                         r"|^[^\t]*?\S\s{2,}(?=" + _FETCH_KEYS + r": \S)")  # a fetch tool's logo column before its lines
# (a named logger's prefix is kept: 'INFO:plaidml:' says which library logged)  # '[Crystools INFO] NVIDIA Driver: 540.4.0'
# syslog / journalctl: 'Feb 21 13:31:11 host ollama[285585]: ' (any language's month)
_JOURNAL_PREFIX = re.compile(r"^\s*(?!\[)(?:\S{1,12}|\S{1,4}\s+\S{1,6})\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s+\S+\s+[\w.@-]+(?:\[\d+\])?:\s")  # "de des. 03": a month in two words (Catalan)
# (dmesg -T's '[Sun May 17 15:55:50 2026] NVRM: ...' is a kernel line with its date in brackets, not a journal line)
# one quoted 'key: value' line in a paste that is not quoted as a whole ('>PyTorch version: 1.9.0', Markdown's lazy
# continuation quotes the lines after it): the quote mark is not part of the key
_QUOTED_KEY = re.compile(r"^\s*>\s?(?=[A-Za-z][\w .()/-]{0,60}:\s)")
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"  # kana, CJK ideographs, Hangul
_CJK_THEN_LATIN = re.compile(f"([{_CJK}])([A-Za-z0-9])")
_LATIN_THEN_CJK = re.compile(f"([A-Za-z0-9])([{_CJK}])")
# a tree's drawing before its items ('├── OS: Ubuntu 26.04 LTS', '│   └── iGPU: AMD Radeon 780M'), as tree-style
# hardware summaries and `tree` print them
_TREE_PREFIX = re.compile(r"^[ \t│|]*[├└`]──\s?")
_HTML_WRAPPER = re.compile(r"^\s*</?(?:details|summary|pre|code)\b[^>]*>", re.IGNORECASE)
# the node or rank a parallel launcher puts before each line of output (pdsh's 'node01: ', a batch log's
# 'nid005113 out: ', torchrun's '[rank0]: ', srun --label's '0: '): a name with a digit in it, or a stream word
_NODE_PREFIX = re.compile(r"^(?:[A-Za-z][\w.-]*\d[\w.-]*(?:\s(?:out|err|stdout|stderr))?|[A-Za-z][\w.-]*\s(?:out|err|stdout|stderr)"
                          r"|\[rank\d{1,4}\]|\d{1,4}):\s")


def decode_paste(data: bytes) -> str:
    """Bytes -> text: a BOM names the encoding; UTF-16 without one shows as every other byte NUL;
    otherwise UTF-8, and bytes that are not UTF-8 are read as Latin-1 (never an error)."""
    for bom, encoding in ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
                          (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                          (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(encoding, errors="replace")
    sample = data[:4096]
    if len(sample) >= 4 and sample[1::2].count(0) > len(sample) // 4 and sample[0::2].count(0) < len(sample) // 16:
        return data.decode("utf-16-le", errors="replace")
    if len(sample) >= 4 and sample[0::2].count(0) > len(sample) // 4 and sample[1::2].count(0) < len(sample) // 16:
        return data.decode("utf-16-be", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def strip_terminal_codes(line: str) -> str:
    """'\\x1b[32mOK\\x1b[0m' -> 'OK': colour and cursor sequences and stray control characters."""
    return _CONTROL.sub("", _ANSI.sub("", line))


def _quoted(lines: List[str]) -> bool:
    """Markdown-quoted: most non-blank lines start with '>' (a shell's '> ' prompt line is rare)."""
    filled = [line for line in lines if line.strip()]
    return len(filled) >= 2 and sum(1 for line in filled if _QUOTE.match(line)) * 4 >= len(filled) * 3


_ONE_QUOTE = re.compile(r"^\s{0,3}>(?!>)")  # not a REPL's '>>>' nor PowerShell's '>>'


def _unquoted_lines(text: str) -> List[str]:
    """Without Markdown's quote marks: on every line where most of the text is quoted, else on each run of three or
    more quoted lines (a quoted block among unquoted ones, or inside a fence a later copy put around it)."""
    lines = [strip_terminal_codes(line) for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    if _quoted(lines):
        return [_QUOTE.sub("", line, count=1) for line in lines]
    kept = list(lines)
    for first, last in runs(lines, _ONE_QUOTE.match):
        if last - first >= 2:
            kept[first:last + 1] = [_QUOTE.sub("", line, count=1) for line in lines[first:last + 1]]
    return kept


_SPACE_ENTITY = re.compile(r"&(?:ensp|emsp|nbsp|thinsp|#160|#8194|#8195);")


_APPLE_TIER = re.compile(r"\b((?:Apple )?M\d{1,2})(?: |\s{2,}(?=[PMU]))(pro|max|ultra|PRO|MAX|ULTRA|Pro|Max|Ultra)\b")  # 'M2  Ultra' too


_TEMPLATE_EXAMPLE = re.compile(r"\[\s*(?:e\.g\.|output of\b)[^\]]{0,120}\]|\(\s*e\.g\.[^)]{0,120}\)\s*(?=:)", re.IGNORECASE)


def _typed_forms(line: str) -> str:
    """A line's hand-typed spellings in the forms the rules read (after colour codes and quoting are gone)."""
    line = _APPLE_TIER.sub(lambda m: f"{m.group(1)} {m.group(2).title()}", line)  # 'my Apple M1 pro': the tier as Apple writes it
    line = re.sub(r"(?<=[\w)])\\_(?=\w)", "_", line)  # Markdown's escaped underscore: 'metal_intel(r)\\_hd_graphics_530.0'
    line = re.sub(r"\bBigSur\b", "Big Sur", line)  # macOS 11's name run together
    line = re.sub(r"\bapple (?=M\d{1,2}\b)", "Apple ", line)  # 'on apple M1'
    line = re.sub(r"\b(M\d{1,2}) Ultral\b", r"\1 Ultra", line)  # a slip of the keys: 'Mac Studio M2 Ultral 192G'
    line = _TEMPLATE_EXAMPLE.sub("", line)  # an issue template's hint left in the answer: '[e.g. Mac OS 14.4.1, ...]'
    line = re.sub(r"(?<=\w)[\u2122\u00ae](?=[\s/,)]|$)", "", line)  # GNOME's 'GeForce RTX\u2122 4060', 'AMD\u00ae/ATI'
    return re.sub(r"(?<![\w.])0S(?= \d{1,2}\.\d)", "OS", line)  # 'OS' typed with a zero: '0S 26.5.2'


def clean_lines(text: str) -> List[str]:
    """The text's lines without line-end, colour codes, Markdown quoting, fences and HTML wrappers
    (each such line becomes blank, so numbering is unchanged)."""
    text = text.replace("\uff1a", ":")  # a full-width colon from a CJK input method: 'GPU 0： Tesla P100'
    text = _SPACE_ENTITY.sub(" ", text)  # GitHub's job summary indents with '&ensp;' as its raw Markdown keeps it
    # CJK prose glues Latin words to its characters ('本机是M1 8G Mac', 'M4运行'), and CJK characters count as word
    # characters to every rule's \b: a space between them lets each rule see the Latin word.
    text = _LATIN_THEN_CJK.sub(r"\1 \2", _CJK_THEN_LATIN.sub(r"\1 \2", text))  # 'MAC MINI M4运行comfyUI' too
    lines = [_TREE_PREFIX.sub("", _QUOTED_KEY.sub("", line, count=1), count=1) for line in _unquoted_lines(text)]
    lines = [_typed_forms(line) for line in lines]
    lines = _without_node_prefix([_JOURNAL_PREFIX.sub("", _LOG_PREFIX.sub("", line, count=1), count=1) for line in lines])
    return ["" if _FENCE.match(line) or _HTML_WRAPPER.match(line) and not _HTML_WRAPPER.sub("", line).strip()
            else _HTML_WRAPPER.sub("", line) for line in lines]


def _node_prefix(line: str) -> str:
    found = _NODE_PREFIX.match(line)
    return found.group() if found else ""


def _without_node_prefix(lines: List[str]) -> List[str]:
    """Lines whose run of three or more shares one launcher's prefix ('nid005113 out: '), without it."""
    kept: List[str] = []
    for prefix, group in itertools.groupby(lines, key=_node_prefix):
        block = list(group)
        kept += [line[len(prefix):] for line in block] if prefix and len(block) >= 3 else block
    return kept


def journal_lines(text: str) -> FrozenSet[int]:
    """0-based numbers of the lines that carried a syslog/journal prefix, which clean_lines drops."""
    return frozenset(index for index, line in enumerate(_unquoted_lines(text))
                     if _JOURNAL_PREFIX.match(_LOG_PREFIX.sub("", line, count=1)))
