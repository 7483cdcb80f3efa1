"""The Scrollhammer page of the New game dialog: a Standard Mission chosen or rolled, table
halves, who deploys first, Seize the Initiative."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QWidget

from engine.model import Scenario
from engine.rulesets import other_systems_options
from engine.rulesets.scrollhammer import standard_mission, standard_missions
from engine.rulesets.scrollhammer.setup import new_game

TITLE = "Scrollhammer Standard Missions"


class ScrollhammerNewGamePage(QWidget):
    changed = Signal()

    def __init__(self, scenario: Scenario) -> None:
        super().__init__()
        form = QFormLayout(self)
        self.mission = QComboBox()
        self.mission.addItem("Roll on the D6 chart (seeded)", None)
        for mission in standard_missions():
            self.mission.addItem(mission.title, mission.id)
        self.halves = QComboBox()
        for text, data in (
            ("The mission's", None),
            ("Long-edge halves", "long-edge"),
            ("Diagonal", "diagonal"),
        ):
            self.halves.addItem(text, data)
        self.deploys_first = QComboBox()
        self.deploys_first.addItem("Roll-off (seeded)", None)
        for player in scenario.players:
            self.deploys_first.addItem(player.name or player.id, player.id)
        self.seize = QCheckBox("The player deploying second tries to Seize the Initiative (D6)")
        form.addRow("Standard Mission", self.mission)
        form.addRow("Table halves", self.halves)
        form.addRow("Deploys first", self.deploys_first)
        form.addRow("", self.seize)
        for box in (self.mission, self.halves, self.deploys_first):
            box.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.seize.toggled.connect(lambda _on: self.changed.emit())

    def build(self, base: Scenario, seed: int) -> Scenario:
        return new_game(
            base,
            seed=seed,
            mission=self.mission.currentData(),
            deployed_first=self.deploys_first.currentData(),
            seize_attempt=self.seize.isChecked(),
            table_halves=self.halves.currentData(),
            dropped_options=other_systems_options("scrollhammer"),
        )

    def describe(self, scenario: Scenario) -> str:
        return describe_setup(scenario)


def describe_setup(scenario: Scenario) -> str:
    """One paragraph saying what a Scrollhammer set-up gives (HTML)."""
    setup = (scenario.game or {}).get("setup") or {}
    names = {p.id: p.name or p.id for p in scenario.players}
    mission = standard_mission(str(setup.get("mission")))
    rolled = f" (rolled {setup['mission_roll']})" if "mission_roll" in setup else ""
    return (
        f"<b>{mission.title}</b>{rolled} \u2022 deploys first: "
        f"{names.get(str(setup.get('deployed_first')), '')} \u2022 {setup.get('reason', '')}"
    )
