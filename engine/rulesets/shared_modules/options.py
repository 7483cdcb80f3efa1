"""The ``scenario.options`` keys the Shared Scenario Modules read, each with how its value is
read (an :class:`engine.format_schema.Kind`); the Shared Scenario Modules ruleset offers them,
with the shared keys of :mod:`engine.options`, as its ``option_checks``.

>>> from engine.format_schema import Reader
>>> reader = Reader()
>>> _ = OPTION_CHECKS["modules"].read(reader, ["battle-formations", "all-in-war"], "modules")
>>> [str(p) for p in reader.problems]
['modules[1]: unknown module "all-in-war"; did you mean "all-out-war"?']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.format_messages import index, unknown_name
from engine.format_schema import (
    DISTANCE,
    INVALID,
    Choice,
    Flag,
    Kind,
    ListOf,
    Reader,
    Reference,
    TableEdgesKind,
    Text,
)
from engine.rulesets.shared_modules.modules import module_ids


@dataclass(frozen=True)
class ModulesKind(Kind):
    """A list of module ids (as the modules data names them)."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        names = ListOf(Text(non_empty=True)).read(reader, value, path)
        if names is INVALID:
            return INVALID
        known = module_ids()
        unknown = [
            (i, name)
            for i, name in enumerate(value if isinstance(value, list | tuple) else ())
            if isinstance(name, str) and name and name not in known
        ]
        for i, name in unknown:
            reader.problem(index(path, i), unknown_name("module", name, known))
        return INVALID if unknown else names

    def describe(self) -> str:
        return "array of module ids"


OPTION_CHECKS: dict[str, Kind] = {
    "modules": ModulesKind(),
    "table_edges": TableEdgesKind(),
    "deploys_first": Reference("player"),
    "formation_edge_depth": DISTANCE,
    "formation_coherency": DISTANCE,
    "formation_unit_spacing": DISTANCE,
    "formation_edge_measure": Choice(("wholly", "any")),
    "scout_follow_distance": DISTANCE,
    "defense_range": DISTANCE,
    "annihilation_counts_undeployed": Flag(),
}
"""Shared Scenario Modules option keys (beyond the shared ones) and how their values are read."""
