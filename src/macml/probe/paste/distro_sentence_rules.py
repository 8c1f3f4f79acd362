"""A Linux distribution named in a writer's sentence about their own machine, in the wordings distro_rules leaves out:

- 'in <distro>': 'I get this error when running PyTorch on an RTX 5090D in Ubuntu', 'I'm running it in Fedora 40'
  (not 'the package in Ubuntu's repo is old', 'I found it in the Ubuntu 22.04 docker image', 'it works in Debian?',
  'I also tried in Ubuntu 22.04 on a different machine', 'in Fedora 40 on our CI runners', nor where the line gives
  the writer another OS: 'I fixed it in Ubuntu by reinstalling, my question is about macOS');
- the newest release without its number: 'i am on the newest version of linux mint', 'I run the latest release of
  Fedora' (the name only: which release was newest then is not in the text);
- a sentence that is only a distribution and its version, in a line the writer speaks in: 'I have 2 GTX 1070 GPUs.
  Linuxmint 18.3.' (not a bare line in a list of supported systems, nor 'Ubuntu 22.04?').

- the writer's OS named in full in a sentence: 'The operating system is Arch linux.', 'My OS is Ubuntu 22.04', read as
  an 'OS:' answer is (linux_clues_rules reads 'the operating system is Linux', the platform word alone).

Each reader is a pure function of one line; the names, the first-person and not-the-host tests are distro_rules'.
"""
from __future__ import annotations

import re

from macml.probe.paste.distro_rules import (_DISTRO, _END, _FIRST_PERSON, _NOT_THE_HOST, _VERSION,
                                            _os_name)
from macml.probe.paste.said_of_this_machine import NEGATION, someone_elses, writers_os
from macml.probe.paste.statement_rules import Facts, by_key

_SENTENCE_END = r"[.;!?](?:\s|$)"
_IN_DISTRO = re.compile(r"\bin\s+" + _DISTRO + r"(?:\s+" + _VERSION + r")?" + _END + r"(?!\s+(?:or|and|vs)\b)",
                        re.IGNORECASE)
# what follows a distribution that is not the writer's system: its repository, site, image, a later comparison
_ELSEWHERE = re.compile(r"^(?:'s|’s|\s+(?:repos?|repositor\w*|packages?|forums?|PPAs?|archives?|docs?|documentation|"
                        r"wiki|bug|tracker|store|software|mirrors?|kernels?\s+source)\b)", re.IGNORECASE)
_NEWEST = re.compile(r"\b(?:on|running|run|use|using|installed|have)\s+(?:the\s+)?(?:newest|latest|most\s+recent|current)\s+"
                     r"(?:stable\s+)?(?:version|release)\s+of\s+" + _DISTRO + _END, re.IGNORECASE)
_ONLY_DISTRO = re.compile(r"^\s*" + _DISTRO + r"\s+" + _VERSION + r"\s*\.?\s*$", re.IGNORECASE)
_NOT_SPOKEN = re.compile(r"\b(?:if|whether|unlike|support(?:s|ed)?|requires?)\b|\?", re.IGNORECASE)


def _said_of_this_machine(line: str, start: int, end: int) -> bool:
    """The sentence before `start` has the writer as its subject, is not negated, asks nothing, is not of another
    machine, what follows `end` is not another place (an image, a repository), and the line gives the writer no
    other OS."""
    sentence = re.split(_SENTENCE_END + r"|\bbut\b", line[:start])[-1]
    rest_of_sentence = re.split(_SENTENCE_END, line[start:])[0]
    return (bool(_FIRST_PERSON.search(sentence)) and not NEGATION.search(line[max(0, start - 25):start])
            and not _NOT_SPOKEN.search(sentence + rest_of_sentence) and not _NOT_THE_HOST.match(line[end:])
            and not _ELSEWHERE.match(line[end:]) and not someone_elses(sentence + rest_of_sentence)
            and (writers_os(line[end:]) not in ("darwin", "win32") or "wsl" in line.lower()))


def in_distro(line: str) -> Facts:
    """'I encountered problems when running PyTorch on an RTX 5090D in Ubuntu.' -> 'Ubuntu'."""
    for found in _IN_DISTRO.finditer(line):
        if _said_of_this_machine(line, found.start(), found.end()):
            return _os_name(found)
    return []


def newest_distro(line: str) -> Facts:
    """'i am on the newest version of linux mint' -> 'Linux Mint' (no version: none is written)."""
    for found in _NEWEST.finditer(line):
        if _said_of_this_machine(line, found.start(), found.end()):
            return _os_name(found)
    return []


def distro_sentence(line: str) -> Facts:
    """'I have 2 GTX 1070 GPUs. Linuxmint 18.3.' -> 'Linux Mint 18.3': a sentence naming only a distribution and
    its version, after the writer's own sentence in the same line."""
    sentences = re.split(r"(?<=[.!])\s+", line.strip())
    for index, sentence in enumerate(sentences[1:], 1):
        found = _ONLY_DISTRO.match(sentence)
        spoken = " ".join(sentences[:index])
        if found and _FIRST_PERSON.search(spoken) and not NEGATION.search(spoken) and not _NOT_SPOKEN.search(spoken):
            return _os_name(found)
    return []


_OS_IS = re.compile(r"\b(?:(?:my|the|our)\s+(?:operating\s+system|OS|distro|distribution)|(?:my|our)\s+system)\s+(?:is|was)\s+(?:an?\s+)?"
                    r"([A-Za-z][\w!.+ -]{1,40}?)\s*(?:[.,;()](?:\s|$)|[,;()]|\s+(?:and|but|with|on|in)\b|$)", re.IGNORECASE)


def os_is(line: str) -> Facts:
    """'The operating system is Arch linux.', 'My system is Ubuntu 16.04 ,NVIDIA driver ...' -> that OS, as an 'OS:'
    answer (whatever by_key does not read as an OS, 'my system is slow', states nothing)."""
    found = _OS_IS.search(line)
    if not found or NEGATION.search(line[max(0, found.start() - 20):found.end()]) or someone_elses(line[:found.start()]):
        return []
    return [fact for fact in by_key("os", found.group(1)) if fact[0] != "platform.declared"]


def line_facts(line: str) -> Facts:
    return in_distro(line) or newest_distro(line) or distro_sentence(line) or os_is(line)
