"""The rule systems Warplan implements, one package each.

* :mod:`engine.rulesets.wh40k_ca2026`: Chapter Approved 2026-27 (Warhammer 40,000).
* :mod:`engine.rulesets.scrollhammer`: Scrollhammer's Standard Missions.
* :mod:`engine.rulesets.shared_modules`: the Shared Scenario Modules.
"""
