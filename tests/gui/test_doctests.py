"""The examples in the app's pure modules' docstrings run (testpaths cover engine/ only)."""

from __future__ import annotations

import doctest

import pytest

import gui.document
from gui.rulesets.wh40k_ca2026 import game_state_edits


@pytest.mark.parametrize("module", [gui.document, game_state_edits])
def test_docstring_examples(module, qapp) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
