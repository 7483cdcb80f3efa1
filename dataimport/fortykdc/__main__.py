"""``python -m dataimport.fortykdc [--tarball FILE] [--out DIR]``: rewrite ``assets/40kdc/``.

Fetches the pinned release with ``npm pack`` (or reads a tarball already fetched, which must
still match the pinned integrity hash), converts the collections Warplan uses, and writes them
with the licence, the attribution and a ``SOURCE.json`` recording the version, the hash, each
file's SHA-256 and what the checks found in the data.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from dataimport.fortykdc import datasheets, layouts
from dataimport.fortykdc.package import (
    ATTRIBUTION,
    HOMEPAGE,
    INTEGRITY,
    LICENCE,
    PACKAGE,
    VERSION,
    PackageError,
    fetch,
    integrity_of,
    read_bundle,
)
from dataimport.fortykdc.writing import Conversion

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "40kdc"

LICENSE_TEXT = f"""# Data licence

The files in this folder are converted from the 40kdc-data package ({PACKAGE}
{VERSION}, {HOMEPAGE}), whose data is licensed under the Creative Commons Attribution 4.0
International licence (CC BY 4.0, https://creativecommons.org/licenses/by/4.0/),
Copyright (c) 2026 Alpaca Software and the 40kdc community contributors
(https://github.com/wn-mitch/40kdc-data).

{ATTRIBUTION}: {HOMEPAGE}

Changes made by Warplan: the collections Warplan uses (datasheets, terrain layouts) are
converted to Warplan's coordinates (origin at the south-west corner, y north, inches) and
formats, heights are added where the data has none, and the checks listed in SOURCE.json
were run. The upstream files are not redistributed.
"""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


_LEAF_ARRAY = re.compile(r"\[\n\s*([^\[\]{}]*?)\n\s*\]")


def _one_line(match: re.Match[str]) -> str:
    # JSON strings never hold a raw newline, so only whitespace between values is touched.
    return "[" + re.sub(r",\n\s*", ", ", match.group(1)) + "]"


def write_json(path: Path, value: Any) -> None:
    """Indented JSON with arrays of plain values (a point) on one line, as scenario files are."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(value, ensure_ascii=False, indent=1, sort_keys=False)
    text = _LEAF_ARRAY.sub(_one_line, text) + "\n"
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


def convert(bundle: dict[str, Any], out: Path) -> dict[str, Any]:
    """Write every converted file under ``out``; return the ``SOURCE.json`` record."""
    conversions: list[Conversion] = [
        datasheets.convert_datasheets(bundle),
        layouts.convert_layouts(bundle),
    ]
    files: dict[str, str] = {}
    findings: dict[str, list[str]] = {}
    for conversion in conversions:
        for relative, value in conversion.files.items():
            write_json(out / relative, value)
            files[relative] = sha256(out / relative)
        findings[conversion.name] = list(conversion.findings)
    (out / "LICENSE-DATA.md").write_text(LICENSE_TEXT, encoding="utf-8")
    return {
        "package": PACKAGE,
        "version": VERSION,
        "integrity": INTEGRITY,
        "licence": LICENCE,
        "attribution": ATTRIBUTION,
        "link": HOMEPAGE,
        "converted_by": "python -m dataimport.fortykdc",
        "files": dict(sorted(files.items())),
        "findings": findings,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dataimport.fortykdc", description=__doc__)
    parser.add_argument("--tarball", type=Path, help="a tarball already fetched with npm pack")
    parser.add_argument("--out", type=Path, default=ASSETS, help="where to write (assets/40kdc)")
    args = parser.parse_args(argv)
    try:
        if args.tarball is not None:
            found = integrity_of(args.tarball)
            if found != INTEGRITY:
                raise PackageError(f"{args.tarball}: integrity {found} is not the pinned one")
            bundle = read_bundle(args.tarball)
        else:
            with tempfile.TemporaryDirectory() as scratch:
                bundle = read_bundle(fetch(Path(scratch)).tarball)
    except PackageError as error:
        sys.stderr.write(f"dataimport: {error}\n")
        return 1
    record = convert(bundle, args.out)
    write_json(args.out / "SOURCE.json", record)
    for relative in record["files"]:
        sys.stdout.write(f"wrote {args.out / relative}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
