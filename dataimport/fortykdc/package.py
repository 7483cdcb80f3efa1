"""Fetch the pinned 40kdc-data release with ``npm pack``, check it, and read its dataset.

The package embeds its whole dataset as one JSON string in ``dist/data/bundle.generated.js``
(``const JSON_TEXT = "...";``); :func:`read_bundle` decodes it without running JavaScript.

>>> bundle_from_module_text('const JSON_TEXT = "{\\\\"units\\\\":[]}";\\nexport const x = 1;')
{'units': []}
"""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PACKAGE = "@alpaca-software/40kdc-data"
VERSION = "1.4.5"
"""The newest release: its 45 layouts carry the July revision (six objectives on every Purge
the Foe layout); 1.1.2 has the Event Companion v1.0 layouts with heights but five objectives."""
INTEGRITY = (
    "sha512-IsJRpmyvjMhCUn0OBwXn6/gXXNQzx0K+Ssd9azTb0QwrmSh/ouR9LmNRazpA0CCsI7pQM3yJn/XnijiqRkkkZg=="
)
HOMEPAGE = "https://40kdc.alpacasoft.dev"
ATTRIBUTION = "Powered by 40kdc-data"
LICENCE = "CC BY 4.0"
BUNDLE_MEMBER = "package/dist/data/bundle.generated.js"
BUNDLE_PREFIX = "const JSON_TEXT = "


class PackageError(Exception):
    """The package could not be fetched, failed its integrity check, or has no dataset."""


@dataclass(frozen=True)
class FetchedPackage:
    """A checked tarball on disk and what was asked for."""

    tarball: Path
    version: str
    integrity: str


def integrity_of(path: Path) -> str:
    """The npm ``integrity`` string (``sha512-`` and the base64 digest) of a file."""
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode("ascii")


def fetch(directory: Path, version: str = VERSION, integrity: str = INTEGRITY) -> FetchedPackage:
    """``npm pack`` the pinned version into ``directory`` and check its integrity hash."""
    try:
        done = subprocess.run(
            ["npm", "pack", f"{PACKAGE}@{version}", "--json", "--pack-destination", str(directory)],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as error:
        raise PackageError(f"npm pack {PACKAGE}@{version} failed: {error}") from error
    filename = json.loads(done.stdout)[0]["filename"]
    tarball = directory / Path(filename).name
    found = integrity_of(tarball)
    if found != integrity:
        raise PackageError(f"{tarball.name}: integrity {found} is not the pinned {integrity}")
    return FetchedPackage(tarball, version, integrity)


def bundle_from_module_text(text: str) -> dict[str, Any]:
    """The dataset held by the text of ``bundle.generated.js``."""
    start = text.find(BUNDLE_PREFIX)
    if start < 0:
        raise PackageError(f"{BUNDLE_MEMBER}: no {BUNDLE_PREFIX.strip()!r} line")
    literal, _end = json.JSONDecoder().raw_decode(text, start + len(BUNDLE_PREFIX))
    if not isinstance(literal, str):
        raise PackageError(f"{BUNDLE_MEMBER}: JSON_TEXT is not a string")
    data = json.loads(literal)
    if not isinstance(data, dict):
        raise PackageError(f"{BUNDLE_MEMBER}: the dataset is not an object")
    return data


def read_bundle(tarball: Path) -> dict[str, Any]:
    """The embedded dataset of a package tarball (every collection: units, terrainLayouts...)."""
    with tarfile.open(tarball, "r:gz") as archive:
        member = archive.extractfile(BUNDLE_MEMBER)
        if member is None:
            raise PackageError(f"{tarball.name}: no {BUNDLE_MEMBER}")
        return bundle_from_module_text(member.read().decode("utf-8"))


def fetch_bundle(version: str = VERSION, integrity: str = INTEGRITY) -> dict[str, Any]:
    """Fetch, check and read the pinned release in a temporary directory."""
    with tempfile.TemporaryDirectory() as scratch:
        fetched = fetch(Path(scratch), version, integrity)
        return read_bundle(fetched.tarball)
