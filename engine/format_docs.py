"""Regenerate the field tables of ``docs/scenario-format.md`` from ``engine.format_schema``.

``python -m engine.format_docs docs/scenario-format.md`` rewrites the section between the
markers; ``tests/engine/test_format_docs.py`` fails while it is out of date.
"""

from __future__ import annotations

import sys

from engine.format_schema import with_field_tables
from engine.scenario_io import DOCUMENT


def update_docs(path: str) -> bool:
    """Bring the generated section of the documentation at ``path`` up to date; True if it
    changed."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    updated = with_field_tables(text, DOCUMENT)
    if updated != text:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(updated)
    return updated != text


if __name__ == "__main__":
    for name in sys.argv[1:]:
        sys.stdout.write(f"{name}: {'updated' if update_docs(name) else 'up to date'}\n")
