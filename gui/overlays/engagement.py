"""The engagement overlay: engagement range round the focus units' models, lines between
engaged models.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath

from engine.model import Scenario
from gui.items import cosmetic_pen
from gui.live import RulesSnapshot
from gui.overlays.layer import OverlayLayer, Stroke
from gui.overlays.quarters import MM
from gui.shapes import (
    grown_base_path,
    player_colour,
    rotated,
    scene_point,
    translucent,
)

# ------------------------------------------------------------------------------ engagement


def engagement_range(scenario: Scenario) -> float:
    """Engagement range in inches (spec: 2" for wh40k and shared-modules; 1 mm scrollhammer)."""
    default = 2.0 if scenario.ruleset != "scrollhammer" else MM
    return float(scenario.option("engagement_range", default))


def update_engagement_overlay(
    layer: OverlayLayer,
    scenario: Scenario,
    snapshot: RulesSnapshot | None,
    focus_units: Iterable[str] | None,
) -> None:
    """Rings of engagement range round the focus units' models, lines between engaged models.

    ``focus_units=None`` shows every unit's engaged pairs (lines only; rings for every model
    would bury the table).
    """
    reach = engagement_range(scenario)
    focus = set(focus_units) if focus_units is not None else None
    layer.begin()
    if focus:
        for unit_id in sorted(focus):
            try:
                unit = scenario.unit(unit_id)
            except KeyError:
                continue
            colour = player_colour(scenario, unit.player)
            for model in unit.models:
                signature = (model.x, model.y, model.rotation, model.base, reach, colour.name())

                def build(model: Any = model, colour: QColor = colour) -> tuple[list[Stroke], None]:
                    ring = rotated(grown_base_path(model.base, reach), model.rotation)
                    ring = ring.translated(model.x, -model.y)
                    pen = cosmetic_pen(colour, 1.0, Qt.PenStyle.DashLine)
                    return [Stroke(ring, pen, QBrush(translucent(colour, 22)))], None

                layer.put(("ring", model.id), signature, build)
    if snapshot is not None:
        pairs = snapshot.engaged_model_pairs
        for a_id, b_id in pairs:
            try:
                unit_a, unit_b = scenario.unit_of_model(a_id), scenario.unit_of_model(b_id)
            except KeyError:
                continue
            if focus is not None and unit_a.id not in focus and unit_b.id not in focus:
                continue
            a, b = scenario.model(a_id), scenario.model(b_id)
            signature = (a.x, a.y, b.x, b.y)

            def build_line(a: Any = a, b: Any = b) -> tuple[list[Stroke], None]:
                path = QPainterPath(scene_point(a.x, a.y))
                path.lineTo(scene_point(b.x, b.y))
                return [Stroke(path, cosmetic_pen(QColor("#d35400"), 2.0))], None

            layer.put(("pair", a_id, b_id), signature, build_line)
        if not pairs:
            _unit_engagement_lines(layer, scenario, snapshot, focus)
    layer.end()


def _unit_engagement_lines(
    layer: OverlayLayer, scenario: Scenario, snapshot: RulesSnapshot, focus: set[str] | None
) -> None:
    """Lines between engaged units' centres, when the engine gives unit pairs only."""
    for unit_id, state in snapshot.units.items():
        for other_id in state.engaged_with:
            if unit_id > other_id or (focus is not None and not {unit_id, other_id} & focus):
                continue
            try:
                a, b = scenario.unit(unit_id), scenario.unit(other_id)
            except KeyError:
                continue
            ca = _centre(a.models)
            cb = _centre(b.models)
            signature = (ca, cb)

            def build(
                ca: tuple[float, float] = ca, cb: tuple[float, float] = cb
            ) -> tuple[list[Stroke], None]:
                path = QPainterPath(scene_point(*ca))
                path.lineTo(scene_point(*cb))
                return [Stroke(path, cosmetic_pen(QColor("#d35400"), 2.0))], None

            layer.put(("units", unit_id, other_id), signature, build)


def _centre(models: Iterable[Any]) -> tuple[float, float]:
    points = [(m.x, m.y) for m in models]
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)
