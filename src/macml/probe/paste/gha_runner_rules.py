"""A GitHub Actions job's 'Set up job' header, as people paste it from a run's log:

    Current runner version: '2.315.0'
    Operating System
      macOS
      14.4.1
      23E224
    Runner Image
      Image: macos-14-arm64
      Version: 20240415.6

The runner-images issue form asks for the same lines under '### Image version and build link'.

The lines under 'Operating System' are the runner's OS name, version and (macOS) build. 'Image: macos-14-arm64' (or
ubuntu-22.04, windows-2022) names a GitHub-hosted runner image, and GitHub-hosted runners are virtual machines
(docs.github.com/en/actions/using-github-hosted-runners/about-github-hosted-runners: "each GitHub-hosted runner is a
new virtual machine"); an '-arm64' macOS image runs on Apple silicon. A self-hosted runner prints no 'Runner Image'.

A writer saying their code runs on such a runner ('running ... inside GitHub-hosted macOS runners (macos-15, Apple
Silicon)', 'only happens on macOS 14 in the hosted runner of GitHub Actions') names the same VM: a macOS one, on Apple
silicon where the line says so. So does a path in the hosted runners' tool cache, '/Users/runner/hostedtoolcache/...'
(the macOS images' RUNNER_TOOL_CACHE; a self-hosted runner keeps its tools under its own _work/_tool), on arm64 where
the path is an arm64 tool's ('/node/22.10.0/arm64/bin/node').

A runner label named as the place a job ran ('fails on our `macos-14` CI', 'the macos-13-large runner') is a hosted
runner too: GitHub's runner table (docs.github.com, "GitHub-hosted runners reference") gives macos-14, macos-15,
macos-26 and the -xlarge labels arm64 (Apple silicon) images, macos-13 and the -large labels Intel ones.

The readers are pure functions of the lines.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

Facts = List[Tuple[str, Any]]

_OS_HEADING = re.compile(r"^\s*Operating System\s*$")
_OS_NAME = re.compile(r"^\s+(macOS|Ubuntu|Microsoft Windows Server \d{4}[\w ]*)\s*$")
_VERSION = re.compile(r"^\s+(\d{1,2}\.\d{1,2}(?:\.\d{1,5})?)\s*(?:LTS)?\s*$")
_BUILD = re.compile(r"^\s+(\d{2}[A-Z]\d{1,5}[a-z]?)\s*$")
_IMAGE = re.compile(r"^\s*Image:\s+(macos|ubuntu|windows)-[\w.]+?(-arm64|-xlarge|-large)?\s*$")
_HOSTED = "GitHub-hosted runner"


_HOSTED_IN_WORDS = re.compile(r"\b(?:on|in|inside|using)\s+(?:the\s+|a\s+)?GitHub[- ]hosted\s+(macOS|Ubuntu|Linux|Windows)\s+runners?\b",
                              re.IGNORECASE)
_HOSTED_OF_ACTIONS = re.compile(r"\b(?:in|on)\s+(?:the\s+)?hosted\s+runners?\s+of\s+GitHub\s+Actions\b", re.IGNORECASE)
_MAC_TOOL_CACHE = re.compile(r"/Users/runner/hostedtoolcache/\S*")
_APPLE_SILICON_WORDS = re.compile(r"\bApple Silicon\b|\barm64\b|\bM[1-4]\b")


def hosted_in_words(line: str) -> Facts:
    """'... inside GitHub-hosted macOS runners (macos-15, Apple Silicon)': a GitHub-hosted VM of that OS."""
    found = _HOSTED_IN_WORDS.search(line)
    if not found or re.search(r"\b(?:not|never|instead of|rather than)\s*$", line[:found.start()], re.IGNORECASE):
        return []
    system = found.group(1).lower()
    facts: Facts = [("platform", {"macos": "darwin", "windows": "win32"}.get(system, "linux")), ("hypervisor", _HOSTED)]
    if system == "macos" and _APPLE_SILICON_WORDS.search(line[found.end():found.end() + 60]):
        facts.append(("cpu.hardware_arch", "arm64"))
    return facts


def hosted_runner_clues(line: str) -> Facts:
    """'... on macOS 14 in the hosted runner of GitHub Actions', '/Users/runner/hostedtoolcache/node/22.10.0/arm64/...'."""
    actions = _HOSTED_OF_ACTIONS.search(line)
    if actions and re.search(r"\bmacOS\b", line[:actions.start()]) and not re.search(r"\bnot\b|n't\b", line[:actions.start()]):
        return [("platform", "darwin"), ("hypervisor", _HOSTED)]
    cache = _MAC_TOOL_CACHE.search(line)
    if not cache:
        return []
    return [("platform", "darwin"), ("hypervisor", _HOSTED)] + (
        [("cpu.hardware_arch", "arm64")] if re.search(r"/arm64/", cache.group()) else [])


_RUNNER_LABEL = re.compile(r"(?<![\w-])`?(macos-(?:1[3-5]|26)(?:-large|-xlarge)?|ubuntu-2[024]\.04(?:-arm)?|windows-202[25](?:-arm)?)`?"
                           r"\s+(?:CI|runners?|jobs?|builds?|workflows?|GitHub Actions)\b", re.IGNORECASE)


def runner_label(line: str) -> Facts:
    """'Test `test_mps_batched_mask_to_box` fails on our `macos-14` CI.' -> a GitHub-hosted macOS VM on Apple silicon."""
    found = _RUNNER_LABEL.search(line)
    if not found or re.search(r"\b(?:not|never|instead of|rather than)\b|n't\b", line[max(0, found.start() - 30):found.start()], re.IGNORECASE):
        return []
    label = found.group(1).lower()
    system = label.split("-")[0]
    facts: Facts = [("platform", {"macos": "darwin", "windows": "win32"}.get(system, "linux")), ("hypervisor", _HOSTED)]
    if system == "macos":
        intel = label == "macos-13" or label.endswith("-large")
        facts.append(("cpu.hardware_arch", "x86_64" if intel else "arm64"))
    elif label.endswith("-arm"):
        facts.append(("cpu.hardware_arch", "aarch64" if system == "ubuntu" else "arm64"))
    return facts


# the log's own heading, or the runner-images issue form's question that asks for the same lines
_IMAGE_HEADING = re.compile(r"^\s*(?:Runner Image|#+\s*Image version and build link)\s*$", re.IGNORECASE)


def line_facts(line: str) -> Facts:
    return hosted_in_words(line) + hosted_runner_clues(line) + runner_label(line)


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the runner's OS, its version and build, and the hosted runner's VM and arch."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if _OS_HEADING.match(line) and index + 2 < len(lines):
            name = _OS_NAME.match(lines[index + 1])
            version = _VERSION.match(lines[index + 2])
            if not name or not version:
                continue
            if name.group(1) == "macOS":
                found[index + 2] = [("platform", "darwin"), ("os.version", version.group(1))]
                build = _BUILD.match(lines[index + 3]) if index + 3 < len(lines) else None
                found[index + 2] += [("os.build", build.group(1))] if build else []
            elif name.group(1) == "Ubuntu":
                found[index + 2] = [("platform", "linux"), ("os.name", f"Ubuntu {version.group(1)}")]
            else:
                found[index + 1] = [("platform", "win32"), ("os.name", name.group(1).strip())]
        image = _IMAGE.match(line)
        above = next((lines[i] for i in range(index - 1, max(-1, index - 3), -1) if lines[i].strip()), "")
        if image and _IMAGE_HEADING.match(above):
            facts: Facts = [("hypervisor", _HOSTED)]
            if image.group(1) == "macos":
                facts.insert(0, ("platform", "darwin"))
                if image.group(2) == "-arm64" or image.group(2) == "-xlarge":
                    facts.append(("cpu.hardware_arch", "arm64"))
            found.setdefault(index, []).extend(facts)
    return found
