"""Scrollhammer as a :class:`engine.rulesets.base.Ruleset`.

Objective control by scoring and denial units (3" from the centre, one objective per unit,
declared choices in ``game.scrollhammer.control_choices``), engagement as base contact (within
1 mm), no benefit of cover, up to seven game turns. Its deployment: the player going first
places their entire army, then the opponent (a recorded order, ``game.deployment``, is checked
under "Deploy Forces"). Its report gathers every set-up check ("Deploy Forces", "Alternating
Terrain", "Place Objective Markers", the missions' own rules and
"Controlling Objectives" declarations) and the Victory Points "if the game ended now".

>>> from engine.model import Battlefield, Objective, Player, Scenario
>>> s = Scenario("scrollhammer", (Player("red"), Player("blue")), Battlefield(72, 48),
...              objectives=(Objective("o1", 6.0, 24.0),))
>>> [(v.rule, v.items) for v in RULESET.report(s).violations]
[('Place Objective Markers', ('o1',))]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine.arrival import DEFAULT_RESERVES_DISTANCE, ArrivalRules, EdgeRestriction
from engine.coherency import report_violations
from engine.deploy_order import DeploymentProcedure, order_violations
from engine.engagement import EngagementRules, engagement_with_options
from engine.explain import Violation
from engine.model import MM_PER_INCH, Scenario
from engine.objectives import ObjectiveDefaults, ObjectiveRules, rules_with_options
from engine.options import COMMON_OPTION_CHECKS, OptionCheck
from engine.rulesets import other_systems_options
from engine.rulesets.base import RulesetReport
from engine.rulesets.scrollhammer._data import standard_rules
from engine.rulesets.scrollhammer.battlefield import (
    deployment_violations,
    is_lethal,
    scenario_halves,
)
from engine.rulesets.scrollhammer.control import RULE, declared_choices
from engine.rulesets.scrollhammer.options import OPTION_CHECKS
from engine.rulesets.scrollhammer.report import ScrollhammerReport, scrollhammer_report
from engine.rulesets.scrollhammer.setup import new_game
from engine.rulesets.scrollhammer.state import GAME_SECTION_CHECK, ScrollhammerState
from engine.score_report import CardResult, LineResult, PlayerResult, ScoreReport

if TYPE_CHECKING:
    from engine.evaluate import Evaluation
    from engine.game_state import GameCheck

ENGAGEMENT = EngagementRules("scrollhammer", 1.0 / MM_PER_INCH, None, "Base contact (within 1 mm)")
DEPLOY_FORCES = "Deploy Forces"
DEPLOY_FORCES_TEXT = (
    "Roll-off to see which player chooses whether to deploy first or second. The player that goes "
    "first then places his entire army on the table in his deployment zone(with the exception of "
    "Mission 3, see below for details). His opponent then deploys his entire army in the opposite "
    "deployment zone. Units cannot deploy in impassible terrain or lethal terrain."
)
"""Seed 004, "Deploy Forces", exactly."""
RESERVES_TEXT = (
    "When deploying their armies, players can choose not to deploy up to any number of their "
    "units(except in Standard Mission 3, see below for details), keeping them as Reserves to "
    "arrive later."
)
"""Seed 004, "Preparing reserves", exactly."""


@dataclass(frozen=True)
class Scrollhammer:
    """Scrollhammer's Standard Missions ("Fighting a Battle")."""

    id: str = "scrollhammer"
    name: str = "Scrollhammer"
    quarter_section: str = "Table quarters (Warplan's definition: the rulebook defines none)"
    area_section: str = 'Deployment: own table half, more than 12" from the central line'
    cover_applies: bool = False
    longest_game: int = 7

    @property
    def option_checks(self) -> Mapping[str, OptionCheck]:
        return {**COMMON_OPTION_CHECKS, **OPTION_CHECKS}

    @property
    def game_section_checks(self) -> Mapping[str, GameCheck]:
        return {"scrollhammer": GAME_SECTION_CHECK}

    def objective_rules(self, scenario: Scenario) -> ObjectiveRules:
        defaults = ObjectiveDefaults(
            ruleset=self.id,
            section=RULE,
            strategy="scoring-and-denial",
            objective_range=float(standard_rules()["objective_control"]["range"]),
            measure="centre",
        )
        return replace(rules_with_options(scenario, defaults), declared=declared_choices(scenario))

    def engagement_rules(self, scenario: Scenario) -> EngagementRules:
        return engagement_with_options(scenario, ENGAGEMENT)

    def arrival_rules(self, scenario: Scenario, player: str) -> ArrivalRules:
        # Reserves "move fully onto the table from the controlling player's own table edge",
        # each model's move measured from that edge. The rulebook gives no set-up distance
        # from enemy models: the common 9" applies (options.reserves_distance changes it).
        # Closed terrain is what deployment refuses: impassable or lethal.
        return ArrivalRules(
            self.id,
            "Reserves",
            DEFAULT_RESERVES_DISTANCE,
            tuple(t.id for t in scenario.terrain if t.impassable or is_lethal(t)),
            "impassable or lethal terrain",
            (EdgeRestriction("Reserves", "move", scenario_halves(scenario).of(player).edge),),
        )

    def report(self, scenario: Scenario, evaluation: Evaluation | None = None) -> RulesetReport:
        details = self._details(scenario, evaluation)
        vp = None
        if scenario.game is not None and details.victory is not None:
            vp = dict(details.victory.vp)
        coherency = report_violations(
            scenario, evaluation.coherency if evaluation is not None else None
        )
        order = order_violations(scenario, self.deployment_procedure(scenario))
        return RulesetReport(self.id, (*details.violations, *order, *coherency), vp, details)

    def deployment_procedure(self, scenario: Scenario) -> DeploymentProcedure:
        """Deploy Forces: the player going first (``game.scrollhammer.deployed_first``; none
        recorded: the first listed player, Warplan's choice) places their entire army, then the
        opponent; units kept in reserve (``game.scrollhammer.reserves`` too) are not set up."""
        state = ScrollhammerState.from_scenario(scenario)
        recorded = state.deployed_first in scenario.player_ids()
        first = state.deployed_first if state.deployed_first and recorded else None
        first = first or scenario.player_ids()[0]
        reason = (
            f"{first} won the roll-off's choice and goes first (game.scrollhammer.deployed_first)"
            if recorded
            else f"no roll-off recorded (game.scrollhammer.deployed_first), so {first} (listed "
            "first) goes first"
        )
        return DeploymentProcedure(
            ruleset=self.id,
            rule=DEPLOY_FORCES,
            text=DEPLOY_FORCES_TEXT,
            first=first,
            first_reason=reason,
            first_fixed=recorded,
            one_at_a_time=False,
            titanic_skips=False,
            deploying=state.turn is None,
            placement=_placement,
            reserves_text=RESERVES_TEXT,
            held_back=state.reserves,
            choices=(
                "without a recorded roll-off the first listed player deploys first",
                "the player placing an army sets its units up one at a time in any order",
            ),
        )

    def score(self, scenario: Scenario, evaluation: Evaluation | None = None) -> ScoreReport:
        """The mission's Victory Points if the game ended now, one card (the mission) per
        player, each scoring line a line; ``winner`` and ``outcome`` extend the JSON."""
        game: Mapping[str, Any] = scenario.game or {}
        details = self._details(scenario, evaluation)
        victory = details.victory
        players = []
        for player in scenario.player_ids():
            if victory is None or details.mission is None:
                players.append(PlayerResult(player, 0, ()))
                continue
            lines = tuple(
                LineResult(line.source, True, line.vp, line.reason)
                for line in victory.lines
                if line.player == player
            )
            card = CardResult(details.mission.name, "mission", victory.vp[player], lines)
            players.append(PlayerResult(player, victory.vp[player], (card,)))
        problems = () if victory is not None else ("no Standard Mission chosen (options.mission)",)
        extra = {} if victory is None else {"winner": victory.winner, "outcome": victory.outcome}
        return ScoreReport(
            game.get("battle_round"),
            game.get("active_player"),
            game.get("timing"),
            tuple(players),
            problems,
            extra,
        )

    def new_game(self, scenario: Scenario, *, seed: int, **choices: Any) -> Scenario:
        choices.setdefault("dropped_options", other_systems_options(self.id))
        return new_game(scenario, seed=seed, **choices)

    def _details(self, scenario: Scenario, evaluation: Evaluation | None) -> ScrollhammerReport:
        controls = evaluation.objectives if evaluation is not None else None
        return scrollhammer_report(scenario, controls)


def _placement(scenario: Scenario, unit_id: str, before: tuple[str, ...]) -> tuple[Violation, ...]:
    """Deploy Forces for one unit as placed: its deployment zone, no impassable or lethal
    terrain."""
    return deployment_violations(scenario, unit_ids=(unit_id,))


RULESET = Scrollhammer()
