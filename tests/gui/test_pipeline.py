"""One rules pipeline: a drop made with the real mouse reaches every dock through the docks'
own timers and signals (nothing here calls ``refresh_now``)."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest
from gui_helpers import drag, duel_scenario

from engine.model import freeze, thaw
from engine.rulesets.wh40k_ca2026 import score
from gui.app import DEMO_SCENARIO
from gui.document import ScenarioDocument
from gui.files import read_scenario
from gui.live import LiveRules
from gui.shapes import scene_point

CENTRE_CAPTION = ("objective", "obj-centre")


def at_moment(scenario, battle_round: int, player: str, timing: str):  # type: ignore[no-untyped-def]
    game = dict(thaw(scenario.game))
    game.update(battle_round=battle_round, active_player=player, timing=timing)
    return replace(scenario, game=freeze(game))


def primary_tab(window) -> str:  # type: ignore[no-untyped-def]
    return window.plugins["wh40k-ca2026"].mission.cards.tabText(0)


def test_every_dock_follows_a_drop_made_with_the_mouse(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(read_scenario(DEMO_SCENARIO))
    docks = window.plugins["wh40k-ca2026"]
    qtbot.waitUntil(lambda: "now 8VP" in primary_tab(window), timeout=5000)
    # Zoomed in, so the press lands on the base and not on the nearby unit label.
    window.view.zoom_by(3.0)
    window.view.centerOn(scene_point(23.0, 24.6))
    assert window.scene.entity_item_at(scene_point(27.5, 24.6)).entity_id == "blue-neo-1"
    assert "Score Primary +8VP" in docks.turn.primary_buttons[0].text()
    captions = window.overlays.layers["objectives"].label_texts()
    assert "Red 2 : Blue 2 - contested" in captions[CENTRE_CAPTION]

    # blue-neo-1 is Blue's only model in obj-centre's range: dragged 9.5" west it leaves it.
    with qtbot.waitSignal(docks.context.refreshed, timeout=5000):
        drag(qtbot, window.view, (27.5, 24.6), (18.0, 24.6), steps=12)

    moved = window.document.scenario.model("blue-neo-1")
    assert moved.x == pytest.approx(18.0, abs=2 / window.view.pixels_per_inch())
    assert window.document.undo_stack.count() == 1
    captions = window.overlays.layers["objectives"].label_texts()
    assert "Red 2 : Blue 0 - Red controls" in captions[CENTRE_CAPTION]
    assert "now 13VP" in primary_tab(window)
    assert "Score Primary +13VP" in docks.turn.primary_buttons[0].text()
    # The card's other moments are worked out with the score: Red now controls 3 objectives
    # to Blue's 2 at the end of its turn, which the first two rounds' line pays 2VP for.
    expected = score(at_moment(window.document.scenario, 2, "red", "end_of_turn"))
    assert expected.to_json()["players"]["red"]["cards"]["BATTLEFIELD DOMINANCE"]["vp"] == 2
    card = docks.mission.card_views[0].toPlainText()
    assert "At the end of your turn: 2VP (you control 3, your opponent 2)" in card


# ------------------------------------------------------------------------------ the pipeline


def moved_red(scenario, dx: float):  # type: ignore[no-untyped-def]
    return scenario.with_unit_moved(scenario.units[0].id, dx, 0.0)


def test_each_analysis_gets_the_one_evaluation_of_the_value(qtbot) -> None:  # type: ignore[no-untyped-def]
    document = ScenarioDocument(duel_scenario())
    live = LiveRules(document)
    seen: list[tuple[object, object]] = []

    def record(scenario, evaluation):  # type: ignore[no-untyped-def]
        seen.append((scenario, evaluation))
        return len(seen)

    live.refresh()
    live.add_analysis("record", record)
    assert live.wait_for_analyses()
    with qtbot.waitSignal(live.analysed, timeout=5000) as blocker:
        document.apply(moved_red(document.scenario, 1.0), "Move")
    result = blocker.args[0]
    assert result.name == "record"
    assert result.scenario is document.scenario
    assert seen[-1][0] is document.scenario
    assert seen[-1][1] is live.evaluation
    assert live.analysis("record") is result


def test_a_result_for_a_value_that_is_no_longer_current_is_dropped(qtbot) -> None:  # type: ignore[no-untyped-def]
    document = ScenarioDocument(duel_scenario())
    live = LiveRules(document)
    started, release = threading.Event(), threading.Event()

    def slow_first(scenario, _evaluation):  # type: ignore[no-untyped-def]
        if not started.is_set():
            started.set()
            release.wait(10)
        return scenario

    live.add_analysis("slow", slow_first)
    assert started.wait(10)
    first = document.scenario
    document.apply(moved_red(first, 1.0), "Move")
    published: list[object] = []
    live.analysed.connect(lambda result: published.append(result.scenario))
    release.set()
    assert live.wait_for_analyses()
    assert published == [document.scenario]
    assert first not in published


def test_an_analysis_that_waits_for_the_drop_runs_once_after_it(qtbot) -> None:  # type: ignore[no-untyped-def]
    document = ScenarioDocument(duel_scenario())
    live = LiveRules(document)
    calls: list[object] = []
    live.add_analysis("after drop", lambda scenario, _e: calls.append(scenario))
    assert live.wait_for_analyses()
    calls.clear()
    start = document.scenario
    for step in range(1, 6):
        document.preview(moved_red(start, 0.5 * step))
        qtbot.wait(60)
    assert calls == []
    with qtbot.waitSignal(live.analysed, timeout=5000):
        document.end_drag("Move")
    assert calls == [document.scenario]

