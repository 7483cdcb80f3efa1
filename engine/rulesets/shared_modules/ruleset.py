"""The Shared Scenario Modules as a :class:`engine.rulesets.base.Ruleset`.

Objective control by holding and contesting (3" to hold and 2" to contest, from the marker's
centre; both players may control at once), engagement 2", no benefit of cover, five battle
rounds. Its deployment: the player who deploys first sets up their units, then the opponent
(a recorded order, ``game.deployment``, is checked under "Battle Formations"). Its report:
"Battle Formations" while deploying and "Scout And Secure" for each unit
placed that way whose lead model has not moved. The modules award no Victory Points
(Annihilation is an immediate win), so the report has no ``vp``; ``score`` reports the
Annihilation winner.

>>> from engine.model import Player, Scenario
>>> RULESET.objective_rules(Scenario("shared-modules", (Player("a"), Player("b")))).strategy
'hold-and-contest'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.arrival import DEFAULT_RESERVES_DISTANCE, ArrivalRules, EdgeRestriction, closed_by_flag
from engine.coherency import report_violations
from engine.deploy_order import DeploymentProcedure, order_violations
from engine.engagement import EngagementRules, engagement_with_options
from engine.explain import Violation
from engine.model import Scenario
from engine.objectives import ObjectiveDefaults, ObjectiveRules, rules_with_options
from engine.options import COMMON_OPTION_CHECKS, OptionCheck
from engine.rulesets import other_systems_options
from engine.rulesets.base import RulesetReport
from engine.rulesets.shared_modules._data import number
from engine.rulesets.shared_modules.formations import (
    FORMATIONS,
    SCOUT,
    battle_formations,
    deployment_order,
    follower_violations,
    lead_model_violations,
    player_edge,
)
from engine.rulesets.shared_modules.modules import uses_module
from engine.rulesets.shared_modules.options import OPTION_CHECKS
from engine.rulesets.shared_modules.report import SharedModulesReport, shared_modules_report
from engine.rulesets.shared_modules.setup import new_game
from engine.rulesets.shared_modules.state import GAME_SECTION_CHECK
from engine.rulesets.shared_modules.victory import annihilation
from engine.score_report import CardResult, LineResult, PlayerResult, ScoreReport

if TYPE_CHECKING:
    from engine.evaluate import Evaluation
    from engine.game_state import GameCheck

ENGAGEMENT = EngagementRules(
    "shared-modules", 2.0, None, "Engagement range (options.engagement_range)"
)
BATTLE_FORMATIONS_TEXT = (
    'The player who deploys first deploys their units within 12" of their table edge.\n'
    'Models must remain within 2" of at least one other model in their unit unless that model is '
    "alone.\n"
    'Units must be at least 2" apart from other units during deployment.\n'
    "The opposing player then deploys their units using the same restrictions."
)
"""Seed 000, "Battle Formations", its four numbered rules exactly."""


@dataclass(frozen=True)
class SharedModules:
    """The Shared Scenario Modules."""

    id: str = "shared-modules"
    name: str = "Shared Scenario Modules"
    quarter_section: str = "Table quarters (Warplan's definition: the modules define none)"
    area_section: str = 'Battle Formations: deployment within 12" of the table edge'
    cover_applies: bool = False
    longest_game: int = 5

    @property
    def option_checks(self) -> Mapping[str, OptionCheck]:
        return {**COMMON_OPTION_CHECKS, **OPTION_CHECKS}

    @property
    def game_section_checks(self) -> Mapping[str, GameCheck]:
        return {"shared_modules": GAME_SECTION_CHECK}

    def objective_rules(self, scenario: Scenario) -> ObjectiveRules:
        defaults = ObjectiveDefaults(
            ruleset=self.id,
            section="Objective Control",
            strategy="hold-and-contest",
            objective_range=number("objective-control", "hold_range"),
            measure="centre",
            contest_range=number("objective-control", "contest_range"),
        )
        return rules_with_options(scenario, defaults)

    def engagement_rules(self, scenario: Scenario) -> EngagementRules:
        return engagement_with_options(scenario, ENGAGEMENT)

    def arrival_rules(self, scenario: Scenario, player: str) -> ArrivalRules:
        # Scout and Secure places one model onto the controlling player's table edge and the
        # others within 2" of it; it states no distance from enemy models: the common 9"
        # applies (options.reserves_distance changes it). Closed terrain: impassable areas.
        follow = float(
            scenario.option("scout_follow_distance", number("scout-and-secure", "follow_distance"))
        )
        return ArrivalRules(
            self.id,
            SCOUT,
            DEFAULT_RESERVES_DISTANCE,
            closed_by_flag(scenario),
            "impassable terrain",
            (EdgeRestriction(SCOUT, "lead", player_edge(scenario, player), follow),),
        )

    def report(self, scenario: Scenario, evaluation: Evaluation | None = None) -> RulesetReport:
        controls = evaluation.objectives if evaluation is not None else None
        details: SharedModulesReport = shared_modules_report(scenario, controls)
        coherency = report_violations(
            scenario, evaluation.coherency if evaluation is not None else None
        )
        order = order_violations(scenario, self.deployment_procedure(scenario))
        return RulesetReport(
            self.id,
            (*details.violations, *order, *_scout_violations(scenario), *coherency),
            None,
            details,
        )

    def deployment_procedure(self, scenario: Scenario) -> DeploymentProcedure:
        """Battle Formations: the player who deploys first (``options.deploys_first``) sets up
        their units, then the opponent; units not on the table yet
        (``game.shared_modules.undeployed``, Scout And Secure) are held back."""
        first, _ = deployment_order(scenario)
        state = (scenario.game or {}).get("shared_modules") or {}
        held = frozenset(str(u) for u in state.get("undeployed", ())) | frozenset(
            str(u) for u in dict(state.get("scout_and_secure") or {})
        )
        return DeploymentProcedure(
            ruleset=self.id,
            rule=FORMATIONS,
            text=BATTLE_FORMATIONS_TEXT,
            first=first,
            first_reason=(
                f"the player who deploys first is {first} (options.deploys_first, else the first "
                "listed player)"
            ),
            first_fixed=True,
            one_at_a_time=False,
            titanic_skips=False,
            deploying=state.get("turn") is None,
            placement=_placement,
            held_back=held,
            choices=(
                "the player deploying sets their units up one at a time in any order",
                "a unit set up is checked against the units set up before it (2\" apart)",
            ),
        )

    def score(self, scenario: Scenario, evaluation: Evaluation | None = None) -> ScoreReport:
        """No module awards Victory Points; with Annihilation in use, one card per player
        says whether they have won outright, and ``winner`` extends the JSON."""
        game: Mapping[str, Any] = scenario.game or {}
        players = []
        winner = None
        if uses_module(scenario, "annihilation"):
            result = annihilation(scenario)
            winner = result.winner
            for player in scenario.player_ids():
                line = LineResult("Annihilation", result.winner == player, 0, result.reason)
                players.append(
                    PlayerResult(player, 0, (CardResult("Annihilation", "module", 0, (line,)),))
                )
        else:
            players = [PlayerResult(p, 0, ()) for p in scenario.player_ids()]
        return ScoreReport(
            game.get("battle_round"),
            game.get("active_player"),
            game.get("timing"),
            tuple(players),
            (),
            {"winner": winner},
        )

    def new_game(self, scenario: Scenario, *, seed: int, **choices: Any) -> Scenario:
        choices.setdefault("dropped_options", other_systems_options(self.id))
        return new_game(scenario, seed=seed, **choices)


def _placement(scenario: Scenario, unit_id: str, before: tuple[str, ...]) -> tuple[Violation, ...]:
    """Battle Formations for one unit as placed, against the units set up before it (none
    while the scenario does not use the module)."""
    if not uses_module(scenario, "battle-formations"):
        return ()
    check = battle_formations(scenario, (*before, unit_id))
    return tuple(v for v in check.violations if unit_id in v.items)


def _scout_violations(scenario: Scenario) -> tuple[Violation, ...]:
    """Scout And Secure: each scouted unit whose lead model has not moved yet."""
    state = (scenario.game or {}).get("shared_modules") or {}
    found: list[Violation] = []
    for unit_id, entry in sorted(dict(state.get("scout_and_secure") or {}).items()):
        if entry.get("moved"):
            continue
        lead = str(entry["lead"])
        found.extend(lead_model_violations(scenario, unit_id, lead))
        found.extend(follower_violations(scenario, unit_id, lead))
    return tuple(found)


RULESET = SharedModules()
