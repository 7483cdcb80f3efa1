"""Game flow dice: Seize the Initiative, Variable Game Length, Night Fighting, Reserves.

Each rule comes as a pure function over the dice already rolled (so a saved game replays
exactly), a seeded roller (``random.Random``), and exact probability charts for the panels
where players decide on them.

>>> game_length_distribution()
{5: Fraction(1, 3), 6: Fraction(1, 3), 7: Fraction(1, 3)}
>>> reserve_arrival_distribution()
{2: Fraction(2, 3), 3: Fraction(2, 9), 4: Fraction(1, 9)}
>>> night_fighting_turns("blood-at-dawn")[2]
Fraction(1, 2)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from engine.errors import RulesError
from engine.rulesets.scrollhammer._data import standard_rules
from engine.rulesets.scrollhammer.missions import StandardMission, standard_mission
from engine.rulesets.scrollhammer.probability import (
    ChartSeries,
    ProbabilityChart,
    cumulative,
    d6_at_least,
)

# ---------------------------------------------------------------------------------------------
# Variable Game Length


@dataclass(frozen=True)
class GameEndRoll:
    """The D6 at the end of a game turn: does the battle go on?"""

    turn: int
    roll: int | None
    continues_on: int | None
    continues: bool
    reason: str


def _length_rule() -> tuple[dict[int, int], int]:
    rule = standard_rules()["variable_game_length"]
    thresholds = {int(r["end_of_turn"]): int(r["continues_on"]) for r in rule["rolls"]}
    return thresholds, int(rule["last_turn"])


def game_end_roll(turn: int, roll: int | None = None) -> GameEndRoll:
    """Whether the game goes on after game ``turn`` given the D6 ``roll`` (if one is due).

    >>> game_end_roll(5, 3).continues, game_end_roll(5, 2).continues
    (True, False)
    >>> game_end_roll(6, 3).continues
    False
    >>> game_end_roll(7).reason
    'The battle automatically ends at the close of game turn 7.'
    """
    thresholds, last_turn = _length_rule()
    if turn >= last_turn:
        return GameEndRoll(
            turn,
            None,
            None,
            False,
            f"The battle automatically ends at the close of game turn {last_turn}.",
        )
    needed = thresholds.get(turn)
    if needed is None:
        return GameEndRoll(
            turn, None, None, True, f"No game length roll at the end of turn {turn}."
        )
    if roll is None:
        raise RulesError(
            f"the end of game turn {turn} needs a D6 (the game continues on {needed}+)"
        )
    _check_d6(roll)
    continues = roll >= needed
    verdict = "the game continues" if continues else "the game is over"
    return GameEndRoll(
        turn,
        roll,
        needed,
        continues,
        f"Rolled {roll} at the end of turn {turn} (needs {needed}+): {verdict}.",
    )


def roll_game_end(turn: int, rng: random.Random) -> GameEndRoll:
    """Roll the end-of-turn D6 with a seeded generator."""
    thresholds, last_turn = _length_rule()
    roll = rng.randint(1, 6) if turn in thresholds and turn < last_turn else None
    return game_end_roll(turn, roll)


def game_length_distribution() -> dict[int, Fraction]:
    """The exact chance that each game turn is the last one."""
    thresholds, last_turn = _length_rule()
    first_roll = min(thresholds)
    going_on = Fraction(1)
    result: dict[int, Fraction] = {}
    for turn in range(first_roll, last_turn):
        continues = d6_at_least(thresholds[turn]) if turn in thresholds else Fraction(1)
        result[turn] = going_on * (1 - continues)
        going_on *= continues
    result[last_turn] = going_on
    return result


def turn_played_probability(turn: int) -> Fraction:
    """The chance that game ``turn`` is played at all.

    >>> turn_played_probability(5), turn_played_probability(6), turn_played_probability(8)
    (Fraction(1, 1), Fraction(2, 3), Fraction(0, 1))
    """
    if turn < 1:
        raise RulesError(f"game turns start at 1, got {turn}")
    return sum((p for last, p in game_length_distribution().items() if last >= turn), Fraction(0))


def game_length_chart() -> ProbabilityChart:
    """When the game ends: the chance each turn is the last, and that the game is over by it."""
    distribution = game_length_distribution()
    turns = tuple(sorted(distribution))
    ends = tuple(distribution[t] for t in turns)
    return ProbabilityChart(
        title="Variable Game Length: when the game ends",
        x_label="game turn",
        categories=tuple(str(t) for t in turns),
        series=(
            ChartSeries("ends after this turn", ends, "bar"),
            ChartSeries("over by the end of this turn", cumulative(ends), "line"),
        ),
        notes=(str(standard_rules()["variable_game_length"]["text"]),),
    )


# ---------------------------------------------------------------------------------------------
# First turn and Seize the Initiative


@dataclass(frozen=True)
class FirstTurn:
    """Who takes the first turn, and why."""

    player: str
    reason: str
    seize_roll: int | None = None
    seize_probability: Fraction = Fraction(0)


def seize_the_initiative_probability() -> Fraction:
    """The chance to Seize the Initiative (a 6 on a D6).

    >>> seize_the_initiative_probability()
    Fraction(1, 6)
    """
    return d6_at_least(int(standard_rules()["seize_the_initiative"]["succeeds_on"]))


def first_turn(
    mission: StandardMission | str,
    deployed_first: str,
    deployed_second: str,
    seize_roll: int | None = None,
) -> FirstTurn:
    """Who goes first under ``mission``'s First Turn rule.

    ``seize_roll`` is the second player's D6 if he tries to Seize the Initiative (``None``:
    he does not try).

    >>> first_turn("season-unending", "red", "blue", seize_roll=6).player
    'blue'
    >>> first_turn("season-unending", "red", "blue", seize_roll=5).player
    'red'
    >>> first_turn("blood-at-dawn", "red", "blue").player
    'blue'
    """
    mission = standard_mission(mission) if isinstance(mission, str) else mission
    if mission.first_turn_rule == "deployed-second-steals":
        return FirstTurn(deployed_second, f"{mission.name}: {mission.first_turn_text}")
    needed = int(standard_rules()["seize_the_initiative"]["succeeds_on"])
    chance = seize_the_initiative_probability()
    if seize_roll is None:
        return FirstTurn(
            deployed_first,
            f"{deployed_first} deployed first and goes first ({deployed_second} may try to Seize "
            f"the Initiative: {needed} on a D6).",
            None,
            chance,
        )
    _check_d6(seize_roll)
    if seize_roll >= needed:
        reason = f"{deployed_second} rolled {seize_roll} and seizes the initiative: goes first."
        return FirstTurn(deployed_second, reason, seize_roll, chance)
    reason = (
        f"{deployed_second} rolled {seize_roll} (needs {needed}) to Seize the Initiative and "
        f"failed: {deployed_first}, who deployed first, goes first."
    )
    return FirstTurn(deployed_first, reason, seize_roll, chance)


# ---------------------------------------------------------------------------------------------
# Night Fighting and The Shimmer of Dawn

NightFightingScheme = Literal["none", "standard", "shimmer-of-dawn"]


def night_fighting_scheme(mission: StandardMission | str) -> NightFightingScheme:
    """Which Night Fighting rule a mission uses.

    >>> night_fighting_scheme("held-ground"), night_fighting_scheme("field-of-glory")
    ('standard', 'none')
    """
    mission = standard_mission(mission) if isinstance(mission, str) else mission
    if "The Shimmer of Dawn" in mission.special_rules:
        return "shimmer-of-dawn"
    if "Night Fighting" in mission.special_rules:
        return "standard"
    return "none"


@dataclass(frozen=True)
class RollDue:
    """A Night Fighting D6 the players must roll now (``turn`` 0: before deployment)."""

    turn: int
    needed: int
    effect: str


@dataclass(frozen=True)
class NightFightingStatus:
    """Whether Night Fighting is in effect on a game turn, why, and which roll is due."""

    turn: int
    active: bool
    reason: str
    roll_due: RollDue | None = None


PRE_DEPLOYMENT = 0
"""Key of the pre-deployment roll in a Night Fighting roll record."""


def night_fighting_status(
    mission: StandardMission | str,
    rolls: Mapping[int, int],
    turn: int,
    *,
    turn1_lasts: bool = False,
) -> NightFightingStatus:
    """Night Fighting on game ``turn`` given the rolls made so far.

    ``rolls`` maps when a D6 was rolled to its result: :data:`PRE_DEPLOYMENT` (0) for the roll
    before deployment, ``t`` for the roll at the start of game turn ``t``. A roll that is due but
    missing is returned as ``roll_due`` (and Night Fighting counts as not in effect).

    >>> night_fighting_status("season-unending", {0: 4}, 1).active
    True
    >>> night_fighting_status("season-unending", {0: 2, 5: 3, 6: 4}, 6).active
    True
    >>> night_fighting_status("season-unending", {0: 2}, 5).roll_due.needed
    4
    """
    mission = standard_mission(mission) if isinstance(mission, str) else mission
    if turn < 1:
        raise RulesError(f"game turns start at 1, got {turn}")
    scheme = night_fighting_scheme(mission)
    if scheme == "none":
        return NightFightingStatus(turn, False, f"{mission.name} does not use Night Fighting.")
    if scheme == "shimmer-of-dawn":
        return _shimmer_status(rolls, turn)
    return _standard_status(rolls, turn, turn1_lasts)


def _standard_status(rolls: Mapping[int, int], turn: int, turn1_lasts: bool) -> NightFightingStatus:
    rule = standard_rules()["night_fighting"]
    pre_needed = int(rule["pre_deployment_on"])
    later_from = int(rule["later_rolls_from_turn"])
    later_needed = int(rule["later_on"])
    pre = rolls.get(PRE_DEPLOYMENT)
    if pre is None:
        return NightFightingStatus(
            turn,
            False,
            "The pre-deployment Night Fighting roll has not been made.",
            RollDue(PRE_DEPLOYMENT, pre_needed, "Night Fighting is in effect during game turn 1"),
        )
    _check_d6(pre)
    if pre >= pre_needed:
        if turn == 1:
            return NightFightingStatus(
                1,
                True,
                f"Rolled {pre} before deployment ({pre_needed}+): Night Fighting in turn 1.",
            )
        if turn1_lasts:
            return NightFightingStatus(
                turn,
                True,
                f"Rolled {pre} before deployment; option night_fighting_turn1_lasts keeps it on.",
            )
        return NightFightingStatus(
            turn,
            False,
            f"Night Fighting took effect in turn 1 (rolled {pre}), so no later roll is made.",
        )
    if turn < later_from:
        return NightFightingStatus(
            turn,
            False,
            f"Rolled {pre} before deployment (needs {pre_needed}+); the next roll is at the start "
            f"of game turn {later_from}.",
        )
    for when in range(later_from, turn + 1):
        roll = rolls.get(when)
        if roll is None:
            return NightFightingStatus(
                turn,
                False,
                f"The Night Fighting roll at the start of game turn {when} is due.",
                RollDue(when, later_needed, "Night Fighting is used for the rest of the game"),
            )
        _check_d6(roll)
        if roll >= later_needed:
            return NightFightingStatus(
                turn,
                True,
                f"Rolled {roll} at the start of game turn {when} ({later_needed}+): Night "
                "Fighting for the rest of the game.",
            )
    return NightFightingStatus(
        turn, False, f"No Night Fighting roll of {later_needed}+ yet (last at game turn {turn})."
    )


def _shimmer_status(rolls: Mapping[int, int], turn: int) -> NightFightingStatus:
    rule = standard_rules()["shimmer_of_dawn"]
    if turn == int(rule["always_turn"]):
        return NightFightingStatus(
            turn, True, "The Shimmer of Dawn: it is always Night Fighting the first turn."
        )
    ends_after = int(rule["ends_after_turn"])
    if turn > ends_after:
        return NightFightingStatus(
            turn,
            False,
            f"The Shimmer of Dawn: Night Fighting automatically ends at the end of turn "
            f"{ends_after}.",
        )
    for step in rule["rolls"]:
        when, needed = int(step["start_of_turn"]), int(step["continues_on"])
        if when > turn:
            break
        roll = rolls.get(when)
        if roll is None:
            return NightFightingStatus(
                turn,
                False,
                f"The Shimmer of Dawn roll at the start of turn {when} is due.",
                RollDue(when, needed, "it continues to be Night Fighting"),
            )
        _check_d6(roll)
        if roll < needed:
            return NightFightingStatus(
                turn,
                False,
                f"The Shimmer of Dawn: rolled {roll} at the start of turn {when} (needs {needed}+ "
                "to continue): no longer Night Fighting.",
            )
    return NightFightingStatus(
        turn, True, f"The Shimmer of Dawn: Night Fighting continues in turn {turn}."
    )


def roll_night_fighting(
    mission: StandardMission | str,
    rolls: Mapping[int, int],
    turn: int,
    rng: random.Random,
    *,
    turn1_lasts: bool = False,
) -> tuple[dict[int, int], NightFightingStatus]:
    """Roll every Night Fighting die due up to ``turn``; the new record and the status then."""
    record = dict(rolls)
    while True:
        status = night_fighting_status(mission, record, turn, turn1_lasts=turn1_lasts)
        if status.roll_due is None:
            return record, status
        record[status.roll_due.turn] = rng.randint(1, 6)


def night_fighting_turns(
    mission: StandardMission | str, *, turn1_lasts: bool = False
) -> dict[int, Fraction]:
    """The exact chance that Night Fighting is in effect on each game turn (if it is played).

    >>> night_fighting_turns("season-unending")[5], night_fighting_turns("season-unending")[7]
    (Fraction(1, 4), Fraction(7, 16))
    """
    patterns = _patterns(mission, turn1_lasts)
    _, last_turn = _length_rule()
    return {
        turn: sum((p for pattern, p in patterns.items() if pattern[turn - 1]), Fraction(0))
        for turn in range(1, last_turn + 1)
    }


def night_fighting_chart(
    mission: StandardMission | str, *, turn1_lasts: bool = False
) -> ProbabilityChart:
    """When Night Fighting starts or ends, per game turn, exactly.

    Series: ``in effect (if the turn is played)``; ``starts this turn`` (the turn must be
    played); ``ends after this turn`` (the next turn must be played: the game may end first);
    and ``turn is played`` (Variable Game Length).
    """
    mission = standard_mission(mission) if isinstance(mission, str) else mission
    patterns = _patterns(mission, turn1_lasts)
    _, last_turn = _length_rule()
    turns = tuple(range(1, last_turn + 1))
    played = tuple(turn_played_probability(t) for t in turns)
    in_effect: list[Fraction] = []
    starts: list[Fraction] = []
    ends: list[Fraction] = []
    for index in range(len(turns)):
        on_now = Fraction(0)
        started = Fraction(0)
        ended = Fraction(0)
        for pattern, p in patterns.items():
            if not pattern[index]:
                continue
            on_now += p
            if index == 0 or not pattern[index - 1]:
                started += p
            if index + 1 < len(pattern) and not pattern[index + 1]:
                ended += p
        following = played[index + 1] if index + 1 < len(turns) else Fraction(0)
        in_effect.append(on_now)
        starts.append(started * played[index])
        ends.append(ended * following)
    rules = standard_rules()
    note = (
        rules["shimmer_of_dawn"]["text"]
        if night_fighting_scheme(mission) == "shimmer-of-dawn"
        else rules["night_fighting"]["text"]
    )
    return ProbabilityChart(
        title=f"{mission.name}: Night Fighting by game turn",
        x_label="game turn",
        categories=tuple(str(t) for t in turns),
        series=(
            ChartSeries("in effect (if the turn is played)", tuple(in_effect), "bar"),
            ChartSeries("starts this turn", tuple(starts), "line"),
            ChartSeries("ends after this turn", tuple(ends), "line"),
            ChartSeries("turn is played", played, "line"),
        ),
        notes=(str(note),),
    )


def _patterns(
    mission: StandardMission | str, turn1_lasts: bool
) -> dict[tuple[bool, ...], Fraction]:
    """Night Fighting on or off in each game turn, for every roll record, exactly."""
    _, last_turn = _length_rule()
    outcomes: dict[tuple[bool, ...], Fraction] = {}
    for rolls, p in _all_roll_records(mission, turn1_lasts):
        pattern = tuple(
            night_fighting_status(mission, rolls, t, turn1_lasts=turn1_lasts).active
            for t in range(1, last_turn + 1)
        )
        outcomes[pattern] = outcomes.get(pattern, Fraction(0)) + p
    return outcomes


def _all_roll_records(
    mission: StandardMission | str, turn1_lasts: bool
) -> Iterable[tuple[dict[int, int], Fraction]]:
    """Every full roll record up to the last turn, with its exact probability.

    Rolls that cannot change anything are not branched on: each die is collapsed to
    "reaches the number needed" or not, so the enumeration stays tiny.
    """
    _, last_turn = _length_rule()
    pending: list[tuple[dict[int, int], Fraction]] = [({}, Fraction(1))]
    while pending:
        rolls, p = pending.pop()
        due = None
        for turn in range(1, last_turn + 1):
            status = night_fighting_status(mission, rolls, turn, turn1_lasts=turn1_lasts)
            if status.roll_due is not None:
                due = status.roll_due
                break
        if due is None:
            yield rolls, p
            continue
        success = d6_at_least(due.needed)
        pending.append(({**rolls, due.turn: due.needed}, p * success))
        if success < 1:
            pending.append(({**rolls, due.turn: due.needed - 1}, p * (1 - success)))


# ---------------------------------------------------------------------------------------------
# Reserves


@dataclass(frozen=True)
class ReserveRoll:
    """A Reserve Roll (or automatic arrival) at the start of the controlling player's turn."""

    unit_id: str
    turn: int
    roll: int | None
    modifier: int
    needed: int | None
    arrives: bool
    reason: str


