"""Shared Scenario Modules bookkeeping as scenario edits: ledger entries, the All-Out War
refunds at the end of a turn, and Scout And Secure (points spent, models placed).

Each function returns the new scenario, with ``game.shared_modules`` updated; the app makes
each one undoable.

Choices (where the modules are silent):

- Scout And Secure places the lead model straight onto its table edge from where it stands
  (its base touching the edge) and the other models in rings round it, :data:`FOLLOWER_GAP`
  apart, so every one is within 2" of the lead; the player can then move them.
- Ledger entries record the game turn when ``game.shared_modules.turn`` is set.

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> scouts = Unit("red-s", "red", (Model("red-s1", 30.0, 8.0, CircleBase(32)),
...     Model("red-s2", 31.0, 8.0, CircleBase(32))), extra={"cost": 2})
>>> s = Scenario("shared-modules", (Player("red"), Player("blue")), units=(scouts,))
>>> s = ledger_edit(s, "red", "threat", 5, spend=False, reason="start")
>>> scouted = scout_edit(s, "red-s")
>>> lead = scouted.unit("red-s").models[0]
>>> round(lead.y, 6), ledgers_from_scenario(scouted)["red"].threat.balance
(0.629921, 3)
"""

from __future__ import annotations

import math
from typing import Any, Literal

from engine.errors import RulesError
from engine.model import Model, Scenario
from engine.rulesets.scrollhammer.battlefield import model_edge_distance, model_reach
from engine.rulesets.shared_modules.formations import (
    follower_violations,
    lead_model_violations,
    player_edge,
    scout_and_secure,
)
from engine.rulesets.shared_modules.ledgers import (
    PlayerLedgers,
    PointsLedger,
    all_out_war_refunds,
    apply_refunds,
)
from engine.rulesets.shared_modules.modules import uses_module
from engine.rulesets.shared_modules.state import ledgers_from_scenario
from engine.scenario_edits import game_section, with_game_key

SECTION = "shared_modules"
FOLLOWER_GAP = 0.25
"""Inches between bases when Scout And Secure rings the followers round the lead model."""
FOLLOWER_RINGS = 6
"""Rings of followers tried round the lead model before giving up."""


def ledger_json(books: PlayerLedgers) -> dict[str, list[dict[str, Any]]]:
    """A player's two ledgers as ``game.shared_modules.ledgers.<player>`` holds them."""

    def entries(ledger: PointsLedger) -> list[dict[str, Any]]:
        out = []
        for entry in ledger.entries:
            item: dict[str, Any] = {"amount": entry.amount, "reason": entry.reason}
            if entry.turn is not None:
                item["turn"] = entry.turn
            out.append(item)
        return out

    return {"threat": entries(books.threat), "command": entries(books.command)}


def with_ledgers(scenario: Scenario, ledgers: dict[str, PlayerLedgers]) -> Scenario:
    """``scenario`` with every player's ledgers written to ``game.shared_modules.ledgers``."""
    return with_game_key(
        scenario, SECTION, "ledgers", {p: ledger_json(b) for p, b in sorted(ledgers.items())}
    )


def current_turn(scenario: Scenario) -> int | None:
    """``game.shared_modules.turn``, when the file records it."""
    turn = game_section(scenario, SECTION).get("turn")
    return int(turn) if turn is not None else None


def ledger_edit(
    scenario: Scenario,
    player: str,
    kind: Literal["threat", "command"],
    amount: int,
    *,
    spend: bool,
    reason: str,
) -> Scenario:
    """``scenario`` after ``player`` spends or gains ``amount`` of one ledger only (spending
    more than the balance raises ``RulesError``)."""
    ledgers = ledgers_from_scenario(scenario)
    books = ledgers[player]
    turn = current_turn(scenario)
    if kind == "threat":
        books = (
            books.spend_threat(amount, reason, turn)
            if spend
            else books.gain_threat(amount, reason, turn)
        )
    else:
        books = (
            books.spend_command(amount, reason, turn)
            if spend
            else books.gain_command(amount, reason, turn)
        )
    ledgers[player] = books
    return with_ledgers(scenario, ledgers)


