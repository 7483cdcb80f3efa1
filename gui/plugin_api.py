"""The plug-in API: what a rule system's app part is, and what the main window offers it.

Each rule system's app part is one package, ``gui/rulesets/<id>/``, exporting one
:class:`RulesetUI`. The main window knows none of them by name: the registry
(:mod:`gui.rulesets`) installs each through the window's plug-in API, :class:`AppHost`
(napari's ``add_dock_widget`` idea): add a dock (with its place in the first-start layout and,
optionally, the one ruleset it belongs to), add a board overlay's toggle, extend the ruling,
add a New game page. What belongs to one rule system says so when it registers (``ruleset=``
on a dock, an overlay's toggle, a ruling contributor, a pipeline analysis); the window and the
pipeline then offer, ask and run it for that system's games only, so a plug-in never compares
ruleset ids itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QWidget

from engine.model import Battlefield, Scenario

if TYPE_CHECKING:
    from engine.edits import Selection
    from gui.document import ScenarioDocument
    from gui.live import LiveRules
    from gui.scene import BattlefieldScene


class DockPlace(Enum):
    """Where a dock goes in the first-start layout (docks of one place share a tab group)."""

    TOOLS = "tools"
    """The left column: editing tools (Palette, Inspector)."""
    EXPLANATIONS = "explanations"
    """The right column, above: the ruling and the rule systems' panels."""
    GAME = "game"
    """The right column, below: per-player decks, the turn tracker, the score chart."""

    @property
    def area(self) -> Qt.DockWidgetArea:
        if self is DockPlace.TOOLS:
            return Qt.DockWidgetArea.LeftDockWidgetArea
        return Qt.DockWidgetArea.RightDockWidgetArea


RulingContributor = Callable[[Scenario, "Selection"], str]
"""More ruling text for the selection (plain text; "" when it has nothing to add)."""


class NewGamePage(Protocol):
    """One rule system's page of the New game dialog (a ``QWidget``)."""

    changed: object
    """A signal emitted when a choice on the page changes (the dialog re-previews)."""

    def build(self, base: Scenario, seed: int) -> Scenario:
        """The new game on ``base`` (raises the engine's error when the choices cannot be)."""

    def describe(self, scenario: Scenario) -> str:
        """One paragraph (HTML) saying what a set-up built by :meth:`build` gives."""


@dataclass(frozen=True)
class NewGamePageSpec:
    """A New game page a rule system contributes."""

    ruleset: str
    title: str
    make: Callable[[Scenario], QWidget]
    """Builds the page (a :class:`NewGamePage` widget) for the players of a scenario."""
    new_table: Battlefield | None = None
    """The table a new document of this rule system starts on (None: the default table)."""


class AppHost(Protocol):
    """The main window as a plug-in sees it."""

    document: ScenarioDocument
    scene: BattlefieldScene
    live: LiveRules

    def add_dock(
        self,
        widget: QWidget,
        title: str,
        object_name: str,
        place: DockPlace,
        *,
        ruleset: str | None = None,
        in_front: bool = False,
    ) -> QDockWidget:
        """A dock with a stable ``object_name``; ``ruleset``: shown only for that rule system;
        ``in_front``: the visible tab of its place in the first-start layout."""

    def add_overlay(
        self,
        name: str,
        label: str,
        tip: str,
        toggled: Callable[[bool], object],
        *,
        ruleset: str | None = None,
    ) -> QAction:
        """A View menu and toolbar toggle for the plug-in's board marks; with ``ruleset``,
        offered only while the scenario uses that ruleset."""

    def extend_ruling(self, contributor: RulingContributor, *, ruleset: str | None = None) -> None:
        """Append ``contributor``'s text to the Ruling dock's (refreshed with it); with
        ``ruleset``, asked only while the scenario uses that ruleset."""

    def add_new_game_page(self, page: NewGamePageSpec) -> None:
        """Offer ``page`` in the New game dialog."""

    def new_game_here(self) -> bool:
        """The New game dialog on the open battlefield (one undoable edit)."""

    def show_message(self, text: str) -> None:
        """A sentence in the status bar."""

    def ruleset_ui(self, ruleset: str) -> RulesetUI | None:
        """The installed app part of ``ruleset`` (None for a rule system without one)."""


@dataclass(frozen=True)
class RulesetUI:
    """One rule system's app part, as the registry knows it."""

    ruleset: str
    title: str
    install: Callable[[AppHost], object]
    """Adds the rule system's docks, overlays, ruling and New game page; returns what it built
    (the window keeps it, by ruleset id, for tests and tools)."""
    mission_summary: Callable[[Scenario], tuple[str, str]] | None = None
    """For the Mission dock of a rule system without mission cards: (summary line, text), HTML."""
    chart_caption: Callable[[Scenario], str] | None = None
    """For the score chart of a rule system that does not score by battle round."""


RulesetLookup = Callable[[str], RulesetUI | None]
