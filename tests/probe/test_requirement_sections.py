"""A section that lists what a program needs states nothing about the writer's machine."""
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste.requirement_sections import requirement_lines

TEXT = """## System Requirements
- 32 GB RAM
- NVIDIA RTX 3060 or better

## My machine
- GPU: RTX 4090
**Minimum specs:**
- 16GB RAM
Recommended:
- M2 Max

I have an M1 with 8GB
requirements.txt:
torch==2.1
### System Configuration
- macOS 10.15.4
"""


def test_requirement_sections_are_found():
    lines = TEXT.splitlines()
    assert [lines[i] for i in sorted(requirement_lines(lines))] == ["- 32 GB RAM", "- NVIDIA RTX 3060 or better",
                                                                    "- 16GB RAM", "- M2 Max"]


def test_a_requirement_is_not_this_machines_fact():
    facts = facts_from_snapshot(import_pastes(["### Minimum requirements\n- 32 GB RAM\n- NVIDIA RTX 3060\n\n"
                                               "### My setup\n- GPU: AMD Radeon RX 6800 XT\n- RAM: 16 GB\n"]))
    assert [g.model for g in facts.gpus] == ["AMD Radeon RX 6800 XT"]
    assert facts.cpu.memory_bytes == 16 * 1024 ** 3
