"""The coherency and range-ring overlays.

Coherency: each model the evaluation found out of Unit Coherency outlined, with a line from it
to its nearest unit-mate (between the closest points of the bases the engine measured) and
that distance. With ``options.coherency`` off the evaluation judges no unit, and nothing is
drawn.

Range rings: each unit's ``rings``, drawn from the outlines :func:`engine.rings.ring_outlines`
traces (the bases grown by each radius, unioned), cached per unit until its models or rings
change.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath

from engine.coherency import Neighbour
from engine.errors import GeometryError
from engine.evaluate import Evaluation
from engine.explain import inches
from engine.model import Model, Scenario, Unit
from engine.rings import RingOutline, ring_outlines
from gui import theme
from gui.items import cosmetic_pen
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke
from gui.shapes import (
    grown_base_path,
    player_colour,
    polygon_path,
    rotated,
    scene_point,
    translucent,
)

OUTLINE_MARGIN = 0.08
"""Inches between a stray model's base and the outline drawn round it."""


def build_stray(model: Model, nearest: Neighbour | None) -> tuple[list[Stroke], LabelSpec | None]:
    colour = theme.current().colour("overlap")
    outline = rotated(grown_base_path(model.base, OUTLINE_MARGIN), model.rotation)
    strokes = [Stroke(outline.translated(model.x, -model.y), cosmetic_pen(colour, 2.5))]
    if nearest is None:
        return strokes, None
    (ax, ay), (bx, by) = nearest.points
    line = QPainterPath(scene_point(ax, ay))
    line.lineTo(scene_point(bx, by))
    strokes.append(Stroke(line, cosmetic_pen(colour, 2.0, Qt.PenStyle.DashLine)))
    middle = QPointF((ax + bx) / 2, -(ay + by) / 2)
    label = LabelSpec(
        f"{inches(nearest.distance)} to {nearest.model_id}",
        middle,
        theme.current().colour("label_text"),
        colour,
    )
    return strokes, label


def update_coherency_overlay(
    layer: OverlayLayer, scenario: Scenario, evaluation: Evaluation | None
) -> None:
    """Outline every model out of coherency, with a line and the distance to its nearest
    unit-mate."""
    if evaluation is None:
        layer.clear()
        return
    layer.begin()
    for unit_id, result in sorted(evaluation.coherency.items()):
        for model_id in result.out_of_coherency:
            try:
                model = scenario.model(model_id)
            except KeyError:
                continue
            mates = result.neighbours.get(model_id, ())
            nearest = mates[0] if mates else None
            state = (model, nearest)
            layer.put(("stray", unit_id, model_id), state, partial(build_stray, model, nearest))
    layer.end()


def build_rings(
    outlines: tuple[RingOutline, ...], colour: QColor
) -> tuple[list[Stroke], LabelSpec | None]:
    strokes = []
    pen = cosmetic_pen(colour, 1.5, Qt.PenStyle.DashLine)
    for outline in outlines:
        path = QPainterPath()
        path.setFillRule(Qt.FillRule.OddEvenFill)
        for piece in outline.polygons:
            path.addPath(polygon_path(piece.exterior))
            for hole in piece.holes:
                path.addPath(polygon_path(hole))
        strokes.append(Stroke(path, pen, QBrush(translucent(colour, 14))))
    return strokes, None


def update_rings_overlay(layer: OverlayLayer, scenario: Scenario) -> None:
    """Draw every unit's range rings (a unit whose rings cannot be traced shows none)."""
    layer.begin()
    for unit in scenario.units:
        if not unit.rings:
            continue
        colour = player_colour(scenario, unit.player)
        state = (unit.models, unit.rings, colour.name())
        try:
            outlines = _outlines_if_changed(layer, unit, state)
        except GeometryError:
            continue
        layer.put(("rings", unit.id), state, partial(build_rings, outlines, colour))
    layer.end()


def _outlines_if_changed(
    layer: OverlayLayer, unit: Unit, state: tuple[object, ...]
) -> tuple[RingOutline, ...]:
    # The layer keeps a unit's paths while its state is unchanged: trace only when it changed.
    key = ("rings", unit.id)
    if layer.item(key) is not None and layer.state(key) == state:
        return ()
    return ring_outlines(unit)
