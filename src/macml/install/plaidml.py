"""Non-interactive PlaidML set-up: what plaidml-setup asks at its prompts, decided.

plaidml-setup (plaidml 0.7.0) asks "experimental?", "which device?", "save?", then writes
~/.plaidml (or $PLAIDML_SETTINGS). Here the device choice is a pure function over the
device ids that checks/probes/probe_plaidml.py reports from inside the target interpreter, and
the settings file is written atomically in the same format plaidml-setup writes.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Mapping, Optional, Sequence

from macml import frameworks
from macml.errors import MacmlError
from macml.paths import write_atomically
from macml.paths import check_script
from macml.probe.frameworks import probe_argv
from macml.probe.runner import run_command

PROBE_TIMEOUT = 60.0
CONFIG_FILES = ("config.json", "experimental.json")
INSTALL_HINT = "{python} -m pip install plaidml-keras==0.7.0 && {python} -m pip uninstall -y enum34"

# Best first: an AMD (or other discrete) GPU through Metal, then through OpenCL, then an
# Intel iGPU, then the CPU through LLVM.
RANK_METAL_GPU, RANK_OPENCL_GPU, RANK_INTEGRATED, RANK_CPU, RANK_UNKNOWN = range(5)


def device_rank(device_id: str) -> int:
    ident = device_id.lower()
    if ident.startswith("llvm_cpu") or "cpu" in ident or "core(tm)" in ident:
        return RANK_CPU
    if "intel" in ident:
        return RANK_INTEGRATED
    if ident.startswith("metal_"):
        return RANK_METAL_GPU
    if ident.startswith("opencl_"):
        return RANK_OPENCL_GPU
    return RANK_UNKNOWN


def choose_device(device_ids: Sequence[str]) -> str:
    """The device plaidml should use: the best GPU, else the CPU; ties keep list order."""
    if not device_ids:
        raise MacmlError("PlaidML sees no device at all.",
                         "Run `plaidml-setup` once to see its own diagnosis, or `macml doctor`.")
    order = sorted(range(len(device_ids)), key=lambda i: (device_rank(device_ids[i]), i))
    return device_ids[order[0]]


def settings_path(env: Mapping[str, str] = os.environ, home: Optional[Path] = None) -> Path:
    """Where plaidml-setup saves: $PLAIDML_SETTINGS if set, else ~/.plaidml."""
    if env.get("PLAIDML_SETTINGS"):
        return Path(env["PLAIDML_SETTINGS"])
    return (home or Path.home()) / ".plaidml"


def settings_document(device_id: str, experimental: bool) -> str:
    """Byte for byte what plaidml.settings.save() writes after plaidml-setup."""
    settings = {"PLAIDML_DEVICE_IDS": [device_id], "PLAIDML_EXPERIMENTAL": bool(experimental)}
    return json.dumps(settings, sort_keys=True, indent=4, separators=(",", ":"))


def write_settings(path: Path, device_id: str, experimental: bool) -> None:
    try:
        write_atomically(path, settings_document(device_id, experimental))
    except OSError as exc:
        raise MacmlError(f"Could not write the PlaidML settings file {path}: {exc.strerror or exc}",
                         "Point PLAIDML_SETTINGS at a writable file and run this again.") from exc


def parse_probe_output(stdout: str) -> Dict[str, Any]:
    """The probe's JSON object (its last stdout line), or a clear error."""
    lines = [line for line in stdout.strip().splitlines() if line.strip()]
    try:
        data = json.loads(lines[-1])
    except (IndexError, ValueError):
        data = None
    if not isinstance(data, dict) or data.get("name") != "plaidml":
        raise MacmlError("The PlaidML probe gave no answer.",
                         "Run `macml doctor -v` to see what the interpreter printed.")
    return data


def probe(python: str, timeout: float = PROBE_TIMEOUT, ignore_settings: bool = True) -> Dict[str, Any]:
    """Run checks/probes/probe_plaidml.py in the target interpreter.

    ignore_settings: an existing settings file with a bad key or bad JSON makes
    `import plaidml` itself fail; point PLAIDML_SETTINGS at an empty document so that
    reconfiguring still works.
    """
    argv = probe_argv(python, check_script(frameworks.BY_NAME["plaidml"].probe_script), timeout)
    with tempfile.TemporaryDirectory(prefix="macml-plaidml-") as tmp:
        env = dict(os.environ)
        if ignore_settings:
            empty = Path(tmp) / "settings.json"
            empty.write_text("{}")
            env["PLAIDML_SETTINGS"] = str(empty)
        result = run_command(argv, timeout=timeout, env=env)
    if result.missing:
        raise MacmlError(f"Cannot run {python}.", "Pass --python with the path of an existing interpreter.")
    if result.timed_out:
        raise MacmlError(f"The PlaidML probe did not finish within {timeout:g}s.",
                         "PlaidML's driver enumeration hung; run `plaidml-setup` by hand to see where.")
    return parse_probe_output(result.stdout)


