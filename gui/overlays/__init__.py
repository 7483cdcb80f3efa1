"""Rule overlays drawn over the battlefield, each toggled from the View menu and toolbar.

An overlay is a layer of small keyed items (one per objective, per engaged pair, per target
unit...), so a change repaints only the items whose state changed, not the whole board
(:mod:`.layer`). Items paint cached paths; the paths are built from the engine's conclusions
(the live rules' :class:`engine.evaluate.Evaluation`, line-of-sight results, the resolved
deployment), never inside ``paint()``. One module per overlay: :mod:`.objectives`,
:mod:`.engagement`, :mod:`.quarters`, :mod:`.deployment`; the :mod:`.controller` owns them.
Line of sight is drawn by :mod:`gui.sight_overlay` from the one sight controller;
:mod:`.visibility` words and colours its answers.
"""
