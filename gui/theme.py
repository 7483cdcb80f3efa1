"""Every colour the battlefield draws, by palette: the default, a high-contrast one, a
colour-blind-safe one (Okabe-Ito) and a dark one. Items and overlays read :func:`current`; the
window switches with :func:`use` and rebuilds what is drawn.

Which colours must be told apart (the two players, the four control states, the two zones as
painted over the table) is :func:`distinguishable_pairs`; ``tests/gui/test_theme.py`` checks
them under simulated protanopia, deuteranopia and tritanopia (:mod:`gui.colour_vision`).

>>> use("colour-blind").players
('#d55e00', '#0072b2')
>>> use("default").id
'default'
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from PySide6.QtGui import QColor

from gui.colour_vision import over


@dataclass(frozen=True)
class Palette:
    """One palette: ``#rrggbb`` strings (alphas as separate numbers, 0-255)."""

    id: str
    name: str
    players: tuple[str, str]
    """First and second player."""
    neutral: str
    """Uncontrolled objectives, units of no known player."""
    contested: str
    shared: str
    zone_alpha: int
    """How opaque a deployment zone's fill is over the table."""
    table: str
    surround: str
    """Around the table."""
    grid_alpha: int
    grid_major_alpha: int
    grid: str
    board_outline: str
    edge_text: str
    table_text: str
    """Text written straight on the table (No Man's Land, the centre's caption)."""
    label_text: str
    """Text on a label's coloured background."""
    quarter_lines: str
    terrain: tuple[tuple[str, str], ...]
    terrain_default: str
    feature: str
    selection: str
    overlap: str
    objective_fill: str
    objective_outline: str
    terrain_objective: str
    engaged_line: str
    visible: str
    fully_visible: str
    hidden: str
    hidden_map: str
    """Hidden-placement map: cells where a model would be hidden."""
    hidden_map_blocked: str
    """Hidden-placement map: cells where the base cannot stand (hatched)."""
    ruler: str
    ruler_text_background: str
    drawing: str
    annotation: str
    annotation_background: str
    move_normal: str
    """The movement bands (engine.movement): a Normal Move, an Advance, a charge."""
    move_advance: str
    move_charge: str
    dark_window: bool = False
    terrain_fills: dict[str, str] = field(init=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "terrain_fills", dict(self.terrain))

    def player(self, index: int) -> QColor:
        return QColor(self.players[index])

    def colour(self, name: str, alpha: int = 255) -> QColor:
        """The palette's colour ``name`` (a field) at ``alpha``."""
        result = QColor(getattr(self, name))
        result.setAlpha(alpha)
        return result

    def text_on_table(self, colour: QColor) -> QColor:
        """``colour`` made readable as text straight on the table (darker on a light table,
        lighter on a dark one)."""
        return colour.lighter(150) if self.dark_window else colour.darker(160)

    def terrain_fill(self, kind: str) -> QColor:
        return QColor(self.terrain_fills.get(kind, self.terrain_default))

    def zone_fill(self, player_index: int) -> str:
        """A zone's fill as painted over the table (what a reader sees)."""
        return over(self.players[player_index], self.zone_alpha, self.table)


_TERRAIN = (
    ("ruin", "#b7ab95"),
    ("woods", "#7fa86a"),
    ("crater", "#a8906e"),
    ("container", "#8a8f99"),
    ("barricade", "#9c8a6a"),
)

DEFAULT = Palette(
    id="default",
    name="Default",
    players=("#c0392b", "#1f6fb2"),
    neutral="#7f8c8d",
    contested="#e6a100",
    shared="#8e44ad",
    zone_alpha=40,
    table="#e9e4d4",
    surround="#5b6169",
    grid="#000000",
    grid_alpha=28,
    grid_major_alpha=60,
    board_outline="#2d2d2d",
    edge_text="#4a4a4a",
    table_text="#555555",
    label_text="#ffffff",
    quarter_lines="#37474f",
    terrain=_TERRAIN,
    terrain_default="#b5ad9c",
    feature="#4d4640",
    selection="#ffd400",
    overlap="#ff00c8",
    objective_fill="#f5d76e",
    objective_outline="#5a4500",
    terrain_objective="#b8860b",
    engaged_line="#d35400",
    visible="#f1c40f",
    fully_visible="#27ae60",
    hidden="#5d6d7e",
    hidden_map="#6c3483",
    hidden_map_blocked="#7b7d7d",
    ruler="#111111",
    ruler_text_background="#141414",
    drawing="#6d4c41",
    annotation="#1b1b1b",
    annotation_background="#fffbe6",
    move_normal="#138d75",
    move_advance="#e67e22",
    move_charge="#8e44ad",
)

HIGH_CONTRAST = Palette(
    id="high-contrast",
    name="High contrast",
    players=("#c00000", "#0040ff"),
    neutral="#808080",
    contested="#ffd000",
    shared="#000000",
    zone_alpha=70,
    table="#ffffff",
    surround="#000000",
    grid="#000000",
    grid_alpha=40,
    grid_major_alpha=110,
    board_outline="#000000",
    edge_text="#ffffff",
    table_text="#000000",
    label_text="#ffffff",
    quarter_lines="#000000",
    terrain=(
        ("ruin", "#a0a0a0"),
        ("woods", "#6fbf4f"),
        ("crater", "#b08850"),
        ("container", "#8080a0"),
        ("barricade", "#a08a60"),
    ),
    terrain_default="#a8a8a8",
    feature="#202020",
    selection="#00e5ff",
    overlap="#ff00ff",
    objective_fill="#ffe000",
    objective_outline="#000000",
    terrain_objective="#000000",
    engaged_line="#000000",
    visible="#ffd000",
    fully_visible="#00a000",
    hidden="#404040",
    hidden_map="#7a00cc",
    hidden_map_blocked="#000000",
    ruler="#000000",
    ruler_text_background="#000000",
    drawing="#000000",
    annotation="#000000",
    annotation_background="#ffffff",
    move_normal="#0044ff",
    move_advance="#ffd000",
    move_charge="#5c3c00",
)

