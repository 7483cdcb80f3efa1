"""Warplan's rules engine: pure Python over immutable values, never Qt.

The public API, re-exported from the modules that define it (``docs/architecture.md`` maps
them):

>>> from engine import load_scenario, evaluate
>>> from pathlib import Path
>>> demo = load_scenario(Path(__file__).parent.parent / "assets/scenarios/demo.warplan.json")
>>> ruling = evaluate(demo, visibility=False)
>>> [o.id for o in ruling.objectives if o.controlled_by == ("red",)]
['obj-home-red', 'obj-expansion-w']
"""

from engine.deployments import ResolvedDeployment, deployment_ids, resolve_deployment
from engine.errors import (
    FormatVersionError,
    GeometryError,
    Problem,
    RulesError,
    ScenarioError,
    UnknownReferenceError,
    WarplanError,
)
from engine.evaluate import (
    Evaluation,
    IncrementalEvaluator,
    RulesInForce,
    evaluate,
    rules_in_force,
)
from engine.geometry import closest_points, model_closest_point
from engine.model import Scenario
from engine.overlaps import base_overlaps
from engine.scenario_io import (
    dumps_scenario,
    load_scenario,
    loads_scenario,
    parse_scenario,
    save_scenario,
    scenario_to_json,
    validate_path,
)
from engine.visibility import PairVisibility, VisibilityEngine, visibility

__all__ = [
    "Evaluation",
    "FormatVersionError",
    "GeometryError",
    "IncrementalEvaluator",
    "PairVisibility",
    "Problem",
    "ResolvedDeployment",
    "RulesError",
    "RulesInForce",
    "Scenario",
    "ScenarioError",
    "UnknownReferenceError",
    "VisibilityEngine",
    "WarplanError",
    "base_overlaps",
    "closest_points",
    "deployment_ids",
    "dumps_scenario",
    "evaluate",
    "load_scenario",
    "loads_scenario",
    "model_closest_point",
    "parse_scenario",
    "resolve_deployment",
    "rules_in_force",
    "save_scenario",
    "scenario_to_json",
    "validate_path",
    "visibility",
]
