"""Whether two GPU names, as different lines of one paste write them, name the same model.

'RTX3090' (an issue form) and 'NVIDIA GeForce RTX 3090' (trtexec), 'Intel Iris' (prose) and 'Intel Iris Graphics'
(Metal.versioninfo), 'RTX 3050' and 'NVIDIA GeForce RTX 3050 6GB Laptop GPU' (prose that shortens its own
GPU's name): brand words, case, spacing, punctuation and a memory size aside, one model. lspci's family brackets
('Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT]') name each model in the list.
"""
from __future__ import annotations

import re
from typing import FrozenSet

from macml.probe.paste.gpu_names import gpu_vendor

_BRAND = re.compile(r"\((?:r|tm)\)|\b(?:nvidia|geforce|amd|ati|radeon|intel|apple|graphics|gpu|corporation"
                    # board partners ('PowerColor RX 7900 XTX' is the card lact also calls 'AMD Radeon RX 7900 XTX')
                    r"|evga|msi|asus|gigabyte|asrock|sapphire|powercolor|xfx|zotac|pny|palit|gainward|inno3d|galax|kfa2"
                    r"|colorful|yeston|maxsun)\b")
_SIZE = re.compile(r"\b\d+(?:\.\d+)?\s?(?:gb|gib|mb|mib|go|g)\b")
# a form-factor word a writer drops when naming the GPU in their own laptop again ('the RTX 3050 Laptop GPU')
_FORM = re.compile(r"laptop|mobile|withmaxqdesign|maxq")
_FAMILY = re.compile(r"\[([^\]]*/[^\]]*)\]")


def model_key(name: str) -> str:
    """'NVIDIA GeForce RTX 3050 6GB Laptop GPU' -> 'rtx3050laptop'; 'Intel Iris Graphics' -> 'iris'."""
    series = re.sub(r"\brx\s?(?=\d)", " ", name.lower())  # AMD's 'RX': 'I have a 5600XT' is the 'Radeon RX 5600 XT'
    return re.sub(r"[^a-z0-9]", "", _SIZE.sub(" ", _BRAND.sub(" ", series)))


def same_model(first: str, second: str) -> bool:
    """Two spellings of one GPU model: equal keys, or equal but for a form-factor word only one of them has."""
    if len({gpu_vendor(first), gpu_vendor(second)} - {"unknown"}) > 1:
        return False  # two makers' GPUs (a name without its maker, '1080ti', may be either's spelling)
    one, other = model_key(first), model_key(second)
    if not one or not other:
        return False
    if one == other:
        return True
    bare_one, bare_other = _FORM.sub("", one), _FORM.sub("", other)
    return bare_one == bare_other and (bare_one == one or bare_other == other) or _one_instinct_module(one, other)


def _one_instinct_module(one: str, other: str) -> bool:
    """amd-smi's BOARD 'AMD Instinct MI350 OAM' is the module its ASIC's 'AMD Instinct MI350X' sits on: an Instinct
    OAM name is the card of its number, with or without the X."""
    modules = [key for key in (one, other) if re.fullmatch(r"(?:instinct)?mi\d{3}oam", key)]
    if len(modules) != 1:
        return False
    card = other if modules[0] == one else one
    number = modules[0][:-3].removeprefix("instinct")
    return card.removeprefix("instinct") in (number, number + "x")


def family_keys(text: str) -> FrozenSet[str]:
    """The models a bracketed slash list names: '[Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT]' ->
    {'rx6700', 'rx6700xt', 'rx6750xt', 'rx6800m', 'rx6850mxt'} (each later item shares the first's series words)."""
    keys = set()
    for listed in _FAMILY.findall(text):
        items = [item.strip() for item in listed.split("/") if item.strip()]
        series = re.match(r"^(.*?)(?=\d)", items[0]) if items else None
        prefix = series.group(1) if series else ""
        keys.update(model_key(prefix + item if item[0].isdigit() else item) for item in items)
    return frozenset(k for k in keys if k)
