"""The format's documentation: its field tables are those the reader and writer use, and it
says everything the shared specification says."""

from __future__ import annotations

from pathlib import Path

from engine.format_schema import with_field_tables
from engine.scenario_io import DOCUMENT

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "scenario-format.md"
SPEC = ROOT.parent / "shared" / "spec" / "scenario-format.md"


def test_the_field_tables_in_the_docs_are_up_to_date() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert with_field_tables(text, DOCUMENT) == text, (
        "docs/scenario-format.md is out of date: run "
        "python -m engine.format_docs docs/scenario-format.md"
    )


def test_every_key_of_every_entity_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for spec in DOCUMENT.fields:
        assert f"| `{spec.key}` |" in text


def test_the_docs_begin_with_the_shared_specification() -> None:
    if not SPEC.exists():
        return
    spec = SPEC.read_text(encoding="utf-8").rstrip("\n")
    assert DOCS.read_text(encoding="utf-8").startswith(spec)
