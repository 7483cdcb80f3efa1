"""The document as a dock's panels see it: one ``refreshed`` report shortly after a burst of
changes (a drag step, an undo) instead of one per change, and a ``message`` for the status bar.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from engine.model import Scenario
from gui.document import Change, ScenarioDocument


class PanelContext(QObject):
    """Reports the document's scenario ``delay_ms`` after its last change, and at once after
    the whole document is replaced (a file opened), when waiting would show the old file."""

    refreshed = Signal(object)
    """Emitted with the scenario once the panels should show it."""
    message = Signal(str)
    """A sentence for the status bar: what was done, or why a move was refused."""

    def __init__(self, document: ScenarioDocument, delay_ms: int) -> None:
        # A child of the document, so a refresh still pending when the window (and with it
        # the document) is deleted dies with them instead of reaching deleted docks.
        super().__init__(document)
        self.document = document
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self.refresh_now)
        document.changed.connect(self._on_changed)
        document.replaced.connect(lambda _s: self.refresh_now())

    @property
    def scenario(self) -> Scenario:
        return self.document.scenario

    def _on_changed(self, _change: Change) -> None:
        self._timer.start()

    def refresh_now(self) -> None:
        self._timer.stop()
        self.refreshed.emit(self.document.scenario)
