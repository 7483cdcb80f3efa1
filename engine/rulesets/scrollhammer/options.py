"""The ``scenario.options`` keys the Scrollhammer modules read, each with a check.

:data:`OPTION_CHECKS` maps a key to ``check(value) -> message | None`` (``None``: valid); the
Scrollhammer :class:`engine.rulesets.base.Ruleset` offers them (with the shared keys of
:mod:`engine.options`) as its ``option_checks``. :data:`OPTION_NOTES` says what each key means
(for the app and the docs).

>>> OPTION_CHECKS["diagonal"]("SW-NE") is None
True
>>> OPTION_CHECKS["diagonal"]("N-S")
"must be one of SW-NE, NW-SE; got 'N-S'"
"""

from __future__ import annotations

from typing import Any

from engine.options import OptionValueCheck, choice, distance, edges, flag, positive
from engine.rulesets.scrollhammer.missions import mission_ids, standard_missions


def mission(value: Any) -> str | None:
    """A Standard Mission id, name or number."""
    known = {m.id for m in standard_missions()} | {m.name for m in standard_missions()}
    if (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6) or (
        isinstance(value, str) and value in known
    ):
        return None
    return f"must be a Standard Mission ({', '.join(mission_ids())}) or its number; got {value!r}"


OPTION_CHECKS: dict[str, OptionValueCheck] = {
    "mission": mission,
    "table_halves": choice("long-edge", "diagonal"),
    "diagonal": choice("SW-NE", "NW-SE"),
    "table_edges": edges,
    "section_size": positive,
    "centre_clear_radius": distance,
    "objective_range": distance,
    "objective_measure": choice("centre", "edge"),
    "objective_nudge_metric": choice("total", "largest"),
    "night_fighting_measure": choice("closest", "farthest"),
    "night_fighting_turn1_lasts": flag,
    "relic_diameter": positive,
    "base_contact": distance,
}
"""Scrollhammer option keys and their value checks."""

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
