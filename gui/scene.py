"""The battlefield scene: mirrors the document through an id-to-item map, and turns mouse
drags and arrow keys into document edits.

The scene never clears itself: items are created, updated in place and removed by id when the
document changes, so after every edit, undo and redo its items are exactly the document's ids
(:meth:`BattlefieldScene.shown_ids`). Selection signals wait until a change is mirrored whole:
a listener never hears of an item whose element the document no longer has. Dragging previews
the moved scenario on the document at every mouse move (rules and overlays follow) and commits
one undo step on release.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from PySide6.QtCore import QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QPainter, QPainterPath, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsSceneMouseEvent

from engine.annotations import measure_annotation, move_annotations
from engine.edits import Selection, move_selection, rotate_models
from engine.model import Annotation, Scenario
from gui import theme
from gui.document import Change, ScenarioDocument
from gui.items import (
    AnnotationItem,
    LabelItem,
    MarkerItem,
    ModelItem,
    ObjectiveItem,
    TerrainItem,
    UnitLabelItem,
    cosmetic_pen,
)
from gui.label_placement import LabelBox, Rect, place_labels
from gui.shapes import player_colour, translucent

NUDGE_SMALL = 0.1
NUDGE_LARGE = 1.0
ROTATE_STEP = 15.0
BOARD_MARGIN = 3.0
EntityItem = ModelItem | UnitLabelItem | TerrainItem | ObjectiveItem | MarkerItem | AnnotationItem
ENTITY_KINDS = frozenset({"model", "unit", "terrain", "objective", "marker", "annotation"})
NewItem = TypeVar("NewItem", bound=QGraphicsItem)


class BattlefieldScene(QGraphicsScene):
    """The table at true scale in inches (scene ``y`` = minus battlefield ``y``)."""

    selection_changed_ids = Signal(object)
    """Emitted with the :class:`Selection` after the selection changes."""
    drag_started = Signal()
    drag_finished = Signal()

    def __init__(self, document: ScenarioDocument) -> None:
        super().__init__()
        self.document = document
        self.models: dict[str, ModelItem] = {}
        self.unit_labels: dict[str, UnitLabelItem] = {}
        self.terrain: dict[str, TerrainItem] = {}
        self.objectives: dict[str, ObjectiveItem] = {}
        self.markers: dict[str, MarkerItem] = {}
        self.annotations: dict[str, AnnotationItem] = {}
        self._annotations_shown: tuple[Annotation, ...] = ()
        self._models_of_unit: dict[str, frozenset[str]] = {}
        self._mirroring = False
        self.edge_labels: list[LabelItem] = []
        self.fixed_marks: list[QGraphicsItem] = []
        """Items drawn at a fixed pixel size (legends) that labels are kept off when possible."""
        self.snap_step: float | None = None
        self.interactive = True
        self._drag: _DragSession | None = None
        self._overlapping: frozenset[str] = frozenset()
        self._placement_timer = QTimer(self)
        self._placement_timer.setSingleShot(True)
        self._placement_timer.setInterval(0)
        self._placement_timer.timeout.connect(self.place_labels)
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.selectionChanged.connect(self._emit_selection)
        document.changed.connect(self._on_changed)
        document.replaced.connect(self.rebuild)
        self.rebuild(document.scenario)

    # ------------------------------------------------------------------ mirroring the document

    @property
    def scenario(self) -> Scenario:
        return self.document.scenario

    def board_rect(self) -> QRectF:
        bf = self.scenario.battlefield
        return QRectF(0.0, -bf.depth, bf.width, bf.depth)

    def rebuild(self, scenario: Scenario) -> None:
        """Mirror a whole new document: remove every entity item by id, then add all anew."""
        with self._selection_settled():
            for table in self._entity_tables():
                for item in table.values():
                    self.removeItem(item)
                table.clear()
            self._models_of_unit.clear()
            self._overlapping = frozenset()
            self._sync_all(scenario)
        self._place_edge_labels()
        self.setSceneRect(
            self.board_rect().adjusted(-BOARD_MARGIN, -BOARD_MARGIN, BOARD_MARGIN, BOARD_MARGIN)
        )
        self.invalidate(self.sceneRect(), QGraphicsScene.SceneLayer.BackgroundLayer)

    def shown_ids(self) -> dict[str, frozenset[str]]:
        """The ids the scene draws, by kind (``units`` are the unit labels)."""
        return {
            "models": frozenset(self.models),
            "units": frozenset(self.unit_labels),
            "terrain": frozenset(self.terrain),
            "objectives": frozenset(self.objectives),
            "markers": frozenset(self.markers),
            "annotations": frozenset(self.annotations),
        }

    @contextmanager
    def _selection_settled(self) -> Iterator[None]:
        """Hold ``selection_changed_ids`` while items come and go; report the selection once
        after, if it changed (removing a selected item deselects it). Other signals (the scene
        rect the views follow) go on as usual."""
        if self._mirroring:
            yield
            return
        before = self.selection()
        self._mirroring = True
        try:
            yield
        finally:
            self._mirroring = False
        if self.selection() != before:
            self._emit_selection()

    def _entity_tables(self) -> tuple[dict[str, Any], ...]:
        return (
            self.models,
            self.unit_labels,
            self.terrain,
            self.objectives,
            self.markers,
            self.annotations,
        )

    def _add_entity(self, table: dict[str, NewItem], entity_id: str, item: NewItem) -> NewItem:
        """Show ``item`` and find it by ``entity_id`` from now on."""
        table[entity_id] = item
        self.addItem(item)
        return item

    def _sync_all(self, scenario: Scenario) -> None:
        self._sync_terrain({t.id for t in scenario.terrain})
        self._sync_objectives({o.id for o in scenario.objectives})
        self._sync_units({u.id for u in scenario.units})
        self._sync_markers({k.id for k in scenario.markers})
        self._sync_annotations(scenario, force=True)

    def _on_changed(self, change: Change) -> None:
        with self._selection_settled():
            self._mirror(change)

    def _mirror(self, change: Change) -> None:
        scenario = self.scenario
        for removed in change.removed:
            for table in self._entity_tables():
                item = table.pop(removed, None)
                if item is not None:
                    self.removeItem(item)
        if change.structure:
            self._remove_stale_models(scenario)
            if self.board_rect() != self.sceneRect().adjusted(
                BOARD_MARGIN, BOARD_MARGIN, -BOARD_MARGIN, -BOARD_MARGIN
            ):
                self.rebuild(scenario)
                return
            self._sync_all(scenario)
            return
        if change.terrain:
            self._sync_terrain(change.terrain)
            linked = {o.id for o in scenario.objectives if o.terrain in change.terrain}
            self._sync_objectives(linked)
        if change.objectives:
            self._sync_objectives(change.objectives)
        if change.units:
            self._sync_units(change.units)
        if change.markers:
            self._sync_markers(change.markers)
        self._sync_annotations(scenario, force=bool(change.units))

    def _remove_stale_models(self, scenario: Scenario) -> None:
        present = {m.id for _, m in scenario.all_models()}
        for model_id in [i for i in self.models if i not in present]:
            self.removeItem(self.models.pop(model_id))
        units = {u.id for u in scenario.units}
        for unit_id in [i for i in self._models_of_unit if i not in units]:
            del self._models_of_unit[unit_id]

    def _sync_units(self, unit_ids: set[str] | frozenset[str]) -> None:
        scenario = self.scenario
        for unit_id in unit_ids:
            try:
                unit = scenario.unit(unit_id)
            except KeyError:
                continue
            colour = player_colour(scenario, unit.player)
            model_ids = frozenset(m.id for m in unit.models)
            # A model deleted from a unit that stays changes only that unit, not the set of
            # units: its item goes here.
            for gone in self._models_of_unit.get(unit.id, frozenset()) - model_ids:
                item = self.models.get(gone)
                if item is not None and item.unit_id == unit.id:
                    self.removeItem(self.models.pop(gone))
            self._models_of_unit[unit.id] = model_ids
            for model in unit.models:
                item = self.models.get(model.id)
                if item is None:
                    item = ModelItem(unit.id, model, colour)
                    item.set_overlapping(model.id in self._overlapping)
                    self._add_entity(self.models, model.id, item)
                else:
                    item.unit_id = unit.id
                    item.update_from(model, colour)
            label = self.unit_labels.get(unit.id)
            text = unit.name or unit.id
            if label is None:
                label = self._add_entity(
                    self.unit_labels, unit.id, UnitLabelItem(unit.id, text, colour)
                )
            else:
                label.set_text(text)
                label.set_colours(
                    theme.current().colour("label_text"), translucent(colour.darker(140), 220)
                )
            top = max(m.y + m.base.bounding_radius for m in unit.models) if unit.models else 0.0
            mean_x = sum(m.x for m in unit.models) / max(1, len(unit.models))
            label.setPos(mean_x, -top - 0.15)

    def _sync_terrain(self, terrain_ids: set[str] | frozenset[str]) -> None:
        scenario = self.scenario
        for terrain_id in terrain_ids:
            try:
                piece = scenario.terrain_piece(terrain_id)
            except KeyError:
                continue
            item = self.terrain.get(terrain_id)
            if item is None:
                self._add_entity(self.terrain, terrain_id, TerrainItem(piece))
            else:
                item.update_from(piece)

    def _sync_objectives(self, objective_ids: set[str] | frozenset[str]) -> None:
        scenario = self.scenario
        for objective_id in objective_ids:
            try:
                objective = scenario.objective(objective_id)
            except KeyError:
                continue
            area: QPainterPath | None = None
            if objective.terrain is not None and objective.terrain in self.terrain:
                area = self.terrain[objective.terrain].area_path()
            item = self.objectives.get(objective_id)
            if item is None:
                self._add_entity(self.objectives, objective_id, ObjectiveItem(objective, area))
            else:
                item.update_from(objective, area)

    def _sync_markers(self, marker_ids: set[str] | frozenset[str]) -> None:
        scenario = self.scenario
        by_id = {k.id: k for k in scenario.markers}
        for marker_id in marker_ids:
            marker = by_id.get(marker_id)
            if marker is None:
                continue
            colour = player_colour(scenario, marker.player)
            item = self.markers.get(marker_id)
            if item is None:
                self._add_entity(self.markers, marker_id, MarkerItem(marker, colour))
            else:
                item.update_from(marker, colour)

    def _sync_annotations(self, scenario: Scenario, *, force: bool) -> None:
        """Mirror the annotations when they changed; with ``force`` (models moved) redraw the
        rulers measuring to models too, with the engine's new lengths."""
        if scenario.annotations is self._annotations_shown and not force:
            return
        self._annotations_shown = scenario.annotations
        present = {a.id for a in scenario.annotations}
        for gone in [i for i in self.annotations if i not in present]:
            self.removeItem(self.annotations.pop(gone))
        for annotation in scenario.annotations:
            ruler = (
                measure_annotation(scenario, annotation) if annotation.kind == "measure" else None
            )
            item = self.annotations.get(annotation.id)
            if item is None:
                self._add_entity(self.annotations, annotation.id, AnnotationItem(annotation, ruler))
            else:
                item.update_from(annotation, ruler)

    def set_overlapping(self, model_ids: frozenset[str]) -> None:
        """Flag the models whose bases overlap another base (computed by the live rules)."""
        if model_ids == self._overlapping:
            return
        for model_id in self._overlapping ^ model_ids:
            item = self.models.get(model_id)
            if item is not None:
                item.set_overlapping(model_id in model_ids)
        self._overlapping = model_ids

    def _place_edge_labels(self) -> None:
        for label in self.edge_labels:
            self.removeItem(label)
        self.edge_labels = []
        bf = self.scenario.battlefield
        grey = theme.current().colour("edge_text")
        placements = (
            (f'North edge ({bf.width:g}")', QPointF(bf.width / 2, -bf.depth), "above"),
            (f'South edge ({bf.width:g}")', QPointF(bf.width / 2, 0.0), "below"),
        )
        for text, pos, anchor in placements:
            self._add_edge_label(LabelItem(text, colour=grey, anchor=anchor, point_size=8), pos)
        for text, x in (
            (f'West edge ({bf.depth:g}")', -0.9),
            (f'East edge ({bf.depth:g}")', bf.width + 0.9),
        ):
            label = LabelItem(text, colour=grey, anchor="centre", point_size=8)
            label.setRotation(-90 if x < 0 else 90)
            self._add_edge_label(label, QPointF(x, -bf.depth / 2))

    def _add_edge_label(self, label: LabelItem, pos: QPointF) -> None:
        label.movable = False
        label.setPos(pos)
        self.edge_labels.append(label)
        self.addItem(label)

    # ------------------------------------------------------------------ palette and labels

    def apply_palette(self) -> None:
        """Redraw every item in the current palette (items read it when they are built)."""
        selected = _ids(self.selection())
        overlapping = self._overlapping
        self.rebuild(self.scenario)
        self.set_overlapping(overlapping)
        self.select_ids(selected)

    def labels(self) -> list[LabelItem]:
        """Every label on the board (unit names, overlay captions, edge names), shown or not."""
        return [item for item in self.items() if isinstance(item, LabelItem)]

    def set_label_scale(self, scale: float) -> None:
        """Draw every label, now and from now on, ``scale`` times its usual size."""
        theme.set_label_scale(scale)
        for label in self.labels():
            label.setScale(scale)
        self.place_labels()

    def request_label_placement(self) -> None:
        """Place the labels again once the current change is mirrored (many labels change at
        once; one placement follows). A drag places them at its drop."""
        if not self._placement_timer.isActive():
            self._placement_timer.start()

    def place_labels(self) -> None:
        """Move labels aside so that none hides another (:mod:`gui.label_placement`), at the
        zoom of the first view; model bases and objective markers are avoided when possible."""
        self._placement_timer.stop()
        if self._drag is not None and self._drag.started:
            return
        ppi = self._pixels_per_inch()
        labels = [label for label in self.labels() if label.isVisible() and label.text()]
        labels.sort(key=lambda label: (label.movable, label.placement_priority, -label.zValue()))
        boxes = []
        for label in labels:
            # The label's own scale and rotation (an edge name is turned) in pixels about its
            # anchor; the view's zoom only moves the anchor.
            anchor = label.scenePos()
            local = label.sceneTransform().mapRect(label.natural_rect()).translated(-anchor)
            boxes.append(LabelBox(_coords(local.translated(anchor * ppi)), label.movable))
        marks: list[Rect] = []
        for item in [*self.models.values(), *self.objectives.values()]:
            bounds = item.mapRectToScene(item.shape().boundingRect())
            marks.append(_coords(QRectF(bounds.topLeft() * ppi, bounds.bottomRight() * ppi)))
        for item in self.fixed_marks:
            if item.isVisible():
                marks.append(_coords(item.boundingRect().translated(item.scenePos() * ppi)))
        for label, (dx, dy) in zip(
            labels, place_labels(boxes, marks, self._shown_pixels(ppi)), strict=True
        ):
            scale = label.scale()
            label.set_offset(QPointF(dx / scale, dy / scale))

    def _shown_pixels(self, ppi: float) -> Rect | None:
        """What the first view shows, as the placement measures (scene x ``ppi``), less what
        it keeps free on its right (presentation mode's ruling)."""
        views = self.views()
        if not views:
            return None
        view = views[0]
        shown = view.mapToScene(view.viewport().rect()).boundingRect()
        reserved = getattr(view, "reserved_right", 0)
        left, top, right, bottom = _coords(QRectF(shown.topLeft() * ppi, shown.bottomRight() * ppi))
        return left, top, right - reserved, bottom

    # ------------------------------------------------------------------ background: table, grid

    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:  # noqa: N802
        palette = theme.current()
        painter.fillRect(rect, palette.colour("surround"))
        board = self.board_rect()
        painter.fillRect(board, palette.colour("table"))
        visible = QRectF(rect).intersected(board)
        if visible.isEmpty():
            return
        minor = cosmetic_pen(palette.colour("grid", palette.grid_alpha), 1.0)
        major = cosmetic_pen(palette.colour("grid", palette.grid_major_alpha), 1.0)
        x_start = max(0, math.floor(visible.left()))
        x_end = min(int(board.right()), math.ceil(visible.right()))
        for x in range(x_start, x_end + 1):
            painter.setPen(major if x % 6 == 0 else minor)
            painter.drawLine(QPointF(x, visible.top()), QPointF(x, visible.bottom()))
        y_start = max(0, math.floor(-visible.bottom()))
        y_end = min(int(-board.top()), math.ceil(-visible.top()))
        for y in range(y_start, y_end + 1):
            painter.setPen(major if y % 6 == 0 else minor)
            painter.drawLine(QPointF(visible.left(), -y), QPointF(visible.right(), -y))
        painter.setPen(cosmetic_pen(palette.colour("board_outline"), 2.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(board)

    # ------------------------------------------------------------------ selection

    def selection(self) -> Selection:
        """What is selected, as document ids (a selected unit label selects its whole unit)."""
        models: set[str] = set()
        units: set[str] = set()
        terrain: set[str] = set()
        objectives: set[str] = set()
        markers: set[str] = set()
        for item in self.selectedItems():
            kind = getattr(item, "kind", "")
            entity_id = getattr(item, "entity_id", "")
            {
                "model": models,
                "unit": units,
                "terrain": terrain,
                "objective": objectives,
                "marker": markers,
            }.get(kind, set()).add(entity_id)
        return Selection(
            frozenset(models),
            frozenset(units),
            frozenset(terrain),
            frozenset(objectives),
            frozenset(markers),
        )

    def selected_unit_id(self) -> str | None:
        """The one unit the selection is about (its label or any of its models), else None."""
        scenario = self.scenario
        selection = self.selection()
        units = set(selection.units) | {
            scenario.unit_of_model(m).id for m in selection.models if m in self.models
        }
        return next(iter(units)) if len(units) == 1 else None

    def select_ids(self, ids: set[str] | frozenset[str]) -> None:
        """Select the items mirroring ``ids`` (model, unit, terrain, objective or marker ids)."""
        self.blockSignals(True)
        try:
            self.clearSelection()
            for table in self._entity_tables():
                for entity_id in ids:
                    item = table.get(entity_id)
                    if item is not None:
                        item.setSelected(True)
        finally:
            self.blockSignals(False)
        self._emit_selection()

    def _emit_selection(self) -> None:
        if not self._mirroring:
            self.selection_changed_ids.emit(self.selection())

    # ------------------------------------------------------------------ dragging

    def entity_item_at(self, scene_pos: QPointF) -> QGraphicsItem | None:
        view = self.views()[0] if self.views() else None
        transform = view.transform() if view is not None else None
        for item in self.items(
            scene_pos,
            Qt.ItemSelectionMode.IntersectsItemShape,
            Qt.SortOrder.DescendingOrder,
            transform or QTransform(),
        ):
            kind = getattr(item, "kind", None)
            if kind == "annotation" and isinstance(item.parentItem(), AnnotationItem):
                return item.parentItem()
            if kind in ENTITY_KINDS:
                return item
        return None

    def selected_annotation_ids(self) -> frozenset[str]:
        """The annotations selected (an annotation's text picks it too)."""
        return frozenset(
            getattr(item, "entity_id", "")
            for item in self.selectedItems()
            if getattr(item, "kind", "") == "annotation"
        )

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        if not self.interactive or event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        item = self.entity_item_at(event.scenePos())
        if item is None:
            super().mousePressEvent(event)
            return
        modifiers = event.modifiers()
        if modifiers & Qt.KeyboardModifier.ControlModifier:
            item.setSelected(not item.isSelected())
            event.accept()
            return
        whole_unit = bool(modifiers & Qt.KeyboardModifier.ShiftModifier)
        if whole_unit and isinstance(item, ModelItem):
            item = self.unit_labels[item.unit_id]
        if not item.isSelected():
            self.blockSignals(True)
            self.clearSelection()
            self.blockSignals(False)
            item.setSelected(True)
        selection = self.selection()
        self._drag = _DragSession(
            self.scenario,
            selection,
            event.scenePos(),
            _anchor_of(item, self.scenario),
            self.selected_annotation_ids(),
        )
        event.accept()

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        drag = self._drag
        if drag is None:
            super().mouseMoveEvent(event)
            return
        delta = event.scenePos() - drag.press
        dx, dy = delta.x(), -delta.y()
        if not drag.started:
            if math.hypot(dx, dy) * self._pixels_per_inch() < 3:
                return
            drag.started = True
            self.document.begin_drag()
            self.drag_started.emit()
        if self.snap_step:
            ax, ay = drag.anchor
            dx = round((ax + dx) / self.snap_step) * self.snap_step - ax
            dy = round((ay + dy) / self.snap_step) * self.snap_step - ay
        moved = move_selection(drag.origin, drag.selection, dx, dy)
        self.document.preview(move_annotations(moved, drag.annotations, dx, dy))
        event.accept()

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        drag, self._drag = self._drag, None
        if drag is None:
            super().mouseReleaseEvent(event)
            return
        if drag.started:
            self.document.end_drag(_describe("Move", drag.selection, drag.annotations))
            self.drag_finished.emit()
            self.request_label_placement()
        event.accept()

    def static_items_during_drag(self) -> list[QGraphicsItem]:
        """The entity items the current drag cannot change (the view caches them as a picture)."""
        drag = self._drag
        if drag is None:
            return []
        moved_units = drag.selection.moved_unit_ids(drag.origin)
        static: list[QGraphicsItem] = [
            item for item in self.models.values() if item.unit_id not in moved_units
        ]
        static += [item for key, item in self.unit_labels.items() if key not in moved_units]
        static += [item for key, item in self.terrain.items() if key not in drag.selection.terrain]
        linked = {o.id for o in drag.origin.objectives if o.terrain in drag.selection.terrain}
        static += [
            item
            for key, item in self.objectives.items()
            if key not in drag.selection.objectives and key not in linked
        ]
        static += [item for key, item in self.markers.items() if key not in drag.selection.markers]
        return static

    def _pixels_per_inch(self) -> float:
        views = self.views()
        return views[0].transform().m11() if views else 1.0

    # ------------------------------------------------------------------ keyboard

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        selection = self.selection()
        if selection.is_empty() or self._drag is not None:
            super().keyPressEvent(event)
            return
        step = NUDGE_LARGE if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else NUDGE_SMALL
        offsets = {
            Qt.Key.Key_Left: (-step, 0.0),
            Qt.Key.Key_Right: (step, 0.0),
            Qt.Key.Key_Up: (0.0, step),
            Qt.Key.Key_Down: (0.0, -step),
        }
        key = Qt.Key(event.key())
        if key in offsets:
            dx, dy = offsets[key]
            moved = move_selection(self.scenario, selection, dx, dy)
            self.document.apply(
                moved, _describe("Nudge", selection), merge_key=f"nudge:{sorted(_ids(selection))}"
            )
            event.accept()
            return
        if key == Qt.Key.Key_R:
            self.rotate_selected(
                -ROTATE_STEP
                if event.modifiers() & Qt.KeyboardModifier.ShiftModifier
                else ROTATE_STEP
            )
            event.accept()
            return
        super().keyPressEvent(event)

    def rotate_selected(self, degrees: float) -> None:
        """Turn the selected models (and every model of selected units) about their centres."""
        scenario = self.scenario
        selection = self.selection()
        model_ids = set(selection.models)
        for unit_id in selection.units:
            model_ids |= {m.id for m in scenario.unit(unit_id).models}
        if model_ids:
            self.document.apply(
                rotate_models(scenario, model_ids, degrees), f"Rotate {degrees:+g}°"
            )


class _DragSession:
    """A drag in progress: where it started, from which scenario, moving what."""

    def __init__(
        self,
        origin: Scenario,
        selection: Selection,
        press: QPointF,
        anchor: tuple[float, float],
        annotations: frozenset[str] = frozenset(),
    ) -> None:
        self.origin = origin
        self.selection = selection
        self.annotations = annotations
        self.press = QPointF(press)
        self.anchor = anchor
        self.started = False


def _anchor_of(item: QGraphicsItem, scenario: Scenario) -> tuple[float, float]:
    """The battlefield point that snapping aligns to the grid for a drag grabbed at ``item``."""
    kind = getattr(item, "kind", "")
    entity_id = getattr(item, "entity_id", "")
    if kind == "model":
        model = scenario.model(entity_id)
        return model.x, model.y
    if kind == "unit":
        first = scenario.unit(entity_id).models[0]
        return first.x, first.y
    if kind == "objective":
        objective = scenario.objective(entity_id)
        return objective.x, objective.y
    if kind == "terrain":
        x, y = scenario.terrain_piece(entity_id).area[0]
        return x, y
    if kind == "marker":
        marker = next(k for k in scenario.markers if k.id == entity_id)
        return marker.x, marker.y
    if kind == "annotation":
        annotation = next(a for a in scenario.annotations if a.id == entity_id)
        return annotation.x, annotation.y
    return 0.0, 0.0


def _coords(rect: QRectF) -> Rect:
    return rect.left(), rect.top(), rect.right(), rect.bottom()


def _ids(selection: Selection) -> set[str]:
    return set(
        selection.models
        | selection.units
        | selection.terrain
        | selection.objectives
        | selection.markers
    )


def _describe(verb: str, selection: Selection, annotations: frozenset[str] = frozenset()) -> str:
    ids = sorted(_ids(selection) | annotations)
    if len(ids) == 1:
        return f"{verb} {ids[0]}"
    return f"{verb} {len(ids)} items"
