"""The engagement overlay: engagement range round the focus units' models, lines between the
models the engine found engaged.

The rings' reach is the evaluation's ``rules.engagement_horizontal``, so the picture and the
ruling never disagree; with no evaluation (the rules cannot judge the scenario) nothing is
drawn.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath

from engine.evaluate import Evaluation
from engine.model import Model, Scenario
from gui import theme
from gui.items import cosmetic_pen
from gui.overlays.layer import OverlayLayer, Stroke
from gui.shapes import grown_base_path, player_colour, rotated, scene_point, translucent


def build_ring(model: Model, reach: float, colour: str) -> tuple[list[Stroke], None]:
    ring = rotated(grown_base_path(model.base, reach), model.rotation)
    ring = ring.translated(model.x, -model.y)
    pen_colour = QColor(colour)
    pen = cosmetic_pen(pen_colour, 1.0, Qt.PenStyle.DashLine)
    return [Stroke(ring, pen, QBrush(translucent(pen_colour, 22)))], None


def build_line(a: Model, b: Model) -> tuple[list[Stroke], None]:
    path = QPainterPath(scene_point(a.x, a.y))
    path.lineTo(scene_point(b.x, b.y))
    return [Stroke(path, cosmetic_pen(theme.current().colour("engaged_line"), 2.0))], None


def update_engagement_overlay(
    layer: OverlayLayer,
    scenario: Scenario,
    evaluation: Evaluation | None,
    focus_units: Iterable[str] | None,
) -> None:
    """Rings of engagement range round the focus units' models, lines between engaged models.

    ``focus_units=None`` shows every unit's engaged pairs (lines only; rings for every model
    would bury the table).
    """
    if evaluation is None:
        layer.clear()
        return
    reach = evaluation.rules.engagement_horizontal
    focus = set(focus_units) if focus_units is not None else None
    layer.begin()
    for unit_id in sorted(focus or ()):
        try:
            unit = scenario.unit(unit_id)
        except KeyError:
            continue
        colour = player_colour(scenario, unit.player).name()
        for model in unit.models:
            ring_state = (model.x, model.y, model.rotation, model.base, reach, colour)
            layer.put(("ring", model.id), ring_state, partial(build_ring, model, reach, colour))
    for pair in evaluation.engagements.pairs:
        if focus is not None and pair.unit_a not in focus and pair.unit_b not in focus:
            continue
        try:
            a, b = scenario.model(pair.model_a), scenario.model(pair.model_b)
        except KeyError:
            continue
        line_state = (a.x, a.y, b.x, b.y)
        layer.put(("pair", pair.model_a, pair.model_b), line_state, partial(build_line, a, b))
    layer.end()
