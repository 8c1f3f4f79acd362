"""Where an install takes its packages from: the user's pip configuration (read with `pip config
list`), the recipe row's own index, and, where that cannot be reached, the PyPI alternative offered
with its download size. Against a local index server and unreachable addresses; the machine's own
pip configuration is shut out (PIP_CONFIG_FILE=/dev/null)."""
from __future__ import annotations

import functools
import http.server
import os
import socket
import sys

import pytest

from conftest import build_wheel, local_http_server
from macml.install import command as install
from macml.install import downloads, pip as install_pip
from macml.install.downloads import Download
from macml.install.sources import PipConfig, install_sources, parse_config_list, read_pip_config

CONFIG_LIST = """:env:.find-links='/opt/wheels /srv/more'
:env:.default-timeout='180'
install.index-url='https://install.example/simple'
global.index-url='https://global.example/simple'
global.extra-index-url='file:///opt/pypi/simple https://extra.example/simple'
garbage line
global.no-index='false'
"""


def test_pip_config_list_is_read_with_pips_precedence():
    config = parse_config_list(CONFIG_LIST)
    assert config.index_url == "https://install.example/simple"  # [install] over [global]
    assert config.extra_index_urls == ("file:///opt/pypi/simple", "https://extra.example/simple")
    assert config.find_links == ("/opt/wheels", "/srv/more") and not config.no_index
    assert config.origin["find-links"] == "PIP_FIND_LINKS"
    assert config.origin["index-url"] == "pip config install.index-url"
    assert parse_config_list("").configured is False
    offline = parse_config_list(":env:.no-index='1'\n")
    assert offline.no_index and install_sources(None, offline).describe() == ("index: none (your PIP_NO_INDEX)",)


def test_the_targets_pip_configuration_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_INDEX_URL", "https://mirror.example/simple")
    monkeypatch.setenv("PIP_EXTRA_INDEX_URL", "https://a.example/simple https://b.example/simple")
    config = read_pip_config(sys.executable)
    assert config.index_url == "https://mirror.example/simple" and config.origin["index-url"] == "PIP_INDEX_URL"
    assert config.extra_index_urls == ("https://a.example/simple", "https://b.example/simple")


MIRROR = PipConfig(index_url="https://mirror.example/simple", extra_index_urls=("https://extra.example/simple",),
                   find_links=("/opt/wheels",), origin={"index-url": "PIP_INDEX_URL",
                                                        "extra-index-url": "pip config global.extra-index-url",
                                                        "find-links": "PIP_FIND_LINKS"})
ROW = "https://download.pytorch.org/whl/cpu"


@pytest.mark.parametrize("row, from_pypi, index, first_line", [
    (ROW, False, ROW, f"index: {ROW} (the recipe's own); it replaces your https://mirror.example/simple "
                      "(PIP_INDEX_URL) for this install"),
    (ROW, True, "https://mirror.example/simple", "index: https://mirror.example/simple (your PIP_INDEX_URL)"),
    (None, False, "https://mirror.example/simple", "index: https://mirror.example/simple (your PIP_INDEX_URL)"),
], ids=["row-index", "from-pypi-takes-the-users-index", "pypi-row-takes-the-users-index"])
def test_sources_and_how_the_plan_names_them(row, from_pypi, index, first_line):
    sources = install_sources(row, MIRROR, from_pypi)
    assert sources.index_url == index
    assert sources.describe() == (first_line,
                                  "extra index: https://extra.example/simple (your pip config global.extra-index-url)",
                                  "find-links: /opt/wheels (your PIP_FIND_LINKS)")


def test_pip_is_told_only_the_rows_index_and_uv_every_place():
    pip = install_pip.Installer("pip", ("py", "-m", "pip"))
    uv = install_pip.Installer("uv", ("uv", "--python", "/t/python"))
    assert pip.source_options(install_sources(ROW, MIRROR)) == ["--index-url", ROW]
    assert pip.source_options(install_sources(None, MIRROR)) == []  # pip reads its configuration itself
    assert uv.source_options(install_sources(None, MIRROR)) == [
        "--index-url", "https://mirror.example/simple", "--extra-index-url", "https://extra.example/simple",
        "--find-links", "/opt/wheels"]


@pytest.mark.parametrize("items, text", [
    ([Download("torch", "2.15.0", "https://f/t.whl", 539_100_000), Download("six", "1.17", "https://f/s.whl", 11_000)],
     "539.1 MB to download (2 files)"),
    ([Download("torch", "2.13.0", "file:///w/t.whl", 195_300_000), Download("x", "1", "https://f/x.whl")],
     "size unknown for 1 file to download; 195.3 MB from local files (1 file)"),
    ([Download("six", "1.17")], ""),
], ids=["remote", "local-and-unknown", "uv-names-no-files"])
def test_download_summary(items, text):
    assert downloads.summary(items) == text


def test_format_size_in_decimal_units_as_pip_shows_them():
    assert [downloads.format_size(n) for n in (2_912_000_000, 12_000_000, 45_000, 10)] == [
        "2.9 GB", "12.0 MB", "45 kB", "1 kB"]


# ---- against a local index server -------------------------------------------------------------

