"""TensorFlow checks: tensorflow-metal against TensorFlow, and doubled installs."""
from __future__ import annotations

from typing import Optional, Sequence

from macml.knowledge.compat import tf_for_metal, tf_metal_for, version
from macml.diagnose.common import install_recipe, pip_cmd
from macml.facts import MachineFacts
from macml.diagnose.findings import Finding, Fix, fail, ok, warn
from macml.recipes.catalog import Recipe

LAST_TF_WITH_METAL = (2, 19)  # tensorflow-metal 1.2.0 is reported broken from TF 2.20 (2.19 unconfirmed)


def installed_tf(facts: MachineFacts) -> Optional[str]:
    return facts.package("tensorflow") or facts.package("tensorflow-macos")


def check_tensorflow_metal(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """tensorflow-metal built for a different TensorFlow (Apple's table), or its plugin failing to load."""
    metal = facts.package("tensorflow-metal")
    tf = installed_tf(facts)
    if not metal or not tf:
        return None
    wanted = tf_metal_for(tf)
    tf_v = version(tf)
    pair = f"tensorflow {tf} with tensorflow-metal {metal}"
    probe = facts.frameworks.get("tensorflow")
    # A failed import is the probe's error; a recorded snapshot may also carry the plugin's own message.
    load_error = (probe.data.get("metal_error") if probe.ok else probe.error) if probe else None
    fix_cmds = ((pip_cmd(facts, f"install 'tensorflow=={tf_v.major}.{tf_v.minor}.*' tensorflow-metal=={wanted}"),)
                if wanted and tf_v else install_recipe(facts, recipes, "tensorflow", "metal"))
    if wanted and version(metal) != version(wanted):
        built_for = ", ".join(tf_for_metal(metal)) or "another release"
        return fail("TensorFlow", f"{pair}: that plugin was built for TensorFlow {built_for}",
                    Fix(f"Install the matching pair (TensorFlow {tf_v.major}.{tf_v.minor} needs tensorflow-metal "
                        f"{wanted}); pip does not enforce it:", fix_cmds),
                    *((load_error.splitlines()[-1],) if load_error else ()))
    if not wanted and tf_v and (tf_v.major, tf_v.minor) > LAST_TF_WITH_METAL:
        return fail("TensorFlow", f"{pair}: no tensorflow-metal release supports TensorFlow {tf_v.major}.{tf_v.minor}",
                    Fix("Use TensorFlow 2.18 with tensorflow-metal 1.2.0 (Python 3.9-3.12):",
                        (pip_cmd(facts, "install 'tensorflow==2.18.*' tensorflow-metal==1.2.0"),)))
    if not wanted:
        return warn("TensorFlow", f"{pair}: this pairing is not in Apple's table (unconfirmed)",
                    Fix("If the GPU is missing, fall back to the newest confirmed pair:",
                        (pip_cmd(facts, "install 'tensorflow==2.18.*' tensorflow-metal==1.2.0"),)))
    if load_error:
        what = "the Metal plugin failed to load" if "metal" in load_error.lower() else "tensorflow fails to import"
        return fail("TensorFlow", f"{pair}: {what}",
                    Fix("Reinstall the matching pair:", fix_cmds), load_error.splitlines()[-1])
    return ok("TensorFlow", f"{pair} is a matching pair")


def check_tensorflow_duplicate(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """tensorflow-macos and tensorflow installed side by side at different versions."""
    macos, plain = facts.package("tensorflow-macos"), facts.package("tensorflow")
    if not macos or not plain or version(macos) == version(plain):
        return None
    return fail("TensorFlow", f"tensorflow-macos {macos} and tensorflow {plain} are both installed: "
                "they overwrite each other's files",
                Fix("Remove both and install one (tensorflow-macos only for TF <= 2.12):",
                    (pip_cmd(facts, "uninstall -y tensorflow tensorflow-macos tensorflow-metal"),)
                    + install_recipe(facts, recipes, "tensorflow", "metal")))
