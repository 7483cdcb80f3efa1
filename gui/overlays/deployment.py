"""The deployment overlay: zones filled, territories outlined, No Man's Land named."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor

from engine.deployments import resolve_deployment
from engine.model import CustomDeployment, DeploymentRegion, Scenario
from gui import theme
from gui.items import cosmetic_pen
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke, player_name
from gui.shapes import (
    player_colour,
    polygon_path,
    scene_point,
    translucent,
)


def update_deployment_overlay(layer: OverlayLayer, scenario: Scenario) -> None:
    """Zones filled, territories outlined."""
    layer.begin()
    zones: list[DeploymentRegion] = []
    territories: list[DeploymentRegion] = []
    name = ""
    if isinstance(scenario.deployment, CustomDeployment):
        zones, territories, name = (
            list(scenario.deployment.zones),
            list(scenario.deployment.territories),
            "custom",
        )
    elif scenario.deployment is not None:
        resolved = resolve_deployment(scenario)
        if resolved is not None:
            zones, territories = list(resolved.zones), list(resolved.territories)
            name = resolved.name or str(scenario.deployment)
    for territory in territories:
        colour = player_colour(scenario, territory.player)

        def build_territory(
            t: DeploymentRegion = territory, colour: QColor = colour
        ) -> tuple[list[Stroke], None]:
            return [
                Stroke(polygon_path(t.polygon), cosmetic_pen(colour, 1.5, Qt.PenStyle.DashDotLine))
            ], None

        layer.put(("territory", territory.id), (territory.polygon, colour.name()), build_territory)
    for zone in zones:
        colour = player_colour(scenario, zone.player)
        player = player_name(scenario, zone.player)

        def build_zone(
            z: DeploymentRegion = zone, colour: QColor = colour, player: str = player
        ) -> tuple[list[Stroke], LabelSpec]:
            path = polygon_path(z.polygon)
            centre = path.boundingRect().center()
            label = LabelSpec(
                f"{player} deployment zone",
                centre,
                theme.current().text_on_table(colour),
                None,
                anchor="centre",
                bold=True,
            )
            return [
                Stroke(
                    path,
                    cosmetic_pen(colour, 1.5),
                    QBrush(translucent(colour, theme.current().zone_alpha)),
                )
            ], label

        layer.put(("zone", zone.id), (zone.polygon, colour.name(), player), build_zone)
    if zones:
        bf = scenario.battlefield
        title = f"No Man's Land ({name})" if name else "No Man's Land"

        def build_nml() -> tuple[list[Stroke], LabelSpec]:
            return [], LabelSpec(
                title,
                scene_point(bf.width * 0.12, bf.depth / 2),
                theme.current().colour("table_text"),
            )

        layer.put("nml", (title, bf.width, bf.depth), build_nml)
    layer.end()
