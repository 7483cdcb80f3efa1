"""Line of sight on the battlefield: the selected unit's sight while it is dragged, the whole
board's "who sees whom", and the sight line (or what blocks it) to the hovered enemy unit.

Everything drawn here comes from a :class:`gui.sight.SightResult` (the engine's matrix): the
items paint cached paths, rebuilt only for the units whose state changed.

* **Line of sight** (the View menu's "Line of sight" toggle), for the selected unit: each enemy
  unit is ringed by what the selected unit sees of it (green: fully visible; yellow: visible;
  grey dashes: hidden; "in cover" in its tag) with the witness sight line to it dashed, and its
  tag's second line says whether it can see the selected unit (when only it can, its own sight
  line is drawn, dash-dotted in its player's colour). It follows the drag.
* **Who sees whom** (its own toggle): every unit gets a purple halo, darker the more enemy units
  can see it, and a "seen by N" badge by its name; clicking a badge lists those units in the
  Ruling dock (and a tooltip), with the engine's verdicts.
* **Hover** an enemy unit while one unit is selected: the witness sight line from the selected
  unit to it, or, when it is hidden (or not fully visible), the outlines of what is in the way;
  the Ruling dock shows the engine's explanation for both directions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QTransform,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QMenu,
    QStyleOptionGraphicsItem,
    QToolBar,
    QToolTip,
    QWidget,
)

from engine.model import Scenario, Unit
from gui.document import Change
from gui.items import Z_LABEL, Z_OVERLAY_HIGH, Z_OVERLAY_LOW, LabelItem, ModelItem, cosmetic_pen
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke
from gui.overlays.visibility import visibility_colour, visibility_verdict
from gui.scene import BattlefieldScene
from gui.shapes import (
    grown_base_path,
    player_colour,
    polygon_path,
    rotated,
    scene_point,
    translucent,
)
from gui.sight import (
    WHOLE_BOARD,
    SightController,
    SightResult,
    SightScope,
    blockers_of,
    sight_line_of,
)

SIGHT_OVERLAY_VIEW = "sight overlay"
"""The name under which this overlay asks the sight controller for pairs."""
BLOCKER_COLOUR = QColor("#e74c3c")
WITNESS_COLOUR = QColor("#111111")
SEEN_BY_COLOURS = (
    QColor("#f2f0f7"),
    QColor("#cbc9e2"),
    QColor("#9e9ac8"),
    QColor("#6a51a3"),
    QColor("#3f007d"),
)
"""Halo and badge colours for 0, 1, 2, 3 and 4 or more enemy units that can see a unit."""
STALE_DELAY_MS = 150
"""A result older than the document dims only after this long (a drag step must not flicker)."""
STALE_OPACITY = 0.4
LEGEND_DROP_PX = 22.0

TIPS = {
    "visibility": "Select a unit: each enemy unit is ringed by what it sees of it (green fully "
    "visible, yellow visible, grey dashes hidden) and tagged with whether it can see the "
    "selected unit; it follows a drag. Hover an enemy unit for the sight line or what blocks it",
    "who-sees-whom": "Shade every unit by how many enemy units can see it (a purple halo, "
    "darker when more can), with a 'seen by N' badge by its name; click a badge to list them",
}


def seen_by_colour(count: int) -> QColor:
    """The halo colour for a unit ``count`` enemy units can see."""
    return QColor(SEEN_BY_COLOURS[min(count, len(SEEN_BY_COLOURS) - 1)])


def ring_colour(pair: Any) -> QColor:
    return visibility_colour(pair)


def _text_colour(background: QColor) -> QColor:
    return QColor("white") if background.lightnessF() < 0.55 else QColor("#1b1b1b")


def _unit_name(unit: Unit) -> str:
    return unit.name or unit.id


def _models_ring(unit: Unit, margin: float) -> QPainterPath:
    path = QPainterPath()
    for model in unit.models:
        ring = rotated(grown_base_path(model.base, margin), model.rotation)
        path.addPath(ring.translated(model.x, -model.y))
    return path


def _positions(unit: Unit) -> tuple[object, ...]:
    return tuple((m.x, m.y, m.rotation, m.base) for m in unit.models)


def _tag_point(unit: Unit) -> QPointF:
    bottom = min(m.y - m.base.bounding_radius for m in unit.models)
    mean_x = sum(m.x for m in unit.models) / len(unit.models)
    return scene_point(mean_x, bottom - 0.1)


def _line_path(line: Any) -> QPainterPath:
    path = QPainterPath(scene_point(line.start[0], line.start[1]))
    path.lineTo(scene_point(line.end[0], line.end[1]))
    return path


def _blocker_path(scenario: Scenario, blocker_id: str) -> QPainterPath | None:
    """The outline of a blocker id: a terrain piece (its area and solid features), a unit (its
    bases) or a model (its base)."""
    try:
        piece = scenario.terrain_piece(blocker_id)
    except KeyError:
        pass
    else:
        path = QPainterPath()
        for footprint in piece.footprints:
            path.addPath(polygon_path(footprint))
        for feature in piece.features:
            if feature.solid:
                path.addPath(polygon_path(feature.shape))
        return path
    try:
        return _models_ring(scenario.unit(blocker_id), 0.05)
    except KeyError:
        pass
    try:
        model = scenario.model(blocker_id)
    except KeyError:
        return None
    ring = rotated(grown_base_path(model.base, 0.05), model.rotation)
    return ring.translated(model.x, -model.y)


def seen_by_listing(result: SightResult, unit_id: str) -> tuple[str, str]:
    """A heading and text naming the enemy units that can see ``unit_id``, with the engine's
    verdicts and explanations (what the Ruling dock shows when a count badge is clicked).

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> from engine.visibility import visibility
    >>> red = Unit("red-a", "red", (Model("r1", 10.0, 10.0, CircleBase(32)),), name="Alpha")
    >>> blue = Unit("blue-a", "blue", (Model("b1", 20.0, 10.0, CircleBase(32)),))
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue))
    >>> seen_by_listing(SightResult(s, 1, visibility(s), 0.0), "red-a")[0]
    'Who sees Alpha: 1 enemy unit'
    """
    scenario = result.scenario
    unit = scenario.unit(unit_id)
    name = unit.name or unit.id
    seen = result.seen_by(unit_id)
    heading = f"Who sees {name}: {len(seen)} enemy unit{'s' if len(seen) != 1 else ''}"
    if not seen:
        return heading, f"No enemy unit can see {name} ({unit_id})."
    blocks = []
    for pair in seen:
        observer = scenario.unit(pair.observer)
        blocks.append(
            f"{observer.name or observer.id} ({observer.id}): {visibility_verdict(pair)}\n"
            f"  {pair.explanation}"
        )
    return heading, "\n\n".join(blocks)


class SeenCountBadge(QGraphicsItem):
    """A "seen by N" badge carried by a unit's name tag (:meth:`gui.items.LabelItem.attach`:
    the label placement keeps other labels off it); a click lists the units."""

    def __init__(self, unit_id: str) -> None:
        super().__init__()
        self.unit_id = unit_id
        self.count = 0
        self.listed: tuple[Any, ...] = ()
        """The engine's pairs its tooltip lists."""
        self._text = ""
        self._font = QFont()
        self._font.setPointSizeF(7.5)
        self._font.setBold(True)
        self._colour = QColor(SEEN_BY_COLOURS[0])
        self._rect = QRectF()
        self.setZValue(0.2)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def set_count(self, count: int) -> None:
        """Show ``count`` (the badge's size follows its text; its label carries it)."""
        text = f"seen by {count}" if count else "unseen"
        if text == self._text:
            return
        self.prepareGeometryChange()
        self.count = count
        self._text = text
        self._colour = seen_by_colour(count)
        metrics = QFontMetricsF(self._font)
        self._rect = QRectF(0, 0, metrics.horizontalAdvance(text) + 8, metrics.height() + 2)
        self.update()

    def text(self) -> str:
        return self._text

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setPen(cosmetic_pen(self._colour.darker(170), 1.0))
        painter.setBrush(self._colour)
        painter.drawRoundedRect(self._rect, 6, 6)
        painter.setFont(self._font)
        painter.setPen(_text_colour(self._colour))
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self._text)


