"""The Shared Scenario Modules data shipped in ``assets/shared-modules/modules.json``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache

from engine.assets import ASSET_ROOT
from engine.errors import Problem, ScenarioError
from engine.model import JSONValue, freeze

ASSETS = ASSET_ROOT / "shared-modules"


@cache
def modules_data() -> Mapping[str, JSONValue]:
    """The frozen JSON of ``modules.json``."""
    path = ASSETS / "modules.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        message = f"cannot read the Shared Scenario Modules data: {error}"
        raise ScenarioError([Problem(str(path), message)]) from error
    frozen: Mapping[str, JSONValue] = freeze(data)
    return frozen


def module(module_id: str) -> Mapping[str, JSONValue]:
    """One module's record (``KeyError`` if there is none)."""
    for record in modules_data()["modules"]:
        if record["id"] == module_id:
            found: Mapping[str, JSONValue] = record
            return found
    raise KeyError(module_id)


def number(module_id: str, key: str) -> float:
    """A number of a module, e.g. ``number("battle-formations", "edge_depth")`` is 12."""
    return float(module(module_id)["numbers"][key])
