"""The catalogue of standard bases for the app's palette (``assets/bases.json``).

Round and oval bases as sold, the large oval flying bases, and a few typical hull footprints
(rectangles) for models measured to their hull. Which unit stands on which base comes from the
datasheets (:mod:`engine.datasheets`); this catalogue serves units described by hand and the
datasheets whose base the data does not give.

>>> base_by_id("round-32").base
CircleBase(diameter=32)
>>> base_by_id("flying-large-120x92").label
'Large flying base (oval 120 x 92 mm)'
>>> len({entry.group for entry in standard_bases()})
4
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from engine.assets import ASSET_ROOT
from engine.errors import UnknownReferenceError
from engine.model import Base, CircleBase, OvalBase, RectBase

BASES_FILE = ASSET_ROOT / "bases.json"

BaseGroup = Literal["round", "oval", "flying", "hull"]


@dataclass(frozen=True)
class BaseEntry:
    """One palette entry: an id, what the user reads, the base, and its group."""

    id: str
    label: str
    base: Base
    group: BaseGroup
    note: str = ""


def base_from_json(entry: Any) -> Base:
    """The base of a base JSON object (``{"shape": "circle", "diameter": 32}``...)."""
    shape = entry["shape"]
    if shape == "circle":
        return CircleBase(entry["diameter"])
    if shape == "oval":
        return OvalBase(entry["length"], entry["width"])
    if shape == "rect":
        return RectBase(entry["length"], entry["width"])
    raise ValueError(f"{BASES_FILE.name}: unknown base shape {shape!r}")


@cache
def standard_bases() -> tuple[BaseEntry, ...]:
    """Every catalogue entry, in palette order (round, oval, flying, hull)."""
    with open(BASES_FILE, encoding="utf-8") as handle:
        data = json.load(handle)
    return tuple(
        BaseEntry(
            id=item["id"],
            label=item["label"],
            base=base_from_json(item["base"]),
            group=item["group"],
            note=item.get("note", ""),
        )
        for item in data["bases"]
    )


@cache
def _by_id() -> dict[str, BaseEntry]:
    return {entry.id: entry for entry in standard_bases()}


def base_label(base: Base) -> str:
    """A base in words, as the app lists it.

    >>> base_label(OvalBase(90, 52.5)), base_label(CircleBase(32))
    ('oval 90 x 52.5 mm', 'round 32 mm')
    """
    if isinstance(base, CircleBase):
        return f"round {base.diameter:g} mm"
    if isinstance(base, OvalBase):
        return f"oval {base.length:g} x {base.width:g} mm"
    return f"hull/rect {base.length:g} x {base.width:g} mm"


def base_by_id(base_id: str) -> BaseEntry:
    """The catalogue entry ``base_id``; an unknown id raises :class:`UnknownReferenceError`."""
    entry = _by_id().get(base_id)
    if entry is None:
        raise UnknownReferenceError(f"no standard base {base_id!r}")
    return entry


def catalogue_note() -> str:
    """The catalogue's note (what it holds and what it is for)."""
    with open(BASES_FILE, encoding="utf-8") as handle:
        note: str = json.load(handle)["note"]
    return note
