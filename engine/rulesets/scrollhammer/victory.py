"""Victory Points per Standard Mission, and the automatic wins, "if the game ended now".

Every line names who scores, how much and why, so the panel can show the whole tally:

- enemy units "completely destroyed, is falling back, or is not on the board at the time the
  game ends" (units in Ongoing Reserves award VP "as if it had been destroyed"); Independent
  Characters are separate units in Warplan, so each counts its own Victory Point;
- objectives held (Held Ground), the centre objective (Heart of the Battle, 4 VP), Standards
  taken and challenges (Field of Glory), the Relic captured (Quest for the Relic);
- "if the winner has twice the Victory Points of his opponent, it can be considered a crushing
  victory"; conceding, or having no models on the battlefield at the end of a game turn, loses.

The centre objective is the objective with role ``central`` (else the one nearest the centre).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.battlefield_edges import EDGE_NAMES, board_edge, model_edge_far_distance
from engine.errors import RulesError
from engine.geometry import TOLERANCE
from engine.model import Scenario, Unit
from engine.rulesets.scrollhammer.control import ScrollhammerControl, scrollhammer_control
from engine.rulesets.scrollhammer.missions import StandardMission, mission_of, standard_mission
from engine.rulesets.scrollhammer.state import ScrollhammerState


@dataclass(frozen=True)
class VictoryLine:
    """One scoring line: ``player`` gains ``vp`` for ``source`` because of ``items``."""

    player: str
    source: str
    vp: int
    reason: str
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class VictoryResult:
    """The tally, the winner (``None``: a draw) and the outcome's wording."""

    mission_id: str
    vp: Mapping[str, int]
    lines: tuple[VictoryLine, ...]
    winner: str | None
    outcome: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "mission": self.mission_id,
            "vp": dict(sorted(self.vp.items())),
            "winner": self.winner,
            "outcome": self.outcome,
            "reason": self.reason,
            "lines": [
                {
                    "player": line.player,
                    "source": line.source,
                    "vp": line.vp,
                    "reason": line.reason,
                    "items": sorted(line.items),
                }
                for line in self.lines
            ],
        }


def unit_loss(scenario: Scenario, unit: Unit, state: ScrollhammerState | None = None) -> str | None:
    """Why an enemy unit is worth a Victory Point now (``None``: it is not)."""
    state = state or ScrollhammerState.from_scenario(scenario)
    if unit.id in state.destroyed or not unit.models:
        return "completely destroyed"
    if unit.id in state.ongoing_reserves:
        return "in Ongoing Reserves (awards Victory Points as if it had been destroyed)"
    if unit.status.falling_back:
        return "falling back"
    if unit.id in state.reserves:
        return "not on the board (in reserve)"
    if all(_off_board(scenario, m) for m in unit.models):
        return "not on the board"
    return None


def _off_board(scenario: Scenario, model: Any) -> bool:
    return any(
        model_edge_far_distance(model, board_edge(scenario.battlefield, name)) < -TOLERANCE
        for name in EDGE_NAMES
    )


def has_models_on_battlefield(scenario: Scenario, player: str, state: ScrollhammerState) -> bool:
    """Whether ``player`` has a model on the battlefield (not destroyed, not in reserve)."""
    for unit in scenario.units_of(player):
        if (
            unit.id in state.destroyed
            or unit.id in state.reserves
            or unit.id in state.ongoing_reserves
        ):
            continue
        if any(not _off_board(scenario, m) for m in unit.models):
            return True
    return False


def victory_points(
    scenario: Scenario,
    mission: StandardMission | str | None = None,
    control: ScrollhammerControl | None = None,
) -> VictoryResult:
    """The Victory Points of both players under ``mission`` (default ``options.mission``);
    ``control``: the objective control already worked out for ``scenario``."""
    if mission is None:
        chosen = mission_of(scenario.option("mission"))
        if chosen is None:
            raise RulesError("no Standard Mission chosen (options.mission)")
        mission = chosen
    elif isinstance(mission, str):
        mission = standard_mission(mission)
    state = ScrollhammerState.from_scenario(scenario)
    players = scenario.player_ids()
    lines: list[VictoryLine] = []
    if "enemy-units" in mission.scoring:
        lines.extend(_enemy_unit_lines(scenario, state))
    if control is None:
        control = scrollhammer_control(scenario)
    if "objectives-held" in mission.scoring:
        for player in players:
            held = control.controlled_by(player)
            if held:
                lines.append(
                    VictoryLine(
                        player,
                        "objectives held",
                        len(held),
                        f"{player} holds {', '.join(held)} (uncontested by any denial units)",
                        held,
                    )
                )
    if "centre-objective" in mission.scoring:
        lines.extend(_centre_lines(scenario, mission, control))
    if "standards" in mission.scoring:
        for player, bearer in state.standards_taken:
            lines.append(
                VictoryLine(
                    player, "standards", 1, f"{player} took the Standard of {bearer}", (bearer,)
                )
            )
    if "challenges" in mission.scoring:
        lines.extend(_challenge_lines(scenario, state))
    vp = {p: sum(line.vp for line in lines if line.player == p) for p in players}
    winner, outcome, reason = _outcome(scenario, mission, state, vp)
    return VictoryResult(mission.id, vp, tuple(lines), winner, outcome, reason)


