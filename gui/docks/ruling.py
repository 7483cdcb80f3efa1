"""The Ruling dock: why, not just what. Per conclusion the engine's verdict first (bold), then the
measured numbers against their thresholds, then the rule cited (the engine's
:class:`engine.explain.RulingSection` values), for the selected objective or unit, or the whole
board when nothing is selected; the rule systems' app parts add their own rules after it
(:meth:`gui.main_window.MainWindow.extend_ruling`). Clicking a line outlines its models on the
board; the ruling copies as plain text or as Markdown for a forum post.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from PySide6.QtCore import QEvent, QPoint, Qt, QUrl, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import (
    QGraphicsPathItem,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.edits import Selection
from engine.evaluate import Evaluation
from engine.explain import RulingLine, RulingSection, sections_markdown
from engine.model import Scenario
from gui.live import VisibilityResult
from gui.overlays.visibility import visibility_summary, visibility_verdict
from gui.scene import BattlefieldScene

HIGHLIGHT_COLOUR = QColor("#e6007e")
"""Magenta: no player, overlay or terrain colour uses it, so the outline stands out."""


SIGHT_PENDING = "Line of sight from this unit: being worked out..."
SIGHT_OFF = "Line of sight from this unit: off (View > Line of sight turns it on)."


def ruling_for(
    scenario: Scenario,
    evaluation: Evaluation | None,
    selection: Selection,
    visibility: VisibilityResult | None,
    line_of_sight_on: bool = True,
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
            block += "\n\n" + (SIGHT_PENDING if line_of_sight_on else SIGHT_OFF)
        sections.append(block.rstrip())
    if not sections:
        return "Ruling: the whole battlefield", evaluation.ruling_text()
    return "Ruling: " + ", ".join(heading_parts), "\n\n".join(sections)


def ruling_sections_for(
    scenario: Scenario,
    evaluation: Evaluation | None,
    selection: Selection,
    visibility: VisibilityResult | None,
    threats: Mapping[str, RulingSection],
    pending_threat: RulingSection,
    line_of_sight_on: bool = True,
) -> tuple[RulingSection, ...]:
    """The structured ruling for what is selected (the engine's sections), with each selected
    unit's threat (what it can reach this turn: ``threats`` by unit id, worked out elsewhere;
    ``pending_threat`` until it is) and the selected unit's line of sight once it is worked
    out (or that it is off); the same selection as :func:`ruling_for`."""
    if evaluation is None:
        return (RulingSection("The rules have not judged this battlefield yet."),)
    objectives = sorted(selection.objectives & {o.id for o in evaluation.objectives})
    units = sorted(selection.unit_ids(scenario) & {u.id for u in evaluation.units})
    sections = list(evaluation.ruling_sections(objectives, units))
    if not units:
        return tuple(sections)
    sections.extend(threats.get(unit_id, pending_threat) for unit_id in units)
    if visibility is not None and visibility.observer in units:
        sections.append(sight_section(scenario, visibility))
    elif len(units) == 1:
        sections.append(RulingSection(SIGHT_PENDING if line_of_sight_on else SIGHT_OFF))
    return tuple(sections)


def sight_section(scenario: Scenario, visibility: VisibilityResult) -> RulingSection:
    """Line of sight from the observing unit: one line per enemy unit with the engine's
    answer, then the engine's reasons."""
    observer = scenario.unit(visibility.observer)
    verdict = f"Line of sight from {observer.name or observer.id}"
    if visibility.error:
        return RulingSection(verdict, (RulingLine(f"Line of sight failed: {visibility.error}"),))
    lines: list[RulingLine] = []
    for pair in visibility.pairs:
        about = (pair.observer, pair.target)
        lines.append(RulingLine(f"{pair.target}: {visibility_verdict(pair)}", unit_ids=about))
        lines.extend(
            RulingLine(f"    {row}", unit_ids=about)
            for row in pair.explanation.splitlines()
            if row.strip()
        )
    return RulingSection(verdict, tuple(lines))


