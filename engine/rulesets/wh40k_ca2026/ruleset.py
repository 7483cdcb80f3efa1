"""Chapter Approved 2026-27 as a :class:`engine.rulesets.base.Ruleset`.

Objective control by summed OC (3" from the marker's closest point, 5" vertically; terrain
objectives held from their area), engagement 2" horizontally and 5" vertically, the benefit of
cover, five battle rounds. Its own check is "Deploy Armies": before the game is under way
(:func:`engine.rulesets.wh40k_ca2026.generator.game_in_progress` false), every unit on the
table is set up wholly within its player's deployment zone, and a recorded deployment order
(``game.deployment``, :mod:`engine.deploy_order`) alternates one unit at a time from the
Defender, a TITANIC unit skipping its player's next turn.

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> red = Unit("red-u", "red", (Model("red-1", 30.0, 22.0, CircleBase(32)),))
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red,),
...              deployment="dawn-of-war")
>>> [v.rule for v in RULESET.report(s).violations]
['Deploy Armies']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.areas import UnitPosition, unit_positions
from engine.arrival import DEFAULT_RESERVES_DISTANCE, ArrivalRules, closed_by_flag
from engine.coherency import report_violations
from engine.deploy_order import DeploymentProcedure, order_violations
from engine.deployments import resolve_deployment
from engine.engagement import EngagementRules, engagement_with_options
from engine.explain import Violation
from engine.model import Scenario
from engine.objectives import ObjectiveDefaults, ObjectiveRules, rules_with_options
from engine.options import COMMON_OPTION_CHECKS, OptionCheck
from engine.rulesets import other_systems_options
from engine.rulesets.base import RulesetReport
from engine.rulesets.wh40k_ca2026.generator import game_in_progress, new_game
from engine.rulesets.wh40k_ca2026.scoring import score
from engine.score_report import ScoreReport

if TYPE_CHECKING:
    from engine.evaluate import Evaluation
    from engine.game_state import GameCheck

DEPLOY_ARMIES = "Deploy Armies"
DEPLOY_ARMIES_TEXT = (
    "Players take it in turns to set up their units (excluding those in strategic reserves) one "
    "at a time, wholly within their deployment zone, starting with the Defender. If you set up a "
    "TITANIC unit when it is your turn to set up a unit, skip your next turn to set up a unit. "
    "Once you have finished setting up your units, if your opponent has any units that have not "
    "been set up, they set up those units."
)
"""Seed 003, step 8 "Deploy Armies", exactly."""
DECLARE_BATTLE_FORMATIONS_TEXT = (
    "Players secretly note down, in order:- Which of their units will start the battle embarked "
    "within which TRANSPORTS.\n- Which of their units will start the battle in strategic reserves."
)
"""Seed 003, step 7 "Declare Battle Formations", exactly."""
STRATEGIC_RESERVES = "Strategic Reserves"

OBJECTIVES = ObjectiveDefaults(
    ruleset="wh40k-ca2026",
    section="Objective control",
    strategy="summed-oc",
    objective_range=3.0,
    measure="edge",
    vertical_range=5.0,
    terrain_objectives=True,
)
ENGAGEMENT = EngagementRules("wh40k-ca2026", 2.0, 5.0, "03.04 Engagement")


@dataclass(frozen=True)
class ChapterApproved:
    """Chapter Approved 2026-27 (Warhammer 40,000, 11th edition)."""

    id: str = "wh40k-ca2026"
    name: str = "Chapter Approved 2026-27"
    quarter_section: str = "01.04.05 Table Quarters"
    area_section: str = "Wholly within"
    cover_applies: bool = True
    longest_game: int = 5

    @property
    def option_checks(self) -> Mapping[str, OptionCheck]:
        return COMMON_OPTION_CHECKS

    @property
    def game_section_checks(self) -> Mapping[str, GameCheck]:
        # Chapter Approved's keys are the game section's own (engine.game_state.GAME_KEYS).
        return {}

    def objective_rules(self, scenario: Scenario) -> ObjectiveRules:
        return rules_with_options(scenario, OBJECTIVES)

    def engagement_rules(self, scenario: Scenario) -> EngagementRules:
        return engagement_with_options(scenario, ENGAGEMENT)

    def arrival_rules(self, scenario: Scenario, player: str) -> ArrivalRules:
        # The mission deck names strategic reserves but states neither a set-up distance nor an
        # edge rule: the core rules' 9" from enemy models, no edge restriction, and the
        # terrain a file marks impassable.
        return ArrivalRules(
            self.id,
            STRATEGIC_RESERVES,
            DEFAULT_RESERVES_DISTANCE,
            closed_by_flag(scenario),
            "impassable terrain",
        )

    def report(self, scenario: Scenario, evaluation: Evaluation | None = None) -> RulesetReport:
        violations: tuple[Violation, ...] = ()
        if not game_in_progress(scenario.game):
            positions = (
                [u.position for u in evaluation.units]
                if evaluation is not None
                else unit_positions(scenario)
            )
            violations = _deploy_armies(scenario, positions)
            violations += order_violations(scenario, self.deployment_procedure(scenario))
        violations += report_violations(
            scenario, evaluation.coherency if evaluation is not None else None
        )
        vp = None
        if scenario.game is not None:
            players = (scenario.game or {}).get("players") or {}
            vp = {p: int((players.get(p) or {}).get("vp", 0)) for p in scenario.player_ids()}
        return RulesetReport(self.id, violations, vp)

    def deployment_procedure(self, scenario: Scenario) -> DeploymentProcedure:
        """Deploy Armies: one unit at a time from the Defender; a TITANIC unit skips its
        player's next turn. With no Defender recorded (``players[].role``) the first listed
        player starts (Warplan's choice: the text names only the Defender)."""
        defender = next((p.id for p in scenario.players if p.role == "defender"), None)
        first = defender or scenario.player_ids()[0]
        reason = (
            f"players take it in turns to set up their units one at a time, starting with the "
            f"Defender ({first})"
            if defender is not None
            else f"players take it in turns to set up their units one at a time; no Defender is "
            f"recorded, so {first} (listed first) starts"
        )
        return DeploymentProcedure(
            ruleset=self.id,
            rule=DEPLOY_ARMIES,
            text=DEPLOY_ARMIES_TEXT,
            first=first,
            first_reason=reason,
            first_fixed=defender is not None,
            one_at_a_time=True,
            titanic_skips=True,
            deploying=not game_in_progress(scenario.game),
            placement=_placement,
            reserves_text=DECLARE_BATTLE_FORMATIONS_TEXT,
            choices=(
                "without a Defender recorded, the first listed player sets up first",
                "a player whose next turn is skipped while the opponent has no units left goes on "
                "setting up (the remaining units rule)",
            ),
        )

    def score(self, scenario: Scenario, evaluation: Evaluation | None = None) -> ScoreReport:
        return score(scenario, evaluation)

    def new_game(self, scenario: Scenario, *, seed: int, **choices: Any) -> Scenario:
        choices.setdefault("dropped_options", other_systems_options(self.id))
        return new_game(scenario, seed=seed, **choices)


def _placement(scenario: Scenario, unit_id: str, before: tuple[str, ...]) -> tuple[Violation, ...]:
    """Deploy Armies for one unit as placed: wholly within its player's deployment zone."""
    return _deploy_armies(scenario, unit_positions(scenario), only=unit_id)


def _deploy_armies(
    scenario: Scenario, positions: Sequence[UnitPosition], only: str | None = None
) -> tuple[Violation, ...]:
    """Units set up outside their player's deployment zone (none without a deployment);
    ``only``: that unit's."""
    resolved = resolve_deployment(scenario)
    if resolved is None or not resolved.zones:
        return ()
    found = []
    for unit, position in zip(scenario.units, positions, strict=True):
        if only is not None and unit.id != only:
            continue
        zones = {z.id for z in resolved.zones if z.player == unit.player}
        if not unit.models or not zones or zones & set(position.zones_wholly_within):
            continue
        found.append(
            Violation(
                DEPLOY_ARMIES,
                f"{unit.id} is not set up wholly within {unit.player}'s deployment zone",
                (unit.id,),
            )
        )
    return tuple(found)


RULESET = ChapterApproved()
