"""Widgets that stay narrow, so docks leave the battlefield most of the window."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox

COMPACT_CHARACTERS = 10


def compact_combo(characters: int = COMPACT_CHARACTERS) -> QComboBox:
    """A combo box sized for ``characters`` characters: long card and variant names elide
    instead of widening the whole dock column."""
    combo = QComboBox()
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(characters)
    return combo