def ruling_html(
    sections: tuple[RulingSection, ...], text_colour: str = "#111111", muted_colour: str = "#555555"
) -> str:
    """The sections as rich text: each verdict bold on its own line, its lines as bullets (a
    link where the line is about models, units or objectives), the rule in italics; colours
    from the window's palette (the defaults are the light one's)."""
    parts: list[str] = []
    for k, section in enumerate(sections):
        verdict = f"<b>{escape(section.verdict)}</b>"
        if section.ids:
            verdict = f"<a href='section:{k}' style='color:{text_colour}'>{verdict}</a>"
        parts.append(f"<p style='margin-top:8px; margin-bottom:2px'>{verdict}</p>")
        if section.lines:
            items = "".join(
                f"<li>{_line_html(line, k, n)}</li>" for n, line in enumerate(section.lines)
            )
            parts.append(f"<ul style='margin-top:0px; margin-bottom:2px'>{items}</ul>")
        if section.rule is not None:
            parts.append(
                f"<p style='margin-top:0px; color:{muted_colour}'>"
                f"<i>{escape(str(section.rule))}</i></p>"
            )
    return "".join(parts)


def _line_html(line: RulingLine, section: int, index: int) -> str:
    text = escape(line.text.strip()).replace("\n", "<br>")
    if not line.ids:
        return text
    return f"<a href='line:{section}:{index}'>{text}</a>"


class BoardHighlight:
    """An outline round the models (and objective markers) a ruling line is about, drawn over
    the board until another line is clicked or the ruling changes."""

    def __init__(self, scene: BattlefieldScene) -> None:
        self.scene = scene
        self.item = QGraphicsPathItem()
        pen = QPen(HIGHLIGHT_COLOUR, 4.0)
        pen.setCosmetic(True)
        self.item.setPen(pen)
        self.item.setZValue(10_000)
        self.item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.item.setVisible(False)
        scene.addItem(self.item)
        self.ids: tuple[str, ...] = ()

    def show(self, ids: tuple[str, ...]) -> None:
        """Outline the models among ``ids``; where there are none, the models of its units;
        where there are none either, its objectives' markers (a line about one model of a
        unit shows that model, not the unit round it)."""
        scenario = self.scene.scenario
        units = {u.id: u for u in scenario.units}
        model_ids = [i for i in ids if i in self.scene.models]
        if not model_ids:
            model_ids = [
                m.id
                for unit_id in ids
                if unit_id in units
                for m in units[unit_id].models
                if m.id in self.scene.models
            ]
        path = QPainterPath()
        for model_id in dict.fromkeys(model_ids):
            item = self.scene.models[model_id]
            path.addPath(item.mapToScene(item.shape()))
        for objective_id in () if model_ids else ids:
            marker = self.scene.objectives.get(objective_id)
            if marker is not None:
                path.addPath(marker.mapToScene(marker.shape()))
        self.ids = ids
        self.item.setPath(path)
        self.item.setVisible(not path.isEmpty())

    def clear(self) -> None:
        self.ids = ()
        self.item.setVisible(False)