def _reserve_rule() -> tuple[dict[int, int], int, int]:
    rule = standard_rules()["reserves"]
    thresholds = {int(r["turn"]): int(r["arrives_on"]) for r in rule["rolls"]}
    return thresholds, int(rule["automatic_turn"]), int(rule["natural_fail"])


def reserve_roll(
    unit_id: str, turn: int, roll: int | None = None, modifier: int = 0
) -> ReserveRoll:
    """Whether a unit in reserve arrives at the start of its player's ``turn``.

    >>> reserve_roll("red-knights", 2, 3).arrives
    True
    >>> reserve_roll("red-knights", 2, 1, modifier=+3).arrives
    False
    >>> reserve_roll("red-knights", 4).reason
    'red-knights arrives automatically at the start of turn 4.'
    """
    thresholds, automatic, natural_fail = _reserve_rule()
    if turn >= automatic:
        return ReserveRoll(
            unit_id,
            turn,
            None,
            modifier,
            None,
            True,
            f"{unit_id} arrives automatically at the start of turn {automatic}."
            if turn == automatic
            else f"{unit_id} arrives automatically (turn {turn}, after turn {automatic}).",
        )
    needed = thresholds.get(turn)
    if needed is None:
        raise RulesError(f"no Reserve Rolls are made at the start of turn {turn}")
    if roll is None:
        raise RulesError(f"{unit_id}: the Reserve Roll at the start of turn {turn} needs a D6")
    _check_d6(roll)
    if roll == natural_fail:
        return ReserveRoll(
            unit_id,
            turn,
            roll,
            modifier,
            needed,
            False,
            f"{unit_id} rolled a natural {natural_fail}: it remains in reserve whatever the "
            "modifier.",
        )
    total = roll + modifier
    arrives = total >= needed
    shown = f"{roll}{modifier:+d}={total}" if modifier else str(roll)
    verdict = "arrives this turn" if arrives else "remains in reserve"
    return ReserveRoll(
        unit_id,
        turn,
        roll,
        modifier,
        needed,
        arrives,
        f"{unit_id} rolled {shown} on turn {turn} (needs {needed}+): {verdict}.",
    )


