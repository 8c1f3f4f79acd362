"""GPUs stated in pasted text, when no parsed output listed any: a numbered "GPU 1: ..." counts once
per number, the same name on consecutive lines (a list) once per line, elsewhere once per name; and
the driver, memory, cores and capability lines that describe them.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from macml.facts import GPU, MachineFacts
from macml.knowledge.amd_apus import lspci_codename_gfx
from macml.knowledge.geforce_sizes import sized_name
from macml.knowledge.nvidia_branches import nvidia_version
from macml.probe.paste.gpu_names import gpu_vendor
from macml.probe.paste.gpu_name_keys import family_keys, model_key, same_model
from macml.probe.statement_source import Statement, first_stated, where
from macml.probe.tool_gpu_names import name_by_pci_id, name_unnamed_amd, name_vendor_only

MIB = 1024**2


def _stated_gpus(statements: Sequence[Statement]) -> List[Tuple[Dict[str, Any], Statement]]:
    listed = [s for s in statements if s.get("fact") == "gpu"]
    if not listed:  # names mentioned on other lines, or the eGPU the writer names: one GPU per name
        listed = [dict(s, value={"name": s["value"], "vendor": None, "memory_mib": None, "index": None})
                  for s in statements if s.get("fact") in ("gpu.mention", "gpu.external")]
        # a model the writer owns, named bare ('I have two GPUs: A6000 and GT1030'), unless a mention names it whole
        named = {_model_words(str(s["value"]["name"])) for s in listed}
        listed = sorted(listed + [s for s in statements if s.get("fact") == "gpu.owned" and not any(
            n.endswith(_model_words(s["value"]["name"])) for n in named)], key=lambda s: s.get("line", 0))
    chosen: List[Tuple[Dict[str, Any], Statement]] = []
    seen_index, last_line = set(), {}
    for stated in listed:
        value, name = stated["value"], stated["value"]["name"]
        key = (model_key(name) or name, value.get("index"))  # one numbered device spelled twice ('Intel Iris Graphics', 'Intel Iris')
        if value.get("index") is not None:
            if key in seen_index:  # the row read twice: the reading with its memory fills the other's
                chosen = [(dict(v, memory_mib=v.get("memory_mib") or value.get("memory_mib")), said)
                          if (model_key(v["name"]) or v["name"], v.get("index")) == key else (v, said) for v, said in chosen]
                continue
            seen_index.add(key)
        elif name in last_line and not (stated.get("line") == last_line[name] + 1 and _bare(stated, name)):
            if value.get("memory_mib"):  # one card named twice: the spelling with its memory fills the other's
                chosen = [(dict(v, memory_mib=v.get("memory_mib") or value["memory_mib"]), said) if v["name"] == name
                          else (v, said) for v, said in chosen]
            continue
        else:
            spelled = [i for i, (v, said) in enumerate(chosen) if v.get("index") is None and v["name"] != name
                       and _one_card(v["name"], said, name, stated)]
            if spelled:  # 'RX 6600XT 8G' and 'Radeon Rx 6600xt': one card spelled twice; keep the fuller name
                earlier, where_said = chosen[spelled[0]]
                fuller = _fuller(earlier["name"], where_said, name, stated)
                chosen[spelled[0]] = (dict(earlier, name=fuller, memory_mib=earlier.get("memory_mib") or value.get("memory_mib")),
                                      where_said)
                last_line[name] = stated.get("line", 0)
                continue
        last_line[name] = stated.get("line", 0)
        chosen.append((value, stated))
    return _rows_name_mentions(chosen)


def _one_card(name: str, said: Statement, other: str, other_said: Statement) -> bool:
    """Two names of one card: one model spelled twice, or a model that lspci's family bracket on the other's line lists."""
    return same_model(name, other) or (gpu_vendor(name) == gpu_vendor(other) and (
        model_key(other) in family_keys(str(said.get("text", ""))) or model_key(name) in family_keys(str(other_said.get("text", "")))))


def _fuller(name: str, said: Statement, other: str, other_said: Statement) -> str:
    """The name to keep of two for one card: the one a family bracket does not stand for, else the longer."""
    if model_key(other) in family_keys(str(said.get("text", ""))):
        return other
    if model_key(name) in family_keys(str(other_said.get("text", ""))):
        return name
    return max((name, other), key=lambda n: (len(n.split()), len(n)))


def _rows_name_mentions(chosen: List[Tuple[Dict[str, Any], Statement]]) -> List[Tuple[Dict[str, Any], Statement]]:
    """A numbered device list (trtexec's 'Device 0: ...', 'GPU 1: ...') counts the cards; a name said elsewhere
    without a number ('**NVIDIA GPU**: RTX3090') is one of them, not another; its memory fills a lone row's."""
    kept: List[Optional[Tuple[Dict[str, Any], Statement]]] = list(chosen)
    rows = [i for i, (value, _) in enumerate(chosen) if value.get("index") is not None]
    for i, (value, stated) in enumerate(chosen):
        numbered = re.search(r"\b(?:GPU|Device)\s*\[?\d+\]?\s*:", str(stated.get("text", "")))  # a row read without its number
        same = [r for r in rows if value.get("index") is None and not numbered
                and _one_card(chosen[r][0]["name"], chosen[r][1], value["name"], stated)]
        if not same:
            continue
        kept[i] = None
        row, said = kept[same[0]] or chosen[same[0]]
        if len(same) == 1 and value.get("memory_mib") and not row.get("memory_mib"):
            kept[same[0]] = (dict(row, memory_mib=value["memory_mib"]), said)
    return [pair for pair in kept if pair is not None]


def _bare(statement: Statement, name: str) -> bool:
    """A list item that is only the GPU's name ('- NVIDIA GeForce RTX 4090'), or a macOS crash report's system
    profile line ('Graphics: kHW_AMDFireProD500Item, AMD FirePro D500, spdisplays_pcie_device, 3 GB'): each such
    line is one GPU."""
    text = str(statement.get("text", ""))
    return re.sub(r"^[\s*+-]+", "", text).strip() == name or bool(re.match(r"\s*Graphics:\s.*\bspdisplays_\w+", text))


def _capability_named(name: str, statements: Sequence[Statement]) -> Optional[str]:
    """torch's 'NVIDIA GeForce RTX 5090 with CUDA capability sm_120': the capability of the GPU it names."""
    for stated in statements:
        value = stated["value"] if stated.get("fact") == "gpu.capability" else None
        if value and value.get("name") in (name, None):
            return value["capability"]
    return None


def _gpus_from_statements(statements: Sequence[Statement], sources: Dict[str, str]) -> List[GPU]:
    by_index: Dict[Any, Dict[str, Any]] = {}
    for stated in statements:
        if stated.get("fact") in ("gpu.capability_of", "gpu.memory_of") and stated["value"].get("index") is not None:
            by_index.setdefault(stated["value"]["index"], {}).update(stated["value"])
    single = [s for s in statements if s.get("fact") == "gpu.memory_of" and s["value"].get("index") is None]
    gfx = first_stated(statements, "gpu.gfx")
    gpus: List[GPU] = []
    chosen = _stated_gpus(statements)
    several_amd = sum(1 for value, _ in chosen if (value.get("vendor") or gpu_vendor(value["name"])) == "AMD") > 1
    # an unnamed capability ('Highest compute capability among GPUs detected: 6.1') is a lone GPU's only
    told = statements if len(chosen) == 1 else [s for s in statements if s.get("fact") != "gpu.capability"
                                                or s["value"].get("name")]
    for value, stated in chosen:
        vendor = value.get("vendor") or gpu_vendor(value["name"])
        if value.get("index") is not None:
            extra = by_index.get(value["index"], {})
        else:  # one numbered device beside one named GPU: the same GPU
            extra = next(iter(by_index.values())) if len(by_index) == 1 else {}
        # an unnumbered 'N GB' on the line that names one of several GPUs is that GPU's only
        mine = single if len(chosen) == 1 else [m for m in single if m.get("line") == stated.get("line")
                                                or m.get("line") not in {said.get("line") for _, said in chosen}]
        memory = value.get("memory_mib") or extra.get("memory_mib") or (mine[0]["value"]["memory_mib"] if mine else None)
        cc = value.get("capability") or extra.get("capability") or _capability_named(value["name"], told)
        gpus.append(GPU(vendor=vendor, model=sized_name(_full_name(value["name"], statements), str(stated.get("text", ""))), memory_bytes=memory * MIB if memory else None,
                        unified_memory=vendor == "Apple", integrated=True if vendor == "Apple" else None,
                        compute_capability=cc if vendor == "NVIDIA" else value.get("gfx") or _amd_gfx(value["name"], stated, gfx, several_amd, statements)
                        if vendor == "AMD" else None))
        sources[f"gpus.{len(gpus) - 1}"] = where(stated)
    return gpus


def _amd_gfx(name: str, stated: Statement, gfx: Optional[Statement], several: bool,
             statements: Sequence[Statement]) -> Optional[str]:
    """The gfx target of one AMD GPU: the text's only one; of several GPUs, the one stated on its own line, else the
    first whose line names it."""
    if not several:
        return gfx["value"] if gfx else None
    own = [s["value"] for s in statements if s.get("fact") == "gpu.gfx" and s.get("line") == stated.get("line")]
    if len(set(own)) == 1:
        return own[0]
    return gfx["value"] if gfx and name in str(gfx.get("text", "")) else None


def _model_words(name: str) -> str:
    """A GPU name without the brand words a writer may leave out: 'NVIDIA GeForce RTX 3090' -> 'rtx 3090'."""
    return " ".join(re.sub(r"\b(?:nvidia|geforce)\b", " ", name.lower()).split())


_GENERIC_RADEON = re.compile(r"^(?:AMD )?Radeon(?:\s?\(TM\))? Graphics$", re.IGNORECASE)
_APU_RADEON = re.compile(r"\bRadeon(?:\s?\(TM\))? (?:\d{3}[MS]|8060S|8050S)\b", re.IGNORECASE)  # an APU's own Radeon name


def _apu_name(gpus: List[GPU], statements: Sequence[Statement]) -> List[GPU]:
    """The one AMD GPU, named only 'AMD Radeon Graphics' (rocminfo) or by its APU's codename (lspci's 'Phoenix1'), that
    lscpu's 'Ryzen 7 PRO 7840U w/ Radeon 780M Graphics' names: the 780M (beside a discrete card, which of the two is
    the APU's is left as the tool named it)."""
    amd = [g for g in gpus if g.vendor == "AMD"]
    if len(amd) != 1 or not (_GENERIC_RADEON.match(amd[0].model or "") or lspci_codename_gfx(amd[0].model)):
        return gpus
    apu = {str(s["value"]) for s in statements if s.get("fact") == "gpu.mention" and _APU_RADEON.search(str(s["value"]))}
    return [dataclasses.replace(g, model=apu.pop()) if g is amd[0] else g for g in gpus] if len(apu) == 1 else gpus


def _full_name(name: str, statements: Sequence[Statement]) -> str:
    """nvidia-smi cuts long names ('NVIDIA GeForce ...'); another line (lspci, prose's 'Nvidia RTX 3090') may
    name the same GPU whole: the one name there that the cut name begins (brand words aside)."""
    if not name.endswith("..."):
        # a form's 'NVIDIA GeForce RTX 4060' that prose names 'NVIDIA GeForce RTX 4060 Laptop GPU': the laptop part
        laptop = {str(s["value"]) for s in statements if s.get("fact") == "gpu.mention"
                  and _model_words(str(s["value"])) == _model_words(name) + " laptop gpu"}
        return laptop.pop() if len(laptop) == 1 else name
    stem = _model_words(name[:-3])
    other_line = r"\b(?:quadro|tesla|rtx a\d|[ahlbt]\d+)\b" if "geforce" in name.lower() else r"$^"
    fuller = [str(s["value"]) for s in statements if s.get("fact") == "gpu.mention"
              and not str(s["value"]).endswith("...") and _model_words(str(s["value"])).startswith(stem)
              and gpu_vendor(str(s["value"])) == gpu_vendor(name) and not re.search(other_line, str(s["value"]).lower())]
    return fuller[0] if len(set(fuller)) == 1 else name


def _gpu_torch_runs_on(facts: MachineFacts, sources: Dict[str, str]) -> List[GPU]:
    """No GPU named, but torch said CUDA is available: a CUDA build answers so only with an NVIDIA GPU present,
    a ROCm build only with an AMD one."""
    torch = facts.frameworks.get("torch")
    data = torch.data if torch is not None and torch.ok else {}
    if data.get("cuda_available") is not True:
        return []
    version = str(data.get("version") or "")
    rocm = bool(data.get("hip_version")) or "+rocm" in version
    if not rocm and not (data.get("cuda_version") or "+cu" in version):
        return []
    vendor = "AMD" if rocm else "NVIDIA"
    sources["gpus.0"] = (f"torch {version} ({'ROCm' if rocm else 'CUDA'} build) says CUDA is "
                         f"available, which it says only with an {vendor} GPU present ({sources.get('frameworks.torch', 'its probe')})")
    # NVIDIA's JetPack wheels carry '.nvYY.MM' ('torch-2.0.0a0+ec3941ad.nv23.02-cp38-cp38-linux_aarch64.whl',
    # docs.nvidia.com/deeplearning/frameworks/install-pytorch-jetson-platform): the GPU is a Jetson's
    if re.search(r"[.+]nv\d{2}\.\d{2}$", version):
        return [GPU(vendor=vendor, model="NVIDIA Jetson GPU (model not in the evidence)", integrated=True)]
    return [GPU(vendor=vendor, model=f"{vendor} GPU (model not in the evidence)")]


def _other_makers_present(gpus: Sequence[GPU], statements: Sequence[Statement], sources: Dict[str, str]) -> List[GPU]:
    """A GPU of a maker the text says is here ('two graphics card, an AMD and an Nvidia') beside named GPUs of another
    maker (or none named): one unnamed GPU of that maker."""
    added: List[GPU] = []
    for said in (s for s in statements if s.get("fact") == "gpu.maker"):
        maker = said["value"]
        if maker not in {g.vendor for g in list(gpus) + added}:
            sources[f"gpus.{len(gpus) + len(added)}"] = where(said)
            added.append(GPU(vendor=maker, model=f"{maker} GPU (model not in the evidence)"))
    return added


def fill_gpus(facts: MachineFacts, statements: Sequence[Statement], sources: Dict[str, str]) -> MachineFacts:
    gpus = list(facts.gpus)
    present = first_stated(statements, "gpu.present")
    if not gpus and present is not None and not _stated_gpus(statements):
        capability = _capability_named("", statements) if present["value"] == "NVIDIA" else None  # an unnamed GPU's
        # prose that names one model of that vendor ('Ollama can recognize RTX 4090 on linux') names this GPU
        named = {_model_words(str(s["value"])): s for s in statements
                 if s.get("fact") == "gpu.named" and gpu_vendor(str(s["value"])) == present["value"]}
        model = str(next(iter(named.values()))["value"]) if len(named) == 1 else None
        gpus.append(GPU(vendor=present["value"], model=model or f"{present['value']} GPU (model not in the evidence)",
                        compute_capability=capability))
        sources["gpus.0"] = where(present) + (f"; model: {where(next(iter(named.values())))}" if model else "")
    if not gpus:
        gpus = _gpus_from_statements(statements, sources)
    if not gpus:
        gpus = _gpu_torch_runs_on(facts, sources)
    gpus += _other_makers_present(gpus, statements, sources)
    gpus = _apu_name([dataclasses.replace(g, model=_full_name(g.model, statements)) for g in gpus], statements)
    gpus = name_by_pci_id(name_unnamed_amd(name_vendor_only(gpus, statements, sources), statements, sources), sources)
    single = [s["value"]["memory_mib"] for s in statements
              if s.get("fact") == "gpu.memory_of" and s["value"].get("index") is None]
    if single and len(gpus) == 1 and gpus[0].memory_bytes is None and not gpus[0].unified_memory:
        gpus = [dataclasses.replace(gpus[0], memory_bytes=single[0] * MIB)]
    cores = first_stated(statements, "gpu.cores")
    if cores is not None:
        gpus = [dataclasses.replace(g, cores=cores["value"]) if g.vendor == "Apple" and g.cores is None else g for g in gpus]
    gpus = [dataclasses.replace(g, compute_capability=_capability_named(g.model, [
        s for s in statements if s.get("fact") == "gpu.capability" and s["value"].get("name")]))
            if g.vendor == "NVIDIA" and not g.compute_capability and _capability_named(g.model, [
                s for s in statements if s.get("fact") == "gpu.capability" and s["value"].get("name")]) else g
            for g in gpus]
    for said in (s for s in statements if s.get("fact") == "gpu.driver_of"):  # one adapter's own driver row
        gpus = [dataclasses.replace(g, driver_version=said["value"]["driver"])
                if g.model == said["value"]["name"] and g.driver_version is None else g for g in gpus]
        sources["gpus.driver_version"] = where(said)
    for fact, field in (("gpu.driver", "driver_version"), ("gpu.cuda_driver", "cuda_driver_version")):
        stated = first_stated(statements, fact)
        vendors = ("NVIDIA", "AMD") if field == "driver_version" else ("NVIDIA",)
        if stated and any(g.vendor in vendors and getattr(g, field) is None for g in gpus):
            value = stated["value"]
            gpus = [dataclasses.replace(g, **{field: nvidia_version(value) if g.vendor == "NVIDIA" and field == "driver_version"
                                               else value}) if g.vendor in vendors and getattr(g, field) is None else g
                    for g in gpus]
            sources[f"gpus.{field}"] = where(stated)
    return dataclasses.replace(facts, gpus=tuple(gpus)) if gpus != list(facts.gpus) else facts


def ruled_out_vendors(statements: Sequence[Statement], gpus: Sequence[GPU], sources: Dict[str, str]) -> Tuple[str, ...]:
    """The vendors whose GPU the evidence rules out: collect_env's 'No CUDA' and ollama's library search (no driver
    answered), the writer's 'a computer without an nvidia graphics card'; never a vendor of a GPU that is listed."""
    absent = {s["value"]: s.get("text") for s in statements if s.get("fact") == "gpu.absent"}
    said = {s["value"]: s.get("text") for s in statements if s.get("fact") == "gpu.absent_said"}
    guest = {s["value"]: s.get("text") for s in statements if s.get("fact") == "gpu.absent_guest"}
    ruled_out = tuple(sorted((set(absent) | set(said) | set(guest)) - {g.vendor for g in gpus}))
    if ruled_out:
        sources["gpus_ruled_out"] = "; ".join(
            f"no {v} driver answered" + (f" ('{absent[v]}')" if absent[v] else "") if v in absent
            else f"the text says this machine has no {v} GPU ('{str(said[v])[:120]}')" if v in said
            else f"a VM that is given no {v} GPU ('{str(guest[v]).strip()[:120]}')" for v in ruled_out)
    return ruled_out
