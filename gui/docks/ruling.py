"""The Ruling dock: why, not just what. The engine's words for the selected objective or unit
(which models count, each distance against its threshold, what blocks a sight line, which rule
applies), or the whole board's ruling when nothing is selected; the rule systems' app parts add
their own rules after it (:meth:`gui.main_window.MainWindow.extend_ruling`).
"""

from __future__ import annotations

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from engine.edits import Selection
from engine.evaluate import Evaluation
from engine.model import Scenario
from gui.live import VisibilityResult
from gui.overlays.visibility import visibility_summary


def ruling_for(
    scenario: Scenario,
    evaluation: Evaluation | None,
    selection: Selection,
    visibility: VisibilityResult | None,
) -> tuple[str, str]:
    """A heading and the ruling text for what is selected (both plain text)."""
    if evaluation is None:
        return "Ruling", "The rules have not judged this battlefield yet."
    judged_objectives = {o.id for o in evaluation.objectives}
    judged_units = {u.id for u in evaluation.units}
    selected_units = selection.unit_ids(scenario)
    sections: list[str] = []
    heading_parts: list[str] = []
    for objective_id in sorted(selection.objectives & judged_objectives):
        heading_parts.append(objective_id)
        sections.append(evaluation.objective_ruling_text(objective_id).rstrip())
    for unit_id in sorted(selected_units & judged_units):
        unit = scenario.unit(unit_id)
        heading_parts.append(unit.name or unit_id)
        block = f"{unit.name or unit_id} ({unit_id})\n{evaluation.unit_ruling_text(unit_id)}"
        if visibility is not None and visibility.observer == unit_id:
            block += "\n\nLine of sight from this unit:\n" + visibility_summary(visibility)
        elif len(selected_units) == 1:
            block += "\n\nLine of sight from this unit: being worked out..."
        sections.append(block.rstrip())
    if not sections:
        return "Ruling: the whole battlefield", evaluation.ruling_text()
    return "Ruling: " + ", ".join(heading_parts), "\n\n".join(sections)


class RulingPanel(QWidget):
    """Shows a heading and a ruling text that can be selected and copied."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("RulingPanel")
        self.heading = QLabel("Ruling")
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.setFont(QFont(self.text.font()))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.heading)
        layout.addWidget(self.text)
        self._ruling = ("Ruling", "")

    def show_ruling(self, heading: str, text: str) -> None:
        if (heading, text) == self._ruling:
            return
        self._ruling = (heading, text)
        self.heading.setText(heading)
        self.text.setPlainText(text)

    def ruling_text(self) -> str:
        """The heading and the ruling shown (what an export prints)."""
        heading, text = self._ruling
        return f"{heading}\n{text}"
