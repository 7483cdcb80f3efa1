"""Rule overlays drawn over the battlefield, each toggled from the View menu and toolbar.

An overlay is a layer of small keyed items (one per objective, per engaged pair, per target
unit...), so a change repaints only the items whose state changed, not the whole board. Items
paint cached paths; the paths are built here from the engine's conclusions (``RulesSnapshot``,
line-of-sight results, resolved deployment), never inside ``paint()``.
"""
