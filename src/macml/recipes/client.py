"""One client for package indexes: PyPI's JSON API, or a recipe's own index through the simple API.

The simple API is asked for PEP 691 JSON and read as PEP 503 HTML when that is what comes back
(download.pytorch.org serves HTML). Answers are cached for the life of the client, so an audit
of every recipe asks for each project once; `prefetch` asks for many at once, in threads.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple

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
        with self._lock:
            known = self._cache.get(key)
        if known is None:
            try:
                known = ("ok", self._fetch(index_url, key[1]))
            except IndexUnreachable as exc:
                known = ("unreachable", str(exc))
            with self._lock:
                self._cache[key] = known
        if known[0] == "unreachable":
            raise IndexUnreachable(known[1])
        return known[1]

    def release_files(self, name: str, version: str, index_url: Optional[str] = None) -> Optional[Files]:
        """The files of name==version (any local label, e.g. +cu128), or None when there are none."""
        files = self.project_files(name, index_url)
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
