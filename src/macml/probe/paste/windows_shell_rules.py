"""The writer ran something in a shell only Windows has: 'I ran it in Command Prompt', 'from cmd.exe', 'in an
Administrator Command Prompt', 'using Windows PowerShell' (PowerShell alone also runs on Linux and macOS as pwsh,
so only the Windows-named one counts). A question, advice ('run it in Command Prompt') or a denial states nothing.

WMI's video controller, as Get-WmiObject / Get-CimInstance or a tool reading WMI prints it ('__CLASS :
Win32_VideoController', 'Device ID = VideoController1', 'DeviceID : VideoController4'): WMI is Windows'.

A Vulkan program's instance extension VK_KHR_win32_surface (the Windows window-system surface; the Vulkan loader
offers it on Windows only), and MSYS2's own tree under a drive letter ('C:/msys64/home/user/...'): Windows.
"""
from __future__ import annotations

import re

from macml.probe.paste.said_of_this_machine import NEGATION, hypothetical, negated
from macml.probe.paste.statement_rules import Facts

_SHELL = r"(?:(?:an?\s+|the\s+|my\s+)?(?:admin(?:istrator)?\s+|elevated\s+)?(?:Command\s+Prompt|cmd(?:\.exe)?\b(?:\s+window)?|Windows\s+PowerShell))"
_RAN_IN = re.compile(rf"\b(?:I|I've|I\s+have|we)\s+(?:\w+\s+){{0,2}}?(?:ran|run|running|tried|executed|launched|started|opened)\b"
                     rf"[^.;!?]{{0,40}}?\b(?:in|from|with|using|via|through)\s+{_SHELL}", re.IGNORECASE)


def ran_in_windows_shell(line: str) -> Facts:
    found = _RAN_IN.search(line)
    if not found or negated(line[:found.start()]) or NEGATION.search(found.group()) or hypothetical(line[:found.end()]) or line.rstrip().endswith("?"):
        return []
    return [("platform", "win32")]


_WMI_VIDEO = re.compile(r"\bWin32_VideoController\b|^\s*Device\s?ID\s*(?:=|:)\s*\"?VideoController\d{1,2}\"?\s*$")


def wmi_video_controller(line: str) -> Facts:
    return [("platform", "win32")] if _WMI_VIDEO.search(line) else []


_WINDOWS_ONLY = re.compile(r"\bVK_KHR_win32_surface\b|(?<![\w/])[A-Za-z]:/msys(?:64|32|2)/")


def windows_only_names(line: str) -> Facts:
    return [("platform", "win32")] if _WINDOWS_ONLY.search(line) else []


def line_facts(line: str) -> Facts:
    return ran_in_windows_shell(line) + wmi_video_controller(line) + windows_only_names(line)
