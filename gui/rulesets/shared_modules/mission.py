"""What the shared Mission dock and score chart show for a Shared Scenario Modules game: the
modules in use with their text, who deploys first, Annihilation."""

from __future__ import annotations

from html import escape

from engine.errors import WarplanError
from engine.model import Scenario
from engine.rulesets.shared_modules import annihilation, deployment_order, modules_in_use
from engine.rulesets.shared_modules._data import modules_data
from gui.rulesets.common import player_name


def mission_summary(scenario: Scenario) -> tuple[str, str]:
    """(summary line, the text of the modules in use) for the Mission dock, HTML."""
    try:
        in_use = modules_in_use(scenario)
        first, _second = deployment_order(scenario)
        result = annihilation(scenario)
    except WarplanError as error:
        return escape(str(error)), ""
    info = (
        f"Deploys first: <b>{escape(player_name(scenario, first))}</b> \u2022 "
        f"Annihilation: {escape(result.reason)}"
    )
    html = []
    for module in modules_data()["modules"]:
        if module["id"] in in_use:
            body = "".join(f"<p>{escape(str(t))}</p>" for t in module["text"])
            html.append(f"<h4>{escape(str(module['name']))}</h4>{body}")
    return info, "".join(html)


def chart_caption(_scenario: Scenario) -> str:
    return (
        "The Shared Scenario Modules award no Victory Points by battle round "
        "(Annihilation wins immediately); nothing to chart."
    )
