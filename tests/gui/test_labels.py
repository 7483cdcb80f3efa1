"""Labels never hide each other: on the official table with two ~100-model armies, at the
zoom a player sees the whole table and zoomed in, no two drawn label boxes intersect."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QPointF, QRectF

from benchmarks.official_table import make_official_table
from engine.edits import Selection, move_selection
from gui.items import LabelItem
from gui.label_placement import LabelBox, overlaps, place_labels, shifted


def drawn_rects(window) -> list[tuple[str, QRectF]]:
    """Each shown label's box as drawn in the viewport (Qt's own mapping, not the placement's)."""
    view = window.view
    rects = []
    for label in window.scene.labels():
        if label.isVisible() and label.text():
            transform = label.deviceTransform(view.viewportTransform())
            rects.append((label.text(), transform.mapRect(label.box_rect())))
    return rects


def intersecting(rects: list[tuple[str, QRectF]]) -> list[tuple[str, str]]:
    return [
        (a, b)
        for (a, ra), (b, rb) in itertools.combinations(rects, 2)
        if ra.intersected(rb).width() > 1e-6 and ra.intersected(rb).height() > 1e-6
    ]


@pytest.fixture
def official_window(make_window, qtbot):
    window = make_window(make_official_table())
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    window.view.fit_battlefield()
    window.scene.place_labels()
    return window


def test_crowded_official_table_labels_do_not_intersect(official_window, qtbot) -> None:
    window = official_window
    rects = drawn_rects(window)
    assert len(rects) > 30  # unit names, objective captions, zone names, quarters, edges
    moved = [label for label in window.scene.labels() if not label.offset().isNull()]
    assert moved, "a crowded board needs some labels moved aside"
    assert intersecting(rects) == []
    far = [label for label in moved if label.offset().manhattanLength() > 3]
    assert all(not label.leader_path().isEmpty() for label in far)


def test_in_presentation_mode_labels_stay_apart_and_in_view(official_window, qtbot) -> None:
    """Large labels on the full-screen board: none hides another and none leaves the view."""
    window = official_window
    window.set_presentation(True)
    window.scene.place_labels()
    assert intersecting(drawn_rects(window)) == []
    # Left of the ruling, with a pixel for rounding.
    reserved = window.view.reserved_right
    assert reserved > 0
    viewport = QRectF(window.view.viewport().rect()).adjusted(-1, -1, 1 - reserved, 1)
    outside = [
        (label.text(), rect)
        for label in window.scene.labels()
        if label.isVisible() and label.text() and label.movable
        for rect in [
            label.deviceTransform(window.view.viewportTransform()).mapRect(label.box_rect())
        ]
        if not viewport.contains(rect)
    ]
    assert outside == []
    window.set_presentation(False)


def test_without_placement_the_same_board_has_collisions(official_window) -> None:
    """The check tells: with every label back at its natural place, boxes do intersect."""
    for label in official_window.scene.labels():
        label.set_offset(QPointF())
    assert intersecting(drawn_rects(official_window)) != []


def test_zoom_and_presentation_scale_place_again(official_window, qtbot) -> None:
    window = official_window
    window.view.zoom_by(1.6)
    qtbot.waitUntil(lambda: not intersecting(drawn_rects(window)), timeout=2000)
    window.scene.set_label_scale(1.6)
    assert all(label.scale() == 1.6 for label in window.scene.labels())
    assert intersecting(drawn_rects(window)) == []
    window.scene.set_label_scale(1.0)


def test_a_moved_unit_label_is_placed_again_after_the_change(official_window, qtbot) -> None:
    window = official_window
    scene = window.scene
    unit = scene.scenario.units[0]
    other = scene.scenario.units[1]
    # Put the first unit right on top of the second: their names would coincide.
    dx = other.models[0].x - unit.models[0].x
    dy = other.models[0].y - unit.models[0].y
    moved = move_selection(scene.scenario, Selection(units=frozenset({unit.id})), dx, dy)
    window.document.apply(moved, "stack")
    qtbot.wait(100)
    assert intersecting(drawn_rects(window)) == []


def test_placement_prefers_unmoved_and_clears_marks_when_it_can() -> None:
    boxes = [LabelBox((0.0, 0.0, 40.0, 10.0)), LabelBox((0.0, 0.0, 40.0, 10.0))]
    offsets = place_labels(boxes, marks=[(0.0, 10.0, 40.0, 30.0)])
    assert offsets[0] == (0.0, 0.0)
    second = shifted(boxes[1].rect, offsets[1])
    assert not overlaps(second, boxes[0].rect)
    assert not overlaps(second, (0.0, 10.0, 40.0, 30.0))
    assert offsets[1] == (0.0, -12.0)  # one label height and the gap up: the nearest free place


def test_fixed_labels_never_move_and_touching_is_allowed() -> None:
    fixed = LabelBox((0.0, 0.0, 10.0, 10.0), movable=False)
    touching = LabelBox((10.0, 0.0, 20.0, 10.0))
    assert place_labels([touching, fixed], marks=()) == [(0.0, 0.0), (0.0, 0.0)]


def test_many_identical_labels_all_find_room() -> None:
    boxes = [LabelBox((0.0, 0.0, 30.0, 8.0)) for _ in range(60)]
    placed = [shifted(b.rect, o) for b, o in zip(boxes, place_labels(boxes, ()), strict=True)]
    assert not any(overlaps(a, b) for a, b in itertools.combinations(placed, 2))


def test_label_item_leader_joins_anchor_and_box() -> None:
    label = LabelItem("Objective 1", anchor="below")
    assert label.leader_path().isEmpty()
    label.set_offset(QPointF(30.0, 0.0))
    assert not label.leader_path().isEmpty()
    assert label.boundingRect().contains(label.box_rect())
    assert label.leader_path().boundingRect().left() <= 0.0
