"""Save, reopen and compare; a broken file gives a clear dialog and changes nothing;
autosave and recovery after a crash; recent files; window layout restored."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gui_helpers import drag, duel_scenario
from PySide6.QtWidgets import QMessageBox
from test_never_lose_autosave import crashed_session, running_session

from gui.files import AutosaveStore, read_scenario

pytest.importorskip("engine.scenario_io")


def test_save_reopen_compare(qtbot, make_window, tmp_path: Path) -> None:
    window = make_window()
    drag(qtbot, window.view, (30.0, 16.0), (20.0, 10.0))
    path = tmp_path / "ruling.warplan.json"
    assert window.files.save_as(path)
    assert not window.document.is_modified
    assert not window.isWindowModified()
    assert window.windowTitle() == "ruling.warplan.json[*] - Warplan"
    assert read_scenario(path) == window.document.scenario

    other = make_window()
    assert other.files.open_path(path)
    assert other.document.scenario == window.document.scenario
    assert other.document.path == path
    assert other.files.recent_files()[0] == str(path)
    assert other.scene.models["red-1"].pos().x() == pytest.approx(
        window.document.scenario.model("red-1").x
    )


def test_a_broken_file_shows_a_dialog_and_changes_nothing(
    make_window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window()
    good = tmp_path / "good.warplan.json"
    assert window.files.save_as(good)
    before = window.document.scenario
    broken = tmp_path / "broken.warplan.json"
    text = good.read_text().replace('"diameter": 32', '"diameter": -32', 1)
    broken.write_text(text)
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(
        QMessageBox, "critical", lambda _parent, title, message, *a: shown.append((title, message))
    )
    assert not window.files.open_path(broken)
    assert len(shown) == 1
    title, message = shown[0]
    assert title == "Cannot open this file"
    assert "diameter" in message
    assert "Traceback" not in message
    assert window.document.scenario is before
    assert window.document.path == good
    assert broken.read_text() == text

    not_json = tmp_path / "not-json.warplan.json"
    not_json.write_bytes(b"\xff\xfe{ nope")
    assert not window.files.open_path(not_json)
    assert len(shown) == 2
    assert window.document.scenario is before


def test_autosave_is_offered_after_a_crash(
    qtbot, make_window, autosave_store: AutosaveStore, tmp_path: Path
) -> None:
    scenario = duel_scenario()
    moved = scenario.with_unit_moved("red-squad", 5.0, 1.0)
    original = tmp_path / "battle.warplan.json"
    crashed = crashed_session(autosave_store.directory, moved, original, pid=_dead_pid())
    assert crashed.scenario_path.exists()

    window = make_window()
    asked = []
    window.files.ask_recover = lambda entry: asked.append(entry) or True  # type: ignore[method-assign]
    assert window.files.offer_recovery()
    assert len(asked) == 1
    assert asked[0].original == original
    assert window.document.scenario == moved
    assert window.document.path == original
    assert window.document.is_modified
    assert not crashed.scenario_path.exists()
    assert autosave_store.scenario_path.exists()


def test_declining_recovery_discards_the_autosave(
    make_window, autosave_store: AutosaveStore
) -> None:
    crashed = crashed_session(autosave_store.directory, duel_scenario(), pid=_dead_pid())
    window = make_window()
    window.files.ask_recover = lambda entry: False  # type: ignore[method-assign]
    assert not window.files.offer_recovery()
    assert not crashed.scenario_path.exists()
    assert window.document.scenario == duel_scenario()


def test_an_autosave_of_a_running_process_is_not_offered(autosave_store: AutosaveStore) -> None:
    with running_session(autosave_store.directory, duel_scenario()):
        assert autosave_store.orphans() == []


def test_edits_are_autosaved_and_saving_clears_it(qtbot, make_window, tmp_path: Path) -> None:
    window = make_window()
    drag(qtbot, window.view, (30.0, 16.0), (25.0, 16.0))
    window.files.write_autosave()
    assert window.files.autosave.scenario_path.exists()
    assert read_scenario(window.files.autosave.scenario_path) == window.document.scenario
    assert window.files.save_as(tmp_path / "saved.warplan.json")
    assert not window.files.autosave.scenario_path.exists()


def test_window_and_dock_layout_are_restored(make_window, settings) -> None:
    window = make_window()
    window.docks["PaletteDock"].hide()
    window.save_layout()
    from gui.main_window import MainWindow

    restored = MainWindow(duel_scenario(), settings=settings, autosave=window.files.autosave)
    try:
        assert restored.docks["PaletteDock"].isHidden()
        assert not restored.docks["RulingDock"].isHidden()
    finally:
        restored.document.undo_stack.setClean()
        restored.close()
        restored.deleteLater()


def _dead_pid() -> int:
    """A process id that is not running now."""
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid -= 1
