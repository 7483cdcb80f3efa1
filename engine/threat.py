"""Movement and threat: which enemy units a unit can reach this turn, and how likely it is, as
exact fractions of the dice.

For a unit and each enemy unit on the battlefield the distance that matters is the shortest
legal move of any model of the unit that ends within the rule system's engagement range
(:func:`engine.engagement.engagement_rules`, horizontally) of any model of the enemy unit, as
:mod:`engine.movement` measures moves: the path of the base's centre, in straight segments,
around the terrain that blocks the model (option ``movement_blocking``), the base turned freely.
On open ground it is the closest distance between the two units' bases less engagement range
(for an oval or a hull, with its farthest point turned towards the target), never below 0. The
unit reaches the target when its move covers that distance (inclusive, with
:data:`engine.geometry.TOLERANCE`):

- **normal**: a Normal Move, M (seed 003, 09.05 "MAXIMUM DISTANCE: Your unit's M
  characteristic"): 1 or 0;
- **advance**: an Advance Move, M + D6 (seed 003, 09.06 "MAXIMUM DISTANCE: Advance roll + your
  unit's M characteristic", the advance roll "one D6");
- **charge**: a Normal Move then a charge, M + 2D6. The seeds give no charge distance: this
  follows the Warhammer 40,000 core rules' charge roll (2D6), for every rule system. A unit that
  advanced cannot then charge (seed 003, 09.06 "not eligible to declare a charge"), so the charge
  follows a Normal Move, never an Advance. The Normal Move and the charge are measured as one
  path (the charge carries on where the move ended).

Choices where the texts are silent, made visible here: the rules forbid ending a Normal or
Advance Move engaged (09.05 and 09.06 "Your unit must be unengaged"), so ``normal`` and
``advance`` read as *reach*: the move covers the distance to the enemy's engagement range (the
threat it poses), only the charge actually ending there. Only horizontal distance counts (the
engagement range's vertical limit is not applied). A target already within engagement range
(distance 0) is reached with probability 1 by every move.

``measure`` says how distances were measured: ``"around-terrain"``, or ``"open-ground"`` when
the option ``movement_blocking`` is ``"none"``. A target that no legal move of at most the
longest move this turn (M + 12") reaches round the terrain (walled in, or farther than that
round the walls) has distance ``None`` (``null`` in JSON) and probability 0 by every move; a
target in straight sight has its exact distance whatever its length. A unit without M is
searched without a limit (``None`` then means walled in).

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> red = Unit("red-u", "red", (Model("red-m", 10.0, 10.0, CircleBase(25.4)),), move=6)
>>> blue = Unit("blue-u", "blue", (Model("blue-m", 22.0, 10.0, CircleBase(25.4)),))
>>> game = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue))
>>> report = unit_threats(game, "red-u")
>>> target = report.targets[0]
>>> target.target, round(target.distance, 6), str(target.normal), str(target.advance)
('blue-u', 9.0, '0', '2/3')
>>> str(target.charge), report.measure
('35/36', 'around-terrain')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.engagement import engagement_rules
from engine.errors import RulesError
from engine.explain import RuleRef, RulingLine, RulingSection, inches
from engine.geometry import TOLERANCE
from engine.model import Scenario
from engine.movement import BLOCKING_OPTION, DEFAULT_BLOCKING, unit_goal_distance

MEASURE_AROUND_TERRAIN = "around-terrain"
"""How the distances are measured: the shortest legal moves around the terrain that blocks."""
MEASURE_OPEN_GROUND = "open-ground"
"""How the distances are measured when nothing blocks moves (``movement_blocking: "none"``)."""
LONGEST_ROLL = 12
"""The most the dice add to M this turn (a charge's 2D6): no farther target is searched for."""

NO_MOVE_REASON = "the unit has no Move characteristic (M)"

MOVES_SECTION = "Normal Move 09.05 (M), Advance Move 09.06 (M + D6), Charge (M + 2D6)"
"""The rules the probabilities apply, as the ruling cites them."""

_D6_FACES = range(1, 7)


def d6_at_least(needed: int) -> Fraction:
    """The probability that one D6 rolls ``needed`` or more.

    >>> d6_at_least(1), d6_at_least(4), d6_at_least(7), d6_at_least(-3)
    (Fraction(1, 1), Fraction(1, 2), Fraction(0, 1), Fraction(1, 1))
    """
    return Fraction(sum(1 for face in _D6_FACES if face >= needed), 6)


def two_d6_at_least(needed: int) -> Fraction:
    """The probability that 2D6 total ``needed`` or more (of the 36 outcomes, the total ``s``
    comes up ``6 - |s - 7|`` times).

    >>> two_d6_at_least(2), two_d6_at_least(7), two_d6_at_least(12), two_d6_at_least(13)
    (Fraction(1, 1), Fraction(7, 12), Fraction(1, 36), Fraction(0, 1))
    """
    return Fraction(sum(6 - abs(total - 7) for total in range(max(needed, 2), 13)), 36)


def roll_needed(distance: float, move: float) -> int:
    """The smallest whole roll that, added to ``move``, covers ``distance`` inclusively (with
    :data:`engine.geometry.TOLERANCE`).

    >>> roll_needed(9.0, 6.0), roll_needed(9.0000005, 6.0), roll_needed(9.0001, 6.0)
    (3, 3, 4)
    >>> roll_needed(2.0, 6.0)
    -4
    """
    return math.ceil(distance - TOLERANCE - move)


@dataclass(frozen=True)
class Threat:
    """One enemy unit: the distance that matters and the probability of reaching it by each
    move (``None`` for every move when the unit has no M); ``distance`` is ``None`` when no
    legal move this turn reaches it (module docstring)."""

    target: str
    distance: float | None
    normal: Fraction | None
    advance: Fraction | None
    charge: Fraction | None

    @property
    def reachable(self) -> bool:
        """Whether some move can reach the target (a charge reaches whenever anything does)."""
        return self.charge is not None and self.charge > 0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.target,
            "distance": None if self.distance is None else round(self.distance, 6),
            "normal": _fraction_text(self.normal),
            "advance": _fraction_text(self.advance),
            "charge": _fraction_text(self.charge),
        }


