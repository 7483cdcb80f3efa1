"""The comparison window: two boards side by side at true scale, read-only, with the
differences the engine finds between them (:func:`engine.compare.compare`) listed beside them
and outlined on both boards; Export writes the whole comparison as a PNG.

The comparison runs on a worker thread (line of sight over two whole boards takes a moment);
the boards show at once, the list when it is ready, the hidden areas (the slowest part) last.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, QRectF, QRunnable, QSize, Qt, QThreadPool, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QFileDialog,
    QGraphicsPathItem,
    QHBoxLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from engine.compare import Comparison, compare, hidden_changes
from engine.errors import WarplanError
from engine.model import Scenario
from engine.snapshots import snapshot
from gui.document import ScenarioDocument
from gui.live import LiveRules
from gui.overlays.controller import OverlayController
from gui.scene import BattlefieldScene
from gui.view import BattlefieldView

DIFFERENCE_COLOUR = QColor("#e6007e")
"""The outline of what differs (the ruling dock's highlight colour)."""
IDS_ROLE = Qt.ItemDataRole.UserRole
EXPORT_WIDTH = 2400
LIST_WIDTH = 460
"""The differences list's first width (pixels): long lines wrap within it."""
PAD = 24.0


def boards_to_compare(
    scenario: Scenario, first: str, second: str | None
) -> tuple[Scenario, Scenario, str, str]:
    """The boards of snapshots ``first`` and ``second`` of ``scenario`` (``None``: the live
    board) and their labels."""
    a = snapshot(scenario, first)
    if second is None:
        return a.board, scenario, a.name, "The board now"
    b = snapshot(scenario, second)
    return a.board, b.board, a.name, b.name


class _Signals(QObject):
    done = Signal(object)
    finished = Signal()


class _CompareJob(QRunnable):
    def __init__(self, a: Scenario, b: Scenario, labels: tuple[str, str], signals: _Signals):
        super().__init__()
        self._a, self._b, self._labels, self._signals = a, b, labels, signals
        self.setAutoDelete(True)

    def run(self) -> None:
        """The comparison without the hidden areas first (they take the longest), then with
        them; a failure is reported as its message."""
        try:
            first = compare(self._a, self._b, *self._labels, hidden=False)
            self._signals.done.emit(first)
            if self._a != self._b:
                found, notes = hidden_changes(self._a, self._b)
                first = replace(first, hidden=found, notes=notes)
            self._signals.done.emit(first)
            self._signals.finished.emit()
        except WarplanError as refusal:
            self._signals.done.emit(str(refusal))
        except Exception as failure:  # noqa: BLE001 - reported in the window, never a crash
            self._signals.done.emit(f"{type(failure).__name__}: {failure}")


class ComparedBoard(QWidget):
    """One board of the comparison: its title and a read-only view of it, with its own
    document, rules and overlays (objective control, engagement), and the differences
    outlined."""

    def __init__(self, scenario: Scenario, title: str) -> None:
        super().__init__()
        self.title = title
        self.document = ScenarioDocument(scenario, parent=self)
        self.scene = BattlefieldScene(self.document)
        self.scene.interactive = False
        self.live = LiveRules(self.document, parent=self)
        self.overlays = OverlayController(self.scene, self.live)
        self.overlays.refresh_all()
        self.view = BattlefieldView(self.scene)
        self.view.setInteractive(False)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setMinimumSize(QSize(320, 240))
        self.outline = QGraphicsPathItem()
        pen = QPen(DIFFERENCE_COLOUR, 3.0)
        pen.setCosmetic(True)
        self.outline.setPen(pen)
        self.outline.setZValue(10_000)
        self.scene.addItem(self.outline)
        heading = QLabel(title)
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(heading)
        layout.addWidget(self.view, 1)

    def outline_ids(self, ids: tuple[str, ...]) -> None:
        """Outline the models of the units among ``ids`` and the markers of its objectives."""
        scenario = self.document.scenario
        path = QPainterPath()
        units = {u.id: u for u in scenario.units}
        for ident in ids:
            unit = units.get(ident)
            for model in unit.models if unit is not None else ():
                item = self.scene.models.get(model.id)
                if item is not None:
                    path.addPath(item.mapToScene(item.shape()))
            marker = self.scene.objectives.get(ident)
            if marker is not None:
                path.addPath(marker.mapToScene(marker.shape()))
        self.outline.setPath(path)

    def showEvent(self, event: object) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)  # type: ignore[arg-type]
        self.view.fit_battlefield()

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.view.fit_battlefield()


