"""Chapter Approved 2026-27's app part: the Mission dock, one Secondary Missions dock per
player, Turn & Ledger, the Score chart, and the New game page of the mission generator.

The Mission, Turn & Ledger and Score chart docks follow every rule system's game (a turn is a
turn); for another rule system's game they show what its own app part says
(:class:`gui.plugin_api.RulesetUI`). Everything they change is an undoable edit of the
scenario's ``game`` section (and, for a new game, its deployment, objectives and options), so
undo/redo, save and reopen cover the decks, the turn and the ledger. The edits themselves (the
turn tracker's steps, the deck moves, the ledger, the chart's data) are the engine's
(:mod:`engine.rulesets.wh40k_ca2026.edits`), and so are what a WHEN DRAWN selection may pick
(:func:`engine.rulesets.wh40k_ca2026.decks.selection_choices`), the scores at the battle
round's other moments (:mod:`engine.rulesets.wh40k_ca2026.moments`) and the objectives a
deployment variant places
(:func:`engine.rulesets.wh40k_ca2026.generator.with_deployment_variant`); the docks show them and
apply their results.

Choices made where the rules are silent:

- Here: dock object names are by player slot (``SecondaryDockPlayer1``/``2``), not by player
  id, so a saved layout fits every scenario; each dock's title names its player.
- In the engine (the module docs of :mod:`engine.rulesets.wh40k_ca2026.edits` and
  ``docs/rules-decisions.md``): a new Tactical deck's seed is the set-up's seed times two plus
  the player's slot; the game's ``start_of_turn`` is the decks' "start of your Command phase";
  the VP/CP ledger is each player's deck log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtWidgets import QDockWidget

from engine.model import Scenario
from gui.plugin_api import AppHost, DockPlace, NewGamePageSpec, RulesetUI
from gui.rulesets.wh40k_ca2026.context import RULESET, MissionContext
from gui.rulesets.wh40k_ca2026.mission_panel import MissionPanel
from gui.rulesets.wh40k_ca2026.new_game import TITLE, Wh40kNewGamePage
from gui.rulesets.wh40k_ca2026.score_chart import ScoreChartPanel
from gui.rulesets.wh40k_ca2026.secondary_panel import SecondaryPanel
from gui.rulesets.wh40k_ca2026.turn_panel import TurnLedgerPanel

DOCK_NAMES = (
    "MissionDock",
    "SecondaryDockPlayer1",
    "SecondaryDockPlayer2",
    "TurnLedgerDock",
    "ScoreChartDock",
)
"""The mission docks' object names (the window's saved layout refers to them)."""


@dataclass
class MissionDocks:
    """The installed docks and their shared context."""

    context: MissionContext
    mission: MissionPanel
    secondaries: tuple[SecondaryPanel, SecondaryPanel]
    turn: TurnLedgerPanel
    chart: ScoreChartPanel
    docks: dict[str, QDockWidget] = field(default_factory=dict)

    def retitle(self, scenario: Scenario) -> None:
        for slot, player in enumerate(scenario.players):
            title = f"Secondary Missions: {player.name or player.id}"
            self.docks[DOCK_NAMES[1 + slot]].setWindowTitle(title)


def install(host: AppHost) -> MissionDocks:
    """Add the mission docks and the Chapter Approved New game page to ``host``."""
    context = MissionContext(host.document, host.live, host.ruleset_ui)
    mission = MissionPanel(context)
    secondaries = (SecondaryPanel(context, 0), SecondaryPanel(context, 1))
    turn = TurnLedgerPanel(context)
    chart = ScoreChartPanel(context)
    installed = MissionDocks(context, mission, secondaries, turn, chart)
    docks = installed.docks
    docks[DOCK_NAMES[0]] = host.add_dock(mission, "Mission", DOCK_NAMES[0], DockPlace.EXPLANATIONS)
    for slot, panel in enumerate(secondaries):
        docks[DOCK_NAMES[1 + slot]] = host.add_dock(
            panel, f"Secondary Missions {slot + 1}", DOCK_NAMES[1 + slot], DockPlace.GAME
        )
    docks[DOCK_NAMES[3]] = host.add_dock(
        turn, "Turn and ledger", DOCK_NAMES[3], DockPlace.GAME, in_front=True
    )
    docks[DOCK_NAMES[4]] = host.add_dock(chart, "Score chart", DOCK_NAMES[4], DockPlace.GAME)
    for requester in (mission, *secondaries, turn):
        requester.new_game_requested.connect(host.new_game_here)
    context.message.connect(host.show_message)
    context.refreshed.connect(installed.retitle)
    installed.retitle(host.document.scenario)
    host.add_new_game_page(NewGamePageSpec(RULESET, TITLE, Wh40kNewGamePage))
    return installed


UI = RulesetUI(RULESET, TITLE, install)

__all__ = ["DOCK_NAMES", "UI", "MissionDocks", "install"]
