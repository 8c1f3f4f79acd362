"""One client for package indexes: PyPI's JSON API, or a recipe's own index through the simple API.

The simple API is asked for PEP 691 JSON and read as PEP 503 HTML when that is what comes back
(download.pytorch.org serves HTML); a file:// index is read from disk. pip's find-links places
(a directory, or a page of links) are read too. Answers are cached for the life of the client, so an audit
of every recipe asks for each project once; `prefetch` asks for many at once, in threads.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple
from urllib.parse import urlparse
from urllib.request import url2pathname

import requests
from packaging.specifiers import SpecifierSet
from packaging.utils import (InvalidSdistFilename, InvalidWheelFilename, canonicalize_name,
                             parse_sdist_filename, parse_wheel_filename)
from packaging.version import InvalidVersion, Version

DEFAULT_PYPI_URL = "https://pypi.org"
TIMEOUT = 20.0
SIMPLE_ACCEPT = "application/vnd.pypi.simple.v1+json, text/html;q=0.1"

Files = List[Mapping[str, Any]]  # {"filename": ..., "yanked": bool}


class IndexUnreachable(Exception):
    pass


def pypi_url(base: Optional[str] = None) -> str:
    return (base or os.environ.get("MACML_PYPI_URL") or DEFAULT_PYPI_URL).rstrip("/")


def file_version(filename: str) -> Optional[Version]:
    """The version in a wheel or sdist file name ("torch-2.11.0+cu128-cp312-...whl" -> 2.11.0+cu128)."""
    try:
        if filename.endswith(".whl"):
            return parse_wheel_filename(filename)[1]
        return parse_sdist_filename(filename)[1]
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return None


class _Links(HTMLParser):
    """PEP 503: every <a> is a file; its text is the file name, data-yanked marks a yanked one."""

    def __init__(self) -> None:
        super().__init__()
        self.files: Files = []
        self._href: Optional[Tuple[str, bool]] = None  # (href, yanked) of the open <a>

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        if tag == "a":
            found = dict(attrs)
            self._href = (found.get("href") or "", "data-yanked" in found)

    def handle_data(self, data: str) -> None:
        if self._href is not None and data.strip():
            self.files.append({"filename": data.strip(), "yanked": self._href[1]})
            self._href = None


def parse_simple_html(text: str) -> Files:
    parser = _Links()
    parser.feed(text)
    return parser.files


def parse_simple_json(data: Mapping[str, Any]) -> Files:
    return [{"filename": f.get("filename", ""), "yanked": bool(f.get("yanked"))} for f in data.get("files") or ()]


def parse_pypi_json(data: Mapping[str, Any]) -> Files:
    return [{"filename": f.get("filename", ""), "yanked": bool(f.get("yanked")), "version": key}
            for key, files in (data.get("releases") or {}).items() for f in files]


class IndexClient:
    """Files of a project on PyPI (JSON API) or on another index (simple API), cached per client."""

    def __init__(self, pypi: Optional[str] = None, timeout: float = TIMEOUT):
        self.pypi = pypi_url(pypi)
        self.timeout = timeout
        self._cache: Dict[Tuple[str, str], Any] = {}
        self._lock = threading.Lock()

    def where(self, index_url: Optional[str]) -> str:
        return index_url.rstrip("/") if index_url else self.pypi

    def project_files(self, name: str, index_url: Optional[str] = None) -> Optional[Files]:
        """Every file of the project, or None when the index has no such project.

        Raises IndexUnreachable (also cached: one dead index is not asked again)."""
        key = (self.where(index_url), canonicalize_name(name))
        return self._cached(key, lambda: self._fetch(index_url, key[1]))

    def links_files(self, location: str, name: str) -> Optional[Files]:
        """The project's files in a find-links place (a directory, or a page of links), or None."""
        key = ("links:" + location, canonicalize_name(name))
        return self._cached(key, lambda: _links(location, key[1], self._get))

    def _cached(self, key: Tuple[str, str], fetch) -> Optional[Files]:
        with self._lock:
            known = self._cache.get(key)
        if known is None:
            try:
                known = ("ok", fetch())
            except IndexUnreachable as exc:
                known = ("unreachable", str(exc))
            with self._lock:
                self._cache[key] = known
        if known[0] == "unreachable":
            raise IndexUnreachable(known[1])
        return known[1]

    def release_files(self, name: str, version: str, index_url: Optional[str] = None,
                      links: Optional[str] = None) -> Optional[Files]:
        """The files of name==version (any local label, e.g. +cu128) on the index, or in the find-links
        place `links` when given; None when there are none."""
        files = self.links_files(links, name) if links else self.project_files(name, index_url)
        if files is None:
            return None
        wanted = SpecifierSet(f"=={version}")
        found = [f for f in files if _matches(f, wanted)]
        return found or None

    def prefetch(self, wanted: Iterable[Tuple[str, Optional[str]]], workers: int = 8) -> None:
        """Ask for many (name, index_url) at once; failures stay in the cache for the callers to meet."""
        unique = sorted(set(wanted), key=lambda item: (item[1] or "", item[0]))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(lambda item: self._quiet(*item), unique))

    def _quiet(self, name: str, index_url: Optional[str]) -> None:
        try:
            self.project_files(name, index_url)
        except IndexUnreachable:
            pass

    def _fetch(self, index_url: Optional[str], name: str) -> Optional[Files]:
        if index_url is not None and index_url.startswith("file:"):
            return _local_simple(local_path(index_url) / name)
        if index_url is None:
            response = self._get(f"{self.pypi}/pypi/{name}/json", "application/json")
            return None if response is None else parse_pypi_json(_json(response))
        response = self._get(f"{index_url.rstrip('/')}/{name}/", SIMPLE_ACCEPT)
        if response is None:
            return None
        if "json" in response.headers.get("Content-Type", ""):
            return parse_simple_json(_json(response))
        return parse_simple_html(response.text)

    def _get(self, url: str, accept: str) -> Optional[requests.Response]:
        try:
            response = requests.get(url, timeout=self.timeout, headers={"Accept": accept})
        except requests.RequestException as exc:
            raise IndexUnreachable(f"{type(exc).__name__} for {url}") from None
        if response.status_code == 404:
            return None
        if response.status_code != 200:
            raise IndexUnreachable(f"HTTP {response.status_code} from {url}")
        return response


