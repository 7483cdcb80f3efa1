"""The recommended Chapter Approved layouts: official tables for each Force Disposition pair.

Each of the 15 pairings of the five Force Dispositions has three layouts, A, B and C: terrain
(areas, walls and features with heights, upper floors), objectives (terrain objectives, the home
ones belonging to the Attacker or the Defender) and a Deployment card. The files are converted
from 40kdc-data ("Powered by 40kdc-data", https://40kdc.alpacasoft.dev, CC BY 4.0) into
``assets/40kdc/layouts/`` by ``python -m dataimport.fortykdc``; each records its source and
revision.

>>> [entry.letter for entry in layouts_for("Purge the Foe", "Take and Hold")]
['A', 'B', 'C']
>>> chosen = layout("take-and-hold-vs-purge-the-foe-a")
>>> chosen.pairing, chosen.deployment, len(chosen.objectives)
(('Take and Hold', 'Purge the Foe'), 'sweeping-engagement', 6)
>>> from engine.model import Player, Scenario
>>> blank = Scenario("wh40k-ca2026", (Player("red", role="attacker"), Player("blue")))
>>> table = apply_layout(blank, chosen.id)
>>> table.layout.id, table.deployment, table.objective("obj-home-attacker").owner
('take-and-hold-vs-purge-the-foe-a', 'sweeping-engagement', 'red')
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Literal

from engine.assets import ASSET_ROOT
from engine.errors import RulesError, ScenarioError, UnknownReferenceError
from engine.format_schema import TERRAIN, Reader
from engine.model import LayoutProvenance, Objective, ObjectiveRole, Scenario, TerrainPiece
from engine.scenario_edits import without_options

LAYOUTS_DIR = ASSET_ROOT / "40kdc" / "layouts"
LETTERS = ("A", "B", "C")
Side = Literal["attacker", "defender"]


@dataclass(frozen=True)
class LayoutEntry:
    """One line of the layout index: what a layout is, without its terrain."""

    id: str
    name: str
    pairing: tuple[str, str]
    letter: str
    deployment: str
    source: str
    revision: str


@dataclass(frozen=True)
class LayoutObjective:
    """An objective of a layout: a home one says whose side it is on (``home_of``)."""

    id: str
    x: float
    y: float
    role: ObjectiveRole
    terrain: str | None = None
    home_of: Side | None = None

    def for_players(self, attacker: str, defender: str) -> Objective:
        """The scenario objective, a home one owned by the player of its side."""
        owner = {"attacker": attacker, "defender": defender}.get(self.home_of or "")
        return Objective(self.id, self.x, self.y, self.role, owner=owner, terrain=self.terrain)


@dataclass(frozen=True)
class Layout(LayoutEntry):
    """A whole layout: its index entry's values, terrain pieces and objectives."""

    terrain: tuple[TerrainPiece, ...]
    objectives: tuple[LayoutObjective, ...]

    @property
    def provenance(self) -> LayoutProvenance:
        return LayoutProvenance(self.id, self.name, self.source, self.revision)


def _entry(raw: dict[str, Any]) -> LayoutEntry:
    first, second = raw["pairing"]
    return LayoutEntry(
        str(raw["id"]),
        str(raw["name"]),
        (str(first), str(second)),
        str(raw["letter"]),
        str(raw["deployment"]),
        str(raw["source"]),
        str(raw["revision"]),
    )