class ComparisonWindow(QWidget):
    """Two boards side by side and the differences between them."""

    ready = Signal(object)
    """Emitted with the whole :class:`Comparison`, hidden areas included, once the engine has
    worked it out (the list shows the rest before)."""

    def __init__(
        self,
        a: Scenario,
        b: Scenario,
        a_label: str,
        b_label: str,
        parent: QWidget | None = None,
        thread_pool: QThreadPool | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("ComparisonWindow")
        self.setWindowTitle(f"Compare: {a_label} and {b_label}")
        self.boards = (ComparedBoard(a, a_label), ComparedBoard(b, b_label))
        self.comparison: Comparison | None = None
        self.error = ""
        self.differences = QListWidget()
        self.differences.setObjectName("comparison-differences")
        self.differences.setWordWrap(True)
        self.differences.setResizeMode(QListView.ResizeMode.Adjust)
        self.differences.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.differences.itemSelectionChanged.connect(self._outline_chosen)
        self.summary = QLabel("Working out the differences…")
        self.summary.setObjectName("comparison-summary")
        self.summary.setWordWrap(True)
        self.export_button = QPushButton("Export PNG…")
        self.export_button.setObjectName("comparison-export")
        self.export_button.setEnabled(False)
        self.export_button.clicked.connect(lambda _checked=False: self.export_dialog())
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.summary)
        side_layout.addWidget(self.differences, 1)
        side_layout.addWidget(self.export_button)
        boards = QWidget()
        boards_layout = QHBoxLayout(boards)
        boards_layout.setContentsMargins(0, 0, 0, 0)
        for board in self.boards:
            boards_layout.addWidget(board, 1)
        splitter = QSplitter()
        splitter.addWidget(boards)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 0)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        self.resize(1700, 760)
        splitter.setSizes([1700 - LIST_WIDTH, LIST_WIDTH])
        self.complete = False
        """Whether the hidden areas are in :attr:`comparison` too (they come last)."""
        self._signals = _Signals(self)
        self._signals.done.connect(self._show)
        self._signals.finished.connect(self._finish)
        (thread_pool or QThreadPool.globalInstance()).start(
            _CompareJob(a, b, (a_label, b_label), self._signals)
        )

    def _finish(self) -> None:
        self.complete = True
        if self.comparison is not None:
            self.summary.setText(self._summary(self.comparison))
            self.ready.emit(self.comparison)

    def _summary(self, result: Comparison) -> str:
        pending = "" if self.complete else " Working out the hidden areas…"
        if result.empty:
            return result.text() + ("." if self.complete else " so far." + pending)
        return (
            f"What differs between {result.a_label} and {result.b_label}. Outlined on both "
            "boards: the units that moved and the objectives that change hands; choose a line "
            f"to outline what it is about.{pending}"
        )

    def _show(self, result: Comparison | str) -> None:
        if isinstance(result, str):
            self.error = result
            self.summary.setText(f"The boards cannot be compared: {result}")
            return
        self.comparison = result
        self.differences.clear()
        self.summary.setText(self._summary(result))
        for section in result.sections():
            verdict = QListWidgetItem(section.verdict)
            verdict.setData(IDS_ROLE, section.ids)
            font = QFont(verdict.font())
            font.setBold(True)
            verdict.setFont(font)
            self.differences.addItem(verdict)
            for line in section.lines:
                item = QListWidgetItem(f"• {line.text}")
                item.setData(IDS_ROLE, line.ids)
                item.setToolTip(line.text)
                self.differences.addItem(item)
        self.export_button.setEnabled(True)
        self._outline(self._main_ids())

    def _main_ids(self) -> tuple[str, ...]:
        """What the boards outline while no line is chosen: the units that moved or stand on
        one board only, and the objectives that change hands (a chosen line outlines the
        units it is about, those whose sight or threat changed included)."""
        if self.comparison is None:
            return ()
        result = self.comparison
        return (
            *(m.unit for m in result.moved),
            *result.only_in_a,
            *result.only_in_b,
            *result.objective_ids(),
        )

    def _outline(self, ids: tuple[str, ...]) -> None:
        for board in self.boards:
            board.outline_ids(ids)

    def _outline_chosen(self) -> None:
        chosen = self.differences.selectedItems()
        if not chosen:
            self._outline(self._main_ids())
            return
        self._outline(tuple(chosen[0].data(IDS_ROLE) or ()))

    def difference_lines(self) -> list[str]:
        """Every line listed, each section's verdict followed by its lines."""
        rows = (self.differences.item(i) for i in range(self.differences.count()))
        return [row.text().removeprefix("• ") for row in rows if row is not None]

    # ------------------------------------------------------------------ export

    def export_dialog(self) -> None:
        name, _filter = QFileDialog.getSaveFileName(
            self, "Export the comparison", "comparison.png", "PNG image (*.png)"
        )
        if name:
            self.export_png(Path(name))

    def export_png(self, path: Path, width: int = EXPORT_WIDTH) -> Path:
        """Write both boards side by side, their titles above and the differences below,
        to ``path`` (a PNG)."""
        if path.suffix.lower() != ".png":
            raise WarplanError(f"{path.name}: choose a .png file name")
        text = self.comparison.text() if self.comparison is not None else self.summary.text()
        title_font = QFont()
        title_font.setPointSizeF(16)
        title_font.setBold(True)
        text_font = QFont()
        text_font.setPointSizeF(9.5)
        board_width = (width - 3 * PAD) / 2
        boards = [b.scene.board_rect() for b in self.boards]
        board_height = max(board_width * r.height() / r.width() for r in boards)
        title_height = QFontMetricsF(title_font).height()
        inner = QRectF(0, 0, width - 2 * PAD, 100_000)
        text_height = (
            QFontMetricsF(text_font).boundingRect(inner, Qt.TextFlag.TextWordWrap, text).height()
        )
        height = int(PAD + title_height + PAD / 2 + board_height + PAD + text_height + PAD)
        image = QImage(QSize(width, height), QImage.Format.Format_ARGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        painter.setPen(QColor("#111111"))
        for i, (board, rect) in enumerate(zip(self.boards, boards, strict=True)):
            left = PAD + i * (board_width + PAD)
            painter.setFont(title_font)
            painter.drawText(QRectF(left, PAD, board_width, title_height), board.title)
            target = QRectF(left, PAD + title_height + PAD / 2, board_width, board_height)
            for item in board.scene.selectedItems():
                item.setSelected(False)
            board.scene.render(painter, target, rect, Qt.AspectRatioMode.KeepAspectRatio)
        painter.setFont(text_font)
        painter.setPen(QColor("#111111"))
        top = PAD + title_height + PAD / 2 + board_height + PAD
        painter.drawText(
            QRectF(PAD, top, width - 2 * PAD, text_height), Qt.TextFlag.TextWordWrap, text
        )
        painter.end()
        if not image.save(str(path)):
            raise WarplanError(f"{path}: cannot be written")
        return path


def comparison_window(
    scenario: Scenario, first: str, second: str | None, parent: QWidget | None = None
) -> ComparisonWindow:
    """The comparison of snapshots ``first`` and ``second`` of ``scenario`` (``None``: the
    live board)."""
    return ComparisonWindow(*boards_to_compare(scenario, first, second), parent=parent)