def import_failure(python: str, facts: Mapping[str, Any]) -> MacmlError:
    """What is wrong when plaidml is missing or does not import, and the fix."""
    if not facts.get("installed"):
        return MacmlError(f"PlaidML is not installed in {python}.",
                          INSTALL_HINT.format(python=python), exit_code=1)
    error = facts.get("error") or "unknown error"
    if not (facts.get("config_present") and facts.get("experimental_present")):
        hint = config_hint(python, facts)
    elif "IntFlag" in error:
        hint = f"{python} -m pip uninstall -y enum34"
    elif "Invalid key" in error or "settings" in error.lower():
        hint = "Fix or delete the PlaidML settings file named in the error, then run this again."
    else:
        hint = "Run `macml doctor -v` for the full picture."
    return MacmlError(f"PlaidML does not import in {python}: {error}", hint, exit_code=1)


def config_hint(python: str, facts: Mapping[str, Any]) -> str:
    source, target = facts.get("config_installed_dir"), facts.get("config_dir")
    if source and target:  # typically `pip install --user`
        return f"mkdir -p {target} && cp {source}/config.json {source}/experimental.json {target}/"
    return f"{python} -m pip install --force-reinstall --no-deps plaidml==0.7.0"


def candidate_devices(facts: Mapping[str, Any], experimental: bool) -> list:
    key = "devices" if experimental else "default_devices"
    return [str(d) for d in facts.get(key) or []]


def configure(python: str, device_id: Optional[str] = None, experimental: bool = True) -> str:
    """plaidml-setup without prompts: pick the device, write the settings file."""
    facts = probe(python)
    if not facts.get("ok"):
        raise import_failure(python, facts)
    devices = candidate_devices(facts, experimental)
    if device_id is None:
        device_id = choose_device(devices)
    elif device_id not in devices:
        shown = ", ".join(devices) or "none"
        raise MacmlError(f"PlaidML has no device {device_id!r}.", f"Devices it can see: {shown}.")
    path = settings_path()
    write_settings(path, device_id, experimental)
    description = (facts.get("descriptions") or {}).get(device_id)
    named = f"{device_id} ({description})" if description else device_id
    message = f"PlaidML will use {named}; settings written to {path}."
    if os.environ.get("PLAIDML_DEVICE_IDS"):
        message += f" Note: PLAIDML_DEVICE_IDS={os.environ['PLAIDML_DEVICE_IDS']} in your environment overrides it."
    return message


@dataclass(frozen=True)
class ConfigRepair:
    source_dir: str  # where pip put the wheel's share/plaidml files
    target_dir: str  # sys.prefix/share/plaidml, the only place plaidml looks


def plan_config_repair(facts: Mapping[str, Any]) -> Optional[ConfigRepair]:
    """None when the config files are where plaidml looks; raises when there is nothing to copy."""
    if facts.get("config_present") and facts.get("experimental_present"):
        return None
    source, target = facts.get("config_installed_dir"), facts.get("config_dir")
    if not source or not target:
        raise MacmlError("PlaidML's config.json / experimental.json are missing and no copy was found.",
                         "Reinstall them: python -m pip install --force-reinstall --no-deps plaidml==0.7.0")
    return ConfigRepair(str(source), str(target))


def copy_config_files(repair: ConfigRepair) -> None:
    try:
        Path(repair.target_dir).mkdir(parents=True, exist_ok=True)
        for name in CONFIG_FILES:
            shutil.copy2(os.path.join(repair.source_dir, name), os.path.join(repair.target_dir, name))
    except OSError as exc:
        raise MacmlError(
            f"Could not copy PlaidML's config files into {repair.target_dir}: {exc.strerror or exc}",
            f"Either: sudo mkdir -p {repair.target_dir} && sudo cp {repair.source_dir}/{{config,experimental}}.json "
            f"{repair.target_dir}/\nor: export PLAIDML_DEFAULT_CONFIG={repair.source_dir}/config.json "
            f"PLAIDML_EXPERIMENTAL_CONFIG={repair.source_dir}/experimental.json",
        ) from exc


def install_config_files(python: str) -> str:
    """Put config.json/experimental.json where plaidml looks (`pip install --user` leaves them
    in USER_BASE/share/plaidml, and `import plaidml` then fails)."""
    facts = probe(python)
    if not facts.get("installed"):
        raise import_failure(python, facts)
    repair = plan_config_repair(facts)
    if repair is None:
        return f"PlaidML's config files are in place ({facts.get('config_dir')})."
    copy_config_files(repair)
    return f"Copied PlaidML's config files from {repair.source_dir} to {repair.target_dir}."