def roll_reserves(
    unit_ids: Iterable[str],
    turn: int,
    rng: random.Random,
    modifiers: Mapping[str, int] | None = None,
) -> tuple[ReserveRoll, ...]:
    """Every Reserve Roll due for ``unit_ids`` at the start of ``turn``, with a seeded RNG."""
    thresholds, automatic, _ = _reserve_rule()
    modifiers = modifiers or {}
    rolls = []
    for unit_id in sorted(unit_ids):
        roll = rng.randint(1, 6) if turn < automatic and turn in thresholds else None
        rolls.append(reserve_roll(unit_id, turn, roll, modifiers.get(unit_id, 0)))
    return tuple(rolls)


def reserve_arrival_distribution(modifier: int = 0) -> dict[int, Fraction]:
    """The exact chance that a unit held in reserve arrives on each of its turns."""
    thresholds, automatic, natural_fail = _reserve_rule()
    waiting = Fraction(1)
    result: dict[int, Fraction] = {}
    for turn in sorted(thresholds):
        chance = d6_at_least(thresholds[turn], modifier=modifier, natural_fail=natural_fail)
        result[turn] = waiting * chance
        waiting *= 1 - chance
    result[automatic] = waiting
    return result


def reserves_chart(modifiers: Iterable[int] = (0,)) -> ProbabilityChart:
    """When reserves arrive, per turn, for each reserve-roll modifier asked for."""
    modifiers = tuple(modifiers)
    turns = sorted(reserve_arrival_distribution(0))
    series: list[ChartSeries] = []
    for modifier in modifiers:
        distribution = reserve_arrival_distribution(modifier)
        label = "" if modifier == 0 else f" (modifier {modifier:+d})"
        values = tuple(distribution[t] for t in turns)
        series.append(ChartSeries(f"arrives this turn{label}", values, "bar"))
        series.append(ChartSeries(f"arrived by this turn{label}", cumulative(values), "line"))
    rule = standard_rules()["reserves"]
    return ProbabilityChart(
        title="Reserves: when a unit arrives",
        x_label="your turn",
        categories=tuple(str(t) for t in turns),
        series=tuple(series),
        notes=(str(rule["text"]), str(rule["modifier_text"])),
    )


def ongoing_reserves_return_turn(
    entered_turn: int, entered_in_own_turn: bool, goes_first: bool
) -> int:
    """The game turn at whose start a unit in Ongoing Reserves re-enters play.

    It re-enters "at the start of their controlling player's following turn": the controlling
    player's next turn after the one in which the unit entered reserve.

    >>> ongoing_reserves_return_turn(3, entered_in_own_turn=True, goes_first=True)
    4
    >>> ongoing_reserves_return_turn(3, entered_in_own_turn=False, goes_first=True)
    4
    >>> ongoing_reserves_return_turn(3, entered_in_own_turn=False, goes_first=False)
    3
    """
    if entered_in_own_turn or goes_first:
        return entered_turn + 1
    return entered_turn


def _check_d6(roll: int) -> None:
    if roll not in range(1, 7):
        raise RulesError(f"a D6 shows 1 to 6, got {roll}")
