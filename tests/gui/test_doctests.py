"""The examples in the app's pure modules' docstrings run (testpaths cover engine/ only)."""

from __future__ import annotations

import doctest

import pytest

import gui.document


@pytest.mark.parametrize("module", [gui.document])
def test_docstring_examples(module, qapp) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
