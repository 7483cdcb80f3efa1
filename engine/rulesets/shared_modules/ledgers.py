"""Threat Points and Command Points: two separate ledgers; All-Out War refunds.

"Spending Threat Points does not spend Command Points, and spending Command Points does not
spend Threat Points, unless a scenario explicitly says otherwise." Each ledger is an immutable
list of entries; its balance is their sum, and spending more than the balance is refused.

All-Out War: "At the end of each turn, each player gains a Threat Point refund for each of their
units destroyed during that turn. For each destroyed unit, refund Threat Points equal to that
unit's cost minus 1, to a minimum of 0."

>>> red = PlayerLedgers.start("red", threat=10, command=3)
>>> red = red.spend_threat(4, "Scout and Secure: red-scouts")
>>> red.threat.balance, red.command.balance
(6, 3)
>>> all_out_war_refund(1), all_out_war_refund(5)
(0, 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine.errors import RulesError
from engine.model import Scenario, Unit

LedgerKind = Literal["threat", "command"]
LEDGER_NAMES: Mapping[LedgerKind, str] = {"threat": "Threat Points", "command": "Command Points"}


@dataclass(frozen=True)
class LedgerEntry:
    """A gain (positive) or a spend (negative), with why and when."""

    amount: int
    reason: str
    turn: int | None = None


@dataclass(frozen=True)
class PointsLedger:
    """One player's Threat Points or Command Points."""

    kind: LedgerKind
    player: str
    entries: tuple[LedgerEntry, ...] = ()

    @property
    def balance(self) -> int:
        return sum(entry.amount for entry in self.entries)

    def gain(self, amount: int, reason: str, turn: int | None = None) -> PointsLedger:
        """This ledger after gaining ``amount`` (0 or more)."""
        if amount < 0:
            raise RulesError(f"{self.player} cannot gain a negative amount of {self.name}")
        return replace(self, entries=(*self.entries, LedgerEntry(amount, reason, turn)))

    def spend(self, amount: int, reason: str, turn: int | None = None) -> PointsLedger:
        """This ledger after spending ``amount``; ``RulesError`` if the balance is short."""
        if amount < 0:
            raise RulesError(f"{self.player} cannot spend a negative amount of {self.name}")
        if amount > self.balance:
            raise RulesError(
                f"{self.player} has {self.balance} {self.name} and cannot spend {amount} ({reason})"
            )
        return replace(self, entries=(*self.entries, LedgerEntry(-amount, reason, turn)))

    @property
    def name(self) -> str:
        return LEDGER_NAMES[self.kind]

    def to_json(self) -> list[dict[str, Any]]:
        return [{"amount": e.amount, "reason": e.reason, "turn": e.turn} for e in self.entries]


@dataclass(frozen=True)
class PlayerLedgers:
    """A player's two ledgers, kept apart."""

    player: str
    threat: PointsLedger
    command: PointsLedger

    @classmethod
    def start(cls, player: str, *, threat: int = 0, command: int = 0) -> PlayerLedgers:
        """Ledgers opened with the starting amounts."""
        threat_ledger = PointsLedger("threat", player)
        command_ledger = PointsLedger("command", player)
        if threat:
            threat_ledger = threat_ledger.gain(threat, "starting Threat Points")
        if command:
            command_ledger = command_ledger.gain(command, "starting Command Points")
        return cls(player, threat_ledger, command_ledger)

    def spend_threat(self, amount: int, reason: str, turn: int | None = None) -> PlayerLedgers:
        """Spend Threat Points only: Command Points are untouched."""
        return replace(self, threat=self.threat.spend(amount, reason, turn))

    def spend_command(self, amount: int, reason: str, turn: int | None = None) -> PlayerLedgers:
        """Spend Command Points only: Threat Points are untouched."""
        return replace(self, command=self.command.spend(amount, reason, turn))

    def gain_threat(self, amount: int, reason: str, turn: int | None = None) -> PlayerLedgers:
        return replace(self, threat=self.threat.gain(amount, reason, turn))

    def gain_command(self, amount: int, reason: str, turn: int | None = None) -> PlayerLedgers:
        return replace(self, command=self.command.gain(amount, reason, turn))


def unit_cost(unit: Unit) -> int:
    """A unit's cost, from ``extra.cost`` (the scenario format has no cost field)."""
    cost = unit.extra.get("cost")
    if isinstance(cost, bool) or not isinstance(cost, int) or cost < 0:
        raise RulesError(f"{unit.id} has no cost (extra.cost must be a whole number of 0 or more)")
    return cost


def all_out_war_refund(cost: int) -> int:
    """Threat Points refunded for one destroyed unit: its cost minus 1, to a minimum of 0."""
    if cost < 0:
        raise RulesError(f"a unit's cost cannot be negative, got {cost}")
    return max(cost - 1, 0)


@dataclass(frozen=True)
class Refund:
    """One All-Out War refund: the destroyed unit, its owner, cost and the points refunded."""

    unit_id: str
    player: str
    cost: int
    refund: int

    @property
    def reason(self) -> str:
        return (
            f"All-Out War: {self.unit_id} destroyed, cost {self.cost}: refund "
            f"{self.cost} - 1 = {self.refund}"
            if self.cost >= 1
            else f"All-Out War: {self.unit_id} destroyed, cost 0: refund 0 (minimum 0)"
        )


def all_out_war_refunds(
    scenario: Scenario, destroyed_this_turn: Iterable[str]
) -> tuple[Refund, ...]:
    """The refunds due at the end of a turn for the units destroyed during it (sorted by id)."""
    refunds = []
    for unit_id in sorted(set(destroyed_this_turn)):
        unit = scenario.unit(unit_id)
        cost = unit_cost(unit)
        refunds.append(Refund(unit_id, unit.player, cost, all_out_war_refund(cost)))
    return tuple(refunds)


def apply_refunds(
    ledgers: Mapping[str, PlayerLedgers], refunds: Iterable[Refund], turn: int | None = None
) -> dict[str, PlayerLedgers]:
    """Each player's ledgers after the refunds (Threat Points only)."""
    result = dict(ledgers)
    for refund in refunds:
        result[refund.player] = result[refund.player].gain_threat(
            refund.refund, refund.reason, turn
        )
    return result
