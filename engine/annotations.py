"""Annotations for presenting a ruling: arrows, text callouts and rulers kept on the board.

No rule reads them. A ruler (``kind`` ``"measure"``) measures as the Measure tool does: between
the closest points of two bases when both ends are models, from a base to a point, or between
two points; its ends on models follow the models wherever they stand. Deleting a model deletes
the rulers measuring to it (:func:`engine.references.prune_references`).

>>> from engine.model import Battlefield, CircleBase, Model, Player, Scenario, Unit
>>> a = Model("a-1", 10.0, 10.0, CircleBase(25.4))
>>> b = Model("b-1", 16.0, 10.0, CircleBase(25.4))
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), Battlefield(),
...     units=(Unit("a", "red", (a,)), Unit("b", "blue", (b,))))
>>> s = add_annotation(s, "measure", (10.0, 10.0), (16.0, 10.0), from_model="a-1", to_model="b-1")
>>> ruler = measure_annotation(s, s.annotations[0])
>>> s.annotations[0].id, round(ruler.length, 6), ruler.start, ruler.end
('measure-1', 5.0, (10.5, 10.0), (15.5, 10.0))
>>> ruler.caption
'5.00"'
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, replace

from engine import geometry
from engine.edits import unique_id
from engine.errors import RulesError
from engine.explain import inches
from engine.model import ANNOTATION_KINDS, Annotation, Model, Point, Scenario
from engine.references import prune_references


@dataclass(frozen=True)
class Ruler:
    """A measured distance: its length in inches and the two points it is drawn between."""

    length: float
    start: Point
    end: Point

    @property
    def caption(self) -> str:
        """The length as the board shows it, to 0.01"."""
        return f'{self.length:.2f}"'

    def describe(self) -> str:
        """The length in the engine's inch wording (what a ruling quotes)."""
        return inches(self.length)


def measure(start: Point, start_model: Model | None, end: Point, end_model: Model | None) -> Ruler:
    """The distance between two ends, each a free point or a model's base (closest points).

    >>> from engine.model import RectBase
    >>> tank = Model("t", 10.0, 10.0, RectBase(50.8, 25.4))
    >>> measure((0.0, 0.0), None, (14.0, 10.0), tank).end
    (9.0, 9.5)
    >>> measure((14.0, 10.0), None, (14.0, 10.0), tank).length
    3.0
    """
    if start_model is not None and end_model is not None and start_model.id != end_model.id:
        a, b = geometry.closest_points(start_model, end_model)
        return Ruler(geometry.model_distance(start_model, end_model), a, b)
    if start_model is not None:
        point = geometry.model_closest_point(start_model, *end)
        return Ruler(geometry.model_point_distance(start_model, *end), point, end)
    if end_model is not None:
        point = geometry.model_closest_point(end_model, *start)
        return Ruler(geometry.model_point_distance(end_model, *start), start, point)
    (x0, y0), (x1, y1) = start, end
    return Ruler(math.hypot(x1 - x0, y1 - y0), start, end)


def _model(scenario: Scenario, model_id: str | None) -> Model | None:
    if model_id is None:
        return None
    try:
        return scenario.model(model_id)
    except KeyError:
        return None


def measure_annotation(scenario: Scenario, annotation: Annotation) -> Ruler:
    """What a kept ruler measures now (its model ends where the models stand)."""
    end = annotation.end
    if annotation.kind != "measure" or end is None:
        raise RulesError(f"{annotation.id} is not a measure annotation")
    return measure(
        (annotation.x, annotation.y),
        _model(scenario, annotation.from_model),
        end,
        _model(scenario, annotation.to_model),
    )


def add_annotation(
    scenario: Scenario,
    kind: str,
    start: Point,
    end: Point | None = None,
    *,
    text: str = "",
    from_model: str | None = None,
    to_model: str | None = None,
) -> Scenario:
    """``scenario`` with a new annotation (its id ``<kind>-N``, unique in the document).

    >>> from engine.model import Battlefield, Player, Scenario
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), Battlefield())
    >>> add_annotation(s, "text", (5.0, 5.0), text="Wholly within?").annotations[0].id
    'text-1'
    >>> add_annotation(s, "circle", (5.0, 5.0))
    Traceback (most recent call last):
    ...
    engine.errors.RulesError: an annotation is one of arrow, text, measure; got 'circle'
    """
    if kind not in ANNOTATION_KINDS:
        raise RulesError(f"an annotation is one of {', '.join(ANNOTATION_KINDS)}; got {kind!r}")
    if kind in ("arrow", "measure") and end is None:
        raise RulesError(f"an {kind} needs an end")
    if kind == "text" and not text.strip():
        raise RulesError("a text callout needs its text")
    linked = kind == "measure" and (from_model is not None or to_model is not None)
    if kind in ("arrow", "measure") and not linked and end == start:
        raise RulesError(f"an {kind} must not end where it starts")
    annotation = Annotation(
        unique_id(scenario, kind),
        kind,
        start[0],
        start[1],
        end[0] if end is not None else None,
        end[1] if end is not None else None,
        text,
        from_model if kind == "measure" else None,
        to_model if kind == "measure" else None,
    )
    return replace(scenario, annotations=(*scenario.annotations, annotation))


def move_annotations(
    scenario: Scenario, annotation_ids: Collection[str], dx: float, dy: float
) -> Scenario:
    """``scenario`` with the annotations ``annotation_ids`` displaced by ``(dx, dy)`` inches (a
    ruler's ends on models stay on the models)."""
    if not annotation_ids or (dx == 0 and dy == 0):
        return scenario
    moved = []
    for a in scenario.annotations:
        if a.id in annotation_ids:
            a = replace(
                a,
                x=a.x + dx,
                y=a.y + dy,
                to_x=None if a.to_x is None else a.to_x + dx,
                to_y=None if a.to_y is None else a.to_y + dy,
            )
        moved.append(a)
    return replace(scenario, annotations=tuple(moved))


def remove_annotations(scenario: Scenario, annotation_ids: Collection[str]) -> Scenario:
    """``scenario`` without the annotations ``annotation_ids``."""
    kept = tuple(a for a in scenario.annotations if a.id not in annotation_ids)
    if len(kept) == len(scenario.annotations):
        return scenario
    return prune_references(replace(scenario, annotations=kept))


def set_annotation_text(scenario: Scenario, annotation_id: str, text: str) -> Scenario:
    """``scenario`` with the annotation's text replaced (a callout's text may not be empty)."""
    result = []
    for a in scenario.annotations:
        if a.id == annotation_id:
            if a.kind == "text" and not text.strip():
                raise RulesError("a text callout needs its text")
            a = replace(a, text=text)
        result.append(a)
    return replace(scenario, annotations=tuple(result))