class SeenByLegend(QGraphicsItem):
    """What the who-sees-whom shading means: one swatch per count, at a fixed pixel size."""

    def __init__(self) -> None:
        super().__init__()
        self._font = QFont()
        self._font.setPointSizeF(8)
        metrics = QFontMetricsF(self._font)
        self._title = "Enemy units that can see a unit:"
        self._labels = ("none", "1", "2", "3", "4+")
        self._swatch = metrics.height()
        widths = [metrics.horizontalAdvance(self._title) + 8]
        widths += [self._swatch + metrics.horizontalAdvance(t) + 12 for t in self._labels]
        # Below the tags on the table's south edge (edge name, quarter presence), at any zoom.
        self._rect = QRectF(0, LEGEND_DROP_PX, sum(widths) + 8, self._swatch + 8)
        self._widths = widths
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(Z_LABEL)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setToolTip(TIPS["who-sees-whom"])

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 255, 255, 230))
        painter.drawRoundedRect(self._rect, 4, 4)
        painter.setFont(self._font)
        x = 6.0
        top = self._rect.top() + 4.0
        painter.setPen(QColor("#1b1b1b"))
        painter.drawText(
            QRectF(x, top, self._widths[0], self._swatch),
            Qt.AlignmentFlag.AlignVCenter,
            self._title,
        )
        x += self._widths[0]
        for index, (label, width) in enumerate(zip(self._labels, self._widths[1:], strict=True)):
            colour = SEEN_BY_COLOURS[index]
            painter.setPen(cosmetic_pen(colour.darker(170), 1.0))
            painter.setBrush(colour)
            painter.drawRoundedRect(QRectF(x, top, self._swatch, self._swatch), 3, 3)
            painter.setPen(QColor("#1b1b1b"))
            painter.drawText(
                QRectF(x + self._swatch + 3, top, width, self._swatch),
                Qt.AlignmentFlag.AlignVCenter,
                label,
            )
            x += width


