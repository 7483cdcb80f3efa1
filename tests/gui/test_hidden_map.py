"""The hidden-placement map in the app: worked out off the UI thread row by row, restarted by a
drag, stale work dropped, drawn on the board from the engine's map."""

from __future__ import annotations

from gui_helpers import duel_scenario

from engine.hidden import hidden_map
from gui.document import ScenarioDocument
from gui.hidden_map import HiddenMapController, HiddenProgress, HiddenSettings

COARSE = HiddenSettings(step=2.0, region="table")


def finished_maps(progress: list[HiddenProgress | None]) -> list[HiddenProgress]:
    return [p for p in progress if p is not None and p.finished]


def test_the_map_is_the_engines_and_arrives_row_by_row(qtbot) -> None:
    document = ScenarioDocument(duel_scenario())
    controller = HiddenMapController(document)
    shown: list[HiddenProgress | None] = []
    controller.progress.connect(shown.append)
    controller.set_settings(COARSE)
    assert shown == [None]  # off: nothing is worked out
    controller.set_enabled(True)
    qtbot.waitUntil(lambda: bool(finished_maps(shown)), timeout=60_000)
    partial = [p for p in shown if p is not None]
    assert len(partial) > 1
    assert [p.columns_done for p in partial] == sorted(p.columns_done for p in partial)
    final = finished_maps(shown)[-1]
    expected = hidden_map(
        document.scenario,
        player=document.scenario.player_ids()[0],
        base=COARSE.base,
        height=COARSE.height,
        step=2.0,
        region="table",
    )
    assert final.result is not None
    assert final.result.to_json() == expected.to_json()


def test_a_drag_restarts_the_map_and_drops_the_stale_one(qtbot) -> None:
    document = ScenarioDocument(duel_scenario())
    controller = HiddenMapController(document)
    controller.set_settings(COARSE)
    controller.set_enabled(True)
    shown: list[HiddenProgress | None] = []
    controller.progress.connect(shown.append)
    document.begin_drag()
    for _ in range(3):
        document.preview(document.scenario.with_unit_moved("blue-squad", 0.0, 2.0))
    generation = controller.generation
    qtbot.waitUntil(lambda: bool(finished_maps(shown)), timeout=60_000)
    assert controller.wait(60_000)
    done = [p for p in shown if p is not None]
    assert {p.generation for p in done} == {generation}  # older generations never shown
    expected = hidden_map(
        document.scenario,
        player="red",
        base=COARSE.base,
        height=COARSE.height,
        step=2.0,
        region="table",
    )
    assert done[-1].result is not None
    assert done[-1].result.to_json() == expected.to_json()
    document.end_drag("Drag")


def test_the_overlay_appears_after_the_worker_finishes(make_window, qtbot) -> None:
    window = make_window()
    dock = window.planning
    dock.step.setCurrentIndex(dock.step.findData(1.0))
    dock.region.setCurrentIndex(dock.region.findData("table"))
    layer_items = [i for i in window.scene.items() if i.zValue() == 1.3]
    assert not [i for i in layer_items if i.isVisible() and not i.boundingRect().isEmpty()]
    assert window.docks["PlanDock"].toggleViewAction() in window.docks_menu.actions()
    dock.show_map.setChecked(True)
    controller = dock.controller
    qtbot.waitUntil(
        lambda: controller.latest is not None and controller.latest.finished, timeout=60_000
    )
    result = controller.latest.result
    assert result is not None
    assert result.counts["hidden"] + result.counts["blocked"] > 0
    painted = [i for i in window.scene.items() if i.zValue() == 1.3 and i.isVisible()]
    assert painted
    assert not painted[0].boundingRect().isEmpty()
    assert "hidden" in dock.status.text()
    dock.show_map.setChecked(False)
    qtbot.waitUntil(
        lambda: (
            not [
                i
                for i in window.scene.items()
                if i.zValue() == 1.3 and not i.boundingRect().isEmpty()
            ]
        )
    )
