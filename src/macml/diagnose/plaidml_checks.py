"""PlaidML checks: the install (config files, enum34, keras 2.2.4, arm64) and device ids."""
from __future__ import annotations

from typing import List, Optional, Sequence

from macml.diagnose.common import pip_cmd, reinstall_recipe
from macml.facts import MachineFacts
from macml.diagnose.findings import Finding, Fix, fail, ok, warn
from macml.recipes.catalog import Recipe

REINSTALL = "install --force-reinstall plaidml-keras==0.7.0 keras==2.2.4"


def plaidml_problems(facts: MachineFacts) -> List[str]:
    interp, probe = facts.interpreter, facts.frameworks.get("plaidml")
    problems = []
    if interp and interp.machine == "arm64":
        problems.append("plaidml has no arm64 wheel: it only runs in an x86_64 Python (Rosetta)")
    if facts.package("enum34"):
        problems.append("enum34 is installed: it shadows the standard enum module (no enum.IntFlag) and breaks imports")
    keras = facts.package("keras")
    if facts.package("plaidml-keras") and keras != "2.2.4":
        problems.append(f"plaidml-keras needs keras 2.2.4, found {keras or 'none'}")
    if probe is not None and probe.ok:
        if not probe.data.get("config_present", True) or not probe.data.get("experimental_present", True):
            problems.append("plaidml's config.json / experimental.json are missing from sys.prefix/share/plaidml")
    elif probe is not None and probe.error:
        problems.append("import plaidml fails: " + probe.error.splitlines()[-1])
    return problems


def check_plaidml_install(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """plaidml without its config files, with enum34, with keras != 2.2.4, or on arm64."""
    if not facts.package("plaidml"):
        return None
    problems = plaidml_problems(facts)
    if not problems:
        return ok("PlaidML", f"plaidml {facts.package('plaidml')} is installed correctly")
    commands = []
    if facts.package("enum34"):
        commands.append(pip_cmd(facts, "uninstall -y enum34"))
    commands.append(pip_cmd(facts, REINSTALL))
    return fail("PlaidML", problems[0],
                Fix("Repair the install (the PlaidML recipe does all of this):",
                    tuple(commands) + reinstall_recipe(recipes, "plaidml", "metal")), *problems[1:])


def check_plaidml_devices(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """PLAIDML_DEVICE_IDS (or the settings file) naming a device that does not exist."""
    probe = facts.frameworks.get("plaidml")
    if probe is None or not probe.ok:
        return None
    available = list(probe.data.get("devices") or [])
    from_env = facts.env.get("PLAIDML_DEVICE_IDS")
    wanted = from_env.split() if from_env else list(probe.data.get("configured_devices") or [])
    source = "PLAIDML_DEVICE_IDS" if from_env else "the PlaidML settings file"
    unknown = [d for d in wanted if d not in available]
    if unknown:
        return fail("PlaidML", f"{source} names {', '.join(unknown)}, which PlaidML cannot see",
                    Fix("Pick one of the devices it does see (macml chooses the best non-interactively):",
                        (("unset PLAIDML_DEVICE_IDS",) if from_env else ()) + reinstall_recipe(recipes, "plaidml", "metal")),
                    "available: " + (", ".join(available) or "none"))
    if len(wanted) > 1:
        return fail("PlaidML", f"{source} names {len(wanted)} devices; Keras opens exactly one "
                    "('Too many devices configured')",
                    Fix("Keep one device (macml picks the best GPU):", reinstall_recipe(recipes, "plaidml", "metal")),
                    "configured: " + ", ".join(wanted))
    if not wanted:
        return None
    if wanted[0].startswith("llvm_cpu"):
        gpus = [d for d in available if not d.startswith("llvm_cpu")]
        return warn("PlaidML", f"PlaidML uses {wanted[0]}, which is the CPU",
                    Fix("Pick a GPU device (macml chooses the best one):" if gpus else
                        "PlaidML sees no GPU device here: check the GPU driver (Metal/OpenCL), or use a CPU build of "
                        "a current framework instead.", reinstall_recipe(recipes, "plaidml", "metal")),
                    "available: " + (", ".join(available) or "none"))
    return ok("PlaidML", f"PlaidML uses {wanted[0]}")
