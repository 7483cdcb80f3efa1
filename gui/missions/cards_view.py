"""Card text and live scoring lines as small HTML for the docks' text browsers."""

from __future__ import annotations

from html import escape
from typing import Any

PLAYER_COLOURS = ("#c0392b", "#2c6fbb")
"""The first and second player's colours (the battlefield's red and blue)."""


def card_result(report: Any, player: str, name: str) -> Any:
    """The :class:`engine.missions.scoring.CardResult` of ``name`` for ``player``, or None."""
    if report is None:
        return None
    try:
        cards = report.player(player).cards
    except KeyError:
        return None
    return next((c for c in cards if c.name == name), None)


def scoring_html(result: Any) -> str:
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
    from engine.missions import card

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
