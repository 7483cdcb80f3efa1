"""Presenting a ruling: presentation mode (full screen, docks hidden, large labels, the ruling
large over a corner of the board) and the palette the board and the window are drawn in.

The window installs one :class:`Presentation`; it hides and restores docks and toolbars it
finds, never naming them.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QSettings, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QDockWidget, QLabel, QMainWindow, QToolBar, QWidget

from gui import theme
from gui.overlays.controller import OverlayController
from gui.view import BattlefieldView

PALETTE_SETTING = "view/palette"
RULING_WIDTH_SHARE = 0.3
"""How much of the view's width the ruling takes in presentation mode (the board the rest)."""
MARGIN = 12


def window_palette(palette: theme.Palette) -> QPalette:
    """The Qt palette of the window for ``palette`` (the style's own unless it is dark)."""
    app = QApplication.instance()
    style = app.style() if isinstance(app, QApplication) else None
    if not palette.dark_window:
        return style.standardPalette() if style is not None else QPalette()
    dark = QPalette()
    for role, colour in theme.DARK_WINDOW.items():
        dark.setColor(QPalette.ColorRole[role], QColor(colour))
    for role in ("WindowText", "Text"):
        dark.setColor(
            QPalette.ColorGroup.Disabled, QPalette.ColorRole[role], QColor(theme.DARK_DISABLED_TEXT)
        )
    return dark


class RulingBoard(QLabel):
    """The ruling in large type over the board's top-right corner."""

    def __init__(self, view: BattlefieldView) -> None:
        super().__init__(view.viewport())
        self.setObjectName("PresentationRuling")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setMargin(14)
        font = QFont(self.font())
        font.setPointSizeF(15)
        self.setFont(font)
        self._view = view
        self.hide()
        view.viewport().installEventFilter(self)

    def show_text(self, text: str) -> None:
        self.setText(text.strip())
        self.restyle()
        self.place()

    def restyle(self) -> None:
        palette = theme.current()
        background = palette.colour("annotation_background", 232)
        self.setStyleSheet(
            f"QLabel#PresentationRuling {{ color: {palette.annotation}; "
            f"background: rgba({background.red()}, {background.green()}, {background.blue()}, "
            f"{background.alpha()}); border: 1px solid {palette.annotation}; "
            "border-radius: 6px; }"
        )

    def reserved_width(self) -> int:
        """The pixels the ruling takes from the right of the board (with its margins)."""
        return self._width() + 2 * MARGIN

    def _width(self) -> int:
        return max(280, int(self._view.viewport().width() * RULING_WIDTH_SHARE))

    def place(self) -> None:
        viewport = self._view.viewport()
        width = self._width()
        height = min(self.heightForWidth(width), viewport.height() - 2 * MARGIN)
        self.setGeometry(viewport.width() - width - MARGIN, MARGIN, width, max(height, 40))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize and self.isVisible():
            self.place()
        return False


class Presentation:
    """Presentation mode and the palette of one main window."""

    def __init__(
        self,
        window: QMainWindow,
        view: BattlefieldView,
        overlays: OverlayController,
        settings: QSettings,
        ruling_text: Callable[[], str],
    ) -> None:
        self.window = window
        self.view = view
        self.scene = view.battlefield_scene
        self.overlays = overlays
        self.settings = settings
        self.ruling_text = ruling_text
        self.ruling_board = RulingBoard(view)
        self.active = False
        self._hidden: list[QWidget] = []
        self._was_maximised = False
        self._status_shown = True
        self._menu_shown = True
        self._window_restyled = False
        """Whether the window's Qt palette is one :func:`window_palette` set (dark)."""
        saved = settings.value(PALETTE_SETTING, theme.DEFAULT.id)
        self.use_palette(saved if isinstance(saved, str) else theme.DEFAULT.id, remember=False)

    # ------------------------------------------------------------------ palette

    def use_palette(self, palette_id: str, *, remember: bool = True) -> theme.Palette:
        """Draw the board and the window in ``palette_id``; remembered in the settings."""
        already_drawn = theme.current().id == palette_id
        palette = theme.use(palette_id)
        app = QApplication.instance()
        if isinstance(app, QApplication) and (palette.dark_window or self._window_restyled):
            app.setPalette(window_palette(palette))
            self._window_restyled = palette.dark_window
        if not already_drawn:
            self.scene.apply_palette()
            self.overlays.apply_palette()
            self.scene.invalidate(self.scene.sceneRect())
            self.view.resetCachedContent()
            self.view.viewport().update()
            self.ruling_board.restyle()
        if remember:
            self.settings.setValue(PALETTE_SETTING, palette.id)
        return palette

    # ------------------------------------------------------------------ presentation mode

    def set_active(self, active: bool) -> None:
        if active == self.active:
            return
        if active:
            self._enter()
        else:
            self._leave()

    def _enter(self) -> None:
        window = self.window
        self.active = True
        self._was_maximised = window.isMaximized()
        self._hidden = [
            widget
            for widget in window.findChildren(QDockWidget) + window.findChildren(QToolBar)
            if widget.isVisible() and widget.parent() is window
        ]
        for widget in self._hidden:
            widget.hide()
        self._status_shown = window.statusBar().isVisible()
        window.statusBar().hide()
        self._menu_shown = window.menuBar().isVisible()
        window.menuBar().hide()
        self.scene.set_label_scale(theme.PRESENTATION_LABEL_SCALE)
        self.refresh_ruling()
        self.ruling_board.show()
        if QGuiApplication.platformName() != "offscreen":
            window.showFullScreen()
        QApplication.processEvents()
        self.view.reserved_right = self.ruling_board.reserved_width()
        self.view.fit_battlefield()

    def _leave(self) -> None:
        window = self.window
        self.active = False
        self.ruling_board.hide()
        self.view.reserved_right = 0
        self.scene.set_label_scale(1.0)
        if window.isFullScreen():
            if self._was_maximised:
                window.showMaximized()
            else:
                window.showNormal()
        for widget in self._hidden:
            widget.show()
        self._hidden = []
        window.statusBar().setVisible(self._status_shown)
        window.menuBar().setVisible(self._menu_shown)
        self.view.fit_battlefield()

    def refresh_ruling(self) -> None:
        """Show the current ruling (the window calls this whenever the ruling changes)."""
        if self.active:
            self.ruling_board.show_text(self.ruling_text())

    def hidden_widgets(self) -> list[QWidget]:
        """What presentation mode hid and will show again on leaving."""
        return list(self._hidden)
