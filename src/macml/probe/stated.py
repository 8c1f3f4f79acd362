"""Facts stated in pasted text (the snapshot's `statements`) fill what the parsed outputs left unknown.

The outputs macml parses (sw_vers, nvidia-smi, collect_env, ...) come first; a statement only fills
a fact that is still unknown, and each fact it fills names its line in `facts.sources`. GPUs come from
statements only when no output listed any: a numbered "GPU 1: ..." counts once per number, the same
name on consecutive lines (a list) once per line, elsewhere once per name (stated_gpus.py).
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, Optional, Sequence, Tuple

from macml import versions
from macml.facts import FrameworkFacts, InterpreterFacts, MachineFacts, hardware_arch_name
from macml.knowledge.mac_families import chip_by_memory
from macml.probe.paste.distro_rules import distro_spelling
from macml.probe.paste.general_rules import stated_env
from macml.probe.stated_gpus import fill_gpus
from macml.probe.statement_source import Statement, first_stated, where


def _other_os(statement: Statement, platform: str) -> bool:
    """A Linux text's Windows or macOS name is another OS's (a WSL guest's form also names its Windows host)."""
    return (platform == "linux" and statement.get("fact") == "os.name"
            and bool(re.match(r"\s*(?:Microsoft\s+)?Windows|\s*mac\s?OS\b", str(statement.get("value")), re.IGNORECASE)))


def _distro_stated(statements: Sequence[Statement]) -> Optional[Statement]:
    """The first OS named; where it has no version, a later line naming the same OS with one ('on Linux Mint',
    then inxi's 'Distro: Linux Mint 22.1'; lsb_release's 'Distributor ID: Debian', then 'Debian GNU/Linux 11')."""
    stated = first_stated(statements, "os.name")
    if stated is None or re.search(r"\d", str(stated["value"])):
        return stated
    name = str(stated["value"]).strip().casefold()
    return next((s for s in statements if s.get("fact") == "os.name" and re.search(r"\d", str(s["value"]))
                 and re.split(r"\s+(?=\d)", str(s["value"]).strip(), maxsplit=1)[0].casefold().startswith(name)), stated)


def _version_beside_build(statements: Sequence[Statement]) -> Optional[Statement]:
    """A macOS version stated with its build on one line ('OS Version: macOS 12.2.1 (Build 21D62)'): a tool's own
    report, over the writer's prose ('MacBook Pro from 2021 with MacOS 15.2') wherever each stands."""
    built = {s.get("line") for s in statements if s.get("fact") == "os.build"}
    return next((s for s in statements if s.get("fact") == "os.version" and s.get("line") in built), None)


def _point_release(version: str) -> str:
    """'22.04.03' -> '22.04.3': a point release is a count (Ubuntu's month keeps its zero)."""
    parts = version.split(".")
    return ".".join(parts[:2] + [str(int(p)) for p in parts[2:]])


def _fill_os(facts: MachineFacts, statements: Sequence[Statement], sources: Dict[str, str]) -> MachineFacts:
    os, found = facts.os, {}
    if not os.version:
        if facts.is_mac:
            stated = _version_beside_build(statements) or first_stated(statements, "os.version")
            if stated:
                found.update(version=stated["value"], name=os.name or "macOS", system=os.system or "Darwin")
        else:
            stated = _distro_stated([s for s in statements if not _other_os(s, facts.platform)])
            version = re.search(r"\b\d+(?:\.\d+)*\b", stated["value"]) if stated else None
            if stated:
                found.update(name=distro_spelling(re.split(r"\s+(?=\d)", stated["value"], maxsplit=1)[0].strip()),
                             version=_point_release(version.group()) if version else os.version)
        if stated:
            sources["os.version"] = where(stated)
    for fact, field in (("os.build", "build"), ("os.darwin" if facts.is_mac else "os.kernel", "kernel")):
        stated = first_stated(statements, fact)
        if stated and not getattr(os, field):
            found[field] = stated["value"]
            sources[f"os.{field}"] = where(stated)
    return dataclasses.replace(facts, os=dataclasses.replace(os, **found)) if found else facts


def _tiered_chip(statements: Sequence[Statement]) -> Optional[Statement]:
    """'Apple Silicon (M1)' in a title, then 'CPU: Apple M1 Max' twice: the chip named with its tier, where every Apple
    chip the text names is of one generation and one tier, named so more often than plain (a plain 'M1' is then the
    same chip, said short)."""
    chips = [s for s in statements if s.get("fact") == "cpu.brand" and re.match(r"Apple M\d", str(s["value"]))]
    tiered = {s["value"] for s in chips if re.match(r"Apple M\d+ (?:Pro|Max|Ultra)$", s["value"])}
    generations = {re.match(r"Apple (M\d+)", s["value"]).group(1) for s in chips}
    said_tiered = [s for s in chips if s["value"] in tiered]
    if len(tiered) != 1 or len(generations) != 1 or len(said_tiered) <= len(chips) - len(said_tiered):
        return None  # the tier must be what the text says most ('M2 max capability' once beside 'Apple M2' twice is not)
    return said_tiered[0]


def _fill_cpu(facts: MachineFacts, statements: Sequence[Statement], sources: Dict[str, str]) -> MachineFacts:
    cpu, found = facts.cpu, {}
    for fact, field, empty in (("cpu.brand", "brand", ""), ("cpu.model", "model", None), ("cpu.model_name", "model_name", None),
                               ("cpu.memory_bytes", "memory_bytes", None), ("cpu.cores", "cores", None)):
        stated = _tiered_chip(statements) if fact == "cpu.brand" else None
        stated = stated or first_stated(statements, fact)
        if stated and getattr(cpu, field) in (empty, None, ""):
            found[field] = stated["value"]
            sources[f"cpu.{field}"] = where(stated)
    if not (found.get("brand") or cpu.brand) and facts.is_mac:
        found.update(_chip_by_memory(statements, found.get("memory_bytes") or cpu.memory_bytes, sources))
    apple_chip = bool(re.match(r"Apple M\d", found.get("brand") or cpu.brand or ""))
    # an Apple chip's hardware is arm64: an x86_64 sign beside it (LLVM's host CPU 'westmere') is a Rosetta process's
    arches = [s for s in statements if s.get("fact") == "cpu.hardware_arch" and not (apple_chip and s["value"] == "x86_64")]
    stated = arches[0] if arches else None
    if stated and cpu.hardware_arch in ("", "unknown"):
        found["hardware_arch"] = hardware_arch_name(stated["value"], facts.platform)
        sources["cpu.hardware_arch"] = where(stated)
    unified = first_stated(statements, "memory.unified")
    arm64 = apple_chip or (found.get("hardware_arch") or cpu.hardware_arch) == "arm64"  # on a Mac: Apple silicon
    if unified and arm64 and facts.is_mac and cpu.memory_bytes is None and "memory_bytes" not in found:
        found["memory_bytes"] = unified["value"]  # an Apple GPU's memory is the Mac's unified memory
        sources["cpu.memory_bytes"] = where(unified)
    return dataclasses.replace(facts, cpu=dataclasses.replace(cpu, **found)) if found else facts


def _chip_by_memory(statements: Sequence[Statement], memory: Optional[int], sources: Dict[str, str]) -> Dict[str, Any]:
    """A Mac's one untiered Apple chip generation ('Mac M4') and its memory: the one tier sold with that memory.
    Without a memory that settles it, the base chip: people name the tier of a Pro, Max or Ultra ('M1 Max'), and a
    plain 'M1 mac' is read as the M1 (the source says so)."""
    generations = {s["value"] for s in statements if s.get("fact") == "cpu.apple_generation"}
    unified = first_stated(statements, "memory.unified")
    size = memory or (unified and unified["value"])
    chip = chip_by_memory(next(iter(generations)), round(size / 1024**3)) if len(generations) == 1 and size else None
    if not chip and len(generations) == 1:
        generation = generations.pop()
        sources["cpu.brand"] = (where(first_stated(statements, "cpu.apple_generation"))
                                + f": 'M{generation}' with no Pro, Max or Ultra, read as the base M{generation}")
        return {"brand": f"Apple M{generation}"}
    if not chip:
        return {}
    sources["cpu.brand"] = where(first_stated(statements, "cpu.apple_generation")) + f", with {round(size / 1024**3)} GB"
    return {"brand": f"Apple {chip}"}


def _fill_interpreter(facts: MachineFacts, statements: Sequence[Statement], sources: Dict[str, str]) -> MachineFacts:
    interp = facts.interpreter or InterpreterFacts(executable="", version="", implementation="", machine="",
                                                   prefix="", base_prefix="")
    found: Dict[str, Any] = {}
    for fact, field in (("python.version", "version"), ("python.machine", "machine"), ("python.executable", "executable"),
                        ("python.prefix", "prefix")):
        stated = first_stated(statements, fact)
        if fact != "python.version" and len({s["value"] for s in statements if s.get("fact") == fact}) > 1:
            continue  # sessions of more than one interpreter ('arch -x86_64 python3' beside a native one)
        if stated and not getattr(interp, field):
            found[field] = stated["value"]
            sources[f"interpreter.{field}"] = where(stated)
    conda = first_stated(statements, "python.conda")
    if conda and not interp.conda:
        found["conda"] = True
        sources["interpreter.conda"] = where(conda)
    managed = first_stated(statements, "python.externally_managed")
    if managed and not interp.externally_managed:
        found["externally_managed"] = True
        sources["interpreter.externally_managed"] = where(managed)
    if "prefix" in found and not interp.base_prefix:
        found["base_prefix"] = found["prefix"]
    minors = {s["value"] for s in statements if s.get("fact") == "python.minor"}
    if not interp.version and "version" not in found and len(minors) == 1:  # a path's or wheel tag's 'python3.11'
        found["version"] = minors.pop()
        sources["interpreter.version"] = where(first_stated(statements, "python.minor"))
    packages = dict(interp.packages)
    stated_here = set()  # names the statements gave (a probed list's versions are not replaced)
    for stated in statements:
        if stated.get("fact") != "package":
            continue
        name, version = stated["value"]["name"], str(stated["value"]["version"])
        if name not in packages or name in stated_here and version.startswith(packages[name] + "."):
            packages[name] = version  # the first, or a fuller one: 'tensorflow=2.14', then its '2.14.0'
            stated_here.add(name)
    if packages != dict(interp.packages):
        found["packages"] = packages
    if not found:
        return facts
    return dataclasses.replace(facts, interpreter=dataclasses.replace(interp, **found))


def _fill_torch(facts: MachineFacts, statements: Sequence[Statement], sources: Dict[str, str]) -> MachineFacts:
    stated = (first_stated(statements, "torch.version") or first_stated(statements, "torch.arch_list")
              or first_stated(statements, "torch.driver_too_old") or first_stated(statements, "torch.cuda_available")
              or first_stated(statements, "torch.cuda_version")  # 'torch was compiled with 11.8': a CUDA torch
              or first_stated(statements, "torch.incompatible"))  # 'sm_61 is not compatible': a CUDA torch
    if not stated:
        return facts
    if "torch" in facts.frameworks:
        return _add_torch_warnings(facts, statements)
    version = first_stated(statements, "torch.version")
    listed = facts.package("torch")  # a pip list beside collect_env's 'PyTorch version' line
    data: Dict[str, Any] = {"version": version["value"] if version else (listed or ""), "cuda_version": None,
                            "hip_version": None}
    arches = first_stated(statements, "torch.arch_list")
    if arches is not None:
        data["arch_list"] = arches["value"].split()
    incompatible = [s["value"] for s in statements if s.get("fact") == "torch.incompatible"]
    if incompatible:
        data["incompatible_capabilities"] = sorted(set(incompatible))
    too_old = first_stated(statements, "torch.driver_too_old")
    if too_old is not None:  # torch's own CUDA initialisation said so
        data.update(driver_too_old=too_old["value"], cuda_available=False)
    for fact, key in (("torch.cuda_version", "cuda_version"), ("torch.hip_version", "hip_version"),
                      ("torch.cuda_available", "cuda_available"), ("torch.mps_available", "mps_available"),
                      ("torch.mps_built", "mps_built")):
        found = first_stated(statements, fact)
        if found is not None:
            data[key] = found["value"]
    major_minor = versions.release(data["version"])[:2]
    no_cuda_mac = facts.is_mac and (facts.cpu.apple_silicon is True  # no CUDA exists for arm64 macOS
                                     or len(major_minor) == 2 and major_minor >= (1, 13))
    if (re.search(r"\+cpu\b", data["version"]) or no_cuda_mac) and data.get("cuda_available") is None:
        # a '+cpu' wheel is built without CUDA or ROCm; torch 1.13 and later need CUDA 11.6+, which NVIDIA never
        # shipped for macOS (its last macOS toolkit is 10.2): torch.cuda.is_available() is False
        data["cuda_available"] = False
    local = re.search(r"\+(cu|rocm)(\d+(?:\.\d+)*)", data["version"])
    if local and local.group(1) == "cu" and data["cuda_version"] is None and len(local.group(2)) >= 3:
        digits = local.group(2)
        data["cuda_version"] = f"{digits[:-1]}.{digits[-1]}"
    if not ("+" in data["version"] or too_old is not None or data.get("cuda_available") is True
            or any(s.get("fact") in ("torch.cuda_version", "torch.hip_version", "torch.arch_list", "torch.incompatible")
                   for s in statements)):
        data["build_unknown"] = True  # a bare '2.1.1' names no build: PyPI's is CUDA on Linux, CPU-only on Windows
    sources["frameworks.torch"] = where(stated)
    frameworks = dict(facts.frameworks, torch=FrameworkFacts("torch", True, data))
    return dataclasses.replace(facts, frameworks=frameworks)


def _add_torch_warnings(facts: MachineFacts, statements: Sequence[Statement]) -> MachineFacts:
    """torch's own warnings (arch list, incompatible GPU, driver too old) beside a parsed collect_env."""
    probe = facts.frameworks["torch"]
    data = dict(probe.data)
    arches = first_stated(statements, "torch.arch_list")
    if arches is not None and not data.get("arch_list"):
        data["arch_list"] = arches["value"].split()
    incompatible = sorted({s["value"] for s in statements if s.get("fact") == "torch.incompatible"})
    if incompatible and not data.get("incompatible_capabilities"):
        data["incompatible_capabilities"] = incompatible
    too_old = first_stated(statements, "torch.driver_too_old")
    if too_old is not None and not data.get("driver_too_old"):
        data["driver_too_old"] = too_old["value"]
    for fact, key in (("torch.cuda_available", "cuda_available"), ("torch.mps_available", "mps_available"),
                      ("torch.mps_built", "mps_built")):
        available = first_stated(statements, fact)
        if available is not None and data.get(key) is None:
            data[key] = available["value"]
    build = first_stated(statements, "torch.cuda_version")  # 'PyTorch CUDA: 11.7' beside a bare '1.13.0'
    if build is not None and data.get("build_unknown") and not data.get("cuda_version") and build["value"]:
        data["cuda_version"] = build["value"]
        data.pop("build_unknown")
    if data == dict(probe.data):
        return facts
    return dataclasses.replace(facts, frameworks=dict(facts.frameworks, torch=dataclasses.replace(probe, data=data)))


def _fill_jax(facts: MachineFacts, statements: Sequence[Statement], sources: Dict[str, str]) -> MachineFacts:
    """jax.print_environment_info()'s device list is jax's own answer, like the probe's."""
    stated = first_stated(statements, "jax.platforms")
    version = facts.package("jax") or ""  # jax answered, so it imports, whatever version the text shows
    if "jax" in facts.frameworks or stated is None:
        return facts
    platforms = [p for p in stated["value"].split(",") if p]
    sources["frameworks.jax"] = where(stated)
    data = {"version": version, "platforms": platforms, "devices": [f"{p} device" for p in platforms]}
    return dataclasses.replace(facts, frameworks=dict(facts.frameworks, jax=FrameworkFacts("jax", True, data)))


def _fill_tensorflow(facts: MachineFacts, statements: Sequence[Statement], sources: Dict[str, str]) -> MachineFacts:
    """TensorFlow's own log saying it could not load its CUDA libraries (and created no GPU device), or its
    empty answer to list_physical_devices('GPU'): it imports, and runs on the CPU."""
    missing = [s for s in statements if s.get("fact") == "tensorflow.missing_gpu_library"]
    ignored = first_stated(statements, "tensorflow.ignored_gpu")  # 'Ignoring visible gpu device ...'
    no_gpu = first_stated(statements, "tensorflow.no_gpu") or ignored
    if "tensorflow" in facts.frameworks or not (missing or no_gpu) or first_stated(statements, "tensorflow.gpu_device"):
        return facts
    sources["frameworks.tensorflow"] = where(missing[0] if missing else no_gpu)
    data = {"version": facts.package("tensorflow") or "", "gpus": [],
            "missing_gpu_libraries": sorted({s["value"] for s in missing})}
    if ignored:
        data["ignored_gpu"] = ignored["value"]
    return dataclasses.replace(facts, frameworks=dict(facts.frameworks, tensorflow=FrameworkFacts("tensorflow", True, data)))


def _torch_in_use(facts: MachineFacts, statements: Sequence[Statement], sources: Dict[str, str]) -> MachineFacts:
    """'2.1.2+rocm5.6' names its ROCm build; an app's torch device 'mps' (ComfyUI's 'Type: mps') says torch
    was built with MPS and found it."""
    probe = facts.frameworks.get("torch")
    if probe is None:
        return facts
    data = dict(probe.data)
    rocm = re.search(r"\+rocm(\d+\.\d+)", str(data.get("version") or ""))
    if rocm and not data.get("hip_version"):
        data["hip_version"] = rocm.group(1)
        sources["frameworks.torch.hip_version"] = f"torch's version tag {data.get('version')}"
    mps = next((s for s in statements if s.get("fact") == "metal.in_use" and s.get("value") == "mps"), None)
    if mps is not None and facts.is_mac and data.get("mps_built") is None and data.get("mps_available") is None:
        data.update(mps_built=True, mps_available=True)
        sources["frameworks.torch.mps_available"] = where(mps)
    if data == dict(probe.data):
        return facts
    return dataclasses.replace(facts, frameworks=dict(facts.frameworks, torch=dataclasses.replace(probe, data=data)))


def torch_build_from_tag(facts: MachineFacts, sources: Dict[str, str]) -> MachineFacts:
    """'2.7.0+cu126' names its CUDA build even where 'CUDA used to build PyTorch' was cut off."""
    probe = facts.frameworks.get("torch")
    tag = re.search(r"\+cu(\d)(\d{2}|\d)$", str(probe.data.get("version") or "")) if probe is not None else None
    if tag is None or probe.data.get("cuda_version"):
        return facts
    major, minor = (tag.group(1) + tag.group(2)[:-1], tag.group(2)[-1]) if len(tag.group(2)) == 2 else (tag.group(1), tag.group(2))
    sources["frameworks.torch.cuda_version"] = f"torch's version tag {probe.data.get('version')}"
    data = dict(probe.data, cuda_version=f"{major}.{minor}")
    return dataclasses.replace(facts, frameworks=dict(facts.frameworks, torch=dataclasses.replace(probe, data=data)))


def fill_from_statements(facts: MachineFacts, statements: Sequence[Statement]) -> MachineFacts:
    """The facts, with every unknown a statement gives filled in and its line recorded in sources."""
    sources: Dict[str, str] = dict(facts.sources)
    for step in (_fill_os, _fill_cpu, _fill_interpreter, _fill_torch, _fill_jax, _fill_tensorflow, fill_gpus):
        facts = step(facts, statements, sources)
    facts = _torch_in_use(torch_build_from_tag(facts, sources), statements, sources)
    used = tuple(sorted({s["value"] for s in statements if s.get("fact") == "framework.used"}))
    if used:
        facts = dataclasses.replace(facts, frameworks_in_use=used)
    wanted: Dict[str, Tuple[str, ...]] = {}
    for statement in (s for s in statements if s.get("fact") == "package.wanted"):
        name, spec = statement["value"]["name"], statement["value"]["version"]
        wanted[name] = wanted.get(name, ()) + ((spec,) if spec not in wanted.get(name, ()) else ())
    if wanted:
        facts = dataclasses.replace(facts, packages_wanted=wanted)
    env = {name: value for name, value in stated_env(statements).items() if name not in facts.env}
    if env:  # a variable set in the text ('export CUDA_VISIBLE_DEVICES=6,7'): the run it describes had it
        facts = dataclasses.replace(facts, env={**facts.env, **env})
        sources.update({f"env.{name}": where(next(s for s in statements if s.get("fact") == "env"
                                                  and s["value"]["name"] == name)) for name in env})
    translated = first_stated(statements, "process.translated")
    if translated is not None and facts.translated_process is None:
        facts = dataclasses.replace(facts, translated_process=bool(translated["value"]))
        sources["translated_process"] = where(translated)
    return dataclasses.replace(facts, sources=sources)


def statement_arches(statements: Sequence[Statement]) -> Tuple[Optional[Statement], Optional[Statement]]:
    """(a process's arch statement, the hardware's) for the Rosetta inference."""
    return first_stated(statements, "process.arch"), first_stated(statements, "cpu.hardware_arch")
