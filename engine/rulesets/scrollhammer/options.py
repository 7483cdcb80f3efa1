"""The ``scenario.options`` keys the Scrollhammer modules read, each with how its value is read.

:data:`OPTION_CHECKS` maps a key to its :class:`engine.format_schema.Kind`; the Scrollhammer
:class:`engine.rulesets.base.Ruleset` offers them (with the shared keys of
:mod:`engine.options`) as its ``option_checks``, the table the file reader checks a
Scrollhammer file's options against. :data:`OPTION_NOTES` says what each key means (for the
app and the docs).

>>> from engine.format_schema import Reader
>>> reader = Reader()
>>> _ = OPTION_CHECKS["diagonal"].read(reader, "N-S", "options.diagonal")
>>> [str(p) for p in reader.problems]
['options.diagonal: must be one of SW-NE, NW-SE; got "N-S"']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import UnknownReferenceError
from engine.format_messages import show, unknown_name
from engine.format_schema import (
    DISTANCE,
    INVALID,
    POSITIVE_DISTANCE,
    Choice,
    Flag,
    Kind,
    Reader,
    TableEdgesKind,
)
from engine.rulesets.scrollhammer.missions import standard_mission, standard_missions


@dataclass(frozen=True)
class MissionKind(Kind):
    """A Standard Mission: its id, name or number.

    >>> reader = Reader()
    >>> MissionKind().read(reader, "held-grund", "options.mission") is INVALID
    True
    >>> str(reader.problems[0])
    'options.mission: unknown Standard Mission "held-grund"; did you mean "held-ground" or \
"Held Ground"?'
    """

    def read(self, reader: Reader, value: object, path: str) -> Any:
        if isinstance(value, bool) or not isinstance(value, str | int):
            reader.problem(path, f"must be a mission id, name or number, got {show(value)}")
            return INVALID
        try:
            standard_mission(value)
        except UnknownReferenceError:
            names = [m.id for m in standard_missions()] + [m.name for m in standard_missions()]
            reader.problem(path, unknown_name("Standard Mission", value, names))
            return INVALID
        return value

    def describe(self) -> str:
        return "mission id, name or number"


OPTION_CHECKS: dict[str, Kind] = {
    "mission": MissionKind(),
    "table_halves": Choice(("long-edge", "diagonal")),
    "diagonal": Choice(("SW-NE", "NW-SE")),
    "table_edges": TableEdgesKind(),
    "section_size": POSITIVE_DISTANCE,
    "centre_clear_radius": DISTANCE,
    "objective_nudge_metric": Choice(("total", "largest")),
    "night_fighting_measure": Choice(("closest", "farthest")),
    "night_fighting_turn1_lasts": Flag(),
    "relic_diameter": POSITIVE_DISTANCE,
    "base_contact": DISTANCE,
}
"""Scrollhammer option keys (beyond the shared ones) and how their values are read."""

OPTION_NOTES: dict[str, str] = {
    "mission": "the Standard Mission (id, name or number 1-6)",
    "table_halves": "long-edge (centre line from short end to short end) or diagonal",
    "diagonal": "the corners a diagonal centre line joins: SW-NE (default) or NW-SE",
    "table_edges": "each player's board edge (a long edge); default first player south",
    "section_size": "terrain density section size in inches (default 24, 2')",
    "centre_clear_radius": "how far from the centre point impassable or lethal terrain is "
    "refused in Quest for the Relic and Heart of the Battle (default 0: the point itself)",
    "objective_range": "control range in inches (default 3)",
    "objective_measure": "centre (default) or edge: where objective distances are measured from",
    "objective_nudge_metric": "total (default) or largest: what the smallest nudge minimises",
    "night_fighting_measure": "closest (default) or farthest target model for the bands",
    "night_fighting_turn1_lasts": "true: Night Fighting from the pre-deployment roll lasts the "
    "whole game (default false: turn 1 only, as the rulebook reads)",
    "relic_diameter": "the Relic marker's diameter in mm (default 25)",
    "base_contact": "base contact distance in inches (default 1 mm)",
}
"""What each option means, for the app's option panel."""
