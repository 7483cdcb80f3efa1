"""Warplan's rules engine: pure Python over immutable values, never Qt.

The public API is re-exported here as the modules land; see ``docs/architecture.md``.
"""

from engine.errors import (
    FormatVersionError,
    GeometryError,
    Problem,
    RulesError,
    ScenarioError,
    UnknownReferenceError,
    WarplanError,
)
from engine.model import Scenario

__all__ = [
    "FormatVersionError",
    "GeometryError",
    "Problem",
    "RulesError",
    "Scenario",
    "ScenarioError",
    "UnknownReferenceError",
    "WarplanError",
]
