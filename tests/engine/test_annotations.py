"""Annotations in the file: arrows, callouts and kept rulers are read, checked, saved, pruned
with the models they measure to, and measured exactly as the Measure tool measures."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import geometry
from engine.annotations import (
    add_annotation,
    measure,
    measure_annotation,
    move_annotations,
    remove_annotations,
    set_annotation_text,
)
from engine.edits import Selection, remove_selection, unique_id
from engine.errors import RulesError, ScenarioError
from engine.model import (
    Annotation,
    Battlefield,
    CircleBase,
    Model,
    OvalBase,
    Player,
    RectBase,
    Scenario,
    Unit,
)
from engine.references import dangling_references, element_ids
from engine.scenario_io import dumps_scenario, loads_scenario

RED = Model("red-1", 30.0, 16.0, CircleBase(32.0))
BLUE = Model("blue-1", 30.0, 27.0, OvalBase(60.0, 35.0), rotation=30.0)


def scenario(**kwargs: Any) -> Scenario:
    return Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        Battlefield(60.0, 44.0),
        units=(Unit("red-squad", "red", (RED,)), Unit("blue-squad", "blue", (BLUE,))),
        **kwargs,
    )


def document(annotations: list[dict[str, Any]]) -> str:
    data = json.loads(dumps_scenario(scenario()))
    data["annotations"] = annotations
    return json.dumps(data)


def problems(annotations: list[dict[str, Any]]) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        loads_scenario(document(annotations))
    return [str(p) for p in caught.value.problems]


def test_old_files_open_without_annotations_and_save_as_before() -> None:
    text = dumps_scenario(scenario())
    assert "annotations" not in text
    assert loads_scenario(text).annotations == ()


def test_every_kind_round_trips() -> None:
    annotations = [
        {"id": "arrow-1", "kind": "arrow", "x": 20, "y": 12, "to_x": 28, "to_y": 20, "text": "go"},
        {"id": "text-1", "kind": "text", "x": 30, "y": 22, "text": '3.00" from the rim'},
        {
            "id": "measure-1",
            "kind": "measure",
            "x": 30,
            "y": 16,
            "to_x": 30,
            "to_y": 27,
            "from_model": "red-1",
            "to_model": "blue-1",
        },
    ]
    read = loads_scenario(document(annotations))
    assert [a.kind for a in read.annotations] == ["arrow", "text", "measure"]
    again = json.loads(dumps_scenario(read))["annotations"]
    assert again == annotations
    assert loads_scenario(dumps_scenario(read)) == read


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (
            {"id": "a", "kind": "arrow", "x": 1, "y": 1},
            "annotations[0].to_x: an annotation of kind",
        ),
        (
            {"id": "a", "kind": "arrow", "x": 1, "y": 1, "to_x": 1, "to_y": 1},
            "annotations[0].to_x: an arrow must not end where it starts",
        ),
        ({"id": "a", "kind": "text", "x": 1, "y": 1}, "annotations[0].text: a text callout needs"),
        ({"id": "a", "kind": "circle", "x": 1, "y": 1}, "annotations[0].kind: must be one of"),
        (
            {
                "id": "a",
                "kind": "arrow",
                "x": 1,
                "y": 1,
                "to_x": 2,
                "to_y": 2,
                "from_model": "red-1",
            },
            "annotations[0].from_model: only a measure's ends name models",
        ),
        (
            {"id": "a", "kind": "measure", "x": 1, "y": 1, "to_x": 2, "to_y": 2, "to_model": "x"},
            'annotations[0].to_model: unknown model "x" on the battlefield',
        ),
        (
            {
                "id": "a",
                "kind": "measure",
                "x": 1,
                "y": 1,
                "to_x": 2,
                "to_y": 2,
                "to_model": "red-squad",
            },
            'annotations[0].to_model: unknown model "red-squad" on the battlefield',
        ),
        (
            {"id": "red-1", "kind": "text", "x": 1, "y": 1, "text": "t"},
            'annotations[0].id: duplicate id "red-1"',
        ),
        (
            {"id": "a", "kind": "text", "x": 1e9, "y": 1, "text": "t"},
            "annotations[0].x: must be a number from",
        ),
        ({"id": "a", "kind": "text", "x": 1, "y": 1, "text": "t", "colour": "red"}, "unknown key"),
    ],
)
def test_refusals_name_the_place_and_the_problem(annotation: dict[str, Any], expected: str) -> None:
    assert any(expected in p for p in problems([annotation])), problems([annotation])


def test_a_ruler_linked_to_models_may_start_where_it_ends() -> None:
    read = loads_scenario(
        document(
            [
                {
                    "id": "m",
                    "kind": "measure",
                    "x": 30,
                    "y": 16,
                    "to_x": 30,
                    "to_y": 16,
                    "to_model": "blue-1",
                }
            ]
        )
    )
    assert measure_annotation(read, read.annotations[0]).length > 0


def test_ids_share_the_document_namespace() -> None:
    s = add_annotation(scenario(), "text", (1.0, 1.0), text="note")
    assert "text-1" in element_ids(s)
    assert unique_id(s, "text") == "text-2"
    s = add_annotation(s, "text", (2.0, 2.0), text="again")
    assert [a.id for a in s.annotations] == ["text-1", "text-2"]


def test_kept_ruler_measures_closest_points_and_follows_the_models() -> None:
    s = add_annotation(
        scenario(), "measure", (30.0, 16.0), (30.0, 27.0), from_model="red-1", to_model="blue-1"
    )
    ruler = measure_annotation(s, s.annotations[0])
    assert ruler.length == pytest.approx(geometry.model_distance(RED, BLUE), abs=1e-12)
    assert (ruler.start, ruler.end) == geometry.closest_points(RED, BLUE)
    moved_blue = replace(BLUE, x=40.0)
    later = replace(s, units=(s.units[0], replace(s.units[1], models=(moved_blue,))))
    assert measure_annotation(later, later.annotations[0]).length == pytest.approx(
        geometry.model_distance(RED, moved_blue), abs=1e-12
    )


def test_ruler_from_a_base_to_a_point_is_exact_at_the_boundary() -> None:
    """A 32 mm base's rim is 0.6299" from its centre: a point 3" beyond the rim measures 3"."""
    radius = 16.0 / 25.4
    point = (RED.x + radius + 3.0, RED.y)
    assert measure((RED.x, RED.y), RED, point, None).length == pytest.approx(3.0, abs=1e-9)
    assert measure(point, None, (0.0, 0.0), None).length == pytest.approx(math.hypot(*point))


