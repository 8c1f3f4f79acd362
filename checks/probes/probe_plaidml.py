"""PlaidML's own view of its devices, as one JSON object (runs in the target interpreter).

Stdlib + plaidml only; works on Python 3.6+. Facts that need no import (config files,
settings file, enum34, keras version) are reported even when `import plaidml` fails.
The watchdog and the stdout redirect (PlaidML's C library prints) are _probe_common's.

Usage: python probe_plaidml.py [--timeout SECONDS]
"""
import os
import sys


def _stdlib_before_enum34():
    """enum34 ahead of the stdlib on sys.path (typically PYTHONPATH=site-packages) makes
    `import re` fail with "module 'enum' has no attribute 'IntFlag'"; put the stdlib
    first so this probe can still answer, and report that it happened."""
    stdlib = os.path.dirname(os.__file__)
    if stdlib not in sys.path:
        return False
    ahead = sys.path[:sys.path.index(stdlib)]
    if not any(os.path.exists(os.path.join(p or ".", "enum", "__init__.py")) for p in ahead):
        return False
    sys.path.remove(stdlib)
    sys.path.insert(0, stdlib)
    loaded = sys.modules.get("enum")  # newer Pythons import enum during start-up
    if loaded is not None and not (getattr(loaded, "__file__", "") or "").startswith(stdlib):
        del sys.modules["enum"]
    return True


ENUM34_SHADOWS_STDLIB = _stdlib_before_enum34()

import glob  # noqa: E402  (after the sys.path repair above)
import json  # noqa: E402

from _probe_common import run_probe  # noqa: E402

ENV_KEYS = ("PLAIDML_DEVICE_IDS", "PLAIDML_EXPERIMENTAL", "PLAIDML_SETTINGS")


def dist_version(name):
    """Installed version of a distribution, without importing it (Python 3.6 has no
    importlib.metadata, so dist-info/egg-info folders are read directly)."""
    wanted = name.lower().replace("-", "_")
    for entry in sys.path:
        for meta in glob.glob(os.path.join(entry or ".", "*.*-info")):
            base = os.path.basename(meta).rsplit(".", 1)[0]
            dist, _, version = base.partition("-")
            if dist.lower().replace("-", "_") == wanted and version:
                return version.split("-")[0]
    return None


def find_config(filename):
    """Where plaidml.settings looks for its config files (plaidml 0.7.0, settings.py)."""
    for prefix in (sys.prefix, os.path.join(sys.prefix, "local")):
        path = os.path.join(prefix, "share", "plaidml", filename)
        if os.path.exists(path):
            return path
    return None


def installed_config_dir():
    """Where pip really put the wheel's share/plaidml files, from the dist's RECORD.
    With `pip install --user` that is USER_BASE/share/plaidml, which plaidml never reads."""
    for entry in sys.path:
        for record in glob.glob(os.path.join(entry or ".", "plaidml-*.dist-info", "RECORD")):
            try:
                with open(record) as handle:
                    lines = handle.read().splitlines()
            except OSError:
                continue
            for line in lines:
                rel = line.split(",")[0]
                if rel.replace("\\", "/").endswith("share/plaidml/config.json"):
                    path = os.path.normpath(os.path.join(entry or ".", rel))
                    return os.path.dirname(path) if os.path.exists(path) else None
    return None


def settings_path():
    """The settings file plaidml will read: $PLAIDML_SETTINGS, ~/.plaidml, /etc/plaidml."""
    candidates = [os.environ.get("PLAIDML_SETTINGS", ""),
                  os.path.expanduser(os.path.join("~", ".plaidml")), "/etc/plaidml"]
    for path in candidates:
        if path and os.path.exists(path):
            return path
    return None


def read_settings(path):
    if path is None:
        return None, None
    try:
        with open(path) as handle:
            return json.load(handle), None
    except (OSError, ValueError) as exc:
        return None, "%s: %s" % (path, exc)


def file_facts():
    path = settings_path()
    settings, settings_error = read_settings(path)
    config = os.environ.get("PLAIDML_DEFAULT_CONFIG") or find_config("config.json")
    experimental = os.environ.get("PLAIDML_EXPERIMENTAL_CONFIG") or find_config("experimental.json")
    return {
        "version": dist_version("plaidml"),
        "keras_version": dist_version("keras"),
        "plaidml_keras_version": dist_version("plaidml-keras"),
        "enum34": dist_version("enum34") is not None,
        "enum34_shadows_stdlib": ENUM34_SHADOWS_STDLIB,
        "config_present": bool(config and os.path.exists(config)),
        "experimental_present": bool(experimental and os.path.exists(experimental)),
        "config_dir": os.path.join(sys.prefix, "share", "plaidml"),
        "config_installed_dir": installed_config_dir(),
        "settings_file": path,
        "settings": settings,
        "settings_error": settings_error,
        "device_ids_env": os.environ.get("PLAIDML_DEVICE_IDS"),
        "experimental_env": os.environ.get("PLAIDML_EXPERIMENTAL"),
        "env": {k: os.environ[k] for k in ENV_KEYS if k in os.environ},
    }


def _ids(devconfs):
    return [d.id.decode() if isinstance(d.id, bytes) else str(d.id) for d in devconfs]


def _descriptions(devconfs):
    out = {}
    for dev in devconfs:
        desc = dev.description
        out[_ids([dev])[0]] = desc.decode() if isinstance(desc, bytes) else str(desc)
    return out


def enumerate_devices():
    import plaidml
    import plaidml.exceptions
    import plaidml.settings as settings

    plaidml.quiet()
    ctx = plaidml.Context()
    facts = {"plaidml_version": str(plaidml.__version__), "configured": bool(settings.setup),
             "experimental": bool(settings.experimental)}
    # What the user's settings/env select; plaidml refuses to enumerate before setup.
    configured = []
    if settings.setup:
        configured, _ = plaidml.devices(ctx, limit=100, return_all=True)
    facts["configured_devices"] = _ids(configured)
    # Everything visible: drop the id filter (it moves other devices to "invalid") and
    # look with and without experimental support, as plaidml-setup does.
    os.environ.pop("PLAIDML_DEVICE_IDS", None)
    seen = []
    for experimental in (False, True):
        settings.experimental = experimental
        valid, invalid = plaidml.devices(ctx, limit=100, return_all=True)
        seen.extend(valid)
        seen.extend(invalid)
        if not experimental:
            facts["default_devices"] = _ids(valid)
    unique = {}
    for dev in seen:
        unique.setdefault(_ids([dev])[0], dev)
    facts["devices"] = list(unique)
    facts["descriptions"] = _descriptions(unique.values())
    return facts


def base_facts():
    facts = {"devices": [], "configured_devices": [], "default_devices": [], "descriptions": {},
             "configured": False, "experimental": None}
    facts.update(file_facts())
    facts["installed"] = facts["version"] is not None
    return facts


if __name__ == "__main__":
    run_probe("plaidml", "plaidml", enumerate_devices, extra_facts=base_facts)
