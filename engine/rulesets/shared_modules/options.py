"""The ``scenario.options`` keys the Shared Scenario Modules read, each with a check.

Checks from :mod:`engine.options`; the Shared Scenario Modules ruleset offers them as its
``option_checks``.

>>> OPTION_CHECKS["modules"](["battle-formations"]) is None
True
>>> OPTION_CHECKS["formation_edge_measure"]("some")
"must be one of wholly, any; got 'some'"
"""

from __future__ import annotations

from typing import Any

from engine.options import OptionValueCheck, choice, distance, edges, flag, player_id
from engine.rulesets.shared_modules.modules import module_ids


def module_list(value: Any) -> str | None:
    """A list of module ids."""
    known = module_ids()
    if isinstance(value, list | tuple) and all(isinstance(v, str) and v in known for v in value):
        return None
    return f"must be a list of module ids ({', '.join(known)}); got {value!r}"


OPTION_CHECKS: dict[str, OptionValueCheck] = {
    "modules": module_list,
    "table_edges": edges,
    "deploys_first": player_id,
    "formation_edge_depth": distance,
    "formation_coherency": distance,
    "formation_unit_spacing": distance,
    "formation_edge_measure": choice("wholly", "any"),
    "scout_follow_distance": distance,
    "objective_range": distance,
    "contest_range": distance,
    "defense_range": distance,
    "annihilation_counts_undeployed": flag,
}
"""Shared Scenario Modules option keys and their value checks."""
