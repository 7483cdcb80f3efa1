"""Which Shared Scenario Modules a scenario uses (``options.modules``).

"When a scenario uses standard Battle Formations", "if the scenario allows Scout and Secure",
"When a scenario uses Reinforced Defenses": modules are switched on by the scenario. Warplan
reads the list ``options.modules``; without it, the modules every scenario relies on are in
use: Threat Points And Command Points, Battle Formations, Objective Control and Annihilation.
Scout And Secure, Reinforced Defenses and All-Out War must be listed.

>>> from engine.model import Player, Scenario, freeze
>>> s = Scenario("shared-modules", (Player("red"), Player("blue")))
>>> uses_module(s, "battle-formations"), uses_module(s, "reinforced-defenses")
(True, False)
"""

from __future__ import annotations

from engine.errors import RulesError
from engine.model import Scenario
from engine.rulesets.shared_modules._data import modules_data

DEFAULT_MODULES = (
    "threat-and-command-points",
    "battle-formations",
    "objective-control",
    "annihilation",
)


def module_ids() -> tuple[str, ...]:
    """Every module in the data, in the seed's order."""
    return tuple(str(m["id"]) for m in modules_data()["modules"])


def modules_in_use(scenario: Scenario) -> tuple[str, ...]:
    """The modules this scenario uses."""
    chosen = scenario.option("modules")
    if chosen is None:
        return DEFAULT_MODULES
    known = module_ids()
    unknown = [m for m in chosen if m not in known]
    if unknown:
        raise RulesError(f"options.modules: unknown module(s) {unknown} (known: {list(known)})")
    return tuple(str(m) for m in chosen)


def uses_module(scenario: Scenario, module_id: str) -> bool:
    if module_id not in module_ids():
        raise RulesError(f"no Shared Scenario Module {module_id!r}")
    return module_id in modules_in_use(scenario)