def end_of_turn_refunds(scenario: Scenario) -> Scenario:
    """The end of a turn: with All-Out War in use, refund each unit destroyed this turn (cost
    - 1, minimum 0) as Threat Points; then move them from ``destroyed_this_turn`` to
    ``destroyed``. ``RulesError`` when no unit is marked destroyed this turn."""
    section = game_section(scenario, SECTION)
    destroyed_now = list(section.get("destroyed_this_turn", []))
    if not destroyed_now:
        raise RulesError("no unit is marked destroyed this turn")
    ledgers = ledgers_from_scenario(scenario)
    if uses_module(scenario, "all-out-war"):
        refunds = all_out_war_refunds(scenario, destroyed_now)
        ledgers = apply_refunds(ledgers, refunds, current_turn(scenario))
    staged = with_ledgers(scenario, ledgers)
    destroyed = sorted(set(section.get("destroyed", [])) | set(destroyed_now))
    staged = with_game_key(staged, SECTION, "destroyed", destroyed)
    return with_game_key(staged, SECTION, "destroyed_this_turn", None)


def lead_onto_edge(scenario: Scenario, model: Model, player: str) -> Model:
    """``model`` moved straight towards ``player``'s table edge until its base touches it."""
    edge = player_edge(scenario, player)
    gap = model_edge_distance(model, edge)
    return model.placed(model.x - edge.inward[0] * gap, model.y - edge.inward[1] * gap)


def follower_positions(
    scenario: Scenario, lead: Model, followers: list[Model], player: str
) -> list[Model]:
    """The followers in rings round ``lead`` on the table side of ``player``'s edge, each
    within 2" of it and clear of one another; ``RulesError`` when they do not fit."""
    edge = player_edge(scenario, player)
    ix, iy = edge.inward
    bf = scenario.battlefield
    placed: list[Model] = []
    ring = 0
    remaining = list(followers)
    while remaining:
        follower = remaining[0]
        reach_lead = model_reach(lead, ix, iy)
        spacing = follower.base.bounding_radius * 2 + FOLLOWER_GAP
        radius = lead.base.bounding_radius + follower.base.bounding_radius + FOLLOWER_GAP
        radius += ring * spacing
        slots = max(1, int(math.pi * radius / spacing))
        for slot in range(slots):
            if not remaining:
                break
            angle = -math.pi / 2 + math.pi * (slot + 0.5) / slots
            ux = ix * math.cos(angle) - iy * math.sin(angle)
            uy = ix * math.sin(angle) + iy * math.cos(angle)
            x, y = lead.x + ux * radius, lead.y + uy * radius
            r = follower.base.bounding_radius
            if not (r <= x <= bf.width - r and r <= y <= bf.depth - r):
                continue
            candidate = remaining[0].placed(x, y)
            if any(
                math.hypot(candidate.x - p.x, candidate.y - p.y)
                < candidate.base.bounding_radius + p.base.bounding_radius
                for p in placed
            ):
                continue
            placed.append(candidate)
            remaining.pop(0)
        ring += 1
        if ring > FOLLOWER_RINGS or reach_lead < 0:
            raise RulesError('no room to place the other models within 2" of the lead model')
    return placed


def scout_edit(scenario: Scenario, unit_id: str) -> Scenario:
    """Scout And Secure ``unit_id``: spend its cost in Threat Points (Command Points
    untouched), its first model onto the table edge, the others within 2" of it, protected
    until it moves. ``RulesError`` when the points or the room are short."""
    unit = scenario.unit(unit_id)
    if not unit.models:
        raise RulesError(f"{unit_id} has no models")
    ledgers = ledgers_from_scenario(scenario)
    ledgers[unit.player] = scout_and_secure(ledgers[unit.player], unit, current_turn(scenario))
    lead = lead_onto_edge(scenario, unit.models[0], unit.player)
    followers = follower_positions(scenario, lead, list(unit.models[1:]), unit.player)
    staged = scenario.with_models([lead, *followers])
    staged = with_ledgers(staged, ledgers)
    scouted = dict(game_section(staged, SECTION).get("scout_and_secure", {}))
    scouted[unit_id] = {"lead": lead.id, "moved": False}
    staged = with_game_key(staged, SECTION, "scout_and_secure", scouted)
    problems = lead_model_violations(staged, unit_id, lead.id) + follower_violations(
        staged, unit_id, lead.id
    )
    if problems:
        raise RulesError("; ".join(v.message for v in problems))
    return staged
