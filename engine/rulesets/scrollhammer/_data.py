"""The Scrollhammer rules data shipped in ``assets/scrollhammer/`` (read once, frozen)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache

from engine.assets import ASSET_ROOT
from engine.errors import Problem, ScenarioError
from engine.model import JSONValue, freeze

ASSETS = ASSET_ROOT / "scrollhammer"


@cache
def load_asset(name: str) -> Mapping[str, JSONValue]:
    """The frozen JSON of ``assets/scrollhammer/<name>``."""
    path = ASSETS / name
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ScenarioError(
            [Problem(str(path), f"cannot read Scrollhammer data: {error}")]
        ) from error
    frozen: Mapping[str, JSONValue] = freeze(data)
    return frozen


def standard_rules() -> Mapping[str, JSONValue]:
    """``standard-rules.json``: the numbers and wording of the Standard Mission rules."""
    return load_asset("standard-rules.json")
