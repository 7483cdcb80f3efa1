"""The objective control overlay: each objective's range ring coloured by who controls it,
with the engine's levels and verdict as its caption.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor

from engine.model import Scenario
from gui.items import cosmetic_pen
from gui.live import RulesSnapshot
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke, format_level, player_name
from gui.shapes import (
    CONTESTED_COLOUR,
    NEUTRAL_COLOUR,
    SHARED_COLOUR,
    circle_path,
    player_colour,
    polygon_path,
    scene_point,
    translucent,
)

# ------------------------------------------------------------------------------ objectives


def objective_range(scenario: Scenario) -> tuple[float, bool]:
    """The objective range in inches and whether it is measured from the marker's rim.

    Used only before the engine has spoken (the engine's ``ObjectiveControl.rules`` gives the
    range it measured, and the ring follows that). Mirrors the spec's table:
    ``wh40k-ca2026`` 3" from the marker's closest point; ``shared-modules`` 3" from the
    centre; ``scrollhammer`` 3" from the centre unless ``options.objective_measure`` is
    ``"edge"``. ``options.objective_range`` overrides the distance.
    """
    distance = float(scenario.option("objective_range", 3.0))
    if scenario.ruleset == "wh40k-ca2026":
        from_rim = scenario.option("objective_measure", "edge") != "centre"
    else:
        from_rim = scenario.option("objective_measure", "centre") == "edge"
    return distance, from_rim


def control_colour(scenario: Scenario, controlled_by: tuple[str, ...], contested: bool) -> QColor:
    if len(controlled_by) == 1:
        return player_colour(scenario, controlled_by[0])
    if len(controlled_by) >= 2:
        return QColor(SHARED_COLOUR)
    if contested:
        return QColor(CONTESTED_COLOUR)
    return QColor(NEUTRAL_COLOUR)


def control_caption(scenario: Scenario, state: Any) -> str:
    """``"Red 4 : Blue 2 - Red controls"``: the OC levels and the verdict, in words."""
    first, second = scenario.player_ids()
    level = state.level
    levels = (
        f"{player_name(scenario, first)} {format_level(level.get(first, 0))} : "
        f"{player_name(scenario, second)} {format_level(level.get(second, 0))}"
    )
    if len(state.controlled_by) == 1:
        verdict = f"{player_name(scenario, state.controlled_by[0])} controls"
    elif len(state.controlled_by) >= 2:
        verdict = "shared"
    elif state.contested():
        verdict = "contested"
    else:
        verdict = "nobody"
    return f"{state.id}\n{levels} - {verdict}"


def update_objective_overlay(
    layer: OverlayLayer, scenario: Scenario, snapshot: RulesSnapshot | None
) -> None:
    default_distance, default_from_rim = objective_range(scenario)
    contest = (
        scenario.option("contest_range", 2.0) if scenario.ruleset == "shared-modules" else None
    )
    layer.begin()
    for objective in scenario.objectives:
        state = snapshot.objectives.get(objective.id) if snapshot is not None else None
        distance, from_rim = default_distance, default_from_rim
        if state is not None and state.objective_range is not None:
            distance = state.objective_range
        if state is not None and state.measured_from_rim is not None:
            from_rim = state.measured_from_rim
        controlled_by = state.controlled_by if state is not None else ()
        contested = state.contested() if state is not None else False
        caption = control_caption(scenario, state) if state is not None else objective.id
        terrain_area = None
        if objective.terrain is not None and scenario.ruleset == "wh40k-ca2026":
            try:
                terrain_area = scenario.terrain_piece(objective.terrain).area
            except KeyError:
                terrain_area = None
        key = ("objective", objective.id)
        signature = (
            objective.x,
            objective.y,
            objective.radius,
            terrain_area,
            controlled_by,
            contested,
            caption,
            distance,
            from_rim,
            contest,
            state is None,
        )

        def build(
            objective: Any = objective,
            controlled_by: tuple[str, ...] = controlled_by,
            contested: bool = contested,
            caption: str = caption,
            terrain_area: Any = terrain_area,
            known: bool = state is not None,
            distance: float = distance,
            from_rim: bool = from_rim,
        ) -> tuple[list[Stroke], LabelSpec]:
            colour = control_colour(scenario, controlled_by, contested)
            style = Qt.PenStyle.SolidLine if known else Qt.PenStyle.DashLine
            if terrain_area is not None:
                ring = polygon_path(terrain_area)
            else:
                radius = distance + (objective.radius if from_rim else 0.0)
                ring = circle_path(objective.x, objective.y, radius)
            strokes = [
                Stroke(ring, cosmetic_pen(colour, 2.2, style), QBrush(translucent(colour, 45)))
            ]
            if len(controlled_by) >= 2:
                second = player_colour(scenario, controlled_by[1])
                strokes.append(Stroke(ring, cosmetic_pen(second, 2.2, Qt.PenStyle.DashLine)))
            if contest is not None:
                contest_ring = circle_path(objective.x, objective.y, float(contest))
                strokes.append(Stroke(contest_ring, cosmetic_pen(colour, 1.0, Qt.PenStyle.DotLine)))
            label_y = objective.y - (distance + objective.radius) - 0.2
            label = LabelSpec(
                caption,
                scene_point(objective.x, label_y),
                QColor("white"),
                translucent(colour.darker(150), 225),
                anchor="below",
            )
            return strokes, label

        layer.put(key, signature, build)
    layer.end()
