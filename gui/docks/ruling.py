"""The Ruling dock: why, not just what. Words from the engine's explanations for the selected
objective or unit (which models count, each distance against its threshold, what blocks a
sight line, which rule applies), or the whole board's ruling when nothing is selected.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from engine.edits import Selection
from engine.model import Scenario
from gui.engine_bridge import missing_message
from gui.live import RulesSnapshot, VisibilityResult
from gui.overlays import control_caption, visibility_summary


def ruling_for(
    scenario: Scenario,
    snapshot: RulesSnapshot | None,
    selection: Selection,
    visibility: VisibilityResult | None,
    *,
    visibility_available: bool = True,
) -> tuple[str, str]:
    """A heading and the ruling text for what is selected (both plain text)."""
    if snapshot is None:
        return "Ruling", missing_message("engine.evaluate")
    selected_units = selection.unit_ids(scenario)
    sections: list[str] = []
    heading_parts: list[str] = []
    for objective_id in sorted(selection.objectives):
        state = snapshot.objectives.get(objective_id)
        if state is None:
            continue
        heading_parts.append(objective_id)
        caption = control_caption(scenario, state).replace("\n", ": ", 1)
        sections.append(f"{caption}\n{state.explanation}".rstrip())
    for unit_id in sorted(selected_units):
        state = snapshot.units.get(unit_id)
        if state is None:
            continue
        unit = scenario.unit(unit_id)
        heading_parts.append(unit.name or unit_id)
        facts = [
            f"Table quarter: {state.quarter or 'none (not wholly within one quarter)'}",
            f'Within 6" of the centre: {"yes" if state.within_6_of_centre else "no"}',
            f"Engaged with: {', '.join(state.engaged_with) or 'nobody'}",
            f"Wholly within deployment zones: {', '.join(state.zones_wholly_within) or 'none'}",
            f"Territory: {state.territory or 'none'}",
        ]
        block = f"{unit.name or unit_id} ({unit_id})\n" + "\n".join(facts)
        if state.explanation:
            block += "\n" + state.explanation
        if visibility is not None and visibility.observer == unit_id:
            block += "\n\nLine of sight from this unit:\n" + visibility_summary(visibility)
        elif not visibility_available:
            block += "\n\n" + missing_message("engine.visibility")
        elif len(selected_units) == 1:
            block += "\n\nLine of sight from this unit: being worked out..."
        sections.append(block)
    if not sections:
        return "Ruling: the whole battlefield", snapshot.ruling_text or "The engine gave no ruling."
    return "Ruling: " + ", ".join(heading_parts), "\n\n".join(sections)


class RulingPanel(QWidget):
    """Shows :func:`ruling_for` for the current selection; the text can be copied."""

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
        mono = QFont(self.text.font())
        self.text.setFont(mono)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.heading)
        layout.addWidget(self.text)
        self.appendix: Callable[[], str] | None = None
        """More ruling text after the engine's (the ruleset panels name their own rules)."""

    def show_ruling(self, heading: str, text: str) -> None:
        self.heading.setText(heading)
        extra = self.appendix() if self.appendix is not None else ""
        if extra:
            text = f"{text}\n\n{extra}"
        if text != self.text.toPlainText():
            self.text.setPlainText(text)

    def ruling_text(self) -> str:
        return f"{self.heading.text()}\n{self.text.toPlainText()}"
