"""Line of sight live in the app: the worker's matrix follows a real drag, stale results are
dropped, "who sees whom" counts match the engine, hovering shows the witness or the blockers,
and a count badge lists the units that see a unit."""

from __future__ import annotations

from dataclasses import replace

import pytest
from gui_helpers import BASE_32, move_pressed, view_pos
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from engine.model import (
    Battlefield,
    Model,
    Player,
    Scenario,
    TerrainFeature,
    TerrainPiece,
    Unit,
)
from gui.files import read_scenario
from gui.sight import SightResult
from gui.sight_overlay import seen_by_listing

visibility_module = pytest.importorskip("engine.visibility")

WALL = ((19.5, 25.0), (20.5, 25.0), (20.5, 44.0), (19.5, 44.0))
SOUTH_OF_WALL = (10.0, 16.0)
BEHIND_WALL = (10.0, 34.0)


def wall_scenario(red_at: tuple[float, float] = SOUTH_OF_WALL) -> Scenario:
    """A 5" wall from y = 25 to the north edge at x = 20; Blue Squad north-east of it, Blue
    Scouts south-east. From (10, 16) Red sees both (the line to Blue Squad crosses x = 20 at
    y = 23, south of the wall); from (10, 34) the wall stands between Red and Blue Squad (the
    line crosses x = 20 at y = 32) while Blue Scouts still see Red (crossing at y = 22)."""
    red = Unit("red-squad", "red", (Model("red-1", *red_at, BASE_32),), name="Red Squad")
    blue = Unit("blue-squad", "blue", (Model("blue-1", 30.0, 30.0, BASE_32),), name="Blue Squad")
    scouts = Unit(
        "blue-scouts", "blue", (Model("blue-s1", 30.0, 10.0, BASE_32),), name="Blue Scouts"
    )
    wall = TerrainPiece("wall", WALL, kind="ruin", features=(TerrainFeature(WALL, 5.0),))
    return Scenario(
        "wh40k-ca2026",
        (Player("red", "Red", "attacker"), Player("blue", "Blue", "defender")),
        Battlefield(60.0, 44.0),
        title="Wall",
        units=(red, blue, scouts),
        terrain=(wall,),
    )


def contract(pairs: tuple[object, ...]) -> list[dict[str, object]]:
    return [p.to_json() | {"blockers": list(p.blockers)} for p in pairs]  # type: ignore[attr-defined]


def focus_pairs(pairs: tuple[object, ...], unit_id: str) -> list[dict[str, object]]:
    """The selected unit's row and column, as the engine's contract gives them."""
    mine = [p for p in pairs if unit_id in (p.observer, p.target)]  # type: ignore[attr-defined]
    return sorted(contract(tuple(mine)), key=lambda d: (str(d["observer"]), str(d["target"])))


def wait_current(qtbot, window) -> SightResult:
    controller = window.sight.controller
    qtbot.waitUntil(controller.is_current, timeout=60_000)
    result = controller.result
    assert result is not None
    assert not result.error
    return result


def hover(window, x: float, y: float) -> None:
    viewport = window.view.viewport()
    point = view_pos(window.view, x, y)
    event = QMouseEvent(
        QEvent.Type.MouseMove,
        QPointF(point),
        QPointF(viewport.mapToGlobal(point)),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, event)


