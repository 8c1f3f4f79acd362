"""Whether a line's words state a fact about the writer's own machine, or only mention it: one place for the
tests that line readers share, so each reader asks the same questions the same way.

A reader finds its fact at some place in a line, then asks:
- `negated(before)`: is it denied ('I don't have an NVIDIA GPU', 'unlike the M1', 'instead of CUDA')?
- `hypothetical(line)`: is the line a question, a condition, a wish or advice ('Will this work on a 5700G based PC?',
  'If this machine has an RTX 4090, use cu124', 'You need at least an M2 Max', 'I am thinking of buying ...')?
- `someone_elses(text)`: is it another person's or another machine's ('my colleague's M2', 'users on Linux',
  'in the paper', 'on our CI runners', 'my previous machine' (a Colab or cloud runtime the writer
  pastes from is theirs), 'on a different machine')?
- `contrasted_after(after)`: does the rest of the line turn to the writer's real machine ('..., but fails on my Mac',
  '..., now I use a Windows PC', '... before I switched to Linux'), or say the machine is gone ('... was stolen')?
- `compared(before)`: is it a yardstick ('about as fast as a jetson nano', 'faster than an M1')?
`mentioned_only(line, start, end)` asks all five about the fact found at line[start:end].
`writers_os(text)` names the OS the words give the writer's own machine ('I am on Windows', 'my laptop is a Mac'),
for a reader of one OS to set aside a line that gives the writer another.
"""
from __future__ import annotations

import re
from typing import Optional

NEGATION = re.compile(r"\b(?:not|never|no longer|without|unlike|instead|rather than|except|other than)\b|n't\b",
                      re.IGNORECASE)
_NEGATION_REACH = 30  # characters before a fact that a denial of it sits in ('I don't have an', 'unlike the')
# a program failing to see a device ('nvitop could not well detect jetson orin nano', "doesn't recognize my"): the
# device is there; only the program's view of it is denied
_MISSED_BY_A_TOOL = re.compile(r"\b(?:could|can|does|did|do|will)(?:\s+not|n't)\s+(?:\w+\s+)?(?:detect|recogni[sz]e|find|see)"
                               r"\s+(?:the\s+|my\s+|our\s+|this\s+)?$|\bfail(?:s|ed)?\s+to\s+(?:detect|recogni[sz]e|find)\s+"
                               r"(?:the\s+|my\s+)?$", re.IGNORECASE)


def denied_before(before: str) -> bool:
    """A denial in the words before a fact, but not a program's failure to detect it (see _MISSED_BY_A_TOOL)."""
    return bool(NEGATION.search(before)) and not _MISSED_BY_A_TOOL.search(before)

HYPOTHETICAL = re.compile(
    r"(?:^|[.!?;]\s+)\s*(?:will|would|does|do|did|can|could|is|are|has|have|should|how|what|which|why)\b(?:[^.!?]|\.(?=\S))*\?"
    r"|^\s*(?:will|would|does|do|can|could|is|are|has|have|should)\s+(?:it|this|that|a|an|the|my|I|anyone|someone)\b"
    r"|\b(?:if|whether|unless|ideally|make\s+sure|in\s+case|suppose|assuming)\b"
    r"|\b(?:you|one)\s+(?:need|needs|must|should|might|may|can|could)\b|\b(?:need|require|requires|required)\s+(?:at\s+least|a|an)\b"
    r"|\b(?:recommended|minimum|minimal|requirements?)\b(?!\.txt)"
    r"|\b(?:buying|buy|purchase|purchasing|considering|thinking\s+(?:of|about)|planning\s+(?:to|on)|would\s+like|wish|hope)\b"
    r"|\b(?:anyone|anybody|someone|somebody)\s+(?:tried|tested|using|with|has|have|had|run|ran)\b",
    re.IGNORECASE)

SOMEONE_ELSES = re.compile(
    r"\b(?:friend|colleague|coworker|co-worker|brother|sister|wife|husband|boss|teammate|customer|client|user)'?s\b"
    r"|\b(?:users?|others|other\s+people|people|someone|somebody|they|he|she)\s+(?:on|with|who|report|reported|get|gets|see|sees|say|says|have|has)\b"
    r"|\b(?:reported|reproduced)\s+(?:by|on)\s+(?:others|users|someone)\b|\bby\s+others\b"
    r"|\bin\s+(?:the|their|this)\s+(?:paper|benchmark|blog|article|docs|documentation|README|table|video)\b"
    r"|\b(?:the\s+)?(?:paper|benchmark\s+above|docs|documentation|README)\s+(?:says|uses|lists|used)\b"
    r"|\bCI\b|\b(?:CI|GitHub|GitLab|self-hosted)\s+runners?\b|\brunners?\s+(?:image|machine)\b"
    r"|\b(?:a|another|a\s+different|other|second|separate)\s+(?:machine|computer|box|PC|laptop|server|host)\b"
    r"|\b(?:my|our|an?|the)\s+(?:old|previous|former|last|prior)\s+(?:\w+\s+){0,2}?(?:machine|computer|box|PC|laptop|server|Mac|MacBook|iMac|CPU|GPU|card|one)\b"
    r"|\bused\s+to\s+(?:run|use|have|own)\b",
    re.IGNORECASE)

