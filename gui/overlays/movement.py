"""The movement overlay: the selected unit's movement bands, as the engine traces them
(:func:`engine.movement.movement_bands`): the area its bases can cover with a Normal Move, each
Advance roll and a charge after a Normal Move, around the terrain that blocks it.

Tracing the bands takes from a few milliseconds on open ground to seconds among many ruins, so
it runs on a worker thread over the immutable scenario; the bands are traced again only when the
unit, the terrain, the battlefield or the options change (moving another unit changes nothing),
one job at a time, the newest request replacing a pending one and a stale result dropped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial

import shapely
from PySide6.QtCore import QObject, QPointF, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import QBrush, QPainterPath, QPen
from shapely.geometry.base import BaseGeometry

from engine.explain import inches
from engine.model import Scenario
from engine.movement import MovementBand, movement_bands
from gui import theme
from gui.items import cosmetic_pen
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke
from gui.shapes import polygon_path, translucent

BAND_COLOURS = {"normal": "move_normal", "advance": "move_advance", "charge": "move_charge"}
"""The palette colour of each kind of move (distinct in every palette: gui.theme checks it)."""


def band_inputs(scenario: Scenario, unit_id: str | None) -> tuple[object, ...] | None:
    """What the bands of ``unit_id`` depend on (compared, not hashed); ``None`` for no unit."""
    if unit_id is None:
        return None
    unit = next((u for u in scenario.units if u.id == unit_id), None)
    if unit is None:
        return None
    return (unit, scenario.terrain, scenario.battlefield, scenario.options, scenario.ruleset)


def geometry_path(geometry: BaseGeometry) -> QPainterPath:
    """A filled path (odd-even) of the polygons of ``geometry``, holes included."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    for part in shapely.get_parts(geometry):
        if part.geom_type != "Polygon" or part.is_empty:
            continue
        path.addPath(polygon_path(list(part.exterior.coords)[:-1]))
        for hole in part.interiors:
            path.addPath(polygon_path(list(hole.coords)[:-1]))
    return path


def band_label(band: MovementBand) -> str:
    if band.kind == "normal":
        return f"Move {inches(band.distance)}"
    if band.kind == "charge":
        return f"Charge up to {inches(band.distance)}"
    return f"Advance up to {inches(band.distance)} ({band.probability})"


def build_band(band: MovementBand) -> tuple[list[Stroke], LabelSpec | None]:
    palette = theme.current()
    colour = palette.colour(BAND_COLOURS[band.kind])
    fill_alpha = 40 if band.kind == "normal" else 18
    strokes = [
        Stroke(
            geometry_path(band.band),
            QPen(Qt.PenStyle.NoPen),
            QBrush(translucent(colour, fill_alpha)),
        ),
        Stroke(
            geometry_path(band.region),
            cosmetic_pen(colour, 2.0 if band.kind != "advance" else 1.0, _pen_style(band)),
        ),
    ]
    label = None
    if band.kind != "advance" or band.roll == 6:
        top = _top_point(band.region)
        if top is not None:
            label = LabelSpec(band_label(band), top, palette.colour("label_text"), colour)
    return strokes, label


def _pen_style(band: MovementBand) -> Qt.PenStyle:
    return Qt.PenStyle.DashLine if band.kind == "charge" else Qt.PenStyle.SolidLine


def _top_point(region: BaseGeometry) -> QPointF | None:
    if region.is_empty:
        return None
    _, _, _, top = region.bounds
    x = (region.bounds[0] + region.bounds[2]) / 2.0
    return QPointF(x, -top)


def update_movement_overlay(layer: OverlayLayer, bands: Iterable[MovementBand]) -> None:
    """Draw ``bands`` (replacing what the layer showed)."""
    layer.begin()
    for band in bands:
        key = ("band", band.kind, band.roll)
        layer.put(key, (band.distance, band.region.wkb), partial(build_band, band))
    layer.end()


@dataclass(frozen=True)
class BandsResult:
    generation: int
    bands: tuple[MovementBand, ...]
    error: str = ""


class _Signals(QObject):
    finished = Signal(object)


class _BandsTask(QRunnable):
    def __init__(self, generation: int, scenario: Scenario, unit_id: str, signals: _Signals):
        super().__init__()
        self._generation = generation
        self._scenario = scenario
        self._unit_id = unit_id
        self._signals = signals
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result = BandsResult(self._generation, movement_bands(self._scenario, self._unit_id))
        except Exception as error:  # noqa: BLE001 - shown as no bands, never a crash
            result = BandsResult(self._generation, (), f"{type(error).__name__}: {error}")
        try:
            self._signals.finished.emit(result)
        except RuntimeError:
            return  # the window closed while this ran


class MovementOverlay(QObject):
    """The selected unit's bands on ``layer``, traced off the UI thread."""

    drawn = Signal()
    """The layer shows the bands of the latest request."""

    def __init__(self, layer: OverlayLayer, pool: QThreadPool | None = None) -> None:
        super().__init__()
        self.layer = layer
        self.pool = pool or QThreadPool.globalInstance()
        self.inputs: tuple[object, ...] | None = None
        self.generation = 0
        self.last_error = ""
        self._running = False
        self._pending: tuple[int, Scenario, str] | None = None
        self._signals = _Signals()
        self._signals.finished.connect(self._finished)

    def show(self, scenario: Scenario, unit_id: str | None) -> None:
        """Show ``unit_id``'s bands (none for ``None``); traced again only when its inputs
        changed."""
        inputs = band_inputs(scenario, unit_id)
        if inputs == self.inputs:
            return
        self.inputs = inputs
        self.generation += 1
        if inputs is None or unit_id is None:
            self._pending = None
            self.layer.clear()
            self.drawn.emit()
            return
        self._pending = (self.generation, scenario, unit_id)
        self._start()

    def forget(self) -> None:
        """Trace again at the next :meth:`show` (the palette changed)."""
        self.inputs = None
        self.generation += 1

    def _start(self) -> None:
        if self._running or self._pending is None:
            return
        generation, scenario, unit_id = self._pending
        self._pending = None
        self._running = True
        self.pool.start(_BandsTask(generation, scenario, unit_id, self._signals))

    def _finished(self, result: BandsResult) -> None:
        self._running = False
        if result.generation == self.generation:
            self.last_error = result.error
            update_movement_overlay(self.layer, result.bands)
            self.drawn.emit()
        self._start()
