"""Seeded dice for setting up a game: every step of a set-up draws from its own stream, named
by the seed and the step, so the same seed and choices always give the same game.

>>> roll_off(7, "deploy-first", ("red", "blue")) == roll_off(7, "deploy-first", ("red", "blue"))
True
>>> all(1 <= d <= 6 for d in d6(1, "central", 3))
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Roll:
    """A roll-off: each player's D6 per attempt (ties roll again) and the winner."""

    rolls: tuple[tuple[int, int], ...]
    winner: str

    def to_json(self) -> dict[str, Any]:
        return {"rolls": [list(r) for r in self.rolls], "winner": self.winner}


def stream(seed: int, step: str) -> random.Random:
    """The random stream of one named step of a seeded set-up."""
    return random.Random(f"{seed}:{step}")


def d6(seed: int, step: str, count: int = 1) -> tuple[int, ...]:
    """``count`` D6 rolls of the named step of a seeded set-up."""
    rng = stream(seed, step)
    return tuple(rng.randint(1, 6) for _ in range(count))


def roll_off(seed: int, step: str, players: tuple[str, str]) -> Roll:
    """Both players roll a D6; the highest wins; a tie rolls again."""
    rng = stream(seed, step)
    rolls: list[tuple[int, int]] = []
    while True:
        pair = (rng.randint(1, 6), rng.randint(1, 6))
        rolls.append(pair)
        if pair[0] != pair[1]:
            return Roll(tuple(rolls), players[0] if pair[0] > pair[1] else players[1])
