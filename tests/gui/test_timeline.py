"""The Timeline dock and the comparison window, through the real window: snapshots around a real
drag, going back as one undo step, branching, saving and reopening, comparing two snapshots."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from gui_helpers import drag
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QTreeWidgetItemIterator

from engine.compare import compare
from engine.scenario_io import load_scenario
from engine.snapshots import board_of
from gui.main_window import MainWindow

COMPARISON_MS = 60_000


def names_answered(window: MainWindow, *names: str) -> list[tuple[str, str]]:
    """Answer the window's name prompts with ``names`` in turn; the prompts asked."""
    asked: list[tuple[str, str]] = []
    answers = iter(names)

    def answer(_parent: object, title: str, label: str) -> str | None:
        asked.append((title, label))
        return next(answers, None)

    window.ask_text = answer
    return asked


def tree_rows(window: MainWindow) -> list[tuple[str, str, bool]]:
    """Each row of the tree: its name, its parent row's name ("" for a root), bold or not."""
    rows = []
    iterator = QTreeWidgetItemIterator(window.timeline.tree)
    while (item := iterator.value()) is not None:
        parent = item.parent()
        rows.append((item.text(0), parent.text(0) if parent else "", item.font(0).bold()))
        iterator += 1
    return rows


def two_snapshots_around_a_drag(qtbot, window: MainWindow) -> tuple[float, float]:
    """Take "Before", drag red-1 3" north onto the objective, take "After"; the x before and
    after (the drag's end rounds to the view's pixels)."""
    panel = window.timeline
    panel._clock = lambda: datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    names_answered(window, "Before", "After")
    assert panel.take()
    start = window.document.scenario.model("red-1")
    drag(qtbot, window.view, (start.x, start.y), (start.x + 0.5, start.y + 3.0), steps=10)
    moved_x = window.document.scenario.model("red-1").x
    assert moved_x != start.x
    assert panel.take()
    return start.x, moved_x


def test_take_two_snapshots_around_a_drag(qtbot, make_window) -> None:
    window = make_window()
    start_x, moved_x = two_snapshots_around_a_drag(qtbot, window)
    snaps = window.document.scenario.snapshots
    assert [(s.id, s.name, s.parent) for s in snaps.items] == [
        ("snapshot-1", "Before", None),
        ("snapshot-2", "After", "snapshot-1"),
    ]
    assert snaps.items[0].board.model("red-1").x == start_x
    assert snaps.items[1].board.model("red-1").x == moved_x
    assert snaps.items[0].taken == "2026-12-01T18:00:00+00:00"
    assert tree_rows(window) == [("Before", "", False), ("After", "Before", True)]
    assert window.timeline.status.text() == "The board is “After” (in bold)."
    assert window.document.undo_stack.count() == 3  # take, drag, take


def test_a_cancelled_prompt_takes_nothing(make_window) -> None:
    window = make_window()
    asked = names_answered(window)
    assert not window.timeline.take()
    assert asked == [("Take a snapshot", "Name (e.g. Snapshot 1):")]
    assert window.document.scenario.snapshots.items == ()
    assert window.document.undo_stack.count() == 0


def test_go_back_is_one_undo_step_and_the_next_snapshot_branches(qtbot, make_window) -> None:
    window = make_window()
    start_x, moved_x = two_snapshots_around_a_drag(qtbot, window)
    panel = window.timeline
    steps = window.document.undo_stack.count()
    panel.choose("snapshot-1")
    assert panel.back_button.isEnabled()
    assert panel.go_back()
    assert window.document.undo_stack.count() == steps + 1
    assert window.document.scenario.model("red-1").x == start_x
    assert window.scene.models["red-1"].pos().x() == pytest.approx(start_x)
    assert window.document.scenario.snapshots.current == "snapshot-1"
    assert tree_rows(window) == [("Before", "", True), ("After", "Before", False)]

    window.document.undo_stack.undo()
    assert window.document.scenario.model("red-1").x == moved_x
    assert window.document.scenario.snapshots.current == "snapshot-2"
    assert tree_rows(window)[1] == ("After", "Before", True)
    window.document.undo_stack.redo()
    assert window.document.scenario.model("red-1").x == start_x

    names_answered(window, "Branch")
    drag(qtbot, window.view, (start_x, 16.0), (start_x - 3.0, 16.0), steps=6)
    assert "changed since “Before”" in panel.status.text()
    assert panel.take()
    assert tree_rows(window) == [
        ("Before", "", False),
        ("After", "Before", False),
        ("Branch", "Before", True),
    ]


