"""Rule violations, ready for the app to draw and the ruling dock to show.

Every set-up check of the Scrollhammer missions and the Shared Scenario Modules returns
:class:`Violation` values: the rule (named as its rules document titles it), a message that
names the items and the rule, the ids involved, and the points to draw (closest points of the
two things too close, say), with the measured distance against the rule's limit.

>>> v = Violation("Alternating Terrain", 'ruin-1 is 2.5" from wood-2 (must be more than 3")',
...               ("ruin-1", "wood-2"), distance=2.5, limit=3.0)
>>> v.to_json()["items"]
['ruin-1', 'wood-2']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.model import Point


@dataclass(frozen=True)
class Violation:
    """One broken rule: what, who, where, and by how much."""

    rule: str
    message: str
    items: tuple[str, ...] = ()
    points: tuple[Point, ...] = ()
    distance: float | None = None
    limit: float | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for the ruling dock (ids sorted, points as ``[x, y]`` lists)."""
        return {
            "rule": self.rule,
            "message": self.message,
            "items": sorted(self.items),
            "points": [[x, y] for x, y in self.points],
            "distance": self.distance,
            "limit": self.limit,
        }


def inches(value: float) -> str:
    """A distance as a judge reads it aloud.

    >>> inches(2.99999)
    '3"'
    >>> inches(12.0004)
    '12.0004"'
    """
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return f'{text}"'
