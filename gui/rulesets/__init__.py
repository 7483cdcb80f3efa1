"""The registry of the rule systems' app parts: ruleset id -> :class:`gui.plugin_api.RulesetUI`.

Each rule system's app part is one package of the same shape, ``gui/rulesets/<id>/``, exporting
``UI``. The main window installs every one through its plug-in API and never names them; only
the packages themselves know which ruleset is theirs. Shared pieces live in :mod:`.common`
(panel context, edits of the ``game`` section, charts, violation strokes) and
:mod:`gui.panels`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from gui.plugin_api import RulesetUI
from gui.rulesets import scrollhammer, shared_modules, wh40k_ca2026

RULESET_UIS: Mapping[str, RulesetUI] = MappingProxyType(
    {ui.ruleset: ui for ui in (wh40k_ca2026.UI, scrollhammer.UI, shared_modules.UI)}
)
"""Every rule system's app part, in the order the New game dialog offers them."""


def ruleset_ui(ruleset: str) -> RulesetUI | None:
    """The app part of ``ruleset`` (None for a rule system the app has no part for)."""
    return RULESET_UIS.get(ruleset)


__all__ = ["RULESET_UIS", "ruleset_ui"]