class RulingPanel(QWidget):
    """Shows a heading and the ruling's sections; copies it as text or as Markdown; a click on a
    line emits :attr:`line_activated` with the ids it is about."""

    line_activated = Signal(object)
    """Emitted with the ids (a tuple) of the clicked line's models, units and objectives."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("RulingPanel")
        self.heading = QLabel("Ruling")
        self.heading.setWordWrap(True)
        font = self.heading.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.heading.setFont(font)
        self.text = QTextBrowser()
        self.text.setObjectName("RulingText")
        self.text.setOpenLinks(False)
        self.text.setOpenExternalLinks(False)
        self.text.anchorClicked.connect(self._on_anchor)
        self.text.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.text.customContextMenuRequested.connect(self._context_menu)
        self.copy_text_button = QPushButton("Copy as text")
        self.copy_text_button.setToolTip("Copy the ruling as plain text")
        self.copy_text_button.clicked.connect(self.copy_text)
        self.copy_markdown_button = QPushButton("Copy as Markdown")
        self.copy_markdown_button.setToolTip(
            "Copy the ruling for a forum post: bold verdicts, bullet lines, the rule in italics"
        )
        self.copy_markdown_button.clicked.connect(self.copy_markdown)
        hint = QLabel("Click a line to outline its models on the board.")
        hint.setWordWrap(True)
        hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.copy_text_button)
        buttons.addWidget(self.copy_markdown_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.heading)
        layout.addWidget(self.text, 1)
        layout.addWidget(hint)
        layout.addLayout(buttons)
        self._ruling: tuple[str, str] = ("Ruling", "")
        self.sections: tuple[RulingSection, ...] = ()

    def show_ruling(
        self, heading: str, text: str, sections: tuple[RulingSection, ...] | None = None
    ) -> None:
        """Show ``sections`` under ``heading``; ``text`` is the same ruling in plain text (what
        Copy as text and an export give). Without sections (a line-of-sight listing), each
        block of the text is shown as it is written."""
        if sections is None:
            sections = tuple(
                RulingSection(block.strip()) for block in text.split("\n\n") if block.strip()
            )
        if (heading, text) == self._ruling and sections == self.sections:
            return
        self._ruling = (heading, text)
        self.sections = sections
        self.heading.setText(heading)
        self._render()
        self.line_activated.emit(())

    def _render(self) -> None:
        scroll = self.text.verticalScrollBar().value()
        colours = self.palette()
        # Links in the palette's link colour, readable on the light and the dark window alike.
        self.text.document().setDefaultStyleSheet(
            f"a {{ color: {colours.color(QPalette.ColorRole.Link).name()}; "
            "text-decoration: none; }"
        )
        self.text.setHtml(
            ruling_html(
                self.sections,
                colours.color(QPalette.ColorRole.Text).name(),
                colours.color(QPalette.ColorRole.PlaceholderText).name(),
            )
        )
        self.text.verticalScrollBar().setValue(scroll)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        # A new window palette (View > Palette) re-colours the ruling's rich text.
        if event.type() == QEvent.Type.PaletteChange:
            self._render()
        super().changeEvent(event)

    def ruling_text(self) -> str:
        """The heading and the ruling shown (what an export prints)."""
        heading, text = self._ruling
        return f"{heading}\n{text}"

    def ruling_markdown(self) -> str:
        """The ruling shown as Markdown for a forum post (the engine's wording)."""
        return sections_markdown(self._ruling[0], self.sections)

    def copy_text(self) -> None:
        QGuiApplication.clipboard().setText(self.ruling_text())

    def copy_markdown(self) -> None:
        QGuiApplication.clipboard().setText(self.ruling_markdown())

    def activate(self, section: int, line: int | None = None) -> None:
        """What a click on a section's verdict (``line`` None) or one of its lines does."""
        chosen = self.sections[section]
        ids = chosen.ids if line is None else chosen.lines[line].ids
        self.line_activated.emit(ids)

    def _on_anchor(self, url: QUrl) -> None:
        kind, _, place = url.toString().partition(":")
        numbers = [int(n) for n in place.split(":") if n.isdigit()]
        if kind == "section" and len(numbers) == 1:
            self.activate(numbers[0])
        elif kind == "line" and len(numbers) == 2:
            self.activate(numbers[0], numbers[1])

    def context_menu(self, position: QPoint) -> QMenu:
        """The text's menu at ``position``: the standard entries, then the two copies."""
        menu = self.text.createStandardContextMenu(position)
        menu.addSeparator()
        menu.addAction("Copy ruling as text", self.copy_text)
        menu.addAction("Copy ruling as Markdown", self.copy_markdown)
        return menu

    def _context_menu(self, position: QPoint) -> None:
        menu = self.context_menu(position)
        menu.exec(self.text.viewport().mapToGlobal(position))
        menu.deleteLater()