COLOUR_BLIND = Palette(
    id="colour-blind",
    name="Colour-blind safe (Okabe-Ito)",
    players=("#d55e00", "#0072b2"),
    neutral="#999999",
    contested="#f0e442",
    shared="#000000",
    zone_alpha=70,
    table="#e9e4d4",
    surround="#5b6169",
    grid="#000000",
    grid_alpha=28,
    grid_major_alpha=60,
    board_outline="#2d2d2d",
    edge_text="#ffffff",
    table_text="#333333",
    label_text="#ffffff",
    quarter_lines="#333333",
    terrain=_TERRAIN,
    terrain_default="#b5ad9c",
    feature="#4d4640",
    selection="#56b4e9",
    overlap="#cc79a7",
    objective_fill="#f0e442",
    objective_outline="#000000",
    terrain_objective="#000000",
    engaged_line="#000000",
    visible="#f0e442",
    fully_visible="#009e73",
    hidden="#666666",
    hidden_map="#cc79a7",
    hidden_map_blocked="#555555",
    ruler="#000000",
    ruler_text_background="#141414",
    drawing="#000000",
    annotation="#000000",
    annotation_background="#ffffff",
    move_normal="#002060",
    move_advance="#e69f00",
    move_charge="#56b4e9",
)

DARK = Palette(
    id="dark",
    name="Dark",
    players=("#ff6b5b", "#5aa9ff"),
    neutral="#9aa5a6",
    contested="#ffc233",
    shared="#c58bff",
    zone_alpha=55,
    table="#2b2e33",
    surround="#15171a",
    grid="#ffffff",
    grid_alpha=22,
    grid_major_alpha=50,
    board_outline="#c8c8c8",
    edge_text="#c8c8c8",
    table_text="#d0d0d0",
    label_text="#ffffff",
    quarter_lines="#b0bec5",
    terrain=(
        ("ruin", "#6d6658"),
        ("woods", "#3f6b35"),
        ("crater", "#6b5a44"),
        ("container", "#555b66"),
        ("barricade", "#665a44"),
    ),
    terrain_default="#5e594f",
    feature="#a89f94",
    selection="#ffd400",
    overlap="#ff4fe0",
    objective_fill="#f5d76e",
    objective_outline="#fff3b0",
    terrain_objective="#f0c040",
    engaged_line="#ff8c3a",
    visible="#f1c40f",
    fully_visible="#3ddc84",
    hidden="#8899aa",
    hidden_map="#bb8fce",
    hidden_map_blocked="#aab7b8",
    ruler="#f0f0f0",
    ruler_text_background="#000000",
    drawing="#ffcc80",
    annotation="#f0f0f0",
    annotation_background="#202428",
    move_normal="#56b4e9",
    move_advance="#f0e442",
    move_charge="#d55e00",
    dark_window=True,
)

DARK_WINDOW = {
    "Window": "#23262b",
    "WindowText": "#e6e6e6",
    "Base": "#1b1d21",
    "AlternateBase": "#2a2d33",
    "Text": "#e6e6e6",
    "Button": "#2d3137",
    "ButtonText": "#e6e6e6",
    "ToolTipBase": "#2d3137",
    "ToolTipText": "#e6e6e6",
    "Highlight": "#3d7bd9",
    "HighlightedText": "#ffffff",
    "PlaceholderText": "#9a9a9a",
    "BrightText": "#ff6b5b",
    "Link": "#7fb3ff",
}
"""The window's colours (Qt palette roles) with the dark palette."""
DARK_DISABLED_TEXT = "#7a7a7a"

PALETTES: dict[str, Palette] = {p.id: p for p in (DEFAULT, HIGH_CONTRAST, COLOUR_BLIND, DARK)}

PRESENTATION_LABEL_SCALE = 1.6
"""How much larger labels are in presentation mode (read across a table)."""

_current = DEFAULT
_label_scale = 1.0


def current() -> Palette:
    """The palette everything is drawn in now."""
    return _current


def use(palette_id: str) -> Palette:
    """Draw in ``palette_id`` from now on (an unknown id falls back to the default)."""
    global _current
    _current = PALETTES.get(palette_id, DEFAULT)
    return _current


def label_scale() -> float:
    """How large labels are drawn, 1.0 normally."""
    return _label_scale


def set_label_scale(scale: float) -> None:
    global _label_scale
    _label_scale = scale


def distinguishable_pairs(palette: Palette) -> dict[str, tuple[str, str]]:
    """The colours a reader must tell apart, by what they mean: the players, every pair of
    control states (A, B, contested, shared, uncontrolled) and the two zones as painted."""
    states = {
        "controlled by A": palette.players[0],
        "controlled by B": palette.players[1],
        "contested": palette.contested,
        "shared": palette.shared,
        "uncontrolled": palette.neutral,
    }
    pairs = {"player A / player B": palette.players}
    names = list(states)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            pairs[f"{first} / {second}"] = (states[first], states[second])
    pairs["zone A / zone B"] = (palette.zone_fill(0), palette.zone_fill(1))
    moves = {
        "normal move": palette.move_normal,
        "advance": palette.move_advance,
        "charge": palette.move_charge,
    }
    for first, second in itertools.combinations(moves, 2):
        pairs[f"{first} / {second}"] = (moves[first], moves[second])
    return pairs