def local_path(location: str) -> Path:
    """A find-links or index location on this machine: a path, or a file:// URL."""
    return Path(url2pathname(urlparse(location).path)) if location.startswith("file:") else Path(location)


def _local_simple(project: Path) -> Optional[Files]:
    """A simple index on disk (file://): the project's index.html, or its directory's files."""
    page = project / "index.html"
    if page.is_file():
        return parse_simple_html(page.read_text(encoding="utf-8", errors="replace"))
    if project.is_dir():
        return [{"filename": p.name, "yanked": False} for p in sorted(project.iterdir()) if p.is_file()]
    return None


def _named(files: Files, name: str) -> Optional[Files]:
    """The files of one project among a find-links listing (wheel and sdist names carry it)."""
    found = [f for f in files if _project_of(str(f.get("filename", ""))) == name]
    return found or None


def _project_of(filename: str) -> Optional[str]:
    try:
        if filename.endswith(".whl"):
            return canonicalize_name(parse_wheel_filename(filename)[0])
        return canonicalize_name(parse_sdist_filename(filename)[0])
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return None


def _links(location: str, name: str, get) -> Optional[Files]:
    """pip's --find-links: a local directory (or file:// URL) of files, or an HTML page of links."""
    if not location.startswith(("http://", "https://")):
        folder = local_path(location)
        if not folder.is_dir():
            return None
        return _named([{"filename": p.name, "yanked": False} for p in folder.iterdir() if p.is_file()], name)
    response = get(location, "text/html")
    return None if response is None else _named(parse_simple_html(response.text), name)


def _json(response: requests.Response) -> Mapping[str, Any]:
    try:
        return response.json()
    except ValueError:
        raise IndexUnreachable(f"{response.url} did not answer JSON") from None


def _version_of(item: Mapping[str, Any]) -> Optional[Version]:
    """PyPI's JSON names each file's release; a simple index only has the file name."""
    try:
        return Version(item["version"]) if item.get("version") else file_version(str(item.get("filename", "")))
    except InvalidVersion:
        return None


def _matches(item: Mapping[str, Any], wanted: SpecifierSet) -> bool:
    found = _version_of(item)
    return found is not None and wanted.contains(found, prereleases=True)


def releases(files: Files) -> Dict[Version, Files]:
    """Files grouped by public version (local labels such as +cu128 folded in)."""
    grouped: Dict[Version, Files] = {}
    for item in files:
        found = _version_of(item)
        if found is not None:
            grouped.setdefault(Version(found.public), []).append(item)
    return grouped