class SightOverlay(QObject):
    """Draws :class:`SightController` results; handles hovering and badge clicks."""

    def __init__(
        self,
        scene: BattlefieldScene,
        viewport: QWidget,
        controller: SightController,
        show_ruling: Callable[[str, str], None],
        restore_ruling: Callable[[], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.scene = scene
        self.viewport = viewport
        self.controller = controller
        self._show_ruling = show_ruling
        self._restore_ruling = restore_ruling
        self.line_of_sight_enabled = True
        self.who_sees_whom_enabled = False
        self.observer: str | None = None
        self.hovered: str | None = None
        self.selected_layer = OverlayLayer(scene, Z_OVERLAY_HIGH + 0.3)
        self.halo_layer = OverlayLayer(scene, Z_OVERLAY_LOW - 0.05)
        self.hover_layer = OverlayLayer(scene, Z_OVERLAY_HIGH + 0.4)
        self.badges: dict[str, SeenCountBadge] = {}
        self.legend = SeenByLegend()
        self.legend.setVisible(False)
        scene.addItem(self.legend)
        scene.fixed_marks.append(self.legend)
        self._stale_timer = QTimer(self)
        self._stale_timer.setSingleShot(True)
        self._stale_timer.setInterval(STALE_DELAY_MS)
        self._stale_timer.timeout.connect(lambda: self._set_opacity(STALE_OPACITY))
        controller.sight_ready.connect(self._on_ready)
        controller.sight_stale.connect(self._on_stale)
        # Bound methods, not lambdas: Qt drops these connections when the overlay goes.
        scene.selection_changed_ids.connect(self._on_selection)
        scene.document.changed.connect(self._on_document_changed)
        scene.document.replaced.connect(self._on_replaced)
        viewport.installEventFilter(self)

    @property
    def scenario(self) -> Scenario:
        return self.scene.scenario

    # ------------------------------------------------------------------ switching

    def set_line_of_sight(self, enabled: bool) -> None:
        self.line_of_sight_enabled = enabled
        self._update_activity()
        self.refresh()

    def set_who_sees_whom(self, enabled: bool) -> None:
        self.who_sees_whom_enabled = enabled
        self._update_activity()
        self.refresh()

    def _update_activity(self) -> None:
        scope = None
        if self.who_sees_whom_enabled:
            scope = WHOLE_BOARD
        elif self.line_of_sight_enabled and self.observer is not None:
            scope = SightScope(whole_board=False, focus=frozenset({self.observer}))
        self.controller.demand(SIGHT_OVERLAY_VIEW, scope)

    def _on_document_changed(self, change: Change) -> None:
        self._place_badges(change.units)

    def _on_selection(self, _selection: object = None) -> None:
        observer = self.scene.selected_unit_id()
        if observer != self.observer:
            self.observer = observer
            self.hovered = None
            self._update_activity()
            self.refresh()

    def _on_replaced(self, _scenario: object = None) -> None:
        self.observer = None
        self.hovered = None
        self._drop_badges(list(self.badges))
        self.refresh()

    # ------------------------------------------------------------------ results

    def _on_ready(self, _result: SightResult) -> None:
        self._stale_timer.stop()
        self._set_opacity(1.0)
        self.refresh()
        if self.hovered is not None:
            self._show_hover_ruling()

    def _on_stale(self) -> None:
        if not self._stale_timer.isActive():
            self._stale_timer.start()

    def _set_opacity(self, opacity: float) -> None:
        for layer in (self.selected_layer, self.halo_layer, self.hover_layer):
            layer.set_opacity(opacity)
        for badge in self.badges.values():
            badge.setOpacity(opacity)

    def refresh(self) -> None:
        result = self.controller.result
        if result is not None and result.error:
            # No pairs is not "nobody sees anybody": draw nothing (the status bar says why).
            result = None
        self._refresh_selected(result)
        self._refresh_who_sees_whom(result)
        self._refresh_hover(result)

    def _refresh_selected(self, result: SightResult | None) -> None:
        layer = self.selected_layer
        if not self.line_of_sight_enabled or self.observer is None or result is None:
            layer.clear()
            return
        scenario = result.scenario
        try:
            observer = scenario.unit(self.observer)
        except KeyError:
            layer.clear()
            return
        layer.begin()
        for pair in result.row(observer.id):
            target = scenario.unit(pair.target)
            back = result.pair(target.id, observer.id)
            if not target.models or back is None:
                continue
            # One line per unit pair: the selected unit's witness when it sees the target,
            # else the target's own witness when only it sees the selected unit.
            forward = sight_line_of(pair) if pair.visible else None
            backward = sight_line_of(back) if back.visible and forward is None else None
            lines = tuple((w.start, w.end) for w in (forward, backward) if w is not None)
            state = (_positions(target), visibility_verdict(pair), visibility_verdict(back), lines)

            def build(
                pair: Any = pair,
                back: Any = back,
                target: Unit = target,
                forward: Any = forward,
                backward: Any = backward,
            ) -> tuple[list[Stroke], LabelSpec]:
                colour = ring_colour(pair)
                style = Qt.PenStyle.SolidLine if pair.visible else Qt.PenStyle.DashLine
                strokes = [Stroke(_models_ring(target, 0.12), cosmetic_pen(colour, 2.5, style))]
                if forward is not None:
                    pen = cosmetic_pen(colour.darker(115), 1.6, Qt.PenStyle.DashLine)
                    strokes.append(Stroke(_line_path(forward), pen))
                if backward is not None:
                    enemy = player_colour(scenario, target.player)
                    pen = cosmetic_pen(enemy, 1.6, Qt.PenStyle.DashDotLine)
                    strokes.append(Stroke(_line_path(backward), pen))
                sees_back = (
                    f"sees {_unit_name(observer)}: {visibility_verdict(back)}"
                    if back.visible
                    else f"cannot see {_unit_name(observer)}"
                )
                label = LabelSpec(
                    f"{visibility_verdict(pair)}\n{sees_back}",
                    _tag_point(target),
                    _text_colour(colour.darker(130)),
                    translucent(colour.darker(130), 230),
                    anchor="below",
                )
                return strokes, label

            layer.put(("target", target.id), state, build)
        layer.end()

    def _refresh_who_sees_whom(self, result: SightResult | None) -> None:
        layer = self.halo_layer
        shown = self.who_sees_whom_enabled and result is not None
        if shown != self.legend.isVisible():
            self.legend.setVisible(shown)
            self.scene.request_label_placement()
        if not self.who_sees_whom_enabled or result is None:
            layer.clear()
            self._drop_badges(list(self.badges))
            return
        scenario = result.scenario
        self.legend.setPos(scene_point(0.0, 0.0))
        counts = result.seen_by_counts()
        layer.begin()
        for unit in scenario.units:
            if not unit.models:
                continue
            count = counts.get(unit.id, 0)

            def build(unit: Unit = unit, count: int = count) -> tuple[list[Stroke], None]:
                colour = seen_by_colour(count)
                pen = cosmetic_pen(colour.darker(150), 1.0)
                return [
                    Stroke(_models_ring(unit, 0.35), pen, QBrush(translucent(colour, 230)))
                ], None

            layer.put(("halo", unit.id), (_positions(unit), count), build)
            badge = self.badges.get(unit.id)
            if badge is None:
                badge = SeenCountBadge(unit.id)
                self.badges[unit.id] = badge
            seers = result.seen_by(unit.id)
            # The engine keeps the pairs a move cannot change as the same objects: the list
            # is rebuilt only when one of them was recomputed.
            if len(seers) != len(badge.listed) or any(
                a is not b for a, b in zip(seers, badge.listed, strict=False)
            ):
                badge.listed = seers
                badge.setToolTip("\n".join(seen_by_listing(result, unit.id)))
            badge.set_count(count)
        layer.end()
        self._drop_badges([u for u in self.badges if u not in counts])
        self._place_badges(frozenset(self.badges))

    def _drop_badges(self, unit_ids: list[str]) -> None:
        for unit_id in unit_ids:
            badge = self.badges.pop(unit_id)
            label = badge.parentItem()
            if isinstance(label, LabelItem):
                label.remove_attached()
            scene = badge.scene()
            if scene is not None:
                scene.removeItem(badge)

    def _place_badges(self, unit_ids: frozenset[str]) -> None:
        """Hand each badge to its unit's name tag (a tag made anew takes it over)."""
        for unit_id in unit_ids:
            badge = self.badges.get(unit_id)
            label = self.scene.unit_labels.get(unit_id)
            if badge is not None and label is not None:
                label.attach(badge, badge.boundingRect().width())

    # ------------------------------------------------------------------ hover

    def set_hovered(self, unit_id: str | None) -> None:
        """Show the sight line from the selected unit to ``unit_id`` (an enemy), or nothing."""
        if unit_id is not None and not self._hoverable(unit_id):
            unit_id = None
        if unit_id == self.hovered:
            return
        self.hovered = unit_id
        self._refresh_hover(self.controller.result)
        if unit_id is None:
            self._restore_ruling()
        else:
            self._show_hover_ruling()

    def _hoverable(self, unit_id: str) -> bool:
        if not self.line_of_sight_enabled or self.observer is None:
            return False
        scenario = self.scenario
        try:
            return scenario.unit(unit_id).player != scenario.unit(self.observer).player
        except KeyError:
            return False

    def _hover_pair(self, result: SightResult | None) -> Any | None:
        if result is None or self.hovered is None or self.observer is None:
            return None
        return result.pair(self.observer, self.hovered)

    def _refresh_hover(self, result: SightResult | None) -> None:
        layer = self.hover_layer
        pair = self._hover_pair(result)
        if pair is None or result is None:
            layer.clear()
            return
        scenario = result.scenario
        line = sight_line_of(pair) if pair.visible else None
        points = None if line is None else (line.start, line.end)
        blockers = blockers_of(pair)
        layer.begin()

        def build_line() -> tuple[list[Stroke], LabelSpec]:
            assert line is not None
            path = _line_path(line)
            strokes = [
                Stroke(path, cosmetic_pen(QColor("white"), 5.0)),
                Stroke(path, cosmetic_pen(WITNESS_COLOUR, 2.2)),
            ]
            middle = path.pointAtPercent(0.5)
            words = f"sight line: {line.observer_model} sees {line.target_model}"
            return strokes, LabelSpec(
                words, middle, QColor("white"), translucent(WITNESS_COLOUR, 210), anchor="above"
            )

        if line is not None:
            layer.put("witness", points, build_line)
        for blocker_id in blockers:
            path = _blocker_path(scenario, blocker_id)
            if path is None:
                continue

            def build_blocker(
                path: QPainterPath = path, blocker_id: str = blocker_id
            ) -> tuple[list[Stroke], LabelSpec]:
                pen = cosmetic_pen(BLOCKER_COLOUR, 3.0)
                brush = QBrush(translucent(BLOCKER_COLOUR, 60))
                centre = path.boundingRect().center()
                words = "blocks the sight line" if not pair.visible else "stops fully visible"
                return [Stroke(path, pen, brush)], LabelSpec(
                    f"{blocker_id}: {words}",
                    centre,
                    QColor("white"),
                    translucent(BLOCKER_COLOUR.darker(140), 230),
                )

            layer.put(("blocker", blocker_id), (points, pair.visible, blocker_id), build_blocker)
        layer.end()

    def _show_hover_ruling(self) -> None:
        result = self.controller.result
        pair = self._hover_pair(result)
        if pair is None or result is None:
            return
        scenario = result.scenario
        observer = scenario.unit(pair.observer)
        target = scenario.unit(pair.target)
        back = result.pair(target.id, observer.id)
        heading = f"Line of sight: {_unit_name(observer)} and {_unit_name(target)}"
        parts = [
            f"{_unit_name(observer)} -> {_unit_name(target)}: {visibility_verdict(pair)}",
            pair.explanation,
        ]
        if back is not None:
            parts += [
                "",
                f"{_unit_name(target)} -> {_unit_name(observer)}: {visibility_verdict(back)}",
            ]
            parts.append(back.explanation)
        self._show_ruling(heading, "\n".join(parts))

    # ------------------------------------------------------------------ mouse

    def badge_at(self, scene_pos: QPointF) -> SeenCountBadge | None:
        views = self.scene.views()
        transform = views[0].transform() if views else None
        for item in self.scene.items(
            scene_pos,
            Qt.ItemSelectionMode.IntersectsItemShape,
            Qt.SortOrder.DescendingOrder,
            transform if transform is not None else QTransform(),
        ):
            if isinstance(item, SeenCountBadge):
                return item
        return None

    def list_seen_by(self, unit_id: str, global_pos: QPointF | None = None) -> None:
        """Name the enemy units that can see ``unit_id`` (the Ruling dock and a tooltip)."""
        result = self.controller.result
        if result is None or result.error:
            return
        heading, text = seen_by_listing(result, unit_id)
        self._show_ruling(heading, text)
        if global_pos is not None:
            QToolTip.showText(global_pos.toPoint(), f"{heading}\n{text}", self.viewport)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is not self.viewport:
            return False
        if event.type() == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
            if event.button() != Qt.MouseButton.LeftButton or not self.badges:
                return False
            badge = self.badge_at(self._scene_pos(event))
            if badge is None:
                return False
            self.list_seen_by(badge.unit_id, event.globalPosition())
            return True
        if event.type() == QEvent.Type.MouseMove and isinstance(event, QMouseEvent):
            if event.buttons() != Qt.MouseButton.NoButton:
                return False
            item = self.scene.entity_item_at(self._scene_pos(event))
            unit_id = getattr(item, "unit_id", None) if isinstance(item, ModelItem) else None
            if unit_id is None and getattr(item, "kind", "") == "unit":
                unit_id = getattr(item, "unit_id", None)
            self.set_hovered(unit_id)
        return False

    def _scene_pos(self, event: QMouseEvent) -> QPointF:
        views = self.scene.views()
        return views[0].mapToScene(event.position().toPoint()) if views else QPointF()


def install_sight(window: Any, restore_ruling: Callable[[], None]) -> SightOverlay:
    """Add line of sight to ``window`` (a :class:`gui.main_window.MainWindow`): the overlay,
    drawn from the window's one sight controller (``window.live.sight``), and a "Who sees whom"
    toggle next to the other overlays (View menu, toolbar).

    The existing "Line of sight" toggle drives the selected unit's live line of sight (the main
    window forwards it through :meth:`SightOverlay.set_line_of_sight`).
    """
    controller = window.live.sight
    ruling_dock = window.docks["RulingDock"]

    def show_ruling(heading: str, text: str) -> None:
        window.ruling.show_ruling(heading, text)
        ruling_dock.raise_()

    overlay = SightOverlay(
        window.scene,
        window.view.viewport(),
        controller,
        show_ruling,
        restore_ruling,
        parent=window,
    )
    controller.sight_ready.connect(
        lambda result: (
            result.error
            and window.statusBar().showMessage(f"Line of sight failed: {result.error}", 15_000)
        )
    )
    line_of_sight = window.overlay_actions["visibility"]
    line_of_sight.setToolTip(TIPS["visibility"])
    line_of_sight.setStatusTip(TIPS["visibility"])
    overlay.set_line_of_sight(line_of_sight.isChecked())
    action = QAction("Who sees whom", window)
    action.setObjectName("overlay-who-sees-whom")
    action.setCheckable(True)
    action.setToolTip(TIPS["who-sees-whom"])
    action.setStatusTip(TIPS["who-sees-whom"])
    action.toggled.connect(overlay.set_who_sees_whom)
    anchor = window.overlay_actions["visibility"]
    for menu in window.menuBar().findChildren(QMenu):
        if anchor in menu.actions():
            actions = menu.actions()
            following = actions[actions.index(anchor) + 1 : actions.index(anchor) + 2]
            if following:
                menu.insertAction(following[0], action)
            else:
                menu.addAction(action)
    toolbar = window.findChild(QToolBar, "OverlaysToolbar")
    if toolbar is not None:
        toolbar.addAction(action)
    window.overlay_actions["who-sees-whom"] = action
    return overlay