def test_rename_and_delete_are_undoable(qtbot, make_window) -> None:
    window = make_window()
    two_snapshots_around_a_drag(qtbot, window)
    panel = window.timeline
    panel.choose("snapshot-1")
    names_answered(window, "Opening")
    assert panel.rename_chosen()
    assert [r[0] for r in tree_rows(window)] == ["Opening", "After"]
    panel.choose("snapshot-1")
    assert panel.delete_chosen()
    assert tree_rows(window) == [("After", "", True)]
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert [r[0] for r in tree_rows(window)] == ["Before", "After"]


def test_save_and_reopen_keeps_the_tree(qtbot, make_window, tmp_path: Path) -> None:
    window = make_window()
    two_snapshots_around_a_drag(qtbot, window)
    window.timeline.choose("snapshot-1")
    window.timeline.go_back()
    path = tmp_path / "plan.warplan.json"
    assert window.files.save_to(path)
    assert load_scenario(path) == window.document.scenario
    reopened = make_window(load_scenario(path), path)
    assert tree_rows(reopened) == tree_rows(window)
    assert reopened.document.scenario.snapshots == window.document.scenario.snapshots
    assert board_of(reopened.document.scenario) == board_of(window.document.scenario)


def test_the_comparison_window_lists_the_moved_units_differences(
    qtbot, make_window, tmp_path: Path
) -> None:
    window = make_window()
    two_snapshots_around_a_drag(qtbot, window)
    panel = window.timeline
    panel.choose("snapshot-1", "snapshot-2")
    assert panel.compare_button.isEnabled()
    assert panel.compare_chosen()
    shown = window.comparison
    assert shown is not None
    qtbot.waitUntil(lambda: shown.complete, timeout=COMPARISON_MS)
    items = window.document.scenario.snapshots.items
    expected = compare(items[0].board, items[1].board, "Before", "After")
    assert shown.comparison == expected
    lines = shown.difference_lines()
    expected_lines = [
        text for s in expected.sections() for text in (s.verdict, *(x.text for x in s.lines))
    ]
    assert lines == expected_lines
    moved = expected.moved[0]
    assert moved.unit == "red-squad"
    assert any(line.startswith("red-squad moved ") for line in lines)
    assert "obj-centre: nobody in Before, Red controls in After" in lines
    # Both boards outline what differs (the moved unit, the objective changing hands); a
    # chosen line outlines what it is about.
    for board in shown.boards:
        assert not board.outline.path().isEmpty()
        assert not board.scene.interactive
    shown.differences.setCurrentRow(
        lines.index("obj-centre: nobody in Before, Red controls in After")
    )
    for board in shown.boards:
        marker = board.scene.objectives["obj-centre"]
        outlined = board.outline.path().boundingRect()
        assert outlined == marker.mapToScene(marker.shape()).boundingRect()
    picture = shown.export_png(tmp_path / "comparison.png")
    image = QImage(str(picture))
    assert image.width() == 2400
    assert image.height() > 600


def test_one_snapshot_compares_with_the_board_now(qtbot, make_window) -> None:
    window = make_window()
    two_snapshots_around_a_drag(qtbot, window)
    window.timeline.choose("snapshot-2")
    assert window.timeline.compare_chosen()
    shown = window.comparison
    assert shown is not None
    qtbot.waitUntil(lambda: shown.complete, timeout=COMPARISON_MS)
    assert shown.comparison.empty
    assert shown.difference_lines() == []
    assert shown.summary.text() == "No differences between After and The board now."
