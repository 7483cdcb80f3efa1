"""``scenario.options``: value checks, and the keys every rule system shares.

A check is ``check(value) -> message | None`` (``None``: valid). Each rule system's
:class:`engine.rulesets.base.Ruleset` lists its own keys in ``option_checks``, merged with
:data:`COMMON_OPTION_CHECKS` here, so options are scoped per rule system.

>>> COMMON_OPTION_CHECKS["objective_measure"]("edge") is None
True
>>> choice("SW-NE", "NW-SE")("N-S")
"must be one of SW-NE, NW-SE; got 'N-S'"
>>> distance(-1)
'must be a non-negative number, got -1'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.battlefield_edges import EDGE_NAMES

OptionValueCheck = Callable[[Any], "str | None"]


def choice(*allowed: str) -> OptionValueCheck:
    """A check that the value is one of ``allowed``."""

    def check(value: Any) -> str | None:
        if isinstance(value, str) and value in allowed:
            return None
        return f"must be one of {', '.join(allowed)}; got {value!r}"

    return check


def distance(value: Any) -> str | None:
    """A non-negative number of inches."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        return f"must be a non-negative number, got {value!r}"
    return None


def positive(value: Any) -> str | None:
    """A positive number."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        return f"must be a positive number, got {value!r}"
    return None


def flag(value: Any) -> str | None:
    """A boolean."""
    return None if isinstance(value, bool) else f"must be true or false, got {value!r}"


def edges(value: Any) -> str | None:
    """``{player id: edge name}``."""
    if not isinstance(value, Mapping) or not all(
        isinstance(v, str) and v in EDGE_NAMES for v in value.values()
    ):
        return f"must map player ids to {', '.join(EDGE_NAMES)}; got {value!r}"
    return None


def player_id(value: Any) -> str | None:
    """A player id (checked against the players by the functions that read it)."""
    return None if isinstance(value, str) and value else f"must be a player id, got {value!r}"


COMMON_OPTION_CHECKS: Mapping[str, OptionValueCheck] = {
    "objective_range": distance,
    "contest_range": distance,
    "objective_measure": choice("centre", "edge"),
    "vertical_range": distance,
    "engagement_range": distance,
    "engagement_vertical_range": distance,
}
"""The option keys of the shared rules (objective control and engagement), in every system."""


def option_problems(
    options: Mapping[str, Any], checks: Mapping[str, OptionValueCheck]
) -> dict[str, str]:
    """Each option key whose value a check refuses, or that no check knows, with the message.

    >>> option_problems({"objective_range": -2, "colour": "red"}, COMMON_OPTION_CHECKS)
    {'objective_range': 'must be a non-negative number, got -2', 'colour': 'unknown option'}
    """
    problems: dict[str, str] = {}
    for key, value in options.items():
        check = checks.get(key)
        message = "unknown option" if check is None else check(value)
        if message is not None:
            problems[key] = message
    return problems
