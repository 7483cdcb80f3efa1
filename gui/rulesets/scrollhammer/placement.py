"""One-click fixes for objectives that break the Scrollhammer placement rules."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from engine.model import Scenario
from engine.rulesets.scrollhammer import (
    smallest_nudge,
    violations_if_placed,
)
from engine.rulesets.scrollhammer.objective_placement import NUDGE_MARGIN
from engine.rulesets.scrollhammer.objective_placement import _fits as placement_fits
from engine.rulesets.scrollhammer.objective_placement import _rules as placement_rules
from engine.rulesets.scrollhammer.violations import inches

NUDGE_SEARCH_STEP = 0.05
"""Inches between candidate points along a search ring."""
NUDGE_COARSE_STEP = 0.25
NUDGE_FINE_STEP = 0.01
NUDGE_SEARCH_REACH = 24.0


@dataclass(frozen=True)
class PlacementFix:
    """A one-click fix for an objective that breaks the placement rules."""

    objective_id: str
    text: str
    apply: Callable[[Scenario], Scenario]


def _moved_objective(scenario: Scenario, objective_id: str, x: float, y: float) -> Scenario:
    objectives = tuple(
        replace(o, x=x, y=y) if o.id == objective_id else o for o in scenario.objectives
    )
    return replace(scenario, objectives=objectives)


def _legal_spot(scenario: Scenario, objective_id: str) -> tuple[float, float] | None:
    """The nearest position where the objective breaks no placement rule (others unmoved).

    First the closed-form pull back inside the 6" edge band; then rings of growing radius
    around it (0.25" apart, then 0.01" apart inside the first ring that holds a legal spot),
    each candidate checked by the engine's wordless placement test, and the winner confirmed
    by ``violations_if_placed``.
    """
    objective = scenario.objective(objective_id)
    rules = placement_rules(scenario)
    rim = objective.radius if rules.by_edge else 0.0
    others = [(o.x, o.y, o.radius) for o in scenario.objectives if o.id != objective_id]
    margin = rules.edge + rim + NUDGE_MARGIN
    bf = scenario.battlefield
    start = (
        min(max(objective.x, margin), bf.width - margin),
        min(max(objective.y, margin), bf.depth - margin),
    )

    def fits(x: float, y: float) -> bool:
        return placement_fits(rules, x, y, objective.radius, others)

    def first_on_ring(radius: float) -> tuple[float, float] | None:
        steps = max(24, int(2 * math.pi * radius / NUDGE_SEARCH_STEP))
        found = [
            (start[0] + radius * math.cos(a), start[1] + radius * math.sin(a))
            for a in (2 * math.pi * k / steps for k in range(steps))
        ]
        legal = [p for p in found if fits(*p)]
        if not legal:
            return None
        return min(legal, key=lambda p: math.dist(p, (objective.x, objective.y)))

    spot: tuple[float, float] | None = start if fits(*start) else None
    coarse = NUDGE_COARSE_STEP
    radius = coarse
    while spot is None and radius <= NUDGE_SEARCH_REACH:
        if first_on_ring(radius) is not None:
            fine = radius - coarse
            while spot is None and fine <= radius + 1e-9:
                fine += NUDGE_FINE_STEP
                spot = first_on_ring(fine)
        radius += coarse
    if spot is None or violations_if_placed(scenario, replace(objective, x=spot[0], y=spot[1])):
        return None
    return spot


def placement_fix(scenario: Scenario, objective_id: str) -> PlacementFix | None:
    """The smallest fix for ``objective_id``: nudge the others if its own spot is legal, else
    move it to the nearest legal spot."""
    objective = scenario.objective(objective_id)
    own = [
        v
        for v in violations_if_placed(scenario, objective)
        if len(v.items) < 2 or v.items[1] not in {o.id for o in scenario.objectives}
    ]
    if not own:
        nudge = smallest_nudge(scenario, objective_id, at=(objective.x, objective.y))
        if nudge is not None:
            moved = ", ".join(
                f"{oid} {inches(math.dist(a, b))}" for oid, (a, b) in sorted(nudge.moves.items())
            )
            return PlacementFix(
                objective_id, f"Nudge {moved} so {objective_id} fits here", nudge.apply
            )
    spot = _legal_spot(scenario, objective_id)
    if spot is None:
        return None
    distance = math.dist((objective.x, objective.y), spot)
    return PlacementFix(
        objective_id,
        f"Move {objective_id} {inches(round(distance, 4))} to the nearest legal spot",
        lambda s: _moved_objective(s, objective_id, *spot),
    )
