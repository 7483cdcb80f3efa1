"""The app's one door to engine modules that land while the app is being built.

Some engine modules (scenario files, rules, line of sight, deployment maps, the base catalogue,
the mission generator) are written in parallel with the app. The app must run, and say plainly
what is missing, when one of them is absent; it must never fake its data. ``engine_module``
imports a module if it exists and returns ``None`` only when that module itself is missing
(an error inside an existing module still raises, so real bugs are not hidden).
"""

from __future__ import annotations

import importlib
from types import ModuleType

_ABSENT: set[str] = set()

# What each optional module gives the user, for "not available" messages.
CAPABILITIES = {
    "engine.scenario_io": "opening and saving scenario files",
    "engine.evaluate": "live rules (objective control, engagement, quarters, zones)",
    "engine.visibility": "line of sight",
    "engine.deployments": "deployment zones and territories",
    "engine.bases": "the standard base catalogue",
    "engine.geometry": "exact base measurements",
}


def engine_module(name: str) -> ModuleType | None:
    """The engine module ``name``, or ``None`` if that module does not exist (yet)."""
    if name in _ABSENT:
        return None
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        _ABSENT.add(name)
        return None


def missing_message(name: str) -> str:
    """A sentence for the user when ``name`` is not available."""
    what = CAPABILITIES.get(name, name)
    return f"Not available in this build: {what} ({name} is missing)."
