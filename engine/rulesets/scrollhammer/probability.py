"""Exact dice probabilities (fractions, never simulations) and the charts built from them.

The charts the app draws (when the game ends, when reserves arrive, when Night Fighting starts
or ends) are :class:`ProbabilityChart` values: categories along x, one or more series of exact
:class:`fractions.Fraction` values, so a chart and the tests that check it agree to the last
digit.

>>> d6_at_least(3)
Fraction(2, 3)
>>> d6_at_least(3, modifier=-1, natural_fail=1)
Fraction(1, 2)
>>> two_d6()[7]
Fraction(1, 6)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

D6_FACES = (1, 2, 3, 4, 5, 6)


def d6_at_least(target: int, *, modifier: int = 0, natural_fail: int | None = None) -> Fraction:
    """Chance that one D6 plus ``modifier`` reaches ``target``.

    A natural roll equal to ``natural_fail`` always fails whatever the modifier.

    >>> d6_at_least(4)
    Fraction(1, 2)
    >>> d6_at_least(3, modifier=5, natural_fail=1)
    Fraction(5, 6)
    """
    wins = sum(1 for face in D6_FACES if face != natural_fail and face + modifier >= target)
    return Fraction(wins, 6)


def two_d6() -> Mapping[int, Fraction]:
    """The distribution of the sum of two D6 (2 to 12).

    >>> two_d6()[2], two_d6()[12]
    (Fraction(1, 36), Fraction(1, 36))
    """
    counts: dict[int, int] = {}
    for first in D6_FACES:
        for second in D6_FACES:
            counts[first + second] = counts.get(first + second, 0) + 1
    return {total: Fraction(count, 36) for total, count in sorted(counts.items())}


def cumulative(values: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """Running sums: "by turn t" from "at turn t".

    >>> cumulative((Fraction(1, 2), Fraction(1, 4)))
    (Fraction(1, 2), Fraction(3, 4))
    """
    total = Fraction(0)
    sums = []
    for value in values:
        total += value
        sums.append(total)
    return tuple(sums)


@dataclass(frozen=True)
class ChartSeries:
    """One series of a chart: a value per category."""

    name: str
    values: tuple[Fraction, ...]
    style: Literal["bar", "line"] = "bar"


@dataclass(frozen=True)
class ProbabilityChart:
    """A chart of exact probabilities for a decision panel (drawn with pyqtgraph by the app)."""

    title: str
    x_label: str
    categories: tuple[str, ...]
    series: tuple[ChartSeries, ...]
    notes: tuple[str, ...] = ()
    y_label: str = "probability"

    def series_named(self, name: str) -> ChartSeries:
        """The series called ``name`` (``KeyError`` if there is none)."""
        for series in self.series:
            if series.name == name:
                return series
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """JSON with each value both as a float and as an exact ``"p/q"`` string."""
        return {
            "title": self.title,
            "x_label": self.x_label,
            "y_label": self.y_label,
            "categories": list(self.categories),
            "series": [
                {
                    "name": s.name,
                    "style": s.style,
                    "values": [float(v) for v in s.values],
                    "exact": [f"{v.numerator}/{v.denominator}" for v in s.values],
                }
                for s in self.series
            ],
            "notes": list(self.notes),
        }