def _enemy_unit_lines(scenario: Scenario, state: ScrollhammerState) -> list[VictoryLine]:
    lines = []
    for unit in scenario.units:
        loss = unit_loss(scenario, unit, state)
        if loss is None:
            continue
        scorer = scenario.opponent_of(unit.player)
        kind = "Independent Character" if unit.has_keyword("INDEPENDENT CHARACTER") else "unit"
        lines.append(
            VictoryLine(scorer, "enemy units", 1, f"enemy {kind} {unit.id} is {loss}", (unit.id,))
        )
    return lines


def centre_objective_id(scenario: Scenario) -> str | None:
    """The centre objective: role ``central``, else the objective nearest the table's centre."""
    central = [o for o in scenario.objectives if o.role == "central"]
    if central:
        return central[0].id
    if not scenario.objectives:
        return None
    cx, cy = scenario.battlefield.centre
    return min(scenario.objectives, key=lambda o: ((o.x - cx) ** 2 + (o.y - cy) ** 2, o.id)).id


def _centre_lines(
    scenario: Scenario, mission: StandardMission, control: ScrollhammerControl
) -> list[VictoryLine]:
    centre = centre_objective_id(scenario)
    if centre is None:
        return []
    holding = control.holding(centre)
    return [
        VictoryLine(
            player,
            "centre objective",
            mission.centre_objective_vp,
            f"{holding.holders[player]} ({player}, scoring) holds the center objective marker "
            f"{centre} uncontested by any denial units",
            (centre, holding.holders[player]),
        )
        for player in holding.controlled_by
    ]


def _owner(scenario: Scenario, unit_or_model: str) -> str:
    try:
        return scenario.unit(unit_or_model).player
    except KeyError:
        try:
            return scenario.unit_of_model(unit_or_model).player
        except KeyError as error:
            raise RulesError(f"challenge names unknown character {unit_or_model!r}") from error


def _challenge_lines(scenario: Scenario, state: ScrollhammerState) -> list[VictoryLine]:
    lines = []
    wins: dict[str, int] = {}
    for challenge in state.challenges:
        wins[challenge.winner] = wins.get(challenge.winner, 0) + 1
        if challenge.slain:
            player = _owner(scenario, challenge.winner)
            lines.append(
                VictoryLine(
                    player,
                    "challenges",
                    1,
                    f"{challenge.winner} slew {challenge.loser} in a challenge",
                    (challenge.winner, challenge.loser),
                )
            )
    if wins:
        most = max(wins.values())
        leaders = sorted(c for c, n in wins.items() if n == most)
        owners = {_owner(scenario, c) for c in leaders}
        if len(owners) == 1:
            player = owners.pop()
            lines.append(
                VictoryLine(
                    player,
                    "most challenges won",
                    1,
                    f"{', '.join(leaders)} won the most challenges ({most})",
                    tuple(leaders),
                )
            )
    return lines


def _outcome(
    scenario: Scenario, mission: StandardMission, state: ScrollhammerState, vp: Mapping[str, int]
) -> tuple[str | None, str, str]:
    players = scenario.player_ids()
    if state.conceded in players:
        winner = scenario.opponent_of(state.conceded)
        return winner, "crushing victory", f"{state.conceded} conceded the battle"
    captured = state.relic.get("captured_by")
    if "relic-captured" in mission.scoring and captured in players:
        return str(captured), "victory", f"{captured} captured the Relic"
    if "raiders-wiped-out" in mission.scoring:
        loser = _raiders_wiped_out(scenario, state)
        if loser is not None:
            return (
                scenario.opponent_of(loser),
                "victory",
                f"all of {loser}'s units were destroyed before any of his other units arrived "
                "from reserve",
            )
    timing = (scenario.game or {}).get("timing")
    if timing in ("end_of_turn", "end_of_battle"):
        empty = [p for p in players if not has_models_on_battlefield(scenario, p, state)]
        if len(empty) == 1:
            winner = scenario.opponent_of(empty[0])
            return (
                winner,
                "victory",
                f"{empty[0]} has no models on the battlefield at the end of the turn",
            )
    first, second = players
    if vp[first] == vp[second]:
        return None, "tactical draw", f"both players have {vp[first]} Victory Points"
    winner = first if vp[first] > vp[second] else second
    loser = scenario.opponent_of(winner)
    crushing = vp[winner] >= 2 * vp[loser]
    return (
        winner,
        "crushing victory" if crushing else "victory",
        f"{winner} has {vp[winner]} Victory Points to {loser}'s {vp[loser]}",
    )


def _raiders_wiped_out(scenario: Scenario, state: ScrollhammerState) -> str | None:
    """Blood at Dawn: the player who stole the initiative lost every unit before reserves came."""
    raider = state.first_player
    if raider is None and state.deployed_first is not None:
        raider = scenario.opponent_of(state.deployed_first)
    if raider is None:
        return None
    units = [u for u in scenario.units_of(raider) if not u.has_keyword("SUMMONED")]
    waiting = [u for u in units if u.id in state.reserves]
    on_table = [u for u in units if u.id not in state.reserves]
    if not waiting or any(u.id in state.arrived_from_reserve for u in units):
        return None
    if on_table and all(unit_loss(scenario, u, state) == "completely destroyed" for u in on_table):
        return raider
    return None
