"""What the shared Mission dock and score chart show for a Scrollhammer game: the Standard
Mission, its set-up, and the tally "if the game ended now" (Scrollhammer counts Victory
Points when the game ends, not by battle round)."""

from __future__ import annotations

from html import escape

from engine.errors import WarplanError
from engine.model import EMPTY, Scenario
from engine.rulesets.scrollhammer import victory_points
from engine.rulesets.scrollhammer.missions import mission_of
from gui.rulesets.common import player_name
from gui.rulesets.scrollhammer.new_game import describe_setup


def mission_summary(scenario: Scenario) -> tuple[str, str]:
    """(summary line, mission text) for the Mission dock, HTML."""
    setup = (scenario.game or EMPTY).get("setup") or EMPTY
    try:
        mission = mission_of(scenario.option("mission") or setup.get("mission"))
    except WarplanError as error:
        return escape(str(error)), ""
    if mission is None:
        return (
            "No Standard Mission is chosen (options.mission). Use New game... to choose "
            "one or roll the D6 chart."
        ), ""
    info = describe_setup(scenario) if setup else f"<b>{mission.title}</b>"
    sections = [
        ("The battlefield", [mission.battlefield_text, mission.objective_text]),
        ("Deployment", [mission.deployment_text]),
        ("First turn", [mission.first_turn_text]),
        ("Victory conditions", list(mission.victory_text)),
        ("Special rules", list(mission.special_rules)),
    ]
    html = [f"<h3>{escape(mission.title)}</h3>"]
    for title, paragraphs in sections:
        kept = [p for p in paragraphs if p]
        if kept:
            html.append(f"<h4>{title}</h4>" + "".join(f"<p>{escape(p)}</p>" for p in kept))
    html.append(_victory_html(scenario))
    return info, "".join(html)


def _victory_html(scenario: Scenario) -> str:
    try:
        result = victory_points(scenario)
    except WarplanError as error:
        return f"<p><i>Victory points cannot be counted: {escape(str(error))}</i></p>"
    lines = "".join(
        f"<li>{escape(player_name(scenario, line.player))} +{line.vp}VP: "
        f"{escape(line.source)} ({escape(line.reason)})</li>"
        for line in result.lines
    )
    return (
        f"<h4>If the game ended now</h4><p><b>{escape(result.outcome)}</b>: "
        f"{escape(result.reason)}</p><ul>{lines}</ul>"
    )


def chart_caption(scenario: Scenario) -> str:
    """The score chart's words: nothing to chart by round, the tally if the game ended now."""
    try:
        result = victory_points(scenario)
    except WarplanError as error:
        return f"Scrollhammer Victory Points cannot be counted: {error}"
    tally = ", ".join(
        f"{player_name(scenario, p)} {result.vp.get(p, 0)}VP" for p in scenario.player_ids()
    )
    return (
        "Scrollhammer counts Victory Points when the game ends, not by battle round. "
        f"If the game ended now: {tally} ({result.outcome})."
    )
