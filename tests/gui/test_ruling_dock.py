"""The Ruling dock in the real window: verdict first, lines against thresholds, the rule cited;
a click on a line outlines its models on the board; copy as text and as Markdown."""

from __future__ import annotations

from dataclasses import replace

import pytest
from gui_helpers import BASE_32, duel_scenario
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QTextCursor

from engine.evaluate import evaluate
from engine.explain import inches, sections_markdown
from engine.model import Model, Scenario, Unit


def red_in_range() -> Scenario:
    """The duel with Red's model moved in range of the objective, wholly within the SW
    quarter (1" west of the centre line), Blue's still out of it."""
    scenario = duel_scenario()
    red = scenario.units[0]
    moved = replace(red, models=(replace(red.models[0], x=29.0, y=19.0),))
    return replace(scenario, units=(moved, *scenario.units[1:]))


def click_text(qtbot, browser, text: str) -> None:  # type: ignore[no-untyped-def]
    """A real mouse click on the middle of ``text`` in ``browser``."""
    found = browser.document().find(text)
    assert not found.isNull(), text
    cursor = QTextCursor(found)
    cursor.setPosition((found.selectionStart() + found.selectionEnd()) // 2)
    browser.ensureCursorVisible()
    point = browser.cursorRect(cursor).center()
    qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_an_objective_ruling_reads_verdict_lines_rule(qtbot, make_window) -> None:
    window = make_window(red_in_range())
    window.scene.select_ids({"obj-centre"})
    sections = window.ruling.sections
    expected = evaluate(window.document.scenario, visibility=False).ruling_sections(["obj-centre"])
    assert sections == expected
    assert sections[0].verdict == "Red controls obj-centre"
    shown = window.ruling.text.toPlainText()
    verdict_at = shown.index("Red controls obj-centre")
    distance = inches(evaluate(red_in_range(), visibility=False).objectives[0].distances["red-1"])
    line_at = shown.index(f"red-1: {distance} from the marker's rim <= 3\", OC 2: in range")
    rule_at = shown.index("wh40k-ca2026: Objective control")
    assert verdict_at < line_at < rule_at
    # The plain text is the engine's established wording (exports and the CLI use it).
    assert window.ruling.ruling_text().startswith("Ruling: obj-centre\nobj-centre: Red 2")


def test_clicking_a_line_outlines_its_model_and_nothing_else(qtbot, make_window) -> None:
    window = make_window(red_in_range())
    window.scene.select_ids({"obj-centre"})
    highlight = window.ruling_highlight
    assert not highlight.item.isVisible()
    click_text(qtbot, window.ruling.text, "blue-1: ")
    qtbot.waitUntil(lambda: highlight.item.isVisible(), timeout=2000)
    assert highlight.ids == ("blue-1", "blue-squad", "obj-centre")
    outline = highlight.item.path().boundingRect()
    blue = window.scene.models["blue-1"].sceneBoundingRect()
    red = window.scene.models["red-1"].sceneBoundingRect()
    assert outline.contains(blue.center())
    assert not outline.contains(red.center())
    objective = window.scene.objectives["obj-centre"].sceneBoundingRect()
    assert not outline.contains(objective.center())
    # The selection is unchanged: the ruling stays the objective's.
    assert window.scene.selection().objectives == frozenset({"obj-centre"})
    # A new ruling (another selection) takes the outline away.
    window.scene.select_ids({"red-squad"})
    assert not highlight.item.isVisible()


def test_clicking_a_verdict_outlines_every_model_it_rests_on(qtbot, make_window) -> None:
    window = make_window(red_in_range())
    window.scene.select_ids({"obj-centre"})
    click_text(qtbot, window.ruling.text, "Red controls obj-centre")
    highlight = window.ruling_highlight
    qtbot.waitUntil(lambda: highlight.item.isVisible(), timeout=2000)
    outline = highlight.item.path().boundingRect()
    for model in ("red-1", "blue-1"):
        assert outline.contains(window.scene.models[model].sceneBoundingRect().center())


def test_copy_as_text_and_as_markdown(qtbot, make_window) -> None:
    window = make_window(red_in_range())
    window.scene.select_ids({"obj-centre"})
    clipboard = QGuiApplication.clipboard()
    qtbot.mouseClick(window.ruling.copy_text_button, Qt.MouseButton.LeftButton)
    assert clipboard.text() == window.ruling.ruling_text()
    qtbot.mouseClick(window.ruling.copy_markdown_button, Qt.MouseButton.LeftButton)
    markdown = clipboard.text()
    assert markdown == sections_markdown("Ruling: obj-centre", window.ruling.sections)
    assert markdown.startswith("### Ruling: obj-centre\n\n**Red controls obj-centre**\n\n- red-1: ")
    assert "*wh40k-ca2026: Objective control*" in markdown


def test_the_context_menu_copies_too(qtbot, make_window) -> None:
    window = make_window(red_in_range())
    window.scene.select_ids({"obj-centre"})
    menu = window.ruling.context_menu(window.ruling.text.rect().center())
    actions = {a.text(): a for a in menu.actions()}
    clipboard = QGuiApplication.clipboard()
    clipboard.setText("")
    actions["Copy ruling as Markdown"].trigger()
    assert clipboard.text() == window.ruling.ruling_markdown()
    actions["Copy ruling as text"].trigger()
    assert clipboard.text() == window.ruling.ruling_text()


def test_a_unit_ruling_has_a_section_per_conclusion_then_its_line_of_sight(
    qtbot, make_window
) -> None:
    window = make_window(red_in_range())
    window.scene.select_ids({"red-squad"})
    assert window.live.wait_for_visibility(30_000)
    qtbot.waitUntil(
        lambda: any(s.verdict == "Line of sight from Red Squad" for s in window.ruling.sections),
        timeout=5000,
    )
    verdicts = [s.verdict for s in window.ruling.sections]
    assert verdicts[:3] == [
        "Red Squad is wholly within the SW table quarter",
        'Red Squad is within 6" of the centre',
        "Red Squad is not engaged",
    ]
    sight = window.ruling.sections[verdicts.index("Line of sight from Red Squad")]
    assert sight.lines[0].text == "blue-squad: fully visible"
    assert sight.lines[0].unit_ids == ("red-squad", "blue-squad")


def test_with_line_of_sight_off_the_ruling_says_so_and_shows_it_again_when_on(
    qtbot, make_window
) -> None:
    from gui.docks.ruling import SIGHT_OFF

    window = make_window(red_in_range())
    window.scene.select_ids({"red-squad"})
    assert window.live.wait_for_visibility(30_000)
    action = window.overlay_actions["visibility"]
    action.setChecked(False)
    assert window.live.visibility is None
    assert not window.live.sight.active
    assert [s.verdict for s in window.ruling.sections][-1] == SIGHT_OFF
    assert SIGHT_OFF in window.ruling.ruling_text()
    action.setChecked(True)
    assert window.live.wait_for_visibility(30_000)
    qtbot.waitUntil(
        lambda: [s.verdict for s in window.ruling.sections][-1] == "Line of sight from Red Squad",
        timeout=5000,
    )


def test_the_whole_board_ruling_lists_engaged_pairs_with_their_models(qtbot, make_window) -> None:
    window = make_window()
    scenario = window.document.scenario
    near = Unit("blue-near", "blue", (Model("blue-9", 31.0, 16.0, BASE_32),), name="Near")
    window.document.apply(replace(scenario, units=(*scenario.units, near)), "Add")
    window.scene.select_ids(set())
    engaged = next(s for s in window.ruling.sections if s.verdict.endswith("are engaged"))
    assert engaged.verdict == "blue-near and red-squad are engaged"
    assert set(engaged.lines[0].model_ids) == {"blue-9", "red-1"}


def test_a_line_about_units_only_outlines_their_models(qtbot, make_window) -> None:
    window = make_window(red_in_range())
    highlight = window.ruling_highlight
    highlight.show(("red-squad",))
    red = window.scene.models["red-1"].sceneBoundingRect()
    assert highlight.item.path().boundingRect().contains(red.center())
    highlight.show(("obj-centre",))
    marker = highlight.item.path().boundingRect()
    assert (marker.center().x(), marker.center().y()) == pytest.approx((30.0, -22.0))
    assert marker.width() == pytest.approx(40 / 25.4)
    highlight.show(("nothing-here",))
    assert not highlight.item.isVisible()


def test_a_rule_systems_contribution_reads_as_its_own_section(qtbot, make_window) -> None:
    window = make_window()
    window.extend_ruling(
        lambda scenario, selection: "Extra rules:\n- red-1 stands in the open"
        if selection.unit_ids(scenario)
        else ""
    )
    window.scene.select_ids({"red-1"})
    qtbot.waitUntil(
        lambda: any(s.verdict == "Extra rules" for s in window.ruling.sections), timeout=5000
    )
    extra = next(s for s in window.ruling.sections if s.verdict == "Extra rules")
    assert extra.lines[0].text == "red-1 stands in the open"
    assert extra.lines[0].model_ids == ("red-1",)
    assert "Extra rules:\n- red-1 stands in the open" in window.ruling.ruling_text()


def test_the_ruling_takes_the_colours_of_a_new_window_palette(qtbot, make_window) -> None:
    window = make_window(red_in_range())
    window.scene.select_ids({"obj-centre"})
    assert "#e6e6e6" not in window.ruling.text.toHtml()
    window.palette_actions["dark"].trigger()
    # The window palette reaches the dock as a (posted) palette-change event.
    qtbot.waitUntil(lambda: "#e6e6e6" in window.ruling.text.toHtml(), timeout=5_000)
    assert "#7fb3ff" in window.ruling.text.toHtml()  # the dark palette's link colour
    window.palette_actions["default"].trigger()
    qtbot.waitUntil(lambda: "#e6e6e6" not in window.ruling.text.toHtml(), timeout=5_000)


def test_a_selected_unit_shows_what_it_can_reach_this_turn(qtbot, make_window) -> None:
    from engine.threat import threat_section

    scenario = red_in_range()
    red = replace(scenario.unit("red-squad"), move=6)
    window = make_window(scenario.with_unit(red))
    window.scene.select_ids({"red-squad"})
    expected = threat_section(window.document.scenario, "red-squad")
    # Worked out off the UI thread: the dock says so until the section arrives.
    qtbot.waitUntil(lambda: expected in window.ruling.sections, timeout=30_000)
    assert expected.verdict.startswith("Can reach")
    assert "charge" in window.ruling.text.toPlainText()


def test_threats_are_worked_out_off_the_ui_thread_for_the_current_board_only(
    qtbot, make_window
) -> None:
    from engine.threat import threat_section
    from gui.threats import PENDING

    scenario = red_in_range()
    red = replace(scenario.unit("red-squad"), move=6)
    window = make_window(scenario.with_unit(red))
    controller = window.threats
    window.scene.select_ids({"red-squad"})
    qtbot.waitUntil(lambda: "red-squad" in controller.sections(["red-squad"]), timeout=30_000)
    before = controller.sections(["red-squad"])["red-squad"]
    assert before == threat_section(window.document.scenario, "red-squad")
    board = controller.board
    moved = replace(red, models=tuple(m.moved(-3.0, 0.0) for m in red.models))
    window.document.apply(window.document.scenario.with_unit(moved), "Move")
    # A new board forgets the old answers at once; the dock says the answer is coming.
    assert controller.sections(["red-squad"]) == {}
    assert controller.board == board + 1
    window._update_ruling()
    assert PENDING in window.ruling.sections or controller.sections(["red-squad"])
    after = threat_section(window.document.scenario, "red-squad")
    assert after != before
    qtbot.waitUntil(lambda: after in window.ruling.sections, timeout=30_000)
    assert before not in window.ruling.sections


def test_threats_wait_for_the_drop_while_a_unit_is_dragged(qtbot, make_window) -> None:
    from engine.threat import threat_section

    scenario = red_in_range()
    red = replace(scenario.unit("red-squad"), move=6)
    window = make_window(scenario.with_unit(red))
    controller = window.threats
    window.scene.select_ids({"red-squad"})
    # The selection's own answer is worked out before the drag starts (on a loaded machine it
    # can still be running at the first step, which is not what this test is about).
    qtbot.waitUntil(lambda: "red-squad" in controller.sections(["red-squad"]), timeout=30_000)
    qtbot.waitUntil(lambda: controller._pool.activeThreadCount() == 0, timeout=30_000)
    document = window.document
    for step in range(1, 4):
        moved = replace(red, models=tuple(m.moved(-0.5 * step, 0.0) for m in red.models))
        document.preview(document.scenario.with_unit(moved))
        window._update_ruling()
        # A busy worker would take the interpreter from the window at every step of the drag.
        assert controller.sections(["red-squad"]) == {}
        assert controller._pool.activeThreadCount() == 0
    document.end_drag("Move red-squad")
    dropped = threat_section(document.scenario, "red-squad")
    qtbot.waitUntil(lambda: dropped in window.ruling.sections, timeout=30_000)