def test_a_drag_behind_a_wall_changes_the_row_and_the_column_while_dragging(
    qtbot, make_window
) -> None:
    window = make_window(wall_scenario())
    controller = window.sight.controller
    view = window.view
    viewport = view.viewport()
    start = QPointF(view_pos(view, *SOUTH_OF_WALL))
    end = QPointF(view_pos(view, *BEHIND_WALL))
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start.toPoint())
    assert window.sight.observer == "red-squad"
    before = wait_current(qtbot, window)
    assert before.pair("red-squad", "blue-squad").visible
    assert before.pair("blue-squad", "red-squad").visible

    with qtbot.waitSignal(controller.sight_ready, timeout=60_000) as ready:
        for i in range(1, 13):
            move_pressed(viewport, (start + (end - start) * (i / 12)).toPoint())
        assert window.document.is_dragging
    during = wait_current(qtbot, window)
    assert ready.args[0].generation <= during.generation
    # Still dragging: the result is for the previewed position, not the drop.
    assert window.document.is_dragging
    assert not during.pair("red-squad", "blue-squad").visible
    assert not during.pair("blue-squad", "red-squad").visible
    assert "wall" in during.pair("red-squad", "blue-squad").blockers
    assert during.pair("red-squad", "blue-scouts").visible
    assert during.pair("blue-scouts", "red-squad").visible
    # Only the selected unit's row and column are worked out while nothing shows the rest.
    assert len(focus_pairs(during.pairs, "red-squad")) == len(during.pairs)
    assert focus_pairs(during.pairs, "red-squad") == focus_pairs(
        visibility_module.visibility(during.scenario), "red-squad"
    )
    tags = window.sight.selected_layer.label_texts()
    assert tags[("target", "blue-squad")] == "hidden\ncannot see Red Squad"
    assert tags[("target", "blue-scouts")].startswith("fully visible\nsees Red Squad: ")

    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end.toPoint())
    after = wait_current(qtbot, window)
    assert focus_pairs(after.pairs, "red-squad") == focus_pairs(
        visibility_module.visibility(after.scenario), "red-squad"
    )
    assert not after.pair("red-squad", "blue-squad").visible


def test_the_ruling_and_the_overlays_read_one_line_of_sight_computation(qtbot, make_window) -> None:
    window = make_window(wall_scenario(BEHIND_WALL))
    controller = window.live.sight
    assert window.sight.controller is controller
    window.overlay_actions["who-sees-whom"].setChecked(True)
    whole = wait_current(qtbot, window)
    asked = controller.generation
    # The whole board's result holds the selected unit's row: selecting asks for nothing new.
    window.scene.select_ids({"red-squad"})
    assert controller.generation == asked
    shown = window.live.visibility
    assert shown is not None
    assert shown.scenario is whole.scenario
    assert shown.pairs == whole.row("red-squad")
    hidden = whole.pair("red-squad", "blue-squad")
    assert not hidden.visible
    qtbot.waitUntil(
        lambda: hidden.explanation.splitlines()[0] in window.ruling.ruling_text(), timeout=5_000
    )
    # A move is worked out once, and the ruling reads that result.
    document = window.document
    document.apply(document.scenario.with_unit_moved("red-squad", 0.0, -18.0), "Step out")
    assert controller.generation == asked + 1
    moved = wait_current(qtbot, window)
    assert window.live.visibility.scenario is moved.scenario
    assert window.live.visibility.pairs == moved.row("red-squad")
    assert window.live.visibility.pairs[0].visible
    assert controller.generation == asked + 1


def test_stale_results_are_dropped_and_only_the_newest_is_shown(qtbot, make_window) -> None:
    window = make_window(wall_scenario())
    controller = window.sight.controller
    window.overlay_actions["who-sees-whom"].setChecked(True)
    wait_current(qtbot, window)
    shown: list[SightResult] = []
    controller.sight_ready.connect(shown.append)
    dropped = controller.dropped
    document = window.document
    for y in (18.0, 30.0, 34.0):
        document.apply(
            replace(document.scenario, units=wall_scenario((10.0, y)).units), f"Move to {y}"
        )
    assert controller.wait(60_000)
    # The first request was already running: it finished and was dropped; the ones queued
    # behind it coalesced into the newest.
    assert controller.dropped == dropped + 1
    assert [r.scenario for r in shown] == [document.scenario]
    assert shown[0].generation == controller.generation
    counts = shown[0].seen_by_counts()
    assert counts["red-squad"] == 1
    assert window.sight.badges["red-squad"].text() == "seen by 1"


