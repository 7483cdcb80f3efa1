"""Card text and live scoring lines as small HTML for the docks' text browsers."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from engine.score_report import CardResult, ScoreReport

if TYPE_CHECKING:
    from gui.rulesets.wh40k_ca2026.context import MissionContext

PLAYER_COLOURS = ("#c0392b", "#2c6fbb")
"""The first and second player's colours (the battlefield's red and blue)."""


def card_result(report: ScoreReport | None, player: str, name: str) -> CardResult | None:
    """The :class:`engine.rulesets.wh40k_ca2026.scoring.CardResult` of ``name`` for ``player``, or
    None."""
    if report is None:
        return None
    try:
        cards = report.player(player).cards
    except KeyError:
        return None
    return next((c for c in cards if c.name == name), None)


def scoring_html(result: CardResult | None) -> str:
    """What a card scores at this moment, line by line, with the engine's reasons."""
    if result is None:
        return "<p><i>Not scored: the game section does not say which moment it is.</i></p>"
    head = f"<p><b>Scores now: {result.vp}VP</b>"
    if result.note:
        head += f" <span style='color:#a04000'>({escape(result.note)})</span>"
    head += "</p>"
    if not result.lines:
        return head + "<p><i>Nothing on this card scores at this moment.</i></p>"
    rows = []
    for line in result.lines:
        mark = "&#10003;" if line.holds else "&#10007;"
        colour = "#1e7b34" if line.holds else "#8a8a8a"
        rows.append(
            f"<li><span style='color:{colour}'><b>{mark} {line.vp}VP</b></span> "
            f"{escape(line.text)}<br><small>{escape(line.reason)}</small></li>"
        )
    return head + "<ul style='margin-left:-20px'>" + "".join(rows) + "</ul>"


def card_text_html(name: str, kind: str | None = None) -> str:
    """The printed text of a Mission card, verbatim, as paragraphs."""
    from engine.errors import UnknownReferenceError
    from engine.rulesets.wh40k_ca2026 import card

    try:
        found = card(name, kind)  # type: ignore[arg-type]
    except UnknownReferenceError as error:
        return f"<p><i>{escape(str(error))}</i></p>"
    lines = [p for p in found.text.split("\n") if p.strip()]
    if lines and lines[0].strip() == found.name:
        lines = lines[1:]
    if lines and lines[0].startswith(("Secondary Mission", "Primary Mission")):
        lines = lines[1:]
    paragraphs = "".join(f"<p style='margin:2px 0'>{escape(p)}</p>" for p in lines)
    return f"<h4 style='margin:0'>{escape(found.name)}</h4>{paragraphs}"


def preview_html(context: MissionContext, player: str, name: str) -> str:
    """What ``name`` would score at the battle round's other scoring moments where it scores
    at all (the engine's moments, in the order they happen)."""
    from engine.rulesets.wh40k_ca2026.edits import TIMING_LABELS

    rows = []
    battle_round = 0
    for moment, report in context.scores_at_other_moments().items():
        result = card_result(report, player, name)
        if result is None or not result.lines:
            continue
        battle_round = moment.battle_round
        whose = "your" if moment.active_player == player else "your opponent's"
        label = TIMING_LABELS[moment.timing].lower().replace("end of", f"end of {whose}", 1)
        reasons = "; ".join(line.reason.split(": ", 1)[-1] for line in result.lines)
        rows.append(
            f"<li>At the {escape(label)}: <b>{result.vp}VP</b> <small>({escape(reasons)})</small>"
            "</li>"
        )
    if not rows:
        return ""
    return (
        f"<p style='margin-bottom:0'><b>If it were another moment of battle round "
        f"{battle_round}</b> (same battlefield):</p><ul style='margin-left:-20px'>"
        + "".join(rows)
        + "</ul>"
    )