@cache
def layout_index() -> tuple[LayoutEntry, ...]:
    """Every layout's index entry, sorted by id."""
    try:
        raw = json.loads((LAYOUTS_DIR / "index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UnknownReferenceError(f"the layout index cannot be read: {error}") from None
    return tuple(_entry(item) for item in raw)


def layout_ids() -> tuple[str, ...]:
    """Every layout id, e.g. ``take-and-hold-vs-purge-the-foe-a``."""
    return tuple(entry.id for entry in layout_index())


def layouts_for(first: str, second: str) -> tuple[LayoutEntry, ...]:
    """The three layouts (A, B, C) of an unordered pair of Force Disposition names."""
    wanted = sorted((first, second))
    found = tuple(e for e in layout_index() if sorted(e.pairing) == wanted)
    if not found:
        raise UnknownReferenceError(f"no layouts for {first} vs {second}")
    return tuple(sorted(found, key=lambda e: e.letter))


def layout_for(first: str, second: str, letter: str) -> LayoutEntry:
    """The layout with ``letter`` (A, B or C) of a Force Disposition pair."""
    for entry in layouts_for(first, second):
        if entry.letter == letter.upper():
            return entry
    raise UnknownReferenceError(f"no layout {letter!r} for {first} vs {second} (A, B or C)")


@cache
def layout(layout_id: str) -> Layout:
    """The layout ``layout_id``; :class:`UnknownReferenceError` for an id not in the index."""
    known = {e.id: e for e in layout_index()}
    if layout_id not in known:
        raise UnknownReferenceError(f"no layout {layout_id!r} (see `python -m engine layouts`)")
    path = LAYOUTS_DIR / f"{layout_id}.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UnknownReferenceError(f"layout {layout_id!r} cannot be read: {error}") from None
    reader = Reader()
    pieces = tuple(
        reader.entity(TERRAIN, piece, f"terrain[{i}]") for i, piece in enumerate(raw["terrain"])
    )
    if reader.problems:
        raise ScenarioError(reader.problems)
    entry = known[layout_id]
    return Layout(
        entry.id,
        entry.name,
        entry.pairing,
        entry.letter,
        entry.deployment,
        entry.source,
        entry.revision,
        tuple(p for p in pieces if isinstance(p, TerrainPiece)),
        tuple(
            LayoutObjective(
                str(o["id"]),
                float(o["x"]),
                float(o["y"]),
                o["role"],
                o.get("terrain"),
                o.get("home_of"),
            )
            for o in raw["objectives"]
        ),
    )


def sides_of(scenario: Scenario) -> tuple[str, str]:
    """The (Attacker, Defender) player ids: by ``role``, else the first player attacks (as
    :func:`engine.deployments.resolve_deployment` binds card sides)."""
    first, second = scenario.player_ids()
    roles = [p.role for p in scenario.players if p.role is not None]
    if len(roles) != len(set(roles)):
        raise RulesError(f"both players are the {roles[0]}")
    by_role = {p.role: p.id for p in scenario.players if p.role is not None}
    if "attacker" in by_role:
        attacker = by_role["attacker"]
    elif "defender" in by_role:
        attacker = second if by_role["defender"] == first else first
    else:
        attacker = first
    return attacker, second if attacker == first else first


def apply_layout(scenario: Scenario, layout_id: str) -> Scenario:
    """``scenario`` on layout ``layout_id``: its terrain, objectives (home objectives owned by
    the players of their sides) and Deployment card replace the scenario's, and ``layout``
    records where the table came from. A deployment variant chosen for another card is dropped.

    Every objective is a terrain objective. Where the layout links two areas into one central
    objective, the objective's point is the midpoint of the two points the data gives (one per
    area), which lies between the areas: control is judged on the linked terrain area, not on
    the point.
    """
    chosen = layout(layout_id)
    attacker, defender = sides_of(scenario)
    staged = scenario
    if scenario.deployment != chosen.deployment:
        staged = without_options(scenario, ("deployment_variant",))
    return replace(
        staged,
        terrain=chosen.terrain,
        objectives=tuple(o.for_players(attacker, defender) for o in chosen.objectives),
        deployment=chosen.deployment,
        layout=chosen.provenance,
    )


__all__ = [
    "LETTERS",
    "Layout",
    "LayoutEntry",
    "LayoutObjective",
    "apply_layout",
    "layout",
    "layout_for",
    "layout_ids",
    "layout_index",
    "layouts_for",
    "sides_of",
]
