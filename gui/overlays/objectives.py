"""The objective control overlay: each objective's range ring coloured by who controls it, with
the engine's levels and verdict as its caption.

Everything drawn comes from the evaluation: the ring's reach and the contest ring from
``Evaluation.rules`` (:class:`engine.evaluate.RulesInForce`), a terrain objective's held area
when the rules in force count one, the colour from ``ObjectiveControl.verdict`` and the caption
from ``ObjectiveControl.caption``. Before the engine has judged a scenario (it cannot, say, with
a bad option) the rings are the rules in force's, dashed, and captioned by id only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath

from engine.errors import WarplanError
from engine.evaluate import Evaluation, RulesInForce, rules_in_force
from engine.model import Objective, Polygon, Scenario
from engine.objectives import ObjectiveControl
from gui import theme
from gui.items import cosmetic_pen
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke
from gui.shapes import (
    circle_path,
    player_colour,
    polygon_path,
    scene_point,
    translucent,
)


def control_colour(scenario: Scenario, control: ObjectiveControl | None) -> QColor:
    """The controller's colour; the shared, contested or neutral colour otherwise."""
    if control is None or control.verdict == "uncontrolled":
        return theme.current().colour("neutral")
    if control.verdict == "controlled":
        return player_colour(scenario, control.controlled_by[0])
    if control.verdict == "shared":
        return theme.current().colour("shared")
    return theme.current().colour("contested")


@dataclass(frozen=True)
class ObjectiveMark:
    """Everything one objective's ring and caption are drawn from (its rebuild signature)."""

    objective: Objective
    reach: float
    """The ring's radius from the marker's centre."""
    contest_range: float | None
    held_area: tuple[Polygon, ...] | None
    """The terrain area the objective is held from, when the rules count one."""
    colour: str
    second_colour: str | None
    """For shared control, the second controller's colour."""
    caption: str
    judged: bool


def objective_mark(
    scenario: Scenario, objective: Objective, rules: RulesInForce, evaluation: Evaluation | None
) -> ObjectiveMark:
    control = None
    if evaluation is not None:
        control = next((c for c in evaluation.objectives if c.id == objective.id), None)
    held_area = None
    if rules.terrain_objectives and objective.terrain is not None:
        try:
            held_area = scenario.terrain_piece(objective.terrain).footprints
        except KeyError:
            held_area = None
    second = None
    if control is not None and control.verdict == "shared":
        second = player_colour(scenario, control.controlled_by[1]).name()
    return ObjectiveMark(
        objective,
        rules.objective_reach(objective),
        rules.contest_range,
        held_area,
        control_colour(scenario, control).name(),
        second,
        control.caption(evaluation.player_names)
        if control is not None and evaluation is not None
        else objective.id,
        control is not None,
    )


def build_objective(mark: ObjectiveMark) -> tuple[list[Stroke], LabelSpec]:
    objective = mark.objective
    colour = QColor(mark.colour)
    style = Qt.PenStyle.SolidLine if mark.judged else Qt.PenStyle.DashLine
    if mark.held_area is not None:
        ring = QPainterPath()
        for polygon in mark.held_area:
            ring.addPath(polygon_path(polygon))
    else:
        ring = circle_path(objective.x, objective.y, mark.reach)
    strokes = [Stroke(ring, cosmetic_pen(colour, 2.2, style), QBrush(translucent(colour, 45)))]
    if mark.second_colour is not None:
        second = QColor(mark.second_colour)
        strokes.append(Stroke(ring, cosmetic_pen(second, 2.2, Qt.PenStyle.DashLine)))
    if mark.contest_range is not None:
        contest_ring = circle_path(objective.x, objective.y, mark.contest_range)
        strokes.append(Stroke(contest_ring, cosmetic_pen(colour, 1.0, Qt.PenStyle.DotLine)))
    label = LabelSpec(
        mark.caption,
        scene_point(objective.x, objective.y - mark.reach - 0.2),
        theme.current().colour("label_text"),
        translucent(colour.darker(150), 225),
        anchor="below",
    )
    return strokes, label


def update_objective_overlay(
    layer: OverlayLayer, scenario: Scenario, evaluation: Evaluation | None
) -> None:
    rules: RulesInForce | None = evaluation.rules if evaluation is not None else None
    if rules is None:
        try:
            rules = rules_in_force(scenario)
        except WarplanError:
            layer.clear()
            return
    layer.begin()
    for objective in scenario.objectives:
        mark = objective_mark(scenario, objective, rules, evaluation)
        layer.put(("objective", objective.id), mark, partial(build_objective, mark))
    layer.end()
