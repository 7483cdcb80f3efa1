"""Rule overlays drawn over the battlefield, each toggled from the View menu and toolbar.

An overlay is a layer of small keyed items (one per objective, per engaged pair, per target
unit...), so a change repaints only the items whose state changed, not the whole board. Items
paint cached paths; the paths are built here from the engine's conclusions (``RulesSnapshot``,
line-of-sight results, resolved deployment), never inside ``paint()``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem, QWidget

from engine.deployments import resolve_deployment
from engine.model import CustomDeployment, Scenario
from gui.items import Z_DEPLOYMENT, Z_OVERLAY_HIGH, Z_OVERLAY_LOW, LabelItem, cosmetic_pen
from gui.live import RulesSnapshot, VisibilityResult, explanation_text
from gui.shapes import (
    CONTESTED_COLOUR,
    NEUTRAL_COLOUR,
    SHARED_COLOUR,
    circle_path,
    grown_base_path,
    player_colour,
    polygon_path,
    rotated,
    scene_point,
    translucent,
)

MM = 1 / 25.4
OVERLAY_NAMES = {
    "objectives": "Objective control",
    "engagement": "Engagement ranges",
    "quarters": "Table quarters",
    "deployment": "Deployment zones",
    "visibility": "Line of sight",
}


@dataclass(frozen=True)
class Stroke:
    path: QPainterPath
    pen: QPen
    brush: QBrush | None = None


class OverlayItem(QGraphicsItem):
    """Paints a few cached strokes; knows nothing about rules."""

    def __init__(self, z: float) -> None:
        super().__init__()
        self._strokes: tuple[Stroke, ...] = ()
        self._bounds = QRectF()
        self.setZValue(z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_strokes(self, strokes: Iterable[Stroke]) -> None:
        self.prepareGeometryChange()
        self._strokes = tuple(strokes)
        bounds = QRectF()
        for stroke in self._strokes:
            bounds = bounds.united(stroke.path.boundingRect())
        # Cosmetic pens are a few pixels wide; half an inch of margin covers them at any zoom
        # a player uses (they are re-clipped by the view anyway).
        self._bounds = bounds.adjusted(-0.5, -0.5, 0.5, 0.5)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        for stroke in self._strokes:
            painter.setPen(stroke.pen)
            painter.setBrush(stroke.brush if stroke.brush is not None else Qt.BrushStyle.NoBrush)
            painter.drawPath(stroke.path)


@dataclass
class _Entry:
    state: Hashable
    item: OverlayItem
    label: LabelItem | None


@dataclass(frozen=True)
class LabelSpec:
    text: str
    position: QPointF
    colour: QColor
    background: QColor | None = None
    anchor: str = "centre"
    bold: bool = False


class OverlayLayer:
    """A set of keyed overlay items; ``put`` rebuilds an item only when its state changed."""

    def __init__(self, scene: QGraphicsScene, z: float) -> None:
        self._scene = scene
        self._z = z
        self._entries: dict[Hashable, _Entry] = {}
        self._visible = True
        self._opacity = 1.0
        self._seen: set[Hashable] = set()

    def begin(self) -> None:
        self._seen = set()

    def put(
        self,
        key: Hashable,
        state: Hashable,
        build: Callable[[], tuple[Iterable[Stroke], LabelSpec | None]],
    ) -> None:
        self._seen.add(key)
        entry = self._entries.get(key)
        if entry is not None and entry.state == state:
            return
        strokes, label_spec = build()
        if entry is None:
            item = OverlayItem(self._z)
            item.setVisible(self._visible)
            item.setOpacity(self._opacity)
            self._scene.addItem(item)
            entry = _Entry(state, item, None)
            self._entries[key] = entry
        entry.state = state
        entry.item.set_strokes(strokes)
        if label_spec is None:
            if entry.label is not None:
                self._scene.removeItem(entry.label)
                entry.label = None
        else:
            if entry.label is None:
                entry.label = LabelItem(
                    label_spec.text, anchor=label_spec.anchor, point_size=7.5, bold=label_spec.bold
                )
                entry.label.setZValue(self._z + 0.5)
                entry.label.setVisible(self._visible)
                entry.label.setOpacity(self._opacity)
                self._scene.addItem(entry.label)
            entry.label.set_text(label_spec.text)
            entry.label.set_colours(label_spec.colour, label_spec.background)
            entry.label.setPos(label_spec.position)

    def end(self) -> None:
        """Remove the items not ``put`` since ``begin``."""
        for key in [k for k in self._entries if k not in self._seen]:
            self._remove(key)

    def clear(self) -> None:
        for key in list(self._entries):
            self._remove(key)

    def _remove(self, key: Hashable) -> None:
        entry = self._entries.pop(key)
        self._scene.removeItem(entry.item)
        if entry.label is not None:
            self._scene.removeItem(entry.label)

    def set_visible(self, visible: bool) -> None:
        self._visible = visible
        for entry in self._entries.values():
            entry.item.setVisible(visible)
            if entry.label is not None:
                entry.label.setVisible(visible)

    def set_opacity(self, opacity: float) -> None:
        if opacity == self._opacity:
            return
        self._opacity = opacity
        for entry in self._entries.values():
            entry.item.setOpacity(opacity)
            if entry.label is not None:
                entry.label.setOpacity(opacity)

    def keys(self) -> list[Hashable]:
        return list(self._entries)

    def graphics_items(self) -> list[QGraphicsItem]:
        items: list[QGraphicsItem] = []
        for entry in self._entries.values():
            items.append(entry.item)
            if entry.label is not None:
                items.append(entry.label)
        return items

    def __iter__(self) -> Iterator[Hashable]:
        return iter(list(self._entries))

    def label_texts(self) -> dict[Hashable, str]:
        return {k: e.label.text() for k, e in self._entries.items() if e.label is not None}

    def item(self, key: Hashable) -> OverlayItem | None:
        entry = self._entries.get(key)
        return entry.item if entry is not None else None

    def state(self, key: Hashable) -> Hashable:
        return self._entries[key].state


def _player_name(scenario: Scenario, player_id: str) -> str:
    for player in scenario.players:
        if player.id == player_id:
            return player.name or player.id
    return player_id


def _format_level(value: float) -> str:
    return f"{value:g}"


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
        f"{_player_name(scenario, first)} {_format_level(level.get(first, 0))} : "
        f"{_player_name(scenario, second)} {_format_level(level.get(second, 0))}"
    )
    if len(state.controlled_by) == 1:
        verdict = f"{_player_name(scenario, state.controlled_by[0])} controls"
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


# ------------------------------------------------------------------------------ quarters


def quarter_presence(scenario: Scenario, snapshot: RulesSnapshot | None) -> dict[str, list[str]]:
    """Quarter name -> player ids with a unit wholly within it (from the engine's ``quarter``)."""
    presence: dict[str, list[str]] = {q: [] for q in ("NW", "NE", "SW", "SE")}
    if snapshot is None:
        return presence
    for unit_id, state in snapshot.units.items():
        if state.quarter in presence:
            try:
                player = scenario.unit(unit_id).player
            except KeyError:
                continue
            if player not in presence[state.quarter]:
                presence[state.quarter].append(player)
    return presence


def update_quarters_overlay(
    layer: OverlayLayer, scenario: Scenario, snapshot: RulesSnapshot | None
) -> None:
    bf = scenario.battlefield
    cx, cy = bf.centre
    half_line = 0.5 * MM
    layer.begin()

    def build_lines() -> tuple[list[Stroke], None]:
        lines = QPainterPath()
        lines.addRect(QRectF(cx - half_line, -bf.depth, 2 * half_line, bf.depth))
        lines.addRect(QRectF(0, -cy - half_line, bf.width, 2 * half_line))
        colour = QColor("#37474f")
        centre = circle_path(cx, cy, 6.0)
        return [
            Stroke(lines, cosmetic_pen(colour, 1.0), QBrush(colour)),
            Stroke(
                centre,
                cosmetic_pen(colour, 1.5, Qt.PenStyle.DashLine),
                QBrush(QColor(55, 71, 79, 20)),
            ),
        ], LabelSpec('6" of centre', scene_point(cx, cy - 6.0), QColor("#37474f"), anchor="below")

    layer.put("lines", (bf.width, bf.depth), build_lines)
    presence = quarter_presence(scenario, snapshot)
    # Presence tags sit just outside the table, by each quarter's outer edge, so they never
    # hide a model.
    corners = {"NW": (0.25, True), "NE": (0.75, True), "SW": (0.25, False), "SE": (0.75, False)}
    for quarter, (fx, north) in corners.items():
        players = presence[quarter]
        names = ", ".join(_player_name(scenario, p) for p in players) if players else "nobody"
        text = f"{quarter} quarter: {names}" if snapshot is not None else f"{quarter} quarter"
        colour = player_colour(scenario, players[0]) if len(players) == 1 else QColor("#37474f")
        position = scene_point(bf.width * fx, bf.depth if north else 0.0)

        def build_label(
            text: str = text,
            colour: QColor = colour,
            position: QPointF = position,
            north: bool = north,
        ) -> tuple[list[Stroke], LabelSpec]:
            return [], LabelSpec(
                text,
                position,
                QColor("white"),
                translucent(colour, 220),
                anchor="above" if north else "below",
            )

        layer.put(("presence", quarter), (text, colour.name(), bf.width, bf.depth), build_label)
    layer.end()


# ------------------------------------------------------------------------------ deployment


def update_deployment_overlay(layer: OverlayLayer, scenario: Scenario) -> None:
    """Zones filled, territories outlined."""
    layer.begin()
    zones: list[Any] = []
    territories: list[Any] = []
    name = ""
    if isinstance(scenario.deployment, CustomDeployment):
        zones, territories, name = (
            list(scenario.deployment.zones),
            list(scenario.deployment.territories),
            "custom",
        )
    elif scenario.deployment is not None:
        resolved = resolve_deployment(scenario)
        if resolved is not None:
            zones, territories = list(resolved.zones), list(resolved.territories)
            name = resolved.name or str(scenario.deployment)
    for territory in territories:
        colour = player_colour(scenario, territory.player)

        def build_territory(
            t: Any = territory, colour: QColor = colour
        ) -> tuple[list[Stroke], None]:
            return [
                Stroke(polygon_path(t.polygon), cosmetic_pen(colour, 1.5, Qt.PenStyle.DashDotLine))
            ], None

        layer.put(("territory", territory.id), (territory.polygon, colour.name()), build_territory)
    for zone in zones:
        colour = player_colour(scenario, zone.player)
        player = _player_name(scenario, zone.player)

        def build_zone(
            z: Any = zone, colour: QColor = colour, player: str = player
        ) -> tuple[list[Stroke], LabelSpec]:
            path = polygon_path(z.polygon)
            centre = path.boundingRect().center()
            label = LabelSpec(
                f"{player} deployment zone",
                centre,
                colour.darker(160),
                None,
                anchor="centre",
                bold=True,
            )
            return [Stroke(path, cosmetic_pen(colour, 1.5), QBrush(translucent(colour, 40)))], label

        layer.put(("zone", zone.id), (zone.polygon, colour.name(), player), build_zone)
    if zones:
        bf = scenario.battlefield
        title = f"No Man's Land ({name})" if name else "No Man's Land"

        def build_nml() -> tuple[list[Stroke], LabelSpec]:
            return [], LabelSpec(
                title, scene_point(bf.width * 0.12, bf.depth / 2), QColor("#555555")
            )

        layer.put("nml", (title, bf.width, bf.depth), build_nml)
    layer.end()


# ------------------------------------------------------------------------------ line of sight

VISIBLE_COLOUR = QColor("#f1c40f")
FULLY_VISIBLE_COLOUR = QColor("#27ae60")
HIDDEN_COLOUR = QColor("#5d6d7e")


def visibility_verdict(pair: Any) -> str:
    if not pair.visible:
        return "hidden"
    words = "fully visible" if pair.fully_visible else "visible"
    if getattr(pair, "cover", False):
        words += ", in cover"
    return words


def update_visibility_overlay(
    layer: OverlayLayer, scenario: Scenario, result: VisibilityResult | None
) -> None:
    layer.begin()
    if result is not None:
        for pair in result.pairs:
            if pair.observer != result.observer:
                continue
            try:
                target = scenario.unit(pair.target)
            except KeyError:
                continue
            verdict = visibility_verdict(pair)
            colour = (
                HIDDEN_COLOUR
                if not pair.visible
                else FULLY_VISIBLE_COLOUR
                if pair.fully_visible
                else VISIBLE_COLOUR
            )
            witness = getattr(pair, "witness", None)
            witness_points = None
            if witness is not None and pair.visible:
                witness_points = (tuple(witness.start[:2]), tuple(witness.end[:2]))
            positions = tuple((m.x, m.y, m.rotation, m.base) for m in target.models)
            signature = (positions, verdict, witness_points)

            def build(
                target: Any = target,
                colour: QColor = colour,
                verdict: str = verdict,
                witness_points: Any = witness_points,
                hidden: bool = not pair.visible,
            ) -> tuple[list[Stroke], LabelSpec]:
                strokes = []
                style = Qt.PenStyle.DashLine if hidden else Qt.PenStyle.SolidLine
                for model in target.models:
                    ring = rotated(grown_base_path(model.base, 0.12), model.rotation)
                    strokes.append(
                        Stroke(ring.translated(model.x, -model.y), cosmetic_pen(colour, 2.5, style))
                    )
                if witness_points is not None:
                    (sx, sy), (ex, ey) = witness_points
                    line = QPainterPath(scene_point(sx, sy))
                    line.lineTo(scene_point(ex, ey))
                    strokes.append(
                        Stroke(line, cosmetic_pen(colour.darker(115), 1.6, Qt.PenStyle.DashLine))
                    )
                bottom = min(m.y - m.base.bounding_radius for m in target.models)
                mean_x = sum(m.x for m in target.models) / len(target.models)
                label = LabelSpec(
                    verdict,
                    scene_point(mean_x, bottom - 0.1),
                    QColor("white"),
                    translucent(colour.darker(130), 230),
                    anchor="below",
                )
                return strokes, label

            layer.put(("target", pair.target), signature, build)
    layer.end()


def visibility_summary(result: VisibilityResult | None) -> str:
    if result is None:
        return ""
    if result.error:
        return f"Line of sight failed: {result.error}"
    lines = []
    for pair in result.pairs:
        lines.append(f"{pair.observer} -> {pair.target}: {visibility_verdict(pair)}")
        text = explanation_text(pair)
        if text:
            lines.append("  " + text.replace("\n", "\n  "))
    return "\n".join(lines)


# ------------------------------------------------------------------------------ controller


class OverlayController:
    """Owns the overlay layers and refreshes them from the live rules and the selection."""

    def __init__(self, scene: QGraphicsScene, live: Any) -> None:
        self.scene = scene
        self.live = live
        self.layers = {
            "deployment": OverlayLayer(scene, Z_DEPLOYMENT),
            "quarters": OverlayLayer(scene, Z_OVERLAY_LOW),
            "objectives": OverlayLayer(scene, Z_OVERLAY_LOW + 0.1),
            "engagement": OverlayLayer(scene, Z_OVERLAY_HIGH),
            "visibility": OverlayLayer(scene, Z_OVERLAY_HIGH + 0.2),
        }
        self.enabled = dict.fromkeys(self.layers, True)
        self.focus_units: frozenset[str] = frozenset()
        self.engagement_for_all = False
        live.evaluated.connect(lambda _snapshot: self.refresh_rules())
        live.visibility_ready.connect(lambda _result: self.refresh_visibility())
        live.visibility_stale.connect(self._dim_visibility)

    @property
    def scenario(self) -> Scenario:
        return self.live.document.scenario

    def set_enabled(self, name: str, enabled: bool) -> None:
        self.enabled[name] = enabled
        self.layers[name].set_visible(enabled)
        if enabled:
            self.refresh_all()

    def set_focus(self, unit_ids: frozenset[str]) -> None:
        if unit_ids != self.focus_units:
            self.focus_units = unit_ids
            self.refresh_engagement()

    def refresh_all(self) -> None:
        self.refresh_deployment()
        self.refresh_rules()
        self.refresh_visibility()

    def refresh_deployment(self) -> None:
        if self.enabled["deployment"]:
            update_deployment_overlay(self.layers["deployment"], self.scenario)

    def refresh_rules(self) -> None:
        snapshot = self.live.snapshot
        scenario = self.scenario
        if self.enabled["objectives"]:
            update_objective_overlay(self.layers["objectives"], scenario, snapshot)
        if self.enabled["quarters"]:
            update_quarters_overlay(self.layers["quarters"], scenario, snapshot)
        self.refresh_engagement()

    def refresh_engagement(self) -> None:
        if not self.enabled["engagement"]:
            return
        focus = None if self.engagement_for_all else self.focus_units
        update_engagement_overlay(
            self.layers["engagement"], self.scenario, self.live.snapshot, focus
        )

    def refresh_visibility(self) -> None:
        layer = self.layers["visibility"]
        if not self.enabled["visibility"]:
            return
        result = self.live.visibility
        if result is None or self.live.observer is None:
            layer.clear()
            return
        update_visibility_overlay(layer, self.scenario, result)
        layer.set_opacity(1.0)

    def _dim_visibility(self) -> None:
        self.layers["visibility"].set_opacity(0.35)
        if self.live.observer is None:
            self.layers["visibility"].clear()