@given(st.floats(-20, 20), st.floats(-20, 20), st.floats(-20, 20), st.floats(-20, 20))
def test_free_ruler_is_the_plain_distance_and_symmetric(
    x0: float, y0: float, x1: float, y1: float
) -> None:
    forward = measure((x0, y0), None, (x1, y1), None)
    backward = measure((x1, y1), None, (x0, y0), None)
    assert forward.length == pytest.approx(math.hypot(x1 - x0, y1 - y0))
    assert forward.length == pytest.approx(backward.length)


@given(st.floats(0, 40), st.floats(0, 40), st.floats(0, 360))
def test_ruler_between_bases_matches_the_engine_distance(x: float, y: float, turn: float) -> None:
    tank = Model("tank", x, y, RectBase(120.0, 90.0), rotation=turn)
    ruler = measure((0.0, 0.0), RED, (0.0, 0.0), tank)
    assert ruler.length == geometry.model_distance(RED, tank)


def test_deleting_a_model_deletes_its_rulers_and_keeps_the_rest() -> None:
    s = add_annotation(scenario(), "measure", (30.0, 16.0), (40.0, 16.0), from_model="red-1")
    s = add_annotation(s, "arrow", (1.0, 1.0), (5.0, 5.0))
    s = add_annotation(s, "measure", (1.0, 1.0), (9.0, 9.0))
    gone = remove_selection(s, Selection(units=frozenset({"red-squad"})))
    assert [a.id for a in gone.annotations] == ["arrow-1", "measure-2"]
    assert dangling_references(gone) == ()
    assert loads_scenario(dumps_scenario(gone)) == gone


def test_move_remove_and_retext() -> None:
    s = add_annotation(scenario(), "arrow", (1.0, 1.0), (5.0, 5.0))
    s = add_annotation(s, "text", (2.0, 2.0), (4.0, 4.0), text="why")
    moved = move_annotations(s, {"arrow-1"}, 1.5, -0.5)
    assert moved.annotations[0] == Annotation("arrow-1", "arrow", 2.5, 0.5, 6.5, 4.5)
    assert moved.annotations[1] == s.annotations[1]
    assert move_annotations(s, {"arrow-1"}, 0.0, 0.0) is s
    assert [a.id for a in remove_annotations(moved, {"arrow-1"}).annotations] == ["text-1"]
    assert set_annotation_text(s, "text-1", "because").annotations[1].text == "because"
    with pytest.raises(RulesError):
        set_annotation_text(s, "text-1", "  ")


@pytest.mark.parametrize(
    ("kind", "end", "text"),
    [("arrow", None, ""), ("measure", None, ""), ("text", None, " "), ("arrow", (1.0, 1.0), "")],
)
def test_add_refuses_what_the_reader_would_refuse(
    kind: str, end: tuple[float, float] | None, text: str
) -> None:
    with pytest.raises(RulesError):
        add_annotation(scenario(), kind, (1.0, 1.0), end, text=text)
