"""Palettes: the colours that must be told apart stay apart under simulated colour-vision
deficiencies (Machado et al. 2009, CIEDE2000), and the board is drawn from the palette chosen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gui import theme
from gui.colour_vision import DEFICIENCIES, colour_distance, hex_to_rgb, simulate

MINIMUM_DELTA_E = 20.0
"""CIEDE2000 every pair must keep under each simulation (about twice the difference a
non-expert reads as "clearly different", 10)."""


@pytest.mark.parametrize("palette_id", ["colour-blind", "high-contrast"])
@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_pairs_stay_apart(palette_id: str, deficiency: str | None) -> None:
    palette = theme.PALETTES[palette_id]
    too_close = {
        name: round(colour_distance(a, b, deficiency), 1)
        for name, (a, b) in theme.distinguishable_pairs(palette).items()
        if colour_distance(a, b, deficiency) < MINIMUM_DELTA_E
    }
    assert too_close == {}


def test_the_check_can_fail_the_default_palette_blue_and_purple_merge() -> None:
    """The default's second player's blue and the shared purple look alike to a deuteranope:
    the reason the colour-blind palette exists, and proof the check tells."""
    blue, purple = theme.DEFAULT.players[1], theme.DEFAULT.shared
    assert colour_distance(blue, purple) > MINIMUM_DELTA_E
    assert colour_distance(blue, purple, "deuteranopia") < 5.0


def test_simulation_keeps_greys_and_merges_red_green_for_dichromats() -> None:
    for grey in ("#000000", "#808080", "#ffffff"):
        for deficiency in DEFICIENCIES:
            assert colour_distance(simulate(grey, deficiency), grey) < 1.0
    red, green = "#ff0000", "#00ff00"
    normal = colour_distance(red, green)
    for deficiency in ("protanopia", "deuteranopia"):
        assert colour_distance(red, green, deficiency) < normal / 2
    assert colour_distance(red, green, "tritanopia") > normal / 2


def test_every_palette_colour_is_rrggbb_and_unknown_ids_fall_back() -> None:
    for palette_id, palette in theme.PALETTES.items():
        assert palette.id == palette_id
        colours = [
            value
            for name, value in vars(palette).items()
            if isinstance(value, str) and name not in {"id", "name"}
        ]
        colours += [*palette.players, *(fill for _, fill in palette.terrain)]
        for colour in colours:
            assert len(hex_to_rgb(colour)) == 3
    assert theme.use("no-such-palette") is theme.DEFAULT


PAINTING_MODULES = ("gui/items.py", "gui/scene.py", "gui/view.py", "gui/presentation.py")
COLOUR_LITERAL = re.compile(r'QColor\(\s*["\'\d]|"#[0-9a-fA-F]{6}"')


def test_items_and_overlays_hold_no_colour_literal() -> None:
    """Every colour the board draws comes from the palette module."""
    root = Path(__file__).resolve().parents[2]
    files = [root / name for name in PAINTING_MODULES]
    files += sorted((root / "gui" / "overlays").glob("*.py"))
    found = [
        f"{path.relative_to(root)}:{number}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if COLOUR_LITERAL.search(line)
    ]
    assert found == []
