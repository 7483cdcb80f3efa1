"""Deployments the engine tests share, spelled out as regions so a test does not depend on a
deployment card's data file."""

from __future__ import annotations

from engine.model import CustomDeployment, DeploymentRegion

RED_SOUTH_BLUE_NORTH = CustomDeployment(
    zones=(
        DeploymentRegion("red-dz", "red", ((0, 0), (60, 0), (60, 12), (0, 12))),
        DeploymentRegion("blue-dz", "blue", ((0, 32), (60, 32), (60, 44), (0, 44))),
    ),
    territories=(
        DeploymentRegion("red-t", "red", ((0, 0), (60, 0), (60, 22), (0, 22))),
        DeploymentRegion("blue-t", "blue", ((0, 22), (60, 22), (60, 44), (0, 44))),
    ),
)
"""On a 60" x 44" table: 12" deep zones along the south (red) and north (blue) edges; each
player's territory is their half, split at y = 22"."""
