"""The Timeline dock: the file's snapshots of the board as a tree (a branching timeline).

Take a snapshot (asked for a name), go back to one, rename or delete one, each one undo step;
compare two selected snapshots, or one and the live board, side by side. The engine
(:mod:`engine.snapshots`) makes every change; the dock reads the time from the clock it is
given and shows the tree :func:`engine.snapshots.timeline` returns.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QTreeWidgetItemIterator,
    QVBoxLayout,
    QWidget,
)

from engine.errors import WarplanError
from engine.model import Scenario
from engine.snapshots import delete, rename, restore, snapshot, take_snapshot, timeline
from gui.document import ScenarioDocument

AskName = Callable[[str, str], "str | None"]
"""Asks for a name: ``(title, label)`` to the text typed, ``None`` when cancelled."""

ID_ROLE = Qt.ItemDataRole.UserRole


def now() -> datetime:
    """The time a snapshot is taken: the local clock, in UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0)


def shown_time(taken: str) -> str:
    """A snapshot's time as the tree shows it (``2026-12-01 18:05``); as written when it
    cannot be read."""
    try:
        return datetime.fromisoformat(taken).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return taken


class TimelinePanel(QWidget):
    """The snapshot tree with Take, Go back, Rename, Delete and Compare."""

    compare_requested = Signal(object)
    """Emitted with ``(first id, second id or None)``: two snapshots, or one and the live
    board (``None``), to compare side by side."""

    def __init__(
        self,
        document: ScenarioDocument,
        ask_name: AskName,
        clock: Callable[[], datetime] = now,
    ) -> None:
        super().__init__()
        self.setObjectName("TimelinePanel")
        self.document = document
        self._ask_name = ask_name
        self._clock = clock
        self.tree = QTreeWidget()
        self.tree.setObjectName("timeline-tree")
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Snapshot", "Taken"])
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.itemSelectionChanged.connect(self._update_buttons)
        self.tree.itemDoubleClicked.connect(lambda _item, _column: self.go_back())
        self.take_button = self._button(
            "Take…", "timeline-take", self.take, "Keep the board as it is now under a name."
        )
        self.back_button = self._button(
            "Go back",
            "timeline-back",
            self.go_back,
            "Make the board the chosen snapshot's (one undo step); the next snapshot branches "
            "from it.",
        )
        self.rename_button = self._button("Rename…", "timeline-rename", self.rename_chosen, "")
        self.delete_button = self._button(
            "Delete",
            "timeline-delete",
            self.delete_chosen,
            "Delete the chosen snapshot; its children hang from its parent.",
        )
        self.compare_button = self._button(
            "Compare",
            "timeline-compare",
            self.compare_chosen,
            "Two chosen snapshots side by side, or the chosen one and the board as it is now.",
        )
        self.status = QLabel("")
        self.status.setObjectName("timeline-status")
        self.status.setWordWrap(True)
        buttons = QGridLayout()
        for i, button in enumerate(
            (
                self.take_button,
                self.back_button,
                self.compare_button,
                self.rename_button,
                self.delete_button,
            )
        ):
            buttons.addWidget(button, i // 3, i % 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        # A drag's previews change no snapshot: the tree and its status follow at the drop.
        document.changed.connect(lambda change: None if change.previewing else self.refresh())
        document.replaced.connect(lambda _scenario: self.refresh())
        self._shown: object = None
        self.refresh()

    def _button(self, text: str, name: str, action: Callable[[], object], tip: str) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        if tip:
            button.setToolTip(tip)
        button.clicked.connect(lambda _checked=False: action())
        return button

    # ------------------------------------------------------------------ showing

    def refresh(self) -> None:
        """Rebuild the tree when the snapshots changed; the status line always."""
        scenario = self.document.scenario
        tree = timeline(scenario)
        if scenario.snapshots is not self._shown:
            self._shown = scenario.snapshots
            chosen = set(self.chosen_ids())
            self.tree.clear()
            items: dict[str, QTreeWidgetItem] = {}
            for entry in tree.entries:
                snap = entry.snapshot
                parent = items.get(snap.parent) if snap.parent is not None else None
                item = QTreeWidgetItem([snap.name, shown_time(snap.taken)])
                item.setData(0, ID_ROLE, snap.id)
                item.setToolTip(0, f"{snap.name} ({snap.id}), taken {snap.taken}")
                if entry.current:
                    font = QFont(item.font(0))
                    font.setBold(True)
                    item.setFont(0, font)
                if parent is None:
                    self.tree.addTopLevelItem(item)
                else:
                    parent.addChild(item)
                items[snap.id] = item
                item.setSelected(snap.id in chosen)
            self.tree.expandAll()
            self.tree.resizeColumnToContents(0)
        self.status.setText(self._status_text(scenario, tree.current, tree.board_unchanged))
        self._update_buttons()

    def _status_text(self, scenario: Scenario, current: str | None, unchanged: bool) -> str:
        if not scenario.snapshots.items:
            return "No snapshots yet: Take keeps the board as it is under a name."
        if current is None:
            return "The board descends from no snapshot: the next one taken is a new root."
        name = snapshot(scenario, current).name
        if unchanged:
            return f"The board is “{name}” (in bold)."
        return f"The board has changed since “{name}” (in bold); the next snapshot is its child."

    def chosen_ids(self) -> list[str]:
        """The chosen snapshots' ids, in the tree's order."""
        order = [e.snapshot.id for e in timeline(self.document.scenario).entries]
        chosen = {str(item.data(0, ID_ROLE)) for item in self.tree.selectedItems()}
        return [i for i in order if i in chosen]

    def choose(self, *snapshot_ids: str) -> None:
        """Choose exactly these snapshots in the tree (for the keyboard, tests and tools)."""
        wanted = set(snapshot_ids)
        self.tree.clearSelection()
        for item in self._items():
            item.setSelected(str(item.data(0, ID_ROLE)) in wanted)

    def _items(self) -> list[QTreeWidgetItem]:
        found: list[QTreeWidgetItem] = []
        iterator = QTreeWidgetItemIterator(self.tree)
        while (item := iterator.value()) is not None:
            found.append(item)
            iterator += 1
        return found

    def _update_buttons(self) -> None:
        count = len(self.chosen_ids())
        self.back_button.setEnabled(count == 1)
        self.rename_button.setEnabled(count == 1)
        self.delete_button.setEnabled(count == 1)
        self.compare_button.setEnabled(count in (1, 2))

    # ------------------------------------------------------------------ actions

    def _apply(self, change: Callable[[Scenario], Scenario], text: str) -> bool:
        try:
            changed = change(self.document.scenario)
        except WarplanError as refusal:
            self.status.setText(str(refusal))
            return False
        self.document.apply(changed, text)
        return True

    def take(self) -> bool:
        """Ask for a name and keep the board under it (one undo step)."""
        default = f"Snapshot {len(self.document.scenario.snapshots.items) + 1}"
        name = self._ask_name("Take a snapshot", f"Name (e.g. {default}):")
        if name is None:
            return False
        name = name.strip() or default
        taken = self._clock()
        return self._apply(lambda s: take_snapshot(s, name, taken), f"Take snapshot {name}")

    def go_back(self) -> bool:
        """Make the board the chosen snapshot's (one undo step)."""
        chosen = self.chosen_ids()
        if len(chosen) != 1:
            return False
        name = snapshot(self.document.scenario, chosen[0]).name
        return self._apply(lambda s: restore(s, chosen[0]), f"Go back to {name}")

    def rename_chosen(self) -> bool:
        chosen = self.chosen_ids()
        if len(chosen) != 1:
            return False
        old = snapshot(self.document.scenario, chosen[0]).name
        name = self._ask_name("Rename the snapshot", f"New name for “{old}”:")
        if name is None or not name.strip():
            return False
        return self._apply(lambda s: rename(s, chosen[0], name.strip()), f"Rename {old}")

    def delete_chosen(self) -> bool:
        chosen = self.chosen_ids()
        if len(chosen) != 1:
            return False
        name = snapshot(self.document.scenario, chosen[0]).name
        return self._apply(lambda s: delete(s, chosen[0]), f"Delete snapshot {name}")

    def compare_chosen(self) -> bool:
        """Ask for the comparison of the two chosen snapshots, or of the chosen one and the
        live board."""
        chosen = self.chosen_ids()
        if len(chosen) not in (1, 2):
            return False
        self.compare_requested.emit((chosen[0], chosen[1] if len(chosen) == 2 else None))
        return True
