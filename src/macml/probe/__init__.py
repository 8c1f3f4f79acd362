"""Probe: read the machine, or replay a recording of it.

Takes: the live machine (commands through `runner`, the target interpreter through its
in-target scripts) or a snapshot file. Gives: a version-1 snapshot (`collect_snapshot`) and the
facts built from it (`facts_from_snapshot`), the only way to get facts, so `--from FILE` runs
exactly the live code. Per OS one module (`macos`, `linux`, `windows`), chosen once.
"""
