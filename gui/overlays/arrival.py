"""The reserves arrival overlay: where the chosen player's units arriving from reserves can be
set up (hatched in that player's colour), or the area denied to them (hatched in the enemy's).

The area is :func:`engine.arrival.arrival_region`'s; this module only draws it. The region
depends on the enemy models, the terrain, the options, the battlefield and the player's own
reserves, never on where the player's own models stand, so a drag of one's own units rebuilds
nothing and a drag of an enemy model rebuilds one cheap union per preview.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsScene
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from engine.arrival import ArrivalRegion, arrival_region
from engine.errors import WarplanError
from engine.explain import inches
from engine.model import Scenario
from gui import theme
from gui.document import ScenarioDocument
from gui.items import Z_OVERLAY_LOW, cosmetic_pen
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke, player_name
from gui.shapes import player_colour, polygon_path, translucent

ArrivalShading = Literal["allowed", "denied"]
Z_ARRIVAL = Z_OVERLAY_LOW + 0.05
"""Over the deployment zones and under the objective ranges and models."""
HATCH_ALPHA = 170
WASH_ALPHA = 45
OUTLINE_ALPHA = 220


@dataclass(frozen=True)
class ArrivalSettings:
    """What the overlay shows: for whom (``None``: the first player), at what distance
    (``None``: the rule system's, or the file's option), the allowed or the denied area."""

    visible: bool = False
    player: str | None = None
    distance: float | None = None
    shading: ArrivalShading = "allowed"


def geometry_path(geometry: BaseGeometry) -> QPainterPath:
    """A scene path of every polygon of ``geometry``, holes included (odd-even fill)."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    pieces = [geometry] if isinstance(geometry, Polygon) else getattr(geometry, "geoms", ())
    for piece in pieces:
        if isinstance(piece, MultiPolygon):
            path.addPath(geometry_path(piece))
        elif isinstance(piece, Polygon) and not piece.is_empty:
            path.addPath(polygon_path(piece.exterior.coords[:-1]))
            for hole in piece.interiors:
                path.addPath(polygon_path(hole.coords[:-1]))
    return path


def build_shading(
    region: ArrivalRegion, shading: ArrivalShading, colour: QColor, caption: LabelSpec
) -> tuple[list[Stroke], LabelSpec | None]:
    area = region.allowed if shading == "allowed" else region.denied
    path = geometry_path(area)
    # A light wash under a hatch: told apart from a deployment zone's flat fill of the same
    # colour, and the boundary drawn firmly, since where it runs is the answer.
    hatch = QBrush(translucent(colour, HATCH_ALPHA), Qt.BrushStyle.BDiagPattern)
    strokes = [
        Stroke(path, QPen(Qt.PenStyle.NoPen), QBrush(translucent(colour, WASH_ALPHA))),
        Stroke(path, cosmetic_pen(translucent(colour, OUTLINE_ALPHA), 2.0), hatch),
    ]
    return strokes, caption


class ArrivalOverlay(QObject):
    """Shades where reserves can arrive, following the document live (drag previews too).

    ``region`` is the engine's last answer (``None`` while hidden or when the engine refused,
    ``error`` then says why); ``updated`` is emitted after each rebuild.
    """

    updated = Signal()

    def __init__(
        self, scene: QGraphicsScene, document: ScenarioDocument, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.document = document
        self.layer = OverlayLayer(scene, Z_ARRIVAL)
        self.settings = ArrivalSettings()
        self.region: ArrivalRegion | None = None
        self.error = ""
        self.builds = 0
        """How many times the region was worked out (a test's view of the caching)."""
        document.changed.connect(self.refresh)
        document.replaced.connect(self.refresh)

    def configure(self, settings: ArrivalSettings) -> None:
        self.settings = settings
        self.refresh()

    def player(self, scenario: Scenario) -> str:
        chosen = self.settings.player
        return chosen if chosen in scenario.player_ids() else scenario.player_ids()[0]

    def refresh(self, *_: object) -> None:
        if not self.settings.visible:
            self.layer.clear()
            self.region = None
            self.updated.emit()
            return
        scenario = self.document.scenario
        player = self.player(scenario)
        state = (self.settings, player, _region_inputs(scenario, player), theme.current().id)
        key = ("arrival", player)
        if self.layer.item(key) is not None and self.layer.state(key) == state:
            return
        try:
            region = arrival_region(scenario, player, distance=self.settings.distance)
        except WarplanError as error:
            self.layer.clear()
            self.region, self.error = None, str(error)
            self.updated.emit()
            return
        self.builds += 1
        self.region, self.error = region, ""
        arriving = self.settings.shading == "allowed"
        whose = player if arriving else scenario.opponent_of(player)
        colour = player_colour(scenario, whose)
        name = player_name(scenario, player)
        text = (
            f"{name}'s reserves can arrive here (more than {inches(region.distance)} from enemies)"
            if arriving
            else f"{name}'s reserves cannot arrive here ({inches(region.distance)} of enemies)"
        )
        # Under the middle of the north edge, where no zone's name is written.
        label = LabelSpec(
            text,
            QPointF(scenario.battlefield.width / 2, -scenario.battlefield.depth + 0.2),
            theme.current().colour("label_text"),
            colour,
            anchor="below",
        )
        shading = self.settings.shading
        self.layer.begin()
        self.layer.put(key, state, lambda: build_shading(region, shading, colour, label))
        self.layer.end()
        self.updated.emit()


def _region_inputs(scenario: Scenario, player: str) -> tuple[object, ...]:
    """Everything :func:`engine.arrival.arrival_region` reads for ``player``: the enemy
    models, the terrain, the options, the table, the ruleset, and the sizes and moves of the
    player's own units and reserves (which size a rule system's edge band), not their places."""
    enemies = tuple(u.models for u in scenario.units if u.player != player)
    own = tuple(
        (u.move, tuple(m.base for m in u.models))
        for u in (*scenario.units, *scenario.reserves)
        if u.player == player
    )
    return (
        scenario.ruleset,
        scenario.players,
        scenario.battlefield,
        scenario.options,
        scenario.deployment,
        scenario.game,
        scenario.terrain,
        enemies,
        own,
    )
