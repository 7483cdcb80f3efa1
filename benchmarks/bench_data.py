"""The shipped data's benchmarks: datasheet search as a user types, loading a layout.

Every keystroke of the Palette's search box runs one :func:`engine.datasheets.search` over all
datasheets, so its budget is a frame (16 ms); a recommended layout is read and put on the table
when a game is set up (budget 100 ms, cold: its file not read before in the process).

>>> import io
>>> out = io.StringIO()
>>> bench_data(out, quick=True)
>>> "datasheet search, one keystroke" in out.getvalue()
True
"""

from __future__ import annotations

from typing import TextIO

from benchmarks.bench import measure
from engine import layouts
from engine.datasheets import datasheets, search
from engine.model import Player, Scenario

TYPED_NAMES = (
    "Khârn the Betrayer",
    "intercessor squad",
    "belakor",
    "T'au commander",
    "Kroot farstalkers",
    "canis rex",
    "termagants",
    "lion el'jonson",
)
"""What a user types: diacritics, apostrophes, lower case, partial names."""


def keystrokes() -> list[str]:
    """Every prefix of every typed name, as the search box sees them one key at a time."""
    return [name[:end] for name in TYPED_NAMES for end in range(1, len(name) + 1)]


def bench_data(out: TextIO, quick: bool = False) -> None:
    """Print the search and layout-loading figures to ``out``."""
    datasheets()
    queries = keystrokes()
    timing = measure(
        f"datasheet search, one keystroke ({len(datasheets())} datasheets)",
        lambda i: search(queries[i % len(queries)]),
        len(queries) if quick else 4 * len(queries),
    )
    print(timing.line(16), file=out)
    ids = layouts.layout_ids()
    blank = Scenario("wh40k-ca2026", (Player("red", role="attacker"), Player("blue")))

    def load_cold(i: int) -> None:
        layouts.layout.cache_clear()
        layouts.apply_layout(blank, ids[i % len(ids)])

    count = 9 if quick else len(ids)
    print(
        measure(f"layout read and applied, cold ({len(ids)} layouts)", load_cold, count).line(100),
        file=out,
    )
