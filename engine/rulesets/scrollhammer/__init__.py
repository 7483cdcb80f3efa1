"""Scrollhammer Standard Missions (``ruleset: "scrollhammer"``): the engine side.

From the Scrollhammer Rulebook, "Fighting a Battle" (seed ``004``). Pure functions over the
frozen :class:`engine.model.Scenario`; dice are either given (a saved game replays) or rolled
with a seeded ``random.Random``; charts are exact fractions.

Modules and key API:

- :mod:`.missions`: ``standard_missions()``, ``standard_mission(id | name | number)``,
  ``mission_for_roll(d6)``, ``roll_mission(rng)``.
- :mod:`.battlefield`: ``table_halves(...)`` / ``scenario_halves(scenario)`` (long-edge or
  diagonal halves, board edges, deployment zones), ``deployment_violations(scenario)``,
  ``battlefield_sections(battlefield)`` (2' x 2' sections, or the closest equal split).
- :mod:`.terrain_setup`: ``roll_terrain_density``, ``check_terrain_setup(scenario, densities)``
  (density limits, majority section, 3" spacing, centre kept clear), ``next_terrain_placer``.
- :mod:`.objective_placement`: ``objective_placement_violations(scenario)``,
  ``violations_if_placed(scenario, objective)``, ``smallest_nudge(scenario, objective_id)``,
  ``placement_fix(scenario, objective_id)`` (a nudge of the others, else the nearest legal
  spot: ``legal_spot``).
- :mod:`.control`: ``scrollhammer_control(scenario, declared=None)`` (scoring / denial units,
  one objective per unit, the player's declared choice, maximum matching otherwise).
- :mod:`.night_fighting`: ``night_fighting_band(distance)``, ``night_fighting_view(scenario,
  shooter_id)`` (band areas to draw and each enemy unit's band).
- :mod:`.game_flow`: Variable Game Length, Seize the Initiative / first turn, Night Fighting and
  The Shimmer of Dawn (status per turn, rolls, exact charts), Reserves and Ongoing Reserves.
- :mod:`.mission_rules`: ``mission_setup_violations(scenario)`` (objectives per mission, the
  Relic marker, Blood at Dawn's deployment), ``reserve_arrival_violations(scenario, unit_id)``.
- :mod:`.relic`: the Relic table (2D6), seizing, carrying limits, passing, dropping, capturing.
- :mod:`.victory`: ``victory_points(scenario)`` per mission, with every line explained.
- :mod:`.state`: ``game.scrollhammer`` (typed view and validation check).
- :mod:`.options`: the option keys with value checks (``OPTION_CHECKS``) and meanings.

:mod:`.report`: ``scrollhammer_report(scenario)`` runs everything at once for the panels.

Every check returns :class:`.violations.Violation` values naming the items and the rule.

Scenario options (``scenario.options``): ``mission``, ``table_halves``, ``diagonal``,
``table_edges``, ``section_size``, ``centre_clear_radius``, ``objective_range``,
``objective_measure``, ``objective_nudge_metric``, ``night_fighting_measure``,
``night_fighting_turn1_lasts``, ``relic_diameter``, ``base_contact``; see each module.
"""

from engine.rulesets.scrollhammer.battlefield import (
    BoardEdge,
    PlayerHalf,
    Section,
    SectionGrid,
    TableHalves,
    battlefield_sections,
    board_edge,
    default_battlefield,
    deployment_violations,
    scenario_halves,
    table_halves,
)
from engine.rulesets.scrollhammer.control import ScrollhammerControl, scrollhammer_control
from engine.rulesets.scrollhammer.game_flow import (
    first_turn,
    game_end_roll,
    game_length_chart,
    game_length_distribution,
    night_fighting_chart,
    night_fighting_status,
    night_fighting_turns,
    ongoing_reserves_return_turn,
    reserve_arrival_distribution,
    reserve_roll,
    reserves_chart,
    roll_game_end,
    roll_night_fighting,
    roll_reserves,
    seize_the_initiative_probability,
)
from engine.rulesets.scrollhammer.mission_rules import (
    blood_at_dawn_violations,
    mission_setup_violations,
    reserve_arrival_violations,
)
from engine.rulesets.scrollhammer.missions import (
    StandardMission,
    mission_for_roll,
    roll_mission,
    standard_mission,
    standard_missions,
)
from engine.rulesets.scrollhammer.night_fighting import night_fighting_band, night_fighting_view
from engine.rulesets.scrollhammer.objective_placement import (
    PlacementFix,
    legal_spot,
    objective_placement_violations,
    placement_fix,
    smallest_nudge,
    violations_if_placed,
)
from engine.rulesets.scrollhammer.options import OPTION_CHECKS, OPTION_NOTES
from engine.rulesets.scrollhammer.probability import ChartSeries, ProbabilityChart
from engine.rulesets.scrollhammer.relic import (
    can_drop,
    can_pass,
    can_seize,
    capture_check,
    carry_check,
    drop_position,
    interrupted_capture,
    relic_chart,
    relic_table,
    roll_relic,
)
from engine.rulesets.scrollhammer.report import ScrollhammerReport, scrollhammer_report
from engine.rulesets.scrollhammer.state import GAME_SECTION_CHECK, ScrollhammerState
from engine.rulesets.scrollhammer.terrain_setup import check_terrain_setup, roll_terrain_density
from engine.rulesets.scrollhammer.victory import VictoryResult, victory_points
from engine.rulesets.scrollhammer.violations import Violation

__all__ = [
    "GAME_SECTION_CHECK",
    "OPTION_CHECKS",
    "OPTION_NOTES",
    "BoardEdge",
    "ChartSeries",
    "PlayerHalf",
    "ProbabilityChart",
    "ScrollhammerControl",
    "ScrollhammerReport",
    "ScrollhammerState",
    "Section",
    "SectionGrid",
    "StandardMission",
    "TableHalves",
    "VictoryResult",
    "Violation",
    "battlefield_sections",
    "blood_at_dawn_violations",
    "board_edge",
    "can_drop",
    "can_pass",
    "can_seize",
    "capture_check",
    "carry_check",
    "check_terrain_setup",
    "default_battlefield",
    "deployment_violations",
    "drop_position",
    "first_turn",
    "game_end_roll",
    "game_length_chart",
    "game_length_distribution",
    "interrupted_capture",
    "mission_for_roll",
    "mission_setup_violations",
    "night_fighting_band",
    "night_fighting_chart",
    "night_fighting_status",
    "night_fighting_turns",
    "night_fighting_view",
    "objective_placement_violations",
    "placement_fix",
    "legal_spot",
    "PlacementFix",
    "ongoing_reserves_return_turn",
    "relic_chart",
    "relic_table",
    "reserve_arrival_violations",
    "reserve_arrival_distribution",
    "reserve_roll",
    "reserves_chart",
    "roll_game_end",
    "roll_mission",
    "roll_night_fighting",
    "roll_relic",
    "roll_reserves",
    "roll_terrain_density",
    "scenario_halves",
    "scrollhammer_control",
    "scrollhammer_report",
    "seize_the_initiative_probability",
    "smallest_nudge",
    "standard_mission",
    "standard_missions",
    "table_halves",
    "victory_points",
    "violations_if_placed",
]
