"""A pyqtgraph plot built the first time it is on screen or read.

Importing pyqtgraph and building its plots cost about a quarter of a second of start-up, for
charts that sit in docks behind other tabs (the Score chart, the Scrollhammer odds); the window's
first frame must come within 1.5 s. A :class:`LazyPlot` keeps what its chart should draw (a
function that draws it from scratch) and draws it once the plot exists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

if TYPE_CHECKING:
    from pyqtgraph import PlotWidget

Draw = Callable[["PlotWidget"], object]
"""Draws a chart on an empty plot."""


class LazyPlot(QWidget):
    """Where a white pyqtgraph plot goes; ``configure`` sets it up once it is built (axes,
    labels, legend), :meth:`draw_with` says what to draw on it."""

    def __init__(
        self, object_name: str, configure: Callable[[PlotWidget], object], min_height: int
    ) -> None:
        super().__init__()
        self.setMinimumHeight(min_height)
        self._object_name = object_name
        self._configure = configure
        self._plot: PlotWidget | None = None
        self._draw: Draw | None = None
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)

    @property
    def built(self) -> bool:
        return self._plot is not None

    def draw_with(self, draw: Draw | None) -> None:
        """Show what ``draw`` draws (nothing for None): at once if the plot is built, else
        when it is."""
        self._draw = draw
        if self._plot is not None:
            self._redraw(self._plot)

    def plot(self) -> PlotWidget:
        """The plot, built (and drawn) now if it was not yet."""
        if self._plot is None:
            import pyqtgraph as pg

            plot = pg.PlotWidget(background="w")
            plot.setObjectName(self._object_name)
            plot.setMouseEnabled(x=False, y=False)
            plot.hideButtons()
            self._configure(plot)
            self._layout.addWidget(plot)
            self._plot = plot
            self._redraw(plot)
        return self._plot

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt API)
        # Painted means on screen: a dock behind another tab counts as shown but is never
        # painted. The plot is added once this paint is over.
        if self._plot is None:
            QTimer.singleShot(0, self.plot)
        super().paintEvent(event)

    def _redraw(self, plot: PlotWidget) -> None:
        plot.clear()
        if self._draw is not None:
            self._draw(plot)
