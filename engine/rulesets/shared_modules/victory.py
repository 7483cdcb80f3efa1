"""Annihilation: "If a player's opponent has no units remaining that can be issued commands,
that player wins immediately."

A unit can be issued commands when it has a model on the battlefield, is not recorded
destroyed (``game.shared_modules.destroyed``) and is not marked ``extra.cannot_be_commanded``.
Units not yet deployed (``game.shared_modules.undeployed``) count only with option
``annihilation_counts_undeployed``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.battlefield_edges import EDGE_NAMES, board_edge, model_edge_far_distance
from engine.geometry import TOLERANCE
from engine.model import Scenario, Unit
from engine.rulesets.shared_modules.modules import uses_module


@dataclass(frozen=True)
class AnnihilationResult:
    """Who wins by Annihilation now (``None``: nobody), and each player's commandable units."""

    winner: str | None
    commandable: Mapping[str, tuple[str, ...]]
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "commandable": {p: sorted(u) for p, u in sorted(self.commandable.items())},
            "reason": self.reason,
        }


def can_be_commanded(scenario: Scenario, unit: Unit) -> bool:
    state: Mapping[str, Any] = (scenario.game or {}).get("shared_modules") or {}
    if unit.id in state.get("destroyed", ()) or unit.extra.get("cannot_be_commanded") is True:
        return False
    if unit.id in state.get("undeployed", ()):
        return bool(scenario.option("annihilation_counts_undeployed", False))
    return any(
        all(
            model_edge_far_distance(m, board_edge(scenario.battlefield, name)) >= -TOLERANCE
            for name in EDGE_NAMES
        )
        for m in unit.models
    )


def annihilation(scenario: Scenario) -> AnnihilationResult:
    """The Annihilation victory condition, as the table stands."""
    players = scenario.player_ids()
    commandable = {
        p: tuple(sorted(u.id for u in scenario.units_of(p) if can_be_commanded(scenario, u)))
        for p in players
    }
    if not uses_module(scenario, "annihilation"):
        return AnnihilationResult(None, commandable, "this scenario does not use Annihilation")
    beaten = [p for p in players if not commandable[p]]
    if len(beaten) == 1:
        winner = scenario.opponent_of(beaten[0])
        return AnnihilationResult(
            winner,
            commandable,
            f"{beaten[0]} has no units remaining that can be issued commands: {winner} wins "
            "immediately",
        )
    if len(beaten) == 2:
        return AnnihilationResult(
            None, commandable, "neither player has units that can be issued commands"
        )
    return AnnihilationResult(
        None, commandable, "both players have units that can be issued commands"
    )