@dataclass(frozen=True)
class ThreatReport:
    """What one unit can reach this turn: every enemy unit on the battlefield, nearest first
    (then by id), measured as :data:`measure` says; ``reason`` why there are no probabilities."""

    unit: str
    engagement_range: float
    targets: tuple[Threat, ...]
    rule: RuleRef
    reason: str | None = None
    measure: str = MEASURE_AROUND_TERRAIN

    def to_json(self) -> dict[str, Any]:
        """The ``threat --json`` document: ``unit``, ``measure``, ``targets`` (and ``reason``
        when there are no probabilities)."""
        document: dict[str, Any] = {
            "unit": self.unit,
            "measure": self.measure,
            "targets": [t.to_json() for t in self.targets],
        }
        if self.reason is not None:
            document["reason"] = self.reason
        return document

    def text(self) -> str:
        """A readable table: one row per target."""
        header = f"{self.unit}: threat on {self.measure} (engagement range "
        rows = [header + f"{inches(self.engagement_range)})"]
        if self.reason is not None:
            rows.append(f"  no probabilities: {self.reason}")
        rows.append(f"  {'target':<24} {'distance':>10} {'normal':>8} {'advance':>8} {'charge':>8}")
        for t in self.targets:
            rows.append(
                f"  {t.target:<24} {_distance_text(t.distance):>10}"
                f" {_fraction_text(t.normal) or '-':>8}"
                f" {_fraction_text(t.advance) or '-':>8} {_fraction_text(t.charge) or '-':>8}"
            )
        return "\n".join(rows) + "\n"


def _fraction_text(probability: Fraction | None) -> str | None:
    return None if probability is None else str(probability)


def _distance_text(distance: float | None) -> str:
    return "beyond" if distance is None else inches(distance)


