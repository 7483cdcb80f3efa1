"""The app's error dialog: the problems capped as the command line caps them, in a dialog that
fits the screen (a scrollable text for a long list, OK always visible)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from engine.errors import Problem, ScenarioError
from engine.format_messages import capped
from engine.limits import MAX_PROBLEMS_SHOWN
from engine.scenario_io import load_scenario
from gui.files import ErrorDialog, error_text

PROBLEMS = 2000


def _file_with_many_problems(tmp_path: Path, window: object) -> Path:
    good = tmp_path / "good.warplan.json"
    assert window.files.save_as(good)  # type: ignore[attr-defined]
    document = json.loads(good.read_text())
    document["markers"] = [{"id": f"m{i}", "x": "west", "y": 1} for i in range(PROBLEMS)]
    broken = tmp_path / "broken.warplan.json"
    broken.write_text(json.dumps(document))
    return broken


def test_error_text_caps_the_problems_as_the_command_line_does() -> None:
    error = ScenarioError([Problem(f"markers[{i}].x", "bad") for i in range(PROBLEMS)])
    lines = error_text(error).splitlines()
    assert lines == capped(error.problems)
    assert len(lines) == MAX_PROBLEMS_SHOWN + 1
    assert lines[-1] == f"... and {PROBLEMS - MAX_PROBLEMS_SHOWN} more problems"
    short = ScenarioError([Problem("x", "bad")])
    assert error_text(short) == "x: bad"


def test_a_file_with_two_thousand_problems_opens_a_dialog_that_fits_the_screen(
    make_window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot
) -> None:
    window = make_window()
    broken = _file_with_many_problems(tmp_path, window)
    with pytest.raises(ScenarioError) as raised:
        load_scenario(broken)
    assert len(raised.value.problems) >= PROBLEMS
    built: list[ErrorDialog] = []
    monkeypatch.setattr(ErrorDialog, "exec", lambda self: built.append(self) or 0)
    monkeypatch.setattr(
        QMessageBox, "critical", lambda *a: pytest.fail("a long list needs the scrollable dialog")
    )
    assert not window.files.open_path(broken)
    (dialog,) = built
    qtbot.addWidget(dialog)
    dialog.show()
    screen = dialog.screen().availableGeometry()
    assert dialog.frameGeometry().height() <= screen.height()
    assert dialog.height() <= dialog.maximumHeight() < screen.height()
    shown = dialog.details.toPlainText().splitlines()
    assert shown == capped(raised.value.problems)
    hidden = len(raised.value.problems) - MAX_PROBLEMS_SHOWN
    assert shown[-1] == f"... and {hidden} more problems"
    assert "broken.warplan.json was not opened" in dialog.intro.text()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isVisible()
    assert dialog.rect().contains(ok.mapTo(dialog, ok.rect().bottomRight()))


def test_even_an_uncapped_long_message_keeps_ok_on_screen(qtbot) -> None:
    """Any long message (not only a file's problems) scrolls instead of growing the dialog."""
    message = "Something failed.\n\n" + "\n".join(f"line {i}" for i in range(5000))
    dialog = ErrorDialog(None, "Cannot save", message)
    qtbot.addWidget(dialog)
    dialog.show()
    screen = dialog.screen().availableGeometry()
    assert dialog.frameGeometry().height() <= screen.height()
    assert dialog.details.verticalScrollBar().maximum() > 0
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isVisible()
    ok.click()
    assert dialog.result() == ErrorDialog.DialogCode.Accepted
