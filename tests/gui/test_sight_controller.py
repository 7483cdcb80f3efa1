"""The line-of-sight worker without a window: requests coalesce, stale results are dropped,
nothing runs while no view needs it, the views' scopes are joined, and the docstring examples of
``gui.sight`` and ``gui.sight_overlay`` hold."""

from __future__ import annotations

import doctest

import pytest
from gui_helpers import duel_scenario

import gui.sight
import gui.sight_overlay
from gui.document import ScenarioDocument
from gui.sight import WHOLE_BOARD, SightController, SightResult, SightScope

visibility_module = pytest.importorskip("engine.visibility")


@pytest.mark.parametrize("module", [gui.sight, gui.sight_overlay])
def test_docstring_examples(qapp, module) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


def test_an_inactive_controller_does_no_work(qapp) -> None:
    document = ScenarioDocument(duel_scenario())
    controller = SightController(document)
    document.apply(document.scenario.with_unit_moved("red-squad", 1.0, 0.0), "Move")
    assert controller.generation == 0
    assert controller.result is None
    controller.demand("test", WHOLE_BOARD)
    assert controller.wait(60_000)
    assert controller.is_current()


def test_two_quick_requests_show_only_the_newest(qtbot) -> None:
    document = ScenarioDocument(duel_scenario())
    controller = SightController(document)
    controller.demand("test", WHOLE_BOARD)
    assert controller.wait(60_000)
    shown: list[SightResult] = []
    controller.sight_ready.connect(shown.append)
    first = document.scenario.with_unit_moved("red-squad", -4.0, 0.0)
    document.apply(first, "First")
    second = first.with_unit_moved("blue-squad", 6.0, 0.0)
    document.apply(second, "Second")
    assert controller.generation == 3
    assert controller.wait(60_000)
    assert controller.dropped == 1
    assert [r.scenario for r in shown] == [second]
    assert shown[0].generation == 3
    expected = visibility_module.visibility(second)
    assert [p.to_json() for p in shown[0].pairs] == [p.to_json() for p in expected]


def test_queued_requests_merge_their_moved_units(qtbot) -> None:
    document = ScenarioDocument(duel_scenario())
    controller = SightController(document)
    controller.demand("test", WHOLE_BOARD)
    # The first request is running; the next two wait as one, with both moved units.
    document.apply(document.scenario.with_unit_moved("red-squad", 1.0, 0.0), "One")
    document.apply(document.scenario.with_unit_moved("blue-squad", 1.0, 0.0), "Two")
    pending = controller._pending  # noqa: SLF001 - the queue is what this test is about
    assert pending is not None
    assert pending.moved_unit_ids == frozenset({"red-squad", "blue-squad"})
    assert pending.generation == controller.generation
    assert controller.wait(60_000)
    assert controller.is_current()


def test_a_new_document_drops_the_old_result_and_judges_the_new_one(qtbot) -> None:
    document = ScenarioDocument(duel_scenario())
    controller = SightController(document)
    controller.demand("test", WHOLE_BOARD)
    assert controller.wait(60_000)
    moved = duel_scenario().with_unit_moved("red-squad", 0.0, 20.0)
    document.load(moved, None)
    # The old document's result is gone at once, never shown over the new one.
    assert controller.result is None
    assert controller.wait(60_000)
    assert controller.result.scenario is moved
    expected = visibility_module.visibility(moved)
    assert [p.to_json() for p in controller.result.pairs] == [p.to_json() for p in expected]


def test_slow_updates_wait_for_the_pointer_to_rest_during_a_drag(qtbot) -> None:
    document = ScenarioDocument(duel_scenario())
    controller = SightController(document)
    controller.demand("test", WHOLE_BOARD)
    assert controller.wait(60_000)
    document.apply(document.scenario.with_unit_moved("red-squad", 0.5, 0.0), "Move")
    assert controller.wait(60_000)
    assert controller.result.incremental
    # Any update counts as slow now: drag steps only queue; the newest starts on rest.
    controller.live_update_budget_s = -1.0
    shown: list[SightResult] = []
    controller.sight_ready.connect(shown.append)
    dropped = controller.dropped
    document.begin_drag()
    for _ in range(5):
        document.preview(document.scenario.with_unit_moved("red-squad", 0.0, 1.0))
        assert controller.result.scenario is not document.scenario
    with qtbot.waitSignal(controller.sight_ready, timeout=60_000):
        pass
    assert document.is_dragging
    assert controller.dropped == dropped
    assert [r.scenario for r in shown] == [document.scenario]
    document.end_drag("Drag")


def test_every_view_reads_one_result_for_the_scopes_joined(qtbot) -> None:
    document = ScenarioDocument(duel_scenario())
    controller = SightController(document)
    controller.demand("ruling", SightScope(whole_board=False, focus=frozenset({"red-squad"})))
    assert controller.wait(60_000)
    assert controller.result.scope.covers("red-squad")
    assert not controller.result.scope.covers("blue-squad")
    asked = controller.generation
    controller.demand("overlay", SightScope(whole_board=False, focus=frozenset({"blue-squad"})))
    assert controller.generation == asked + 1
    assert controller.wait(60_000)
    result = controller.result
    assert result.scope == SightScope(False, frozenset({"red-squad", "blue-squad"}))
    expected = visibility_module.visibility(document.scenario)
    assert sorted(p.to_json()["observer"] for p in result.pairs) == sorted(
        p.to_json()["observer"] for p in expected
    )
    # A view that stops asking narrows nothing already shown; the last one stops the work.
    controller.demand("overlay", None)
    controller.demand("ruling", None)
    assert not controller.active
    document.apply(document.scenario.with_unit_moved("red-squad", 1.0, 0.0), "Move")
    assert controller.generation == asked + 1