def reach_probabilities(distance: float | None, move: float) -> tuple[Fraction, Fraction, Fraction]:
    """The exact probabilities that a Normal Move (M), an Advance (M + D6) and a Normal Move
    then a charge (M + 2D6) cover ``distance`` inches, inclusively (none covers ``None``: no
    legal move reaches).

    >>> [str(p) for p in reach_probabilities(9.0, 6.0)]
    ['0', '2/3', '35/36']
    >>> [str(p) for p in reach_probabilities(6.0, 6.0)]
    ['1', '1', '1']
    >>> [str(p) for p in reach_probabilities(None, 6.0)]
    ['0', '0', '0']
    """
    if distance is None:
        return Fraction(0), Fraction(0), Fraction(0)
    needed = roll_needed(distance, move)
    normal = Fraction(1) if needed <= 0 else Fraction(0)
    return normal, d6_at_least(needed), two_d6_at_least(needed)


def unit_threats(scenario: Scenario, unit_id: str) -> ThreatReport:
    """Every enemy unit on the battlefield with the distance that matters and the probability
    that ``unit_id`` reaches it this turn (``RulesError`` for a unit not on the battlefield)."""
    unit = next((u for u in scenario.units if u.id == unit_id), None)
    if unit is None:
        raise RulesError(f"no unit {unit_id!r} on the battlefield")
    engagement = engagement_rules(scenario).horizontal
    limit = math.inf if unit.move is None else unit.move + LONGEST_ROLL
    targets: list[Threat] = []
    for enemy in scenario.units:
        if enemy.player == unit.player or not enemy.models or not unit.models:
            continue
        distance = unit_goal_distance(scenario, unit, enemy, limit)
        if unit.move is None:
            targets.append(Threat(enemy.id, distance, None, None, None))
        else:
            targets.append(Threat(enemy.id, distance, *reach_probabilities(distance, unit.move)))
    targets.sort(key=lambda t: (t.distance is None, t.distance or 0.0, t.target))
    blocking = scenario.option(BLOCKING_OPTION, DEFAULT_BLOCKING)
    return ThreatReport(
        unit.id,
        engagement,
        tuple(targets),
        RuleRef(scenario.ruleset, MOVES_SECTION),
        reason=NO_MOVE_REASON if unit.move is None else None,
        measure=MEASURE_OPEN_GROUND if blocking == "none" else MEASURE_AROUND_TERRAIN,
    )


def _target_line(threat: Threat) -> RulingLine:
    if threat.distance is None:
        text = f"{threat.target}: beyond any legal move this turn"
    elif threat.normal is None:
        text = f"{threat.target}: {inches(threat.distance)} away"
    else:
        text = (
            f"{threat.target}: {inches(threat.distance)} away: normal {threat.normal},"
            f" advance {threat.advance}, charge {threat.charge}"
        )
    return RulingLine(text, unit_ids=(threat.target,))


def threat_section(scenario: Scenario, unit_id: str) -> RulingSection:
    """The unit's threat as a ruling section: how many enemy units it can reach this turn, one
    line per target with its distance and probabilities, the rules cited.

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> red = Unit("red-u", "red", (Model("red-m", 10.0, 10.0, CircleBase(25.4)),), move=6)
    >>> blue = Unit("blue-u", "blue", (Model("blue-m", 22.0, 10.0, CircleBase(25.4)),))
    >>> game = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue))
    >>> print(threat_section(game, "red-u").text())
    Can reach 1 enemy unit this turn (moving around terrain)
      - blue-u: 9" away: normal 0, advance 2/3, charge 35/36
      wh40k-ca2026: Normal Move 09.05 (M), Advance Move 09.06 (M + D6), Charge (M + 2D6)
    """
    report = unit_threats(scenario, unit_id)
    lines = tuple(_target_line(t) for t in report.targets)
    if report.reason is not None:
        verdict = f"Threat unknown: {report.reason}"
    else:
        count = sum(1 for t in report.targets if t.reachable)
        noun = "enemy unit" if count == 1 else "enemy units"
        how = "over open ground" if report.measure == MEASURE_OPEN_GROUND else "around terrain"
        verdict = f"Can reach {count} {noun} this turn (moving {how})"
    return RulingSection(verdict, lines, report.rule)
