"""The import script's own steps: reading a package tarball, refusing a wrong integrity hash,
and writing the converted files with their licence and SOURCE.json record."""

from __future__ import annotations

import io
import json
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest

from dataimport.fortykdc import __main__ as script
from dataimport.fortykdc.package import (
    ATTRIBUTION,
    BUNDLE_MEMBER,
    PackageError,
    bundle_from_module_text,
    integrity_of,
    read_bundle,
)

sys.path.insert(0, str(Path(__file__).parent))
from test_datasheets_conversion import SAMPLE as DATASHEETS  # noqa: E402
from test_layouts_conversion import sample_bundle  # noqa: E402


def module_text(bundle: dict[str, Any]) -> str:
    literal = json.dumps(json.dumps(bundle))
    return f"const JSON_TEXT = {literal};\nexport const RAW_DATA = JSON.parse(JSON_TEXT);\n"


def tarball(path: Path, bundle: dict[str, Any]) -> Path:
    data = module_text(bundle).encode("utf-8")
    with tarfile.open(path, "w:gz") as archive:
        member = tarfile.TarInfo(BUNDLE_MEMBER)
        member.size = len(data)
        archive.addfile(member, io.BytesIO(data))
    return path


def test_the_dataset_is_read_from_the_module_text_without_javascript() -> None:
    bundle = {"units": [{"id": "khârn", "name": 'The "Betrayer"'}]}
    assert bundle_from_module_text(module_text(bundle)) == bundle
    with pytest.raises(PackageError, match="JSON_TEXT"):
        bundle_from_module_text("export const x = 1;")


def test_a_tarball_is_read_and_a_wrong_hash_is_refused(tmp_path: Path) -> None:
    path = tarball(tmp_path / "package.tgz", {"units": []})
    assert read_bundle(path) == {"units": []}
    assert integrity_of(path).startswith("sha512-")
    assert script.main(["--tarball", str(path), "--out", str(tmp_path / "out")]) == 1
    assert not (tmp_path / "out").exists()


def test_convert_writes_every_file_the_licence_and_the_record(tmp_path: Path) -> None:
    bundle = sample_bundle() | {"units": DATASHEETS["units"], "factions": DATASHEETS["factions"]}
    record = script.convert(bundle, tmp_path)
    assert record["attribution"] == ATTRIBUTION == "Powered by 40kdc-data"
    assert set(record["findings"]) == {"datasheets", "layouts"}
    for relative, digest in record["files"].items():
        assert script.sha256(tmp_path / relative) == digest
    assert "datasheets.json" in record["files"]
    assert "layouts/index.json" in record["files"]
    licence = (tmp_path / "LICENSE-DATA.md").read_text(encoding="utf-8")
    assert "CC BY 4.0" in licence
    assert "Powered by 40kdc-data" in licence


def test_the_shipped_files_are_the_ones_the_record_names() -> None:
    record = json.loads((script.ASSETS / "SOURCE.json").read_text(encoding="utf-8"))
    assert record["version"] == script.VERSION
    assert record["integrity"] == script.INTEGRITY
    shipped = {
        str(path.relative_to(script.ASSETS))
        for path in script.ASSETS.rglob("*.json")
        if path.name != "SOURCE.json"
    }
    assert shipped == set(record["files"])
    for relative, digest in record["files"].items():
        assert script.sha256(script.ASSETS / relative) == digest, relative