class QuietFiles(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    """A PEP 503 index on 127.0.0.1 holding aaa-fast 1.0 (HEAD answers Content-Length), its wheel."""
    root = tmp_path_factory.mktemp("index")
    (root / "files").mkdir()
    wheel = build_wheel(root / "files", "aaa-fast", "1.0", {"aaa_fast/__init__.py": b"VERSION = '1.0'\n"})
    (root / "simple" / "aaa-fast").mkdir(parents=True)
    (root / "simple" / "aaa-fast" / "index.html").write_text(
        f'<html><body><a href="../../files/{wheel.name}">{wheel.name}</a></body></html>')
    with local_http_server(functools.partial(QuietFiles, directory=str(root))) as url:
        yield f"{url}/simple", wheel


def closed_port() -> int:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def recipe(tmp_path):
    """A recipe whose row's own index cannot be reached."""
    path = tmp_path / "unreachable.toml"
    path.write_text(f'''name = "unreachable-row"
summary = "test"
framework = "none"
[[pins]]
label = "aaa-fast from its own index"
requirements = ["aaa-fast==1.0"]
index_url = "https://127.0.0.1:{closed_port()}/simple"
[[post_install]]
action = "check-import"
modules = ["aaa_fast"]
''')
    return path


@pytest.fixture
def pip_env(monkeypatch):
    """Only the pip configuration a test sets: the machine's own files and PIP_* variables are shut out."""
    for key in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_NO_INDEX"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    return monkeypatch


def dry_run(recipe, tmp_path, **options):
    return install.run_install(recipe_file=recipe, venv=tmp_path / "new-venv", dry_run=True, **options)


def test_download_sizes_come_from_head_requests(index):
    url, wheel = index
    files = [Download("aaa-fast", "1.0", url.replace("/simple", f"/files/{wheel.name}")),
             Download("gone", "1", url.replace("/simple", "/files/gone.whl")),
             Download("aaa-fast", "1.0", wheel.as_uri())]
    assert [d.size for d in downloads.with_sizes(files)] == [wheel.stat().st_size, None, wheel.stat().st_size]
    offline = downloads.with_sizes(files, network=False)  # --offline: macml asks no server, reads local files
    assert [d.size for d in offline] == [None, None, wheel.stat().st_size]


def test_rows_index_unreachable_but_find_links_has_it(pip_env, recipe, tmp_path, index):
    pip_env.setenv("PIP_FIND_LINKS", str(index[1].parent))
    report = dry_run(recipe, tmp_path)
    assert report.ok, (report.reason, report.warnings)
    assert report.preflight.ok and "from find-links" in report.preflight.checks[0].detail
    assert any(w.startswith("cannot reach 127.0.0.1") and "other places" in w for w in report.warnings)
    assert f"find-links: {index[1].parent} (your PIP_FIND_LINKS)" in report.sources
    (picked,) = report.plan.downloads
    assert (picked.name, picked.version, picked.size) == ("aaa-fast", "1.0", index[1].stat().st_size)


def test_rows_index_unreachable_offers_the_users_index_with_its_size(pip_env, recipe, tmp_path, index):
    url, wheel = index
    pip_env.setenv("PIP_INDEX_URL", url)
    report = dry_run(recipe, tmp_path)
    assert report.exit_code == 1 and report.plan is None
    assert report.reason.startswith("cannot reach 127.0.0.1:") and "the recipe's own index" in report.reason
    alternative = report.to_json()["alternative"]
    assert alternative["download_bytes"] == wheel.stat().st_size and alternative["option"] == "--from-pypi"
    assert f"aaa-fast==1.0 from your pip index {url}" in report.alternative.sentence
    assert "with --from-pypi" in report.alternative.sentence
    assert not any("--offline" in w for w in report.warnings)  # it would not help here


def test_from_pypi_takes_the_users_index_and_shows_the_download(pip_env, recipe, tmp_path, index):
    url, wheel = index
    pip_env.setenv("PIP_INDEX_URL", url)
    report = dry_run(recipe, tmp_path, from_pypi=True)
    assert report.ok, report.reason
    assert report.sources[0] == f"index: {url} (your PIP_INDEX_URL)" and "--index-url" not in report.plan.command
    assert "--from-pypi" in report.pin_label and any(w.startswith("--from-pypi") for w in report.warnings)
    assert report.to_json()["plan"]["download_bytes"] == wheel.stat().st_size
    assert report.alternative is None


def test_offline_hints_never_suggest_offline(pip_env, recipe, tmp_path, index):
    pip_env.setenv("PIP_INDEX_URL", index[0])
    report = dry_run(recipe, tmp_path, offline=True)
    assert report.exit_code == 1 and report.preflight is None
    assert report.plan.error.startswith("cannot reach 127.0.0.1") and "--offline" not in report.plan.error
    assert report.alternative.plan is None and "not measured offline" in report.alternative.sentence


def test_preflight_looks_in_a_file_index_where_the_rows_index_is_unreachable(index):
    from macml.recipes import index as pypi
    from macml.recipes.tags import TargetPlatform

    root = index[1].parent.parent  # the served folder holds simple/aaa-fast/index.html and files/
    target = TargetPlatform("cpython", (3, 11), "Linux", "x86_64", glibc=(2, 36))
    row = f"https://127.0.0.1:{closed_port()}/simple"
    found = pypi.preflight(["aaa-fast==1.0"], target, index_url=row, also=[pypi.Place(index_url=(root / "simple").as_uri())])
    assert found.ok and found.unreachable == row.split("/")[2] and not found.skipped
    assert found.checks[0].detail == f"wheel {index[1].name} from index {(root / 'simple').as_uri()}"
    nowhere = pypi.preflight(["aaa-fast==1.0"], target, index_url=row)
    assert nowhere.blocked_by_unreachable == ("aaa-fast==1.0",) and "pre-flight skipped" in nowhere.skipped
