"""The six Scrollhammer Standard Missions and the D6 chart that picks one.

Data: ``assets/scrollhammer/missions.json`` (wording quoted from the rulebook).

>>> [m.name for m in standard_missions()][:3]
['Season Unending', 'Held Ground', 'Blood at Dawn']
>>> standard_mission(4).name
'Quest for the Relic'
>>> mission_for_roll(5).id
'heart-of-the-battle'
>>> roll_mission(random.Random(7)).mission.number in range(1, 7)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Literal

from engine.errors import UnknownReferenceError
from engine.rulesets.scrollhammer._data import load_asset

Halves = Literal["long-edge", "diagonal"]
ObjectivePlacement = Literal["none", "alternating", "centre", "relic"]


@dataclass(frozen=True)
class StandardMission:
    """One Standard Mission: its battlefield, deployment, first turn, victory and rules."""

    id: str
    number: int
    numeral: str
    name: str
    halves: Halves
    battlefield_text: str
    centre_clear: bool
    objective_count: int
    objective_placement: ObjectivePlacement
    objective_text: str
    deployment_rule: str
    deployment_text: str
    first_turn_rule: str
    first_turn_text: str
    scoring: tuple[str, ...]
    victory_text: tuple[str, ...]
    special_rules: tuple[str, ...]
    centre_objective_vp: int = 0

    @property
    def title(self) -> str:
        """The heading as printed, e.g. ``Scenario IV: Quest for the Relic``."""
        return f"Scenario {self.numeral}: {self.name}"


@cache
def standard_missions() -> tuple[StandardMission, ...]:
    """The six Standard Missions, in chart order."""
    data = load_asset("missions.json")
    missions = []
    for raw in data["missions"]:
        field = raw["battlefield"]
        objectives = field["objectives"]
        victory = raw["victory"]
        missions.append(
            StandardMission(
                id=str(raw["id"]),
                number=int(raw["number"]),
                numeral=str(raw["numeral"]),
                name=str(raw["name"]),
                halves=field["halves"],
                battlefield_text=str(field["text"]),
                centre_clear=bool(field["centre_clear"]),
                objective_count=int(objectives["count"]),
                objective_placement=objectives["placement"],
                objective_text=str(objectives.get("text", "")),
                deployment_rule=str(raw["deployment"]["rule"]),
                deployment_text=str(raw["deployment"]["text"]),
                first_turn_rule=str(raw["first_turn"]["rule"]),
                first_turn_text=str(raw["first_turn"]["text"]),
                scoring=tuple(str(s) for s in victory["scoring"]),
                victory_text=tuple(str(t) for t in victory["text"]),
                special_rules=tuple(str(r) for r in raw["special_rules"]),
                centre_objective_vp=int(victory.get("centre_objective_vp", 0)),
            )
        )
    return tuple(missions)


def mission_ids() -> tuple[str, ...]:
    """The ids of the Standard Missions, in chart order."""
    return tuple(m.id for m in standard_missions())


def standard_mission(key: str | int) -> StandardMission:
    """A Standard Mission by id (``"held-ground"``), name (``"Held Ground"``) or number (2)."""
    for mission in standard_missions():
        if key in (mission.id, mission.number, mission.name):
            return mission
    known = ", ".join(mission_ids())
    raise UnknownReferenceError(f"no Scrollhammer Standard Mission {key!r} (known: {known})")


def mission_for_roll(roll: int) -> StandardMission:
    """The mission the D6 chart gives for ``roll``."""
    chart = load_asset("missions.json")["chart"]["results"]
    if str(roll) not in chart:
        raise UnknownReferenceError(f"the Standard Mission chart has no result {roll!r} (D6: 1-6)")
    return standard_mission(str(chart[str(roll)]))


@dataclass(frozen=True)
class MissionRoll:
    """A roll on the Standard Mission chart."""

    roll: int
    mission: StandardMission

    @property
    def text(self) -> str:
        return f"Rolled {self.roll} on the D6 chart: {self.mission.title}"


def roll_mission(rng: random.Random) -> MissionRoll:
    """Pick the mission randomly, by rolling a D6 (seeded) and consulting the chart."""
    roll = rng.randint(1, 6)
    return MissionRoll(roll, mission_for_roll(roll))


def mission_of(options_mission: object) -> StandardMission | None:
    """The mission named by ``scenario.options["mission"]`` (id, name or number), if any."""
    if options_mission is None:
        return None
    if isinstance(options_mission, str | int):
        return standard_mission(options_mission)
    raise UnknownReferenceError(f"options.mission must be a mission id, got {options_mission!r}")
