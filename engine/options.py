"""``scenario.options``: the keys every rule system shares.

Each rule system's :class:`engine.rulesets.base.Ruleset` lists the option keys it reads in
``option_checks``, each with the :class:`engine.format_schema.Kind` its value is read as,
merged with :data:`COMMON_OPTION_CHECKS` here: options are scoped per rule system, and the
file reader checks a file's options against its own rule system's table only.

>>> sorted(COMMON_OPTION_CHECKS)[:3]
['coherency', 'contest_range', 'deployment_variant']
>>> COMMON_OPTION_CHECKS["objective_measure"].describe()
'`"centre"` or `"edge"`'
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.format_schema import DISTANCE, Choice, DeploymentVariantKind, Flag, Keywords, Kind

OptionCheck = Kind
"""How an option's value is read and checked (path-named problems, bounds, references)."""

MOVEMENT_BLOCKING_CHOICES = ("solid", "every-feature", "impassable", "none")
"""What blocks moves (:mod:`engine.movement`): solid features and impassable areas (the
default), every feature and impassable areas, impassable areas only, nothing."""

COMMON_OPTION_CHECKS: Mapping[str, OptionCheck] = {
    "objective_range": DISTANCE,
    "contest_range": DISTANCE,
    "objective_measure": Choice(("centre", "edge")),
    "vertical_range": DISTANCE,
    "engagement_range": DISTANCE,
    "engagement_vertical_range": DISTANCE,
    # Line of sight (engine.visibility): whether obscuring terrain areas block sight.
    "obscuring": Choice(("block", "cover-only")),
    # Unit coherency (engine.coherency): off unless a file turns it on.
    "coherency": Flag(),
    # Arriving from reserves (engine.arrival): the set-up distance from enemy models.
    "reserves_distance": DISTANCE,
    # Moves around terrain (engine.movement): what blocks, which keywords cross features.
    "movement_blocking": Choice(MOVEMENT_BLOCKING_CHOICES),
    "movement_passes": Keywords(),
    # Deployment maps (engine.deployments), which a file of any rule system may name.
    "deployment_variant": DeploymentVariantKind(),
}
"""The option keys of the shared rules (objective control, engagement, line of sight, unit
coherency, moves around terrain, deployment maps), in every system."""
