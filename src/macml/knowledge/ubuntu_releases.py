"""Ubuntu releases by their code names.

Source: wiki.ubuntu.com/Releases (the release list: version, code name, LTS or not) and
releases.ubuntu.com ('Ubuntu 24.04.3 LTS (Noble Numbat)', the form each release names itself in).
"""
from __future__ import annotations

import re
from typing import Optional

CODENAME_RELEASE = {
    "trusty tahr": "14.04", "xenial xerus": "16.04", "bionic beaver": "18.04", "cosmic cuttlefish": "18.10",
    "disco dingo": "19.04", "eoan ermine": "19.10", "focal fossa": "20.04", "groovy gorilla": "20.10",
    "hirsute hippo": "21.04", "impish indri": "21.10", "jammy jellyfish": "22.04", "kinetic kudu": "22.10",
    "lunar lobster": "23.04", "mantic minotaur": "23.10", "noble numbat": "24.04", "oracular oriole": "24.10",
    "plucky puffin": "25.04", "questing quokka": "25.10", "resolute raccoon": "26.04",
}


def codename_release(codename: str) -> Optional[str]:
    """'Noble Numbat' -> '24.04'; None for a name the table does not hold."""
    return CODENAME_RELEASE.get(re.sub(r"\s+", " ", codename.strip().lower()))

