"""The mission docks: Mission, one Secondary Missions dock per player, Turn & Ledger, Score chart.

``install_mission_docks(window)`` adds them to the main window through its ``add_dock`` (stable
object names, restored with the window's layout) and makes File > New open the New game dialog
for all three rulesets. Everything they change is an undoable edit of the scenario's ``game``
section (and, for a new game, its deployment, objectives and options), so undo/redo, save and
reopen cover the decks, the turn and the ledger.

Choices made where the rules are silent (also in the modules' docs):

- Dock object names are by player slot (``SecondaryDockPlayer1``/``2``), not by player id, so a
  saved layout fits every scenario; each dock's title names its player.
- A new Tactical deck's seed is the set-up's seed times two plus the player's slot.
- The game's ``start_of_turn`` is the decks' "start of your Command phase".
- The VP/CP ledger is each player's deck log (see ``game_state_edits``).
- Who deploys first under Scrollhammer and the Shared Scenario Modules is chosen or rolled off;
  under the Shared Scenario Modules that player also takes the first turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDialog, QDockWidget, QWidget

from engine.errors import WarplanError
from engine.model import EMPTY, Scenario, thaw
from gui.missions.context import MissionContext
from gui.missions.mission_panel import MissionPanel
from gui.missions.new_game import NewGameDialog
from gui.missions.score_chart import ScoreChartPanel
from gui.missions.secondary_panel import SecondaryPanel, ask_yes_no
from gui.missions.setups import SCROLLHAMMER_BATTLEFIELD
from gui.missions.turn_panel import TurnLedgerPanel

if TYPE_CHECKING:
    from gui.main_window import MainWindow

DOCK_NAMES = (
    "MissionDock",
    "SecondaryDockPlayer1",
    "SecondaryDockPlayer2",
    "TurnLedgerDock",
    "ScoreChartDock",
)
"""The mission docks' object names (the window's saved layout refers to them)."""

"""Pixels: the deck, turn and chart docks leave most of the window to the battlefield."""

RunDialog = Callable[[NewGameDialog], bool]


def run_dialog(dialog: NewGameDialog) -> bool:
    return dialog.exec() == QDialog.DialogCode.Accepted


@dataclass
class MissionDocks:
    """The installed docks and the New game flows."""

    window: MainWindow
    context: MissionContext
    mission: MissionPanel
    secondaries: tuple[SecondaryPanel, SecondaryPanel]
    turn: TurnLedgerPanel
    chart: ScoreChartPanel
    docks: dict[str, QDockWidget] = field(default_factory=dict)
    run_dialog: RunDialog = run_dialog
    confirm: Callable[[QWidget, str, str], bool] = ask_yes_no

    def new_game_here(self) -> bool:
        """New game on the open battlefield (units and terrain kept): one undoable edit, asked
        first when a game is in progress."""
        from engine.rulesets.wh40k_ca2026.generator import game_in_progress

        scenario = self.context.scenario
        dialog = NewGameDialog(scenario, self.window)
        if not self.run_dialog(dialog):
            return False
        if game_in_progress(thaw(scenario.game or EMPTY)) and not self.confirm(
            self.window,
            "Discard the game in progress?",
            "A new game resets both Secondary decks, the turn and the ledger. You can undo it.",
        ):
            return False
        return self.context.edit(dialog.build, f"New game ({dialog.chosen_ruleset()})")

    def new_document(self) -> bool:
        """File > New: the New game dialog on an empty table, as a new document."""
        from gui.main_window import blank_scenario

        if not self.window.files.confirm_discard():
            return False
        blank = blank_scenario()
        dialog = NewGameDialog(blank, self.window)
        if not self.run_dialog(dialog):
            return False
        if dialog.chosen_ruleset() == "scrollhammer":
            blank = replace(blank, battlefield=SCROLLHAMMER_BATTLEFIELD)
        try:
            scenario = dialog.build(blank)
        except WarplanError as error:
            self.window.show_error("Cannot set up this game", str(error))
            return False
        self.window.document.load(scenario, None)
        return True

    def _retitle(self, scenario: Scenario) -> None:
        for slot, player in enumerate(scenario.players):
            title = f"Secondary Missions: {player.name or player.id}"
            self.docks[DOCK_NAMES[1 + slot]].setWindowTitle(title)


def install_mission_docks(window: MainWindow) -> MissionDocks:
    """Add the mission docks to ``window`` and route File > New to the New game dialog."""
    context = MissionContext(window.document)
    mission = MissionPanel(context)
    secondaries = (SecondaryPanel(context, 0), SecondaryPanel(context, 1))
    turn = TurnLedgerPanel(context)
    chart = ScoreChartPanel(context)
    installed = MissionDocks(window, context, mission, secondaries, turn, chart)
    right = Qt.DockWidgetArea.RightDockWidgetArea
    bottom = Qt.DockWidgetArea.BottomDockWidgetArea
    installed.docks[DOCK_NAMES[0]] = window.add_dock(mission, "Mission", DOCK_NAMES[0], right)
    for slot, panel in enumerate(secondaries):
        installed.docks[DOCK_NAMES[1 + slot]] = window.add_dock(
            panel, f"Secondary Missions {slot + 1}", DOCK_NAMES[1 + slot], bottom
        )
    installed.docks[DOCK_NAMES[3]] = window.add_dock(turn, "Turn and ledger", DOCK_NAMES[3], bottom)
    installed.docks[DOCK_NAMES[4]] = window.add_dock(chart, "Score chart", DOCK_NAMES[4], bottom)
    window.tabifyDockWidget(window.docks["RulingDock"], installed.docks[DOCK_NAMES[0]])
    # The Ruling stays in front (the battlefield's "why"); the Mission is its neighbour tab.
    QTimer.singleShot(0, window.docks["RulingDock"].raise_)
    for requester in (mission, *secondaries, turn):
        requester.new_game_requested.connect(installed.new_game_here)
    context.message.connect(lambda text: window.statusBar().showMessage(text, 8_000))
    context.refreshed.connect(installed._retitle)
    installed._retitle(window.document.scenario)
    window.action_new.triggered.disconnect()
    window.action_new.triggered.connect(lambda _checked=False: installed.new_document())
    return installed


__all__ = ["DOCK_NAMES", "MissionDocks", "install_mission_docks"]
