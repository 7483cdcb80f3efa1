"""The New game dialog: one page per rule system (each contributed by its app part), a seed,
and a live preview of what the choices give (or the engine's reason they cannot).

``NewGameDialog.build(base)`` turns the chosen page's choices into a new scenario; the caller
makes it a new document (File > New) or one undoable edit of the open battlefield (the Mission
dock's New game...).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from engine.errors import WarplanError
from engine.model import Scenario
from gui.plugin_api import NewGamePage, NewGamePageSpec

MAX_SEED = 999_999


def select_data(box: QComboBox, data: Any) -> None:
    """Make the item carrying ``data`` current (no change when there is none)."""
    index = box.findData(data)
    if index >= 0:
        box.setCurrentIndex(index)


class NewGameDialog(QDialog):
    """Choose a rule system and its set-up; ``build(base)`` gives the new scenario."""

    def __init__(
        self,
        scenario: Scenario,
        pages: Sequence[NewGamePageSpec],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.setObjectName("NewGameDialog")
        self.base = scenario
        self.specs = tuple(pages)
        self.ruleset = QComboBox()
        self.pages = QStackedWidget()
        self.page_by_ruleset: dict[str, QWidget] = {}
        for spec in self.specs:
            page = spec.make(scenario)
            self.ruleset.addItem(spec.title, spec.ruleset)
            self.pages.addWidget(page)
            self.page_by_ruleset[spec.ruleset] = page
            cast(Any, page).changed.connect(self.update_preview)
        self.seed = QSpinBox()
        self.seed.setRange(0, MAX_SEED)
        self.seed.setValue(random.randrange(MAX_SEED))
        reroll = QPushButton("New seed")
        reroll.clicked.connect(lambda: self.seed.setValue(random.randrange(MAX_SEED)))
        seed_row = QHBoxLayout()
        seed_row.addWidget(self.seed, 1)
        seed_row.addWidget(reroll)
        top = QFormLayout()
        top.addRow("Ruleset", self.ruleset)
        top.addRow("Seed (same seed, same rolls)", seed_row)

        self.preview = QLabel()
        self.preview.setObjectName("new-game-preview")
        self.preview.setWordWrap(True)
        self.preview.setMinimumWidth(420)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.pages)
        layout.addWidget(self.preview)
        layout.addWidget(self.buttons)
        self.seed.valueChanged.connect(lambda _v: self.update_preview())
        self.ruleset.currentIndexChanged.connect(self._on_ruleset)
        select_data(self.ruleset, scenario.ruleset)
        self._on_ruleset()

    def _on_ruleset(self) -> None:
        self.pages.setCurrentIndex(max(0, self.ruleset.currentIndex()))
        self.update_preview()

    def chosen_ruleset(self) -> str:
        return str(self.ruleset.currentData())

    def chosen_spec(self) -> NewGamePageSpec:
        return self.specs[self.ruleset.currentIndex()]

    def page(self, ruleset: str | None = None) -> NewGamePage:
        """The page of ``ruleset`` (default: the chosen one)."""
        return cast(NewGamePage, self.page_by_ruleset[ruleset or self.chosen_ruleset()])

    def build(self, base: Scenario) -> Scenario:
        """The new game on ``base`` (raises the engine's error when the choices cannot be)."""
        return self.page().build(base, self.seed.value())

    def update_preview(self) -> None:
        try:
            built = self.build(self.base)
        except WarplanError as error:
            self.preview.setText(f"<b>These choices cannot be set up:</b> {error}")
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
            return
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)
        self.preview.setText(self.page().describe(built))
