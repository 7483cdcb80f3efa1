"""Everything the Scrollhammer panels show, in one call: set-up checks, control, Night Fighting,
Victory Points.

Before the battle (``game.scrollhammer.turn`` absent) the deployment check runs; once a turn
is recorded, models are no longer held to their deployment zones, and Night Fighting is
reported for that turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.explain import Violation
from engine.model import Scenario
from engine.objectives import ObjectiveControl
from engine.rulesets.scrollhammer.battlefield import (
    TableHalves,
    deployment_violations,
    scenario_halves,
)
from engine.rulesets.scrollhammer.control import ScrollhammerControl, scrollhammer_control
from engine.rulesets.scrollhammer.game_flow import NightFightingStatus, night_fighting_status
from engine.rulesets.scrollhammer.mission_rules import mission_setup_violations
from engine.rulesets.scrollhammer.missions import StandardMission, mission_of
from engine.rulesets.scrollhammer.objective_placement import objective_placement_violations
from engine.rulesets.scrollhammer.state import ScrollhammerState
from engine.rulesets.scrollhammer.terrain_setup import TerrainSetupCheck, check_terrain_setup
from engine.rulesets.scrollhammer.victory import VictoryResult, victory_points


@dataclass(frozen=True)
class ScrollhammerReport:
    """The state of a Scrollhammer battlefield as the rules see it."""

    mission: StandardMission | None
    halves: TableHalves
    deployment: tuple[Violation, ...]
    terrain: TerrainSetupCheck
    objective_placement: tuple[Violation, ...]
    mission_setup: tuple[Violation, ...]
    control: ScrollhammerControl
    night_fighting: NightFightingStatus | None
    victory: VictoryResult | None

    @property
    def violations(self) -> tuple[Violation, ...]:
        """Every violation, set-up first."""
        return (
            *self.deployment,
            *self.terrain.violations,
            *self.objective_placement,
            *self.mission_setup,
            *self.control.violations,
        )

    def to_json(self) -> dict[str, Any]:
        night = self.night_fighting
        return {
            "mission": self.mission.id if self.mission else None,
            "halves": self.halves.to_json(),
            "violations": [v.to_json() for v in self.violations],
            "terrain_sections": [
                {"id": c.section_id, "roll": c.roll, "limit": c.limit, "pieces": list(c.pieces)}
                for c in self.terrain.sections
            ],
            "control": self.control.to_json(),
            "night_fighting": None
            if night is None
            else {"turn": night.turn, "active": night.active, "reason": night.reason},
            "victory": self.victory.to_json() if self.victory else None,
        }


def scrollhammer_report(
    scenario: Scenario, controls: Sequence[ObjectiveControl] | None = None
) -> ScrollhammerReport:
    """All the Scrollhammer checks and conclusions for ``scenario``; ``controls``: the
    evaluation's objective control, to reuse."""
    mission = mission_of(scenario.option("mission"))
    state = ScrollhammerState.from_scenario(scenario)
    halves = scenario_halves(scenario)
    control = scrollhammer_control(scenario, controls=controls)
    night = None
    if mission is not None and state.turn is not None:
        night = night_fighting_status(
            mission,
            state.night_fighting_rolls,
            state.turn,
            turn1_lasts=bool(scenario.option("night_fighting_turn1_lasts", False)),
        )
    return ScrollhammerReport(
        mission=mission,
        halves=halves,
        deployment=deployment_violations(scenario, halves) if state.turn is None else (),
        terrain=check_terrain_setup(scenario),
        objective_placement=objective_placement_violations(scenario)
        if mission is None or mission.objective_placement == "alternating"
        else (),
        mission_setup=mission_setup_violations(scenario),
        control=control,
        night_fighting=night,
        victory=victory_points(scenario, mission, control) if mission is not None else None,
    )
