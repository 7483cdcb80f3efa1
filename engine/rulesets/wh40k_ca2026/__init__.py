"""Chapter Approved 2026-27 Mission Deck: cards as data, the mission generator, Secondary
decks, the game's edits and live scoring (pure Python, no Qt).

- :mod:`engine.rulesets.wh40k_ca2026.cards`: Force Dispositions and the Primary matrix, 25 Primary
  and 18
  Secondary Missions, 6 Twists, the FAQ (``assets/wh40k-ca2026/``).
- :mod:`engine.rulesets.wh40k_ca2026.generator`: deterministic set-ups, roll-offs, central
  objectives,
  terrain objectives, set-up changes that report discarded game state, a deployment variant
  chosen for the game (``with_deployment_variant``: the objectives placed for it).
- :mod:`engine.rulesets.wh40k_ca2026.decks`: Tactical / Fixed Secondary decks as immutable
  ``DeckState``.
- :mod:`engine.rulesets.wh40k_ca2026.scoring`: ``score(scenario) -> ScoreReport`` for the moment the
  ``game`` section describes.
- :mod:`engine.rulesets.wh40k_ca2026.moments`: the scoring moments of a battle round and
  ``score_round``, the score now and as if the game were at each of the round's other moments.
- :mod:`engine.rulesets.wh40k_ca2026.actions`: objective actions (who can start them, use limits)
  and the
  START OF YOUR TURN / START OF THE BATTLE selections.
- :mod:`engine.rulesets.wh40k_ca2026.edits`: the game's moves as scenario edits (the turn
  tracker, deck moves at the current moment, the VP/CP ledger, VP by battle round) that the
  app's Mission, Secondary and Turn docks apply as undo steps.

>>> primary_mission("Purge the Foe", "Purge the Foe")
'MEATGRINDER'
"""

from engine.rulesets.wh40k_ca2026.actions import action_options, check_starts
from engine.rulesets.wh40k_ca2026.cards import (
    MissionCard,
    card,
    force_dispositions,
    primary_mission,
    primary_missions,
    secondary_missions,
    twists,
)
from engine.rulesets.wh40k_ca2026.decks import DeckEvent, DeckState, TurnContext, deck_of, with_deck
from engine.rulesets.wh40k_ca2026.generator import (
    MissionSetup,
    apply_setup,
    change_setup,
    generate_mission,
)
from engine.rulesets.wh40k_ca2026.scoring import score
from engine.score_report import ScoreReport

__all__ = [
    "DeckEvent",
    "DeckState",
    "MissionCard",
    "MissionSetup",
    "ScoreReport",
    "TurnContext",
    "action_options",
    "apply_setup",
    "card",
    "change_setup",
    "check_starts",
    "deck_of",
    "force_dispositions",
    "generate_mission",
    "primary_mission",
    "primary_missions",
    "score",
    "secondary_missions",
    "twists",
    "with_deck",
]
