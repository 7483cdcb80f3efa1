"""The Lessons dock in the real window: open a shipped lesson, step through it, answer, reveal
the engine's explanation, leave back to the previous document, record steps, save and reopen."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import duel_scenario

from engine.lessons import answer, board_at, load_lesson
from engine.scenario_io import scenario_to_json
from gui.docks.lessons import SHIPPED_LESSONS, shipped_lessons
from gui.overlays.controller import OVERLAY_NAMES

CONTROL = SHIPPED_LESSONS / "objective-control.warplan-lesson.json"


def test_the_dock_lists_every_shipped_lesson(make_window) -> None:
    window = make_window()
    panel = window.lessons
    listed = {panel.shipped.itemData(k) for k in range(panel.shipped.count())}
    assert listed == {str(p) for p in SHIPPED_LESSONS.glob("*.warplan-lesson.json")}
    assert len(shipped_lessons()) == panel.shipped.count()
    assert window.docks["LessonsDock"].widget().widget() is panel  # in its scroll area
    assert window.findChild(type(window.action_open), "action-open-lesson") is not None


def test_shipped_lessons_name_only_the_apps_overlays() -> None:
    for _title, path in shipped_lessons():
        for step in load_lesson(path).steps:
            assert set(step.overlays) <= set(OVERLAY_NAMES), (path.name, step.title)


def test_play_answer_reveal_and_leave(make_window) -> None:
    window = make_window()
    before = window.document.scenario
    panel = window.lessons
    assert panel.open_path(CONTROL)
    lesson = load_lesson(CONTROL)
    assert window.document.scenario == board_at(lesson, 0)
    assert panel.step_label.text() == f"Step 1 of {len(lesson.steps)}: {lesson.steps[0].title}"
    assert window.overlay_actions["objectives"].isChecked()
    assert not window.overlay_actions["quarters"].isChecked()
    assert window.scene.selection().units == {"red-int"}

    panel.next()
    assert window.document.scenario == board_at(lesson, 1)
    expected = answer(lesson.steps[1], board_at(lesson, 1))
    wrong = next(c for c in lesson.steps[1].question.choices if c != expected.choice)
    panel.choose(wrong)
    assert panel.check() is False
    panel.choose(expected.choice)
    assert panel.check() is True
    assert panel.feedback.text() == "Right."
    panel.reveal()
    assert panel.feedback.text() == f"The engine's answer: {expected.choice}"
    assert panel.explanation.toPlainText() == expected.explanation_text
    assert panel.explanation.toPlainText().startswith("obj-centre: Red 2 : Blue 0 - Red controls")

    panel.back()
    assert window.document.scenario == board_at(lesson, 0)
    assert not panel.back_button.isEnabled()

    window.confirm = lambda _parent, _title, _text: True
    panel.leave()
    assert window.document.scenario == before
    assert panel.lesson is None
    assert window.overlay_actions["quarters"].isChecked()


def test_opening_a_lesson_asks_before_unsaved_work_is_lost(make_window, monkeypatch) -> None:
    window = make_window()
    moved = window.document.scenario.with_unit_moved(window.document.scenario.units[0].id, 1, 0)
    window.document.apply(moved, "Move")
    asked: list[bool] = []

    def refuse() -> bool:
        asked.append(True)
        return False

    monkeypatch.setattr(window.files, "confirm_discard", refuse)
    assert not window.lessons.open_path(CONTROL)
    assert asked
    assert window.document.scenario == moved
    monkeypatch.setattr(window.files, "confirm_discard", lambda: True)
    assert window.lessons.open_path(CONTROL)
    window.confirm = lambda _parent, _title, _text: True
    window.lessons.leave()
    assert window.document.scenario == moved
    assert window.document.is_modified


def test_record_edit_save_and_reopen(make_window, tmp_path: Path, monkeypatch) -> None:
    window = make_window(duel_scenario())
    monkeypatch.setattr(window.files, "confirm_discard", lambda: True)
    panel = window.lessons
    panel.editor_box.setChecked(True)
    panel.lesson_title.setText("My duel")
    panel.step_title.setText("Start")
    panel.step_text.setPlainText("Red and Blue face off.")
    panel.overlay_checks["objectives"].setChecked(True)
    panel.question_kind.setCurrentIndex(panel.question_kind.findData("objective-control"))
    objective = window.document.scenario.objectives[0].id
    assert panel.key_boxes["objective"].currentData() == objective
    assert "nobody" in panel.offered.text()
    panel.question_prompt.setText("Who holds it?")
    assert panel.record_step()
    first = panel.lesson.steps[0]
    assert first.scenario == window.document.scenario
    assert first.question.ask == {"kind": "objective-control", "objective": objective}

    red = window.document.scenario.units[0]
    window.document.apply(window.document.scenario.with_unit_moved(red.id, 0.0, -5.0), "Move")
    panel.step_title.setText("Red steps back")
    assert panel.record_step()
    second = panel.lesson.steps[1]
    assert second.scenario is None
    assert {c["move"]["id"] for c in second.changes} == {m.id for m in red.models}

    panel.step_text.setPlainText("Red steps back, out of range.")
    assert panel.update_step()
    assert panel.lesson.steps[1].text == "Red steps back, out of range."

    path = tmp_path / "duel.warplan-lesson.json"
    assert panel.save_to(path)
    saved = load_lesson(path)
    assert saved.title == "My duel"
    assert [s.title for s in saved.steps] == ["Start", "Red steps back"]
    assert scenario_to_json(board_at(saved, 1)) == scenario_to_json(window.document.scenario)

    window.confirm = lambda _parent, _title, _text: False
    panel.leave()
    assert panel.open_path(path)
    assert panel.step_label.text() == "Step 1 of 2: Start"
    panel.next()
    panel.reveal()
    assert panel.feedback.text().startswith("The engine's answer: ")
    assert panel.explanation.toPlainText()


def test_a_broken_lesson_file_changes_nothing(make_window, tmp_path: Path) -> None:
    window = make_window()
    shown: list[str] = []
    window.show_error = lambda title, text: shown.append(text)
    panel = window.lessons
    panel._show_error = window.show_error
    bad = tmp_path / "bad.warplan-lesson.json"
    bad.write_text('{"format": "warplan.lesson", "version": 1}', encoding="utf-8")
    before = window.document.scenario
    assert not panel.open_path(bad)
    assert window.document.scenario == before
    assert "steps" in shown[0]
    assert "title" in shown[0]
