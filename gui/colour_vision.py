"""Colour-vision-deficiency simulation and colour difference, to check that a palette's colours
that must be told apart stay apart for every reader.

Simulation: Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for
Simulation of Color Vision Deficiency", severity 1.0 matrices for protanopia, deuteranopia and
tritanopia, applied to linear RGB (sRGB decoded, multiplied, clipped, encoded again).
Difference: CIEDE2000 (Sharma, Wu and Dalal 2005) in CIELAB under D65.

>>> round(delta_e_2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)), 4)
2.0425
>>> simulate("#ffffff", "deuteranopia")
'#ffffff'
>>> round(colour_distance("#000000", "#ffffff"), 1)
100.0
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

MACHADO_2009: dict[str, npt.NDArray[np.float64]] = {
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "tritanopia": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}
"""Severity 1.0 (full dichromacy) matrices of the paper's Table 1, for linear RGB."""

DEFICIENCIES = tuple(MACHADO_2009)

_SRGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
_D65_WHITE = _SRGB_TO_XYZ @ np.ones(3)

Lab = tuple[float, float, float]


def hex_to_rgb(colour: str) -> npt.NDArray[np.float64]:
    """``"#rrggbb"`` as sRGB components in [0, 1].

    >>> hex_to_rgb("#ff8000").round(3).tolist()
    [1.0, 0.502, 0.0]
    """
    text = colour.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"{colour!r} is not #rrggbb")
    return np.array([int(text[i : i + 2], 16) / 255.0 for i in (0, 2, 4)])


def rgb_to_hex(rgb: npt.NDArray[np.float64]) -> str:
    clipped = np.clip(rgb, 0.0, 1.0)
    return "#" + "".join(f"{round(float(c) * 255):02x}" for c in clipped)


def to_linear(rgb: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """sRGB decoding (IEC 61966-2-1)."""
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def from_linear(linear: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    linear = np.clip(linear, 0.0, 1.0)
    return np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)


def simulate(colour: str, deficiency: str) -> str:
    """How ``colour`` looks with ``deficiency`` (one of :data:`DEFICIENCIES`)."""
    matrix = MACHADO_2009[deficiency]
    return rgb_to_hex(from_linear(matrix @ to_linear(hex_to_rgb(colour))))


def lab(colour: str) -> Lab:
    """CIELAB (D65) of an sRGB colour."""
    xyz = _SRGB_TO_XYZ @ to_linear(hex_to_rgb(colour)) / _D65_WHITE
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return float(116 * f[1] - 16), float(500 * (f[0] - f[1])), float(200 * (f[1] - f[2]))


def delta_e_2000(first: Lab, second: Lab) -> float:
    """CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1)."""
    l1, a1, b1 = first
    l2, a2, b2 = second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    big_dh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_mean = (h1p + h2p + 360) / 2
    else:
        h_mean = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25.0**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (dl / s_l) ** 2 + (dc / s_c) ** 2 + (big_dh / s_h) ** 2 + r_t * (dc / s_c) * (big_dh / s_h)
    )


def colour_distance(first: str, second: str, deficiency: str | None = None) -> float:
    """CIEDE2000 between two sRGB colours, as seen with ``deficiency`` (None: normal vision)."""
    if deficiency is not None:
        first, second = simulate(first, deficiency), simulate(second, deficiency)
    return delta_e_2000(lab(first), lab(second))


def over(colour: str, alpha: int, background: str) -> str:
    """``colour`` at ``alpha`` (0-255) composited over an opaque ``background``, as painted.

    >>> over("#000000", 255, "#ffffff"), over("#000000", 0, "#ffffff")
    ('#000000', '#ffffff')
    """
    weight = alpha / 255.0
    return rgb_to_hex(weight * hex_to_rgb(colour) + (1 - weight) * hex_to_rgb(background))
