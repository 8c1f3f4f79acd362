"""Facts about the interpreter running this script, printed as one JSON object.

Runs INSIDE the target interpreter: standard library only, Python 3.6+.
"""
import json
import os
import platform
import struct
import sys
import sysconfig


def canonical(name):
    return "".join("-" if c in "_." else c for c in name.lower())


def installed_packages():
    packages = {}
    try:
        from importlib import metadata
    except ImportError:  # Python < 3.8: read the metadata folder names directly
        metadata = None
    if metadata is not None:
        for dist in metadata.distributions():
            name = dist.metadata["Name"]
            if name:
                packages.setdefault(canonical(name), dist.version)
        return packages
    for entry in sys.path:
        if not os.path.isdir(entry):
            continue
        for item in os.listdir(entry):
            for suffix in (".dist-info", ".egg-info"):
                if item.endswith(suffix) and "-" in item:
                    name, _, version = item[: -len(suffix)].partition("-")
                    packages.setdefault(canonical(name), version.split("-")[0])
    return packages


def externally_managed():
    if sys.prefix != getattr(sys, "base_prefix", sys.prefix):
        return False
    stdlib = sysconfig.get_path("stdlib") or ""
    return os.path.isfile(os.path.join(stdlib, "EXTERNALLY-MANAGED"))


def translated():
    """1 when this process runs under Rosetta 2 (macOS only)."""
    if sys.platform != "darwin":
        return None
    try:
        import ctypes

        libc = ctypes.CDLL("/usr/lib/libc.dylib")
        value = ctypes.c_int(0)
        size = ctypes.c_size_t(ctypes.sizeof(value))
        rc = libc.sysctlbyname(b"sysctl.proc_translated", ctypes.byref(value), ctypes.byref(size), None, 0)
        return bool(value.value) if rc == 0 else False
    except Exception:
        return None


def glibc_version():
    try:
        return os.confstr("CS_GNU_LIBC_VERSION").split()[1]
    except (AttributeError, ValueError, OSError, IndexError):
        return None


def environment_markers():
    """PEP 508 marker values, so requirement markers can be evaluated for this interpreter."""
    impl = sys.implementation
    return {
        "implementation_name": impl.name,
        "implementation_version": "%d.%d.%d" % impl.version[:3],
        "os_name": os.name,
        "platform_machine": platform.machine(),
        "platform_release": platform.release(),
        "platform_system": platform.system(),
        "platform_version": platform.version(),
        "python_full_version": platform.python_version(),
        "platform_python_implementation": platform.python_implementation(),
        "python_version": "%d.%d" % sys.version_info[:2],
        "sys_platform": sys.platform,
    }


def collect():
    packages = installed_packages()
    return {
        "executable": sys.executable,
        "version": "%d.%d.%d" % sys.version_info[:3],
        "implementation": sys.implementation.name,
        "machine": platform.machine(),
        "bits": struct.calcsize("P") * 8,
        "prefix": sys.prefix,
        "base_prefix": getattr(sys, "base_prefix", sys.prefix),
        "conda": os.path.isdir(os.path.join(sys.prefix, "conda-meta")),
        "externally_managed": externally_managed(),
        "pip_version": packages.get("pip"),
        "packages": packages,
        "translated": translated(),
        "platform_tag": sysconfig.get_platform(),
        "mac_ver": platform.mac_ver()[0] if sys.platform == "darwin" else None,
        "glibc": glibc_version(),
        "gil_disabled": bool(sysconfig.get_config_var("Py_GIL_DISABLED")),
        "markers": environment_markers(),
    }


def main():
    if sys.version_info < (3, 6):  # this file stays readable by Python 2, so it can say so plainly
        sys.stderr.write("macml needs Python 3.6 or newer in the target; this is Python %s\n"
                         % platform.python_version())
        sys.exit(3)
    sys.stdout.write(json.dumps(collect()))


if __name__ == "__main__":
    main()
