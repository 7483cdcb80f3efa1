"""Who made the data and fonts Warplan ships, as their licences ask to be credited.

Each credit is read from the file that ships beside the data, so the About box and the README
can never name a version the package does not hold.

>>> [credit.name for credit in credits()]
['40kdc-data', 'DejaVu fonts']
>>> credits()[0].notice
'Powered by 40kdc-data'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from engine.assets import ASSET_ROOT

FORTYKDC_SOURCE = ASSET_ROOT / "40kdc" / "SOURCE.json"


@dataclass(frozen=True)
class Credit:
    """One shipped work: what it is, the sentence its licence asks for, its link and licence."""

    name: str
    notice: str
    link: str
    licence: str
    detail: str


@cache
def credits() -> tuple[Credit, ...]:
    """Every credit, the datasets first."""
    with open(FORTYKDC_SOURCE, encoding="utf-8") as handle:
        source = json.load(handle)
    return (
        Credit(
            name="40kdc-data",
            notice=source["attribution"],
            link=source["link"],
            licence=source["licence"],
            detail=(
                f"Datasheets and the recommended battlefield layouts: {source['package']} "
                f"{source['version']}, Alpaca Software and the 40kdc community contributors, "
                "converted to Warplan's coordinates (assets/40kdc/LICENSE-DATA.md)."
            ),
        ),
        Credit(
            name="DejaVu fonts",
            notice="DejaVu Sans",
            link="https://dejavu-fonts.github.io",
            licence="Bitstream Vera / DejaVu licence",
            detail="The labels' font, bundled so exports look the same everywhere "
            "(assets/fonts/DejaVu-LICENSE.txt).",
        ),
    )
