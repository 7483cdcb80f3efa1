"""The battlefield's four edges and exact distances from a base to them.

Distances from a base to an edge are exact for every base shape: the signed distance of the
base's centre minus the base's reach (its support function) towards the edge.

>>> from engine.model import Battlefield, CircleBase, Model
>>> north = board_edge(Battlefield(72, 48), "north")
>>> north.distance_to(10, 40)
8.0
>>> round(model_edge_distance(Model("m", 10.0, 40.0, CircleBase(50.8)), north), 9)
7.0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.errors import RulesError
from engine.geometry import shape_of
from engine.model import Battlefield, Model, Point

EdgeName = Literal["south", "north", "west", "east"]
EDGE_NAMES: tuple[EdgeName, ...] = ("south", "north", "west", "east")


@dataclass(frozen=True)
class BoardEdge:
    """One battlefield edge: its segment and the unit normal pointing into the table."""

    name: EdgeName
    start: Point
    end: Point
    inward: Point

    def distance_to(self, x: float, y: float) -> float:
        """Distance from a point on the table to this edge's line."""
        return (x - self.start[0]) * self.inward[0] + (y - self.start[1]) * self.inward[1]


def board_edge(battlefield: Battlefield, name: EdgeName) -> BoardEdge:
    """The named edge of the battlefield (south is ``y = 0``)."""
    w, d = float(battlefield.width), float(battlefield.depth)
    edges: dict[str, BoardEdge] = {
        "south": BoardEdge("south", (0.0, 0.0), (w, 0.0), (0.0, 1.0)),
        "north": BoardEdge("north", (0.0, d), (w, d), (0.0, -1.0)),
        "west": BoardEdge("west", (0.0, 0.0), (0.0, d), (1.0, 0.0)),
        "east": BoardEdge("east", (w, 0.0), (w, d), (-1.0, 0.0)),
    }
    if name not in edges:
        raise RulesError(f"no battlefield edge {name!r} (south, north, west, east)")
    return edges[name]


def model_reach(model: Model, ux: float, uy: float) -> float:
    """How far a base extends from its centre in the unit direction ``(ux, uy)`` (exact).

    >>> from engine.model import CircleBase, RectBase
    >>> round(model_reach(Model("m", 0, 0, CircleBase(50.8)), 0.0, 1.0), 9)
    1.0
    >>> round(model_reach(Model("t", 0, 0, RectBase(101.6, 50.8), rotation=90), 0.0, 1.0), 9)
    2.0
    """
    sx, sy = shape_of(model).support(ux, uy)
    return (sx - model.x) * ux + (sy - model.y) * uy


def model_edge_distance(model: Model, edge: BoardEdge) -> float:
    """Distance from the closest point of a base to an edge's line (negative: over it)."""
    return edge.distance_to(model.x, model.y) - model_reach(model, -edge.inward[0], -edge.inward[1])


def model_edge_far_distance(model: Model, edge: BoardEdge) -> float:
    """Distance from the farthest point of a base to an edge's line (``wholly within N``)."""
    return edge.distance_to(model.x, model.y) + model_reach(model, edge.inward[0], edge.inward[1])
