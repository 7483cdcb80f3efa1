"""The Shared Scenario Modules' edits of the scenario: the two ledgers per player, All-Out War
refunds, Scout and Secure.
"""

from __future__ import annotations

import math
from typing import Any

from engine.errors import RulesError
from engine.model import Model, Scenario
from engine.rulesets.scrollhammer.battlefield import model_edge_distance, model_reach
from engine.rulesets.shared_modules import (
    PlayerLedgers,
    all_out_war_refunds,
    apply_refunds,
    follower_violations,
    lead_model_violations,
    ledgers_from_scenario,
    player_edge,
    scout_and_secure,
    uses_module,
)
from gui.rulesets.common import (
    game_section,
    with_game_key,
)

SECTION = "shared_modules"
FOLLOWER_GAP = 0.25
"""Inches between bases when Scout and Secure rings the followers round the lead model."""


# ------------------------------------------------------------------------------ edits


def ledger_json(books: PlayerLedgers) -> dict[str, list[dict[str, Any]]]:
    """A player's two ledgers as ``game.shared_modules.ledgers.<player>`` holds them."""

    def entries(ledger: Any) -> list[dict[str, Any]]:
        out = []
        for entry in ledger.entries:
            item: dict[str, Any] = {"amount": entry.amount, "reason": entry.reason}
            if entry.turn is not None:
                item["turn"] = entry.turn
            out.append(item)
        return out

    return {"threat": entries(books.threat), "command": entries(books.command)}


def with_ledgers(scenario: Scenario, ledgers: dict[str, PlayerLedgers]) -> Scenario:
    return with_game_key(
        scenario, SECTION, "ledgers", {p: ledger_json(b) for p, b in sorted(ledgers.items())}
    )


def current_turn(scenario: Scenario) -> int | None:
    turn = game_section(scenario, SECTION).get("turn")
    return int(turn) if turn is not None else None


def ledger_edit(
    scenario: Scenario, player: str, kind: str, amount: int, spend: bool, reason: str
) -> Scenario:
    """``scenario`` after ``player`` spends or gains ``amount`` of one ledger only."""
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
    """All-Out War: refund the units destroyed this turn (cost - 1, minimum 0) as Threat
    Points, and move them to ``destroyed``."""
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


def _onto_edge(scenario: Scenario, model: Model, player: str) -> Model:
    edge = player_edge(scenario, player)
    gap = model_edge_distance(model, edge)
    return model.placed(model.x - edge.inward[0] * gap, model.y - edge.inward[1] * gap)


def follower_positions(
    scenario: Scenario, lead: Model, followers: list[Model], player: str
) -> list[Model]:
    """The followers in rings round ``lead`` on the table side, each within 2" of it."""
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
        if ring > 6 or reach_lead < 0:
            raise RulesError('no room to place the other models within 2" of the lead model')
    return placed


def scout_edit(scenario: Scenario, unit_id: str) -> Scenario:
    """Scout and Secure ``unit_id``: spend its cost in Threat Points (Command Points
    untouched), its first model onto the table edge, the others within 2" of it, protected."""
    unit = scenario.unit(unit_id)
    if not unit.models:
        raise RulesError(f"{unit_id} has no models")
    ledgers = ledgers_from_scenario(scenario)
    ledgers[unit.player] = scout_and_secure(ledgers[unit.player], unit, current_turn(scenario))
    lead = _onto_edge(scenario, unit.models[0], unit.player)
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
