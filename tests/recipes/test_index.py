"""Pre-flight against recorded PyPI JSON served by a real local HTTP server."""
from __future__ import annotations

import socket
import sys

import pytest
from packaging import tags

from conftest import ReplyHandler, local_http_server
from macml.recipes import index as pypi
from macml.recipes import tags as target_platform
from macml.probe.interpreter import parse_interpreter, probe_interpreter_raw
from macml.recipes.tags import TargetPlatform

from conftest import RECIPE_FIXTURES

RECORDED = RECIPE_FIXTURES / "pypi"


class _Handler(ReplyHandler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        parts = self.path.strip("/").split("/")
        path = RECORDED / f"{parts[1]}.json" if len(parts) == 3 and parts[0] == "pypi" and parts[2] == "json" else None
        if path is None or not path.exists():
            return self.reply(404)
        return self.reply(200, path.read_bytes())


@pytest.fixture(scope="module")
def pypi_server():
    with local_http_server(_Handler) as url:
        yield url


MAC_ARM_312 = TargetPlatform("cpython", (3, 12), "macOS", "arm64", os_version=(14, 4),
                             markers={"python_version": "3.12", "sys_platform": "darwin"})
MAC_ARM_313 = TargetPlatform("cpython", (3, 13), "macOS", "arm64", os_version=(15, 2))
MAC_ARM_13 = TargetPlatform("cpython", (3, 11), "macOS", "arm64", os_version=(13, 6))
MAC_X86_311 = TargetPlatform("cpython", (3, 11), "macOS", "x86_64", os_version=(14, 6))
LINUX_311 = TargetPlatform("cpython", (3, 11), "Linux", "x86_64", glibc=(2, 36),
                           markers={"python_version": "3.11", "sys_platform": "linux"})
LINUX_OLD_GLIBC = TargetPlatform("cpython", (3, 11), "Linux", "x86_64", glibc=(2, 17))

CASES = [
    ("tensorflow-metal==1.2.0", MAC_ARM_312, None, "cp312-cp312-macosx_12_0_arm64"),
    ("tensorflow-metal==1.2.0", MAC_ARM_313, "Python", "no wheel for Python 3.13; wheels exist for cp39–cp312"),
    ("tensorflow-metal==1.1.0", MAC_ARM_312, "Python", "wheels exist for cp39–cp311"),
    ("tensorflow-metal==1.2.0", LINUX_311, "OS", "wheels exist only for macOS"),
    ("tensorflow-metal==1.2.0", MAC_X86_311, "arch", "no wheel for x86_64; wheels exist only for arm64"),
    ("torch==2.13.0", MAC_ARM_13, "macOS version", "needs macOS 14.0 or newer; the target is macOS 13.6"),
    ("torch==2.13.0", LINUX_OLD_GLIBC, "glibc", "needs glibc 2.28 or newer; the target has 2.17"),
    ("torch==2.13.0", LINUX_311, None, "cp311-cp311-manylinux_2_28_x86_64"),
    ("six==1.17.0", MAC_ARM_313, None, "py2.py3-none-any"),
    ("macml-no-such-project==1.0", LINUX_311, "index", "is not on"),
    ("six==9.9.9", LINUX_311, "index", "is not on"),
]


@pytest.mark.parametrize("requirement, target, blocker, phrase", CASES,
                         ids=[f"{r}-{t.os}-{t.arch}-cp{t.python[1]}-{b}" for r, t, b, _ in CASES])
def test_preflight_names_the_blocking_constraint(pypi_server, requirement, target, blocker, phrase):
    result = pypi.preflight([requirement], target, base_url=pypi_server)
    assert result.skipped is None
    (check,) = result.checks
    assert check.ok is (blocker is None)
    assert check.blocker == blocker
    assert phrase in check.detail


def test_local_version_label_is_ignored_on_pypi(pypi_server):
    result = pypi.preflight(["torch==2.13.0+cpu"], LINUX_311, base_url=pypi_server)
    assert result.ok and "cp311" in result.checks[0].detail


def test_markers_are_evaluated_for_the_target(pypi_server):
    reqs = ["six==1.17.0; sys_platform == 'darwin'", "tensorflow-metal==1.2.0; sys_platform == 'darwin'"]
    assert [c.requirement for c in pypi.preflight(reqs, LINUX_311, base_url=pypi_server).checks] == []
    assert len(pypi.preflight(reqs, MAC_ARM_312, base_url=pypi_server).checks) == 2


def test_unreachable_pypi_skips_with_a_warning():
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = pypi.preflight(["six==1.17.0"], LINUX_311, base_url=f"http://127.0.0.1:{port}")
    assert result.skipped and "pre-flight skipped" in result.skipped
    assert f"cannot reach 127.0.0.1:{port}" in result.skipped
    assert result.ok


def test_only_pinned_index_requirements_count_as_checked(pypi_server):
    reqs = ["six==1.17.0", "six @ https://example.org/six-1.17.0-py2.py3-none-any.whl", "tomli>=2"]
    result = pypi.preflight(reqs, LINUX_311, base_url=pypi_server)
    assert [c.requirement for c in result.checked] == ["six==1.17.0"]
    assert [c.detail for c in result.unchecked] == ["a direct URL: not checked", "not pinned: not checked"]


def test_base_url_from_environment(monkeypatch):
    monkeypatch.setenv("MACML_PYPI_URL", "http://127.0.0.1:9/")
    assert pypi.pypi_url() == "http://127.0.0.1:9"
    assert pypi.pypi_url("https://mirror.example/") == "https://mirror.example"


def test_parse_target_prefers_sw_vers_over_mac_ver():
    raw = {"executable": "/usr/bin/python3", "implementation": "cpython", "version": "3.11.7",
           "platform_tag": "macosx-10.9-universal2", "machine": "arm64", "glibc": None, "mac_ver": "10.16",
           "markers": {"sys_platform": "darwin"}}
    target = target_platform.parse_target(parse_interpreter(raw), macos_version="14.4.1")
    assert (target.os, target.arch, target.os_version, target.python) == ("macOS", "arm64", (14, 4), (3, 11))
    assert "macosx_14_0_arm64" in target_platform.target_platforms(target)


def test_live_target_tags_cover_this_interpreter():
    target = target_platform.parse_target(parse_interpreter(probe_interpreter_raw(sys.executable)))
    assert set(tags.sys_tags()) <= target_platform.target_tags(target)


@pytest.mark.parametrize("python, wheel_tag", [
    ((3, 7), "cp37-cp37m-manylinux2010_x86_64"),
    ((3, 6), "cp36-cp36m-manylinux1_x86_64"),
    ((3, 8), "cp38-cp38-manylinux1_x86_64"),
], ids=["cp37m", "cp36m", "cp38-no-m"])
def test_old_cpython_abi_tags_carry_the_m_suffix(python, wheel_tag):
    target = TargetPlatform("cpython", python, "Linux", "x86_64", glibc=(2, 36))
    assert tags.Tag(*wheel_tag.split("-")) in target_platform.target_tags(target)
