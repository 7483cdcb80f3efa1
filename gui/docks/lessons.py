"""The Lessons dock: play a lesson step by step on the board, answer its questions, reveal the
engine's answer and explanation; and a simple editor that records the board as a step.

The board becomes each step's scenario (:func:`engine.lessons.board_at`); the answers are the
engine's (:func:`engine.lessons.answer`), never the app's. Opening a lesson asks before unsaved
work is discarded and keeps the document that was open, so that leaving the lesson can go back
to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.assets import ASSET_ROOT
from engine.errors import WarplanError
from engine.lessons import (
    ASK_KINDS,
    LESSON_SUFFIX,
    Lesson,
    LessonStep,
    Question,
    answer,
    board_at,
    build_lesson,
    changes_between,
    choices_for,
    ids_for,
    lesson_title,
    load_lesson,
    save_lesson,
)
from engine.model import Scenario
from gui.document import ScenarioDocument
from gui.overlays.controller import OVERLAY_NAMES

SHIPPED_LESSONS = ASSET_ROOT / "lessons"
LESSON_FILTER = f"Warplan lessons (*{LESSON_SUFFIX});;All files (*)"
NO_QUESTION = "(no question)"


def shipped_lessons() -> list[tuple[str, Path]]:
    """The lessons that come with Warplan: (title, path), puzzles last."""
    found: list[tuple[str, Path]] = []
    for path in sorted(SHIPPED_LESSONS.glob(f"*{LESSON_SUFFIX}")):
        try:
            found.append((lesson_title(path), path))
        except WarplanError:
            continue
    return sorted(found, key=lambda item: ("puzzles" in item[1].name, item[1].name))


@dataclass(frozen=True)
class _Previous:
    """The document that was open before the lesson, to go back to."""

    scenario: Scenario
    path: Path | None
    modified: bool


class LessonsPanel(QWidget):
    """Plays and records lessons. The window gives it the document, a way to select ids, its
    overlay toggles, its "save unsaved work?" question and a yes/no question."""

    lesson_changed = Signal(object)
    """The lesson now playing (or ``None``)."""

    def __init__(
        self,
        document: ScenarioDocument,
        *,
        select_ids: Callable[[set[str]], None],
        selected_ids: Callable[[], set[str]],
        overlay_actions: Mapping[str, QAction],
        confirm_discard: Callable[[], bool],
        confirm: Callable[[str, str], bool],
        show_error: Callable[[str, str], None],
    ) -> None:
        super().__init__()
        self.document = document
        self._select_ids = select_ids
        self._selected_ids = selected_ids
        self._overlay_actions = overlay_actions
        self._confirm_discard = confirm_discard
        self._confirm = confirm
        self._show_error = show_error
        self.lesson: Lesson | None = None
        self.path: Path | None = None
        self.index = 0
        self._previous: _Previous | None = None
        self._overlays_before: dict[str, bool] | None = None

        # The window puts every dock in a scroll area, so a long step or the open editor never
        # forces the window taller or the battlefield narrower.
        layout = QVBoxLayout(self)
        picker = QHBoxLayout()
        self.shipped = QComboBox()
        self.shipped.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.shipped.setMinimumContentsLength(12)
        for title, path in shipped_lessons():
            self.shipped.addItem(title, str(path))
        self.open_shipped_button = QPushButton("Open")
        self.open_shipped_button.clicked.connect(self._open_shipped)
        self.open_file_button = QPushButton("File...")
        self.open_file_button.setToolTip("Open a lesson file")
        self.open_file_button.clicked.connect(self.open_dialog)
        picker.addWidget(self.shipped, 1)
        picker.addWidget(self.open_shipped_button)
        picker.addWidget(self.open_file_button)
        layout.addLayout(picker)

        self.heading = QLabel("No lesson open")
        self.heading.setWordWrap(True)
        self.heading.setStyleSheet("font-weight: bold")
        self.step_label = QLabel("")
        self.text = QTextBrowser()
        self.text.setOpenExternalLinks(False)
        self.text.setMinimumHeight(60)
        self.text.setMaximumHeight(110)
        layout.addWidget(self.heading)
        layout.addWidget(self.step_label)
        layout.addWidget(self.text)

        self.question_box = QGroupBox("Question")
        question_layout = QVBoxLayout(self.question_box)
        self.prompt = QLabel("")
        self.prompt.setWordWrap(True)
        question_layout.addWidget(self.prompt)
        self.choices_row = QVBoxLayout()
        question_layout.addLayout(self.choices_row)
        self.choice_group = QButtonGroup(self)
        buttons = QHBoxLayout()
        self.check_button = QPushButton("Check")
        self.check_button.clicked.connect(self.check)
        self.reveal_button = QPushButton("Reveal")
        self.reveal_button.clicked.connect(self.reveal)
        buttons.addWidget(self.check_button)
        buttons.addWidget(self.reveal_button)
        question_layout.addLayout(buttons)
        self.feedback = QLabel("")
        self.feedback.setWordWrap(True)
        self.explanation = QPlainTextEdit()
        self.explanation.setReadOnly(True)
        self.explanation.setMinimumHeight(120)
        self.explanation.hide()
        question_layout.addWidget(self.feedback)
        question_layout.addWidget(self.explanation)
        layout.addWidget(self.question_box)

        navigation = QHBoxLayout()
        self.back_button = QPushButton("Back")
        self.back_button.clicked.connect(self.back)
        self.next_button = QPushButton("Next")
        self.next_button.clicked.connect(self.next)
        self.leave_button = QPushButton("Leave lesson")
        self.leave_button.clicked.connect(self.leave)
        navigation.addWidget(self.back_button)
        navigation.addWidget(self.next_button)
        navigation.addStretch(1)
        navigation.addWidget(self.leave_button)
        layout.addLayout(navigation)

        layout.addWidget(self._editor())
        layout.addStretch(1)
        self._show_step()

    # ------------------------------------------------------------------ the editor

    def _editor(self) -> QGroupBox:
        box = QGroupBox("Edit a lesson")
        box.setCheckable(True)
        box.setChecked(False)
        fields = QWidget()
        fields.setVisible(False)
        box.toggled.connect(fields.setVisible)
        QVBoxLayout(box).addWidget(fields)
        form = QFormLayout(fields)
        self.lesson_title = QLineEdit()
        self.lesson_title.setPlaceholderText("Lesson title")
        self.step_title = QLineEdit()
        self.step_title.setPlaceholderText("Step title")
        self.step_text = QPlainTextEdit()
        self.step_text.setPlaceholderText("What the step shows (plain text or simple Markdown)")
        self.step_text.setMaximumHeight(90)
        overlays = QGridLayout()
        self.overlay_checks: dict[str, QCheckBox] = {}
        for k, (name, label) in enumerate(OVERLAY_NAMES.items()):
            check = QCheckBox(label)
            self.overlay_checks[name] = check
            overlays.addWidget(check, k // 2, k % 2)
        overlay_row = QWidget()
        overlay_row.setLayout(overlays)
        self.question_kind = QComboBox()
        self.question_kind.addItem(NO_QUESTION, "")
        for kind in ASK_KINDS.values():
            self.question_kind.addItem(kind.name, kind.name)
            self.question_kind.setItemData(
                self.question_kind.count() - 1, kind.description, Qt.ItemDataRole.ToolTipRole
            )
        self.question_kind.currentIndexChanged.connect(self._refresh_question_keys)
        self.question_prompt = QLineEdit()
        self.question_prompt.setPlaceholderText("The question, as the player reads it")
        self.key_form = QFormLayout()
        self.key_boxes: dict[str, QComboBox] = {}
        key_widget = QWidget()
        key_widget.setLayout(self.key_form)
        self.offered = QLabel("")
        self.offered.setWordWrap(True)
        form.addRow("Lesson", self.lesson_title)
        form.addRow("Step", self.step_title)
        form.addRow("Text", self.step_text)
        form.addRow("Overlays", overlay_row)
        form.addRow("Question", self.question_kind)
        form.addRow("Prompt", self.question_prompt)
        form.addRow(key_widget)
        form.addRow("Choices", self.offered)
        buttons = QVBoxLayout()
        self.record_button = QPushButton("Record this board as a step")
        self.record_button.clicked.connect(self.record_step)
        self.apply_button = QPushButton("Update this step")
        self.apply_button.setToolTip("Give the shown step the text, overlays and question above")
        self.apply_button.clicked.connect(self.update_step)
        self.save_button = QPushButton("Save lesson...")
        self.save_button.clicked.connect(self.save_dialog)
        buttons.addWidget(self.record_button)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.save_button)
        form.addRow(buttons)
        self.editor_message = QLabel("")
        self.editor_message.setWordWrap(True)
        form.addRow(self.editor_message)
        self.editor_box = box
        return box

    def _refresh_question_keys(self, _index: int = 0) -> None:
        """One list per id the chosen kind names, filled from the board; the choices it offers."""
        while self.key_form.rowCount():
            self.key_form.removeRow(0)
        self.key_boxes = {}
        kind = ASK_KINDS.get(self.question_kind.currentData() or "")
        if kind is None:
            self.offered.setText("")
            return
        scenario = self.document.scenario
        for key, names in kind.keys:
            self._key_box(key, ids_for(names, scenario), optional=False)
        for key, names in kind.optional:
            self._key_box(key, ids_for(names, scenario), optional=True)
        self._refresh_offered()

    def _key_box(self, key: str, ids: tuple[str, ...], *, optional: bool) -> None:
        box = QComboBox()
        if optional:
            box.addItem("(any)", "")
        for item in ids:
            box.addItem(item, item)
        box.currentIndexChanged.connect(self._refresh_offered)
        self.key_boxes[key] = box
        self.key_form.addRow(key, box)

    def _ask(self) -> dict[str, str] | None:
        kind = self.question_kind.currentData()
        if not kind:
            return None
        ask = {"kind": str(kind)}
        for key, box in self.key_boxes.items():
            if box.currentData():
                ask[key] = str(box.currentData())
        return ask

    def _refresh_offered(self, _index: int = 0) -> None:
        ask = self._ask()
        if ask is None:
            self.offered.setText("")
            return
        try:
            self.offered.setText(", ".join(choices_for(ask, self.document.scenario)))
        except (WarplanError, KeyError):
            self.offered.setText("")

    def _question(self, scenario: Scenario) -> Question | None:
        ask = self._ask()
        if ask is None:
            return None
        prompt = self.question_prompt.text().strip() or ASK_KINDS[ask["kind"]].description
        return Question(prompt, ask, choices_for(ask, scenario))

    def _editor_step(self, scenario: Scenario, previous: Scenario | None) -> LessonStep:
        """A step of the editor's fields on ``scenario``: changes where only models moved."""
        overlays = tuple(name for name, check in self.overlay_checks.items() if check.isChecked())
        title = self.step_title.text().strip() or f"Step {len(self._steps()) + 1}"
        moves = None if previous is None else changes_between(previous, scenario)
        return LessonStep(
            title,
            self.step_text.toPlainText(),
            None if moves is not None else scenario,
            moves or (),
            overlays,
            tuple(sorted(self._selected_ids())),
            self._question(scenario),
        )

    def _steps(self) -> tuple[LessonStep, ...]:
        return self.lesson.steps if self.lesson is not None else ()

    def _rebuild(self, steps: list[LessonStep], index: int) -> bool:
        scenario = self.document.scenario
        title = self.lesson_title.text().strip() or (
            self.lesson.title if self.lesson is not None else "Untitled lesson"
        )
        ruleset = self.lesson.ruleset if self.lesson is not None else scenario.ruleset
        summary = self.lesson.summary if self.lesson is not None else ""
        try:
            lesson = build_lesson(title, summary, ruleset, steps)
        except WarplanError as error:
            self.editor_message.setText(f"Not recorded: {error}")
            return False
        self.lesson = lesson
        self.index = index
        self.editor_message.setText(f"{len(lesson.steps)} steps")
        self.lesson_changed.emit(lesson)
        self._show_step(load_board=False)
        return True

    def record_step(self) -> bool:
        """The current document as a new step after the last one (the whole scenario, or
        ``move`` changes where only models moved since the last step's board)."""
        steps = list(self._steps())
        previous = self.lesson.boards[-1] if self.lesson is not None else None
        steps.append(self._editor_step(self.document.scenario, previous))
        return self._rebuild(steps, len(steps) - 1)

    def update_step(self) -> bool:
        """The shown step with the editor's title, text, overlays, selection and question."""
        if self.lesson is None:
            return False
        steps = list(self.lesson.steps)
        old = steps[self.index]
        fresh = self._editor_step(board_at(self.lesson, self.index), None)
        steps[self.index] = LessonStep(
            fresh.title,
            fresh.text,
            old.scenario,
            old.changes,
            fresh.overlays,
            old.select,
            fresh.question,
        )
        return self._rebuild(steps, self.index)

    def save_dialog(self) -> None:
        if self.lesson is None:
            self.editor_message.setText("Record a step first.")
            return
        start = str(self.path) if self.path else f"lesson{LESSON_SUFFIX}"
        name, _ = QFileDialog.getSaveFileName(self, "Save lesson", start, LESSON_FILTER)
        if name:
            self.save_to(Path(name if name.endswith(LESSON_SUFFIX) else name + LESSON_SUFFIX))

    def save_to(self, path: Path) -> bool:
        if self.lesson is None:
            return False
        try:
            save_lesson(self.lesson, path)
        except (WarplanError, OSError) as error:
            self._show_error("Cannot save the lesson", str(error))
            return False
        self.path = path
        self.editor_message.setText(f"Saved {path.name}")
        return True

    # ------------------------------------------------------------------ playing

    def _open_shipped(self) -> None:
        path = self.shipped.currentData()
        if path:
            self.open_path(Path(str(path)))

    def open_dialog(self) -> None:
        start = str(self.path.parent) if self.path else str(SHIPPED_LESSONS)
        name, _ = QFileDialog.getOpenFileName(self, "Open lesson", start, LESSON_FILTER)
        if name:
            self.open_path(Path(name))

    def open_path(self, path: Path) -> bool:
        """Open a lesson at its first step; a bad file changes nothing and says why."""
        try:
            lesson = load_lesson(path)
        except WarplanError as error:
            self._show_error(
                "Cannot open this lesson", f"{path.name}: nothing was changed.\n\n{error}"
            )
            return False
        if self._previous is None:
            if not self._confirm_discard():
                return False
            self._remember_document()
        self.lesson, self.path, self.index = lesson, path, 0
        self.lesson_title.setText(lesson.title)
        listed = self.shipped.findData(str(path))
        if listed >= 0:
            self.shipped.setCurrentIndex(listed)
        self.lesson_changed.emit(lesson)
        self._show_step()
        return True

    def _remember_document(self) -> None:
        document = self.document
        self._previous = _Previous(document.scenario, document.path, document.is_modified)
        self._overlays_before = {
            name: action.isChecked()
            for name, action in self._overlay_actions.items()
            if name in OVERLAY_NAMES
        }

    def next(self) -> None:
        if self.lesson is not None and self.index + 1 < len(self.lesson.steps):
            self.index += 1
            self._show_step()

    def back(self) -> None:
        if self.lesson is not None and self.index > 0:
            self.index -= 1
            self._show_step()

    def leave(self) -> None:
        """Close the lesson; offer to go back to the document that was open before it."""
        previous = self._previous
        if previous is not None:
            name = previous.path.name if previous.path else (previous.scenario.title or "Untitled")
            if self._confirm("Leave the lesson", f"Go back to the document you had open ({name})?"):
                self.document.load(previous.scenario, previous.path, modified=previous.modified)
            for overlay, checked in (self._overlays_before or {}).items():
                self._overlay_actions[overlay].setChecked(checked)
        self._previous = None
        self._overlays_before = None
        self.lesson, self.path, self.index = None, None, 0
        self.lesson_changed.emit(None)
        self._show_step()

    @property
    def step(self) -> LessonStep | None:
        return self.lesson.steps[self.index] if self.lesson is not None else None

    def _show_step(self, *, load_board: bool = True) -> None:
        lesson, step = self.lesson, self.step
        playing = lesson is not None and step is not None
        self.back_button.setEnabled(playing and self.index > 0)
        self.next_button.setEnabled(
            playing and lesson is not None and self.index + 1 < len(lesson.steps)
        )
        self.leave_button.setEnabled(playing or self._previous is not None)
        self._clear_question()
        if lesson is None or step is None:
            self.heading.setText("No lesson open")
            self.step_label.setText("")
            self.text.setPlainText("Choose a lesson above, or record the board as a step below.")
            self.question_box.hide()
            return
        self.heading.setText(lesson.title)
        self.step_label.setText(f"Step {self.index + 1} of {len(lesson.steps)}: {step.title}")
        self.text.setMarkdown(step.text)
        if load_board:
            self.document.load(board_at(lesson, self.index), None)
        unknown = [name for name in step.overlays if name not in OVERLAY_NAMES]
        for name in OVERLAY_NAMES:
            if name in self._overlay_actions:
                self._overlay_actions[name].setChecked(name in step.overlays)
        if unknown:
            self.text.append(f"\n(This Warplan has no overlay named {', '.join(unknown)}.)")
        self._select_ids(set(step.select))
        self._fill_editor(step)
        question = step.question
        self.question_box.setVisible(question is not None)
        if question is None:
            return
        self.prompt.setText(question.prompt)
        for choice in question.choices:
            button = QRadioButton(choice)
            self.choice_group.addButton(button)
            self.choices_row.addWidget(button)

    def _fill_editor(self, step: LessonStep) -> None:
        self.step_title.setText(step.title)
        self.step_text.setPlainText(step.text)
        for name, check in self.overlay_checks.items():
            check.setChecked(name in step.overlays)
        kind = step.question.ask.get("kind", "") if step.question is not None else ""
        self.question_kind.setCurrentIndex(max(self.question_kind.findData(kind), 0))
        self._refresh_question_keys()
        if step.question is not None:
            self.question_prompt.setText(step.question.prompt)
            for key, box in self.key_boxes.items():
                found = box.findData(step.question.ask.get(key, ""))
                if found >= 0:
                    box.setCurrentIndex(found)
        else:
            self.question_prompt.setText("")

    def _clear_question(self) -> None:
        for button in self.choice_group.buttons():
            self.choice_group.removeButton(button)
            self.choices_row.removeWidget(button)
            button.hide()
            button.deleteLater()
        self.feedback.setText("")
        self.explanation.clear()
        self.explanation.hide()

    def choose(self, choice: str) -> None:
        """Pick ``choice`` among the question's buttons (as a click does)."""
        for button in self.choice_group.buttons():
            if button.text() == choice:
                button.setChecked(True)

    def chosen(self) -> str | None:
        button = self.choice_group.checkedButton()
        return button.text() if button is not None else None

    def _engine_answer(self) -> tuple[str, str] | None:
        step = self.step
        if self.lesson is None or step is None or step.question is None:
            return None
        try:
            result = answer(step, self.document.scenario)
        except WarplanError as error:
            self.feedback.setText(f"The engine cannot answer on this board: {error}")
            return None
        return result.choice, result.explanation_text

    def check(self) -> bool | None:
        """Say whether the chosen answer is the engine's (on the board as it now stands)."""
        chosen = self.chosen()
        if chosen is None:
            self.feedback.setText("Choose an answer first.")
            return None
        found = self._engine_answer()
        if found is None:
            return None
        right = chosen == found[0]
        self.feedback.setText("Right." if right else "Not quite: try again, or Reveal.")
        return right

    def reveal(self) -> None:
        """Show the engine's answer and its explanation."""
        found = self._engine_answer()
        if found is None:
            return
        choice, explanation = found
        self.feedback.setText(f"The engine's answer: {choice}")
        self.explanation.setPlainText(explanation)
        self.explanation.show()