CONTRASTED_AFTER = re.compile(
    r"\b(?:but|however|whereas|while)\b[^.;]{0,60}\b(?:fails?|failing|crash(?:es)?|errors?|broken|doesn't|does\s+not|"
    r"on\s+(?:my|our|this)|I\s+(?:get|see|have|am|'m|use))\b"
    r"|\bnow\s+(?:I|we)\s+(?:use|have|run|am|'m)\b|\bbefore\s+(?:I|we)\s+(?:switched|moved|changed|upgraded)\b"
    r"|\b(?:mine|my\s+own)\s+is\b|\bI\s+(?:am|'m)\s+on\s+(?!the\s+same\b)"
    r"|^[^.;]{0,30}?\b(?:was|got|has\s+been)\s+(?:stolen|lost|sold|replaced|retired)\b",  # a machine the writer no longer has
    re.IGNORECASE)


# a thing the writer measures their machine against: 'about as fast as a jetson nano', 'faster than an M1'
COMPARED = re.compile(r"\b(?:as\s+(?:fast|slow|quick|good|powerful|strong|capable)\s+as|(?:faster|slower|quicker|better|worse|"
                      r"stronger|weaker|cheaper)\s+than|compared\s+(?:to|with)|similar\s+to|equivalent\s+to|comparable\s+to|"
                      r"on\s+par\s+with|versus|vs\.?)\s+(?:an?\s+|the\s+|my\s+)?$", re.IGNORECASE)


def compared(before: str) -> bool:
    """The words just before a fact hold it up as a yardstick ('as fast as a'), not as the writer's machine."""
    return bool(COMPARED.search(before[-40:]))


def negated(before: str) -> bool:
    """A denial in the words just before a fact."""
    return bool(NEGATION.search(before[-_NEGATION_REACH:]))


def hypothetical(line: str) -> bool:
    return bool(HYPOTHETICAL.search(line))


def someone_elses(text: str) -> bool:
    return bool(SOMEONE_ELSES.search(text))


def contrasted_after(after: str) -> bool:
    return bool(CONTRASTED_AFTER.search(after))


# a chip named as the label of others' results: 'the table had M5 Max 128 GB rows but no base M3'
_RESULTS_OF = re.compile(r"^\W{0,3}(?:\d{1,3}\s?GB\s+)?(?:rows?|results?|entries|data\s?points?|numbers|benchmarks?|scores?)\b",
                         re.IGNORECASE)


def labels_results(after: str) -> bool:
    """Do the words after a machine's name make it the label of results ('M5 Max 128 GB rows')?"""
    return bool(_RESULTS_OF.match(after))


def sentence_at(line: str, start: int, end: int) -> str:
    """The sentence holding line[start:end]: 'I have an M1 with 16GB, will it work?' is one, 'Will it work? I have
    an RTX 3090.' two."""
    begin = max((m.end() for m in re.finditer(r"[.!?;]\s+", line[:start])), default=0)
    stop = re.search(r"[.!?](?:\s|$)", line[end:])
    return line[begin:end + stop.end() if stop else len(line)]


def mentioned_only(line: str, start: int, end: int) -> bool:
    """The fact at line[start:end] is mentioned, not stated about the writer's machine."""
    before, after = line[:start], line[end:]
    return (negated(before) or compared(before) or hypothetical(sentence_at(line, start, end)) or someone_elses(before)
            or someone_elses(after[:40]) or contrasted_after(after))


WRITERS_OS = re.compile(
    r"\b(?:I'm|I\s+am|we're|we\s+are|I\s+use|I'm\s+using|I\s+am\s+using|I\s+have|on\s+my|"
    r"my\s+(?:\w+\s+){0,2}?(?:is|runs?|question\s+is|problem\s+is|issue\s+is))"
    r"\s+(?:on\s+|using\s+|running\s+|about\s+)?(?:an?\s+|the\s+)?"
    r"(?:(?P<mac>macOS|Mac(?:Book|\s*mini|\s+Studio|\s+Pro)?|iMac|OS\s*X)|(?P<win>Windows|Win\s?1[01])|(?P<linux>Linux))\b",
    re.IGNORECASE)


def writers_os(text: str) -> Optional[str]:
    """'..., I am on Windows' -> 'win32'; 'my laptop is a Mac' -> 'darwin'; None where the words give no OS."""
    found = WRITERS_OS.search(text)
    if not found:
        return None
    return "darwin" if found.group("mac") else "win32" if found.group("win") else "linux"


_ADVICE = re.compile(r"\b(?:if|unless|recommend(?:s|ed)?|suggest(?:s|ed)?|instead|should)\b", re.IGNORECASE)


def only_advised(line: str, version: str) -> bool:
    """Every sentence of the line that gives this version is a condition or advice, not what is installed: 'if use
    `conda install tensorflow=2.9.1`, the specified TensorFlow version 2.9.1 may be too old ... Instead we recommend
    `pip install tensorflow==2.15.0`'."""
    conflict = _RESOLVER_CONFLICT.search(line)  # pip: 'X 0.0.5 requires jax==0.4.20, but you have jax 0.5.0 ...'
    if conflict and version in re.findall(r"[=<>~!]=?\s*(\d[\w.]*)", conflict.group(1)):
        return True
    sentences = [s for s in re.split(r"(?<=[.;!?])\s+", line) if re.search(r"(?<![\w.])" + re.escape(version) + r"(?![\w])", s)]
    return bool(sentences) and all(_ADVICE.search(s) for s in sentences)


# pip's resolver report: the requirement after 'requires' is what the package wants, 'you have' what is installed
_RESOLVER_CONFLICT = re.compile(r"\brequires\s+(\S+?),\s+but you have\s+\S+\s+\d")