def test_who_sees_whom_counts_equal_the_engine_matrix_on_the_demo(qtbot, make_window) -> None:
    from gui.app import DEMO_SCENARIO

    window = make_window(read_scenario(DEMO_SCENARIO))
    action = window.overlay_actions["who-sees-whom"]
    assert action.isCheckable()
    assert not action.isChecked()
    assert window.sight.badges == {}
    action.setChecked(True)
    result = wait_current(qtbot, window)
    scenario = window.document.scenario
    matrix = visibility_module.visibility(scenario)
    for unit in scenario.units:
        seers = sorted(p.observer for p in matrix if p.target == unit.id and p.visible)
        assert sorted(p.observer for p in result.seen_by(unit.id)) == seers
        expected = f"seen by {len(seers)}" if seers else "unseen"
        assert window.sight.badges[unit.id].text() == expected
        assert window.sight.halo_layer.state(("halo", unit.id))[1] == len(seers)
    assert window.sight.legend.isVisible()
    action.setChecked(False)
    assert window.sight.badges == {}
    assert window.sight.halo_layer.keys() == []
    assert not window.sight.legend.isVisible()


def test_hovering_an_enemy_shows_the_witness_or_outlines_the_blocker(qtbot, make_window) -> None:
    window = make_window(wall_scenario())
    window.scene.select_ids({"red-squad"})
    result = wait_current(qtbot, window)
    window.live.wait_for_visibility(60_000)
    hover(window, 30.0, 30.0)
    assert window.sight.hovered == "blue-squad"
    pair = result.pair("red-squad", "blue-squad")
    witness = pair.witness
    layer = window.sight.hover_layer
    assert layer.keys() == ["witness"]
    path = layer.item("witness")._strokes[-1].path  # noqa: SLF001
    assert path.elementAt(0).x == pytest.approx(witness.start[0])
    assert path.elementAt(0).y == pytest.approx(-witness.start[1])
    assert path.elementAt(1).x == pytest.approx(witness.end[0])
    assert path.elementAt(1).y == pytest.approx(-witness.end[1])
    ruling = window.ruling.ruling_text()
    assert "Red Squad -> Blue Squad: " in ruling
    assert pair.explanation in ruling
    assert result.pair("blue-squad", "red-squad").explanation in ruling

    # The red unit moves behind the wall: the outline of the wall replaces the line.
    document = window.document
    document.apply(replace(document.scenario, units=wall_scenario(BEHIND_WALL).units), "Move")
    hidden = wait_current(qtbot, window)
    blocked = hidden.pair("red-squad", "blue-squad")
    assert not blocked.visible
    assert "wall" in blocked.blockers
    assert layer.keys() == [("blocker", "wall")]
    outline = layer.item(("blocker", "wall"))._strokes[0].path.boundingRect()  # noqa: SLF001
    assert (outline.left(), outline.right()) == (pytest.approx(19.5), pytest.approx(20.5))
    assert (outline.top(), outline.bottom()) == (pytest.approx(-44.0), pytest.approx(-25.0))
    assert blocked.explanation in window.ruling.ruling_text()

    # Hovering one's own unit or empty table shows nothing and gives the ruling back.
    hover(window, 50.0, 40.0)
    assert window.sight.hovered is None
    assert layer.keys() == []
    assert "Line of sight: " not in window.ruling.ruling_text()


