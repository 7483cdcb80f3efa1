"""The rule systems, as plug-ins of one shape: each package exports one
:class:`engine.rulesets.base.Ruleset` object (its ``ruleset.py``), and :func:`ruleset_for`
finds the one a scenario plays by.

- :mod:`.wh40k_ca2026`: Chapter Approved 2026-27 (``wh40k-ca2026``).
- :mod:`.shared_modules`: Shared Scenario Modules (``shared-modules``).
- :mod:`.scrollhammer`: Scrollhammer (``scrollhammer``).

>>> ruleset_for("scrollhammer").name
'Scrollhammer'
>>> [ruleset_for(r).id for r in RULESET_IDS] == list(RULESET_IDS)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING

from engine.errors import UnknownReferenceError
from engine.model import RULESETS, Scenario

if TYPE_CHECKING:
    from engine.rulesets.base import Ruleset

RULESET_IDS: tuple[str, ...] = RULESETS
"""Every rule system's id, in the order the file format lists them."""


def ruleset_for(scenario_or_id: Scenario | str) -> Ruleset:
    """The rule system of a scenario (or of a ruleset id); ``UnknownReferenceError`` for an id
    no package provides."""
    ruleset_id = scenario_or_id if isinstance(scenario_or_id, str) else scenario_or_id.ruleset
    found = _registry().get(ruleset_id)
    if found is None:
        raise UnknownReferenceError(
            f"unknown ruleset {ruleset_id!r} (known: {', '.join(RULESET_IDS)})"
        )
    return found


def other_systems_options(ruleset_id: str) -> frozenset[str]:
    """The option keys other rule systems read and ``ruleset_id``'s does not: what a new game
    of ``ruleset_id`` drops from a scenario.

    >>> sorted(other_systems_options("wh40k-ca2026"))[:3]
    ['annihilation_counts_undeployed', 'base_contact', 'centre_clear_radius']
    >>> "mission" in other_systems_options("scrollhammer")
    False
    """
    own = set(ruleset_for(ruleset_id).option_checks)
    return frozenset(
        key
        for other in RULESET_IDS
        if other != ruleset_id
        for key in ruleset_for(other).option_checks
        if key not in own
    )


@cache
def _registry() -> Mapping[str, Ruleset]:
    # Imported on first use: the packages build on the core rules modules, which look their
    # ruleset up here, so importing the packages with this module would be circular.
    from engine.rulesets.scrollhammer.ruleset import RULESET as scrollhammer
    from engine.rulesets.shared_modules.ruleset import RULESET as shared_modules
    from engine.rulesets.wh40k_ca2026.ruleset import RULESET as wh40k_ca2026

    found = {r.id: r for r in (wh40k_ca2026, shared_modules, scrollhammer)}
    assert tuple(found) == RULESET_IDS
    return found
