"""Scoring results, the same shape for every rule system: players, cards, lines.

``ScoreReport.to_json()`` is the ``python -m engine score FILE --json`` contract.

>>> line = LineResult("For each objective you control.", True, 3, "controls obj-a")
>>> card = CardResult("BATTLEFIELD DOMINANCE", "primary", 3, (line,))
>>> report = ScoreReport(2, "red", "end_of_turn", (PlayerResult("red", 3, (card,)),))
>>> report.to_json()["players"]["red"]["cards"]["BATTLEFIELD DOMINANCE"]["vp"]
3
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class LineResult:
    """One line now: does its condition hold, the VP it gives, and why."""

    text: str
    holds: bool
    vp: int
    reason: str
    decided: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "holds": self.holds, "vp": self.vp, "reason": self.reason}


@dataclass(frozen=True)
class CardResult:
    """One card (or mission, or module) and the lines of it that score now."""

    name: str
    kind: str
    vp: int
    lines: tuple[LineResult, ...]
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"vp": self.vp, "lines": [line.to_json() for line in self.lines]}
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class PlayerResult:
    """One player's victory points now, card by card."""

    player: str
    vp: int
    cards: tuple[CardResult, ...]

    def to_json(self) -> dict[str, Any]:
        return {"vp": self.vp, "cards": {c.name: c.to_json() for c in self.cards}}


@dataclass(frozen=True)
class ScoreReport:
    """What a rule system's ``score`` concludes; ``to_json()`` is the ``score --json``
    contract (extended by :attr:`extra`)."""

    battle_round: int | None
    active_player: str | None
    timing: str | None
    players: tuple[PlayerResult, ...]
    problems: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """Keys a rule system adds to the JSON (a winner, an outcome)."""

    def player(self, player_id: str) -> PlayerResult:
        for p in self.players:
            if p.player == player_id:
                return p
        raise KeyError(player_id)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "battle_round": self.battle_round,
            "active_player": self.active_player,
            "timing": self.timing,
            "players": {p.player: p.to_json() for p in self.players},
        }
        if self.problems:
            out["problems"] = list(self.problems)
        out.update(self.extra)
        return out

    def text(self) -> str:
        """A readable summary, one card per paragraph."""
        head = (
            f"Battle round {self.battle_round}, {self.active_player}'s turn, "
            f"{(self.timing or 'no timing').replace('_', ' ')}"
        )
        out = [head]
        out.extend(f"! {p}" for p in self.problems)
        for p in self.players:
            out.append(f"\n{p.player}: {p.vp}VP now")
            for c in p.cards:
                out.append(f"  {c.name} ({c.kind}): {c.vp}VP" + (f" [{c.note}]" if c.note else ""))
                if not c.lines:
                    out.append("    nothing scores at this moment")
                for line in c.lines:
                    mark = "+" if line.holds else "-"
                    out.append(f"    {mark} {line.vp}VP  {line.text}")
                    out.append(f"        {line.reason}")
        return "\n".join(out)