def test_count_badges_ride_with_their_names_and_cover_no_other_label(qtbot, make_window) -> None:
    from gui.app import DEMO_SCENARIO

    window = make_window(read_scenario(DEMO_SCENARIO))
    window.overlay_actions["who-sees-whom"].setChecked(True)
    wait_current(qtbot, window)
    scene = window.scene
    scene.place_labels()
    transform = window.view.viewportTransform()
    labels = [label for label in scene.labels() if label.isVisible() and label.text()]
    boxes = [label.deviceTransform(transform).mapRect(label.box_rect()) for label in labels]
    badges = list(window.sight.badges.values())
    assert badges
    assert all(badge.isVisible() for badge in badges)
    for badge in badges:
        label = scene.unit_labels[badge.unit_id]
        assert badge.parentItem() is label
        rect = badge.deviceTransform(transform).mapRect(badge.boundingRect())
        own = label.deviceTransform(transform).mapRect(label.box_rect())
        # Just right of its own name tag, wherever the placement moved the tag.
        assert 0 <= rect.left() - own.right() <= 4
        assert rect.top() < own.center().y() < rect.bottom()
        assert not any(rect.intersects(box) for box in boxes)
        others = [b for b in badges if b is not badge]
        assert not any(
            rect.intersects(b.deviceTransform(transform).mapRect(b.boundingRect())) for b in others
        )
    legend = window.sight.legend
    legend_rect = legend.deviceTransform(transform).mapRect(legend.boundingRect())
    assert not any(legend_rect.intersects(box) for box in boxes)


def test_clicking_a_count_badge_lists_the_units_that_see_it(qtbot, make_window) -> None:
    window = make_window(wall_scenario())
    window.overlay_actions["who-sees-whom"].setChecked(True)
    result = wait_current(qtbot, window)
    badge = window.sight.badges["red-squad"]
    assert badge.text() == "seen by 2"
    on_screen = badge.deviceTransform(window.view.viewportTransform())
    click = on_screen.map(badge.boundingRect().center()).toPoint()
    assert window.sight.badge_at(window.view.mapToScene(click)) is badge
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=click)
    heading, text = seen_by_listing(result, "red-squad")
    assert heading == "Who sees Red Squad: 2 enemy units"
    assert window.ruling.ruling_text() == f"{heading}\n{text}"
    for observer in ("blue-squad", "blue-scouts"):
        pair = result.pair(observer, "red-squad")
        assert pair.explanation in text
    assert "Blue Squad (blue-squad): " in text
    assert "Blue Scouts (blue-scouts): " in text
    # The click was the badge's: nothing was selected or moved.
    assert window.scene.selection().is_empty()
    assert window.document.undo_stack.count() == 0


def test_the_line_of_sight_toggle_stops_the_selected_units_drawing(qtbot, make_window) -> None:
    window = make_window(wall_scenario())
    window.scene.select_ids({"red-squad"})
    wait_current(qtbot, window)
    layer = window.sight.selected_layer
    assert set(layer.keys()) == {("target", "blue-squad"), ("target", "blue-scouts")}
    window.overlay_actions["visibility"].setChecked(False)
    assert layer.keys() == []
    assert not window.sight.controller.active
    window.overlay_actions["visibility"].setChecked(True)
    assert window.sight.controller.active
    wait_current(qtbot, window)
    assert set(layer.keys()) == {("target", "blue-squad"), ("target", "blue-scouts")}


def test_an_engine_failure_is_reported_and_the_next_request_starts_afresh(
    qtbot, make_window, monkeypatch
) -> None:
    import gui.sight as sight_module
    from engine.errors import GeometryError

    real_engine = sight_module.VisibilityEngine

    class FailingEngine:
        def __init__(self, scenario: Scenario) -> None:
            raise GeometryError("a degenerate base")

    monkeypatch.setattr(sight_module, "VisibilityEngine", FailingEngine)
    window = make_window(wall_scenario())
    controller = window.sight.controller
    window.overlay_actions["who-sees-whom"].setChecked(True)
    qtbot.waitUntil(controller.is_current, timeout=60_000)
    assert "GeometryError: a degenerate base" in controller.result.error
    assert "Line of sight failed: " in window.statusBar().currentMessage()
    assert window.sight.badges == {}
    monkeypatch.setattr(sight_module, "VisibilityEngine", real_engine)
    document = window.document
    document.apply(replace(document.scenario, units=wall_scenario(BEHIND_WALL).units), "Move")
    result = wait_current(qtbot, window)
    assert contract(result.pairs) == contract(visibility_module.visibility(result.scenario))
    assert window.sight.badges["red-squad"].text() == "seen by 1"
