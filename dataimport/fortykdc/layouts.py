"""The 45 recommended Chapter Approved layouts of 40kdc-data, in Warplan's coordinates and format.

40kdc-data 1.4.5 carries the layouts imported from Battlemaster (``bm-*``): each piece is a
terrain area placed from a composite template whose ``features`` are Battlemaster parts
(``bm-part-*``); a part's ``walls`` are polylines with a ``thickness``. The data's frame is a
60" x 44" board, origin at a corner, **y down**; a piece's ``position`` is its footprint's
polygon-area centroid; a placement mirrors (``horizontal`` negates local x, ``vertical`` local
y) and then rotates clockwise (in the y-down frame) about that centroid. A composed feature is
placed the same way in its area's centroid-local frame and carried through the area's placement.

Warplan's frame: x east, y north (``y = 44 - y_down``), inches rounded to 4 decimals. A wall
becomes a feature ``shape``: its polyline buffered by half its thickness on each side, with flat
ends and mitred corners; a closed wall (a tower, a pipe run) becomes its outer outline, which
blocks every line between two points outside it exactly as the ring does.

Heights: 1.4.5 gives none. Each Battlemaster part takes the ``default_height_inches`` of the
Games Workshop template of the same package it stands for (the category stays the part's own):

==================  ===========================  ======  ==============================
Battlemaster part   GW template                  height  why
==================  ===========================  ======  ==============================
ab, ef              corner-ruin-balanced-left    5"      ruin L walls, legs of equal size
cd, co, gh          corner-ruin-left             5"      ruin L walls, one long leg
ruin-part           corner-ruin-left             5"      a 1" x 1" piece of a ruin wall
tower               gantry                       3"      2" x 2.5" roofed box, upper floor
generator           generator                    3"      the same piece
pipes               pipe                         2"      the same piece
long-/short-barrier barricade                    2"      low straight wall
small-l(-flip)      corner-short                 5"      small light L (1.5" x 2.5")
corner              corner-tiny                  5"      tiny light L (1.5" x 1.5")
==================  ===========================  ======  ==============================

Upper floors (``upper_floor``, given as floor numbers): each becomes ``{"shape", "z"}`` in its
piece's ``floors``, at ``z = 3"`` per floor (:data:`FLOOR_HEIGHT`, Warplan's choice: the data
has no floor heights; 3" is the height GW gives its single-floor ruin parts, gantry and catwalk).

Checks, each failure a finding: walls inside or on their area (tolerance 0.01"; a wall that
pokes out is clipped to its area), 180-degree rotational symmetry about the centre (the largest
mismatch per layout), home objectives inside the zone of Warplan's card for their side (and how
the data's own 10th-edition pattern compares), pieces off the table, duplicate and mirrored
copies, and features that stand mostly in another area than their own (moved to that area).

>>> [round(v, 4) for v in centroid([(0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (0.0, 2.0)])]
[2.0, 1.0]
>>> tuple(round(c, 9) + 0.0 for c in orient((1.0, 0.0), 90, "none"))
(0.0, 1.0)
>>> orient((1.0, 2.0), 0, "horizontal")
(-1.0, 2.0)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import shapely
from shapely.geometry import LinearRing, LineString, Point, Polygon
from shapely.geometry.polygon import orient as orient_ring

from dataimport.fortykdc.package import VERSION
from dataimport.fortykdc.writing import Conversion
from engine.deployments import load_deployment_map
from engine.rulesets.wh40k_ca2026.cards import force_dispositions

BOARD_WIDTH = 60.0
BOARD_DEPTH = 44.0
CENTRE = (BOARD_WIDTH / 2.0, BOARD_DEPTH / 2.0)
INSIDE_TOLERANCE = 0.01
"""Inches a wall may stand outside its area, or a piece off the table, before it is a finding."""
SYMMETRY_TOLERANCE = 0.03
"""Largest 180-degree mismatch (inches) a layout may show without a finding. The 1.4.5 layouts
show at most 0.025" (rounded rotated parts and simplified outlines), bar one real mismatch."""
OUTLINE_TOLERANCE = 0.005
"""Inches an area outline may move when simplified (Battlemaster's hand-traced outlines carry
about 200 vertices each; at 0.005" about 70% of them go, and the files shrink accordingly)."""
DUPLICATE_TOLERANCE = 0.05
"""Two pieces whose outlines are this close (Hausdorff, inches) are one piece set twice."""
FLOOR_HEIGHT = 3.0
"""Inches per upper floor (floor 1 at 3")."""
LETTERS = ("A", "B", "C")
SKIPPED_LAYOUTS = {
    "kotc-colosseum": 'a King of the Colosseum table (36" x 36"), not a Chapter Approved layout',
}

Vec = tuple[float, float]

PART_TEMPLATES: tuple[tuple[str, str], ...] = (
    ("ab", "corner-ruin-balanced-left"),
    ("ef", "corner-ruin-balanced-left"),
    ("cd", "corner-ruin-left"),
    ("co", "corner-ruin-left"),
    ("gh", "corner-ruin-left"),
    ("ruin-part", "corner-ruin-left"),
    ("tower", "gantry"),
    ("generator", "generator"),
    ("pipes", "pipe"),
    ("long-barrier", "barricade"),
    ("short-barrier", "barricade"),
    ("small-l", "corner-short"),
    ("small-l-flip", "corner-short"),
    ("corner", "corner-tiny"),
)
"""Battlemaster part (the id between ``bm-part-`` and its hash) -> the GW template whose height
it takes (the table of the module docstring)."""

_PART_ID = re.compile(r"^bm-part-(?P<part>.+)-[0-9a-f]{10}$")
_MATCHUP_SUFFIX = re.compile(r"-(?P<variant>\d+)$")


# ---------------------------------------------------------------------------------------------
# The resolver's geometry


def centroid(points: Sequence[Vec]) -> Vec:
    """Polygon-area centroid (shoelace); the vertex mean for a degenerate polygon."""
    twice_area = cx = cy = 0.0
    for (ax, ay), (bx, by) in zip(points, [*points[1:], points[0]], strict=True):
        cross = ax * by - bx * ay
        twice_area += cross
        cx += (ax + bx) * cross
        cy += (ay + by) * cross
    if twice_area == 0:
        return (
            sum(p[0] for p in points) / len(points),
            sum(p[1] for p in points) / len(points),
        )
    return cx / (3 * twice_area), cy / (3 * twice_area)


def orient(v: Vec, rotation: float, mirror: str) -> Vec:
    """Mirror, then rotate clockwise by ``rotation`` degrees in the y-down frame."""
    x, y = v
    if mirror == "horizontal":
        x = -x
    elif mirror == "vertical":
        y = -y
    if rotation == 0:
        return x, y
    r = math.radians(rotation)
    c, s = math.cos(r), math.sin(r)
    return c * x - s * y, s * x + c * y


@dataclass(frozen=True)
class Placement:
    """Where a local frame goes: mirror, rotate about the footprint centroid, translate."""

    position: Vec
    rotation: float = 0.0
    mirror: str = "none"

    def apply(self, v: Vec) -> Vec:
        ox, oy = orient(v, self.rotation, self.mirror)
        return ox + self.position[0], oy + self.position[1]


def footprint_points(footprint: Mapping[str, Any]) -> list[Vec]:
    """A footprint's local vertices (y down)."""
    kind = footprint["type"]
    if kind == "rectangle":
        w, h = float(footprint["width"]), float(footprint["height"])
        return [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    if kind == "right-triangle":
        w, h = float(footprint["width"]), float(footprint["height"])
        return [(0.0, 0.0), (w, 0.0), (0.0, h)]
    if kind == "polygon":
        return [(float(p["x"]), float(p["y"])) for p in footprint["points"]]
    raise ValueError(f"unknown footprint type {kind!r}")


def _placement(entry: Mapping[str, Any]) -> Placement:
    position = entry["position"]
    return Placement(
        (float(position["x"]), float(position["y"])),
        float(entry.get("rotation_degrees", 0) or 0),
        str(entry.get("mirror", "none") or "none"),
    )


def to_ours(v: Vec) -> Vec:
    """A y-down board point in Warplan's frame (y north), 4 decimals as the resolver rounds."""
    # ``+ 0.0`` turns -0.0 into 0.0; the second rounding drops the float noise of 44 - y.
    return round(v[0], 4) + 0.0, round(BOARD_DEPTH - round(v[1], 4), 4) + 0.0


def _rounded(points: Iterable[Vec]) -> list[list[float]]:
    return [[round(x, 4) + 0.0, round(y, 4) + 0.0] for x, y in points]


def _ccw_outline(geometry: Polygon) -> list[list[float]]:
    ring = orient_ring(Polygon(geometry.exterior), sign=1.0).exterior
    return _rounded(list(ring.coords)[:-1])


# ---------------------------------------------------------------------------------------------
# Heights


def part_of(template_id: str) -> str | None:
    """The Battlemaster part name of a ``bm-part-*`` template id.

    >>> part_of("bm-part-small-l-flip-65e0c88c01"), part_of("corner-ruin-left")
    ('small-l-flip', None)
    """
    match = _PART_ID.match(template_id)
    return match.group("part") if match else None


def part_heights(templates: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """Battlemaster part -> the height of the GW template it stands for (from the package)."""
    heights: dict[str, float] = {}
    for part, gw in PART_TEMPLATES:
        height = templates[gw].get("default_height_inches")
        if not isinstance(height, int | float):
            raise ValueError(f"GW template {gw!r} has no default_height_inches")
        heights[part] = float(height)
    return heights


def category_differences(templates: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Findings for Battlemaster parts whose category differs from their GW template's (the
    part's own category is kept: it is what the layout's author drew)."""
    gw_of = dict(PART_TEMPLATES)
    found: list[str] = []
    seen: set[str] = set()
    for template_id, template in sorted(templates.items()):
        part = part_of(template_id)
        if part is None or part not in gw_of or part in seen:
            continue
        seen.add(part)
        ours, theirs = (
            template.get("terrain_category"),
            templates[gw_of[part]].get("terrain_category"),
        )
        if ours != theirs:
            found.append(
                f"{part}: the data labels it {ours}, its GW template {gw_of[part]} {theirs}; "
                f"the part keeps {ours} and takes the template's height"
            )
    return found


# ---------------------------------------------------------------------------------------------
# Resolving one layout


@dataclass
class ResolvedFeature:
    shape: Polygon
    height: float
    category: str | None
    floors: list[tuple[Polygon, float]]
    label: str


@dataclass
class ResolvedArea:
    piece_id: str
    name: str
    polygon: Polygon
    features: list[ResolvedFeature] = field(default_factory=list)
    raw: Mapping[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _pair(v: Vec) -> str:
    return f"({v[0]:.4f}, {v[1]:.4f})"


def _inside_fraction(shape: Polygon, area: Polygon) -> float:
    return float(shape.intersection(area).area / shape.area)


def _corrected_mirror_placement(
    place: Placement,
    part_local: list[Vec],
    part_centroid: Vec,
    area_point: Any,
    area: Polygon,
) -> Placement:
    """The placement of a mirrored part, corrected when the data mirrored it about its corner.

    One composite template (``smallrect-generator-updown-flip``) places its mirrored part one
    part-width away from where its unmirrored twins stand, outside the area. When a mirrored
    part stands mostly outside its area and shifting it by its own extent along the mirrored
    axis puts it inside, that shifted placement is taken.
    """
    if place.mirror == "none":
        return place

    def shape_at(candidate: Placement) -> Polygon:
        return Polygon(
            [
                area_point(candidate.apply((x - part_centroid[0], y - part_centroid[1])))
                for x, y in part_local
            ]
        )

    if _inside_fraction(shape_at(place), area) >= 0.5:
        return place
    xs, ys = [p[0] for p in part_local], [p[1] for p in part_local]
    extent = max(xs) - min(xs) if place.mirror == "horizontal" else max(ys) - min(ys)
    axis = (1.0, 0.0) if place.mirror == "horizontal" else (0.0, 1.0)
    shifted = [
        Placement(
            (
                place.position[0] + sign * extent * axis[0],
                place.position[1] + sign * extent * axis[1],
            ),
            place.rotation,
            place.mirror,
        )
        for sign in (1.0, -1.0)
    ]
    best = max(shifted, key=lambda c: _inside_fraction(shape_at(c), area))
    return best if _inside_fraction(shape_at(best), area) > 0.99 else place


def _wall_shape(points: list[Vec], thickness: float) -> Polygon:
    """A wall polyline (Warplan frame) as a solid polygon: buffered by half its thickness each
    side, flat ends, mitred corners; a closed wall as its outer outline."""
    closed = len(points) > 3 and math.dist(points[0], points[-1]) < 1e-9
    line: LineString = LinearRing(points[:-1]) if closed else LineString(points)
    buffered = line.buffer(thickness / 2.0, cap_style="flat", join_style="mitre")
    if not isinstance(buffered, Polygon):
        raise ValueError("a wall buffered into several polygons")
    return Polygon(buffered.exterior)


def resolve_area(
    piece: Mapping[str, Any],
    templates: Mapping[str, Mapping[str, Any]],
    heights: Mapping[str, float],
) -> ResolvedArea:
    """One area piece and its composed features, in Warplan's frame."""
    template = templates[piece["template"]]
    local = footprint_points(template["footprint"])
    area_centroid = centroid(local)
    area_place = _placement(piece)

    def area_point(v: Vec) -> Vec:
        return to_ours(area_place.apply(v))

    outline = Polygon([area_point((x - area_centroid[0], y - area_centroid[1])) for x, y in local])
    polygon = outline.simplify(OUTLINE_TOLERANCE, preserve_topology=True)
    resolved = ResolvedArea(str(piece["id"]), str(piece.get("name", "")), polygon, raw=piece)
    for feature in template.get("features", ()):
        part_template = templates[feature["template"]]
        part = part_of(str(feature["template"]))
        if part is None or part not in heights:
            raise ValueError(f"{piece['id']}: no height for feature template {feature['template']}")
        part_local = footprint_points(part_template["footprint"])
        part_centroid = centroid(part_local)
        feature_place = _corrected_mirror_placement(
            _placement(feature), part_local, part_centroid, area_point, polygon
        )
        if feature_place != _placement(feature):
            resolved.notes.append(
                f"feature {piece['id']} {part} is mirrored about its corner, not its centroid "
                f"(it stood outside its area); moved to {_pair(feature_place.position)} in the "
                f"area's frame, inside it"
            )

        def board(v: Vec, place: Placement = feature_place, c: Vec = part_centroid) -> Vec:
            in_area = place.apply((v[0] - c[0], v[1] - c[1]))
            return area_point(in_area)

        walls = part_template.get("walls") or ()
        if walls:
            shapes = [
                _wall_shape(
                    [board((float(p["x"]), float(p["y"]))) for p in w["points"]],
                    float(w.get("thickness", 0.5)),
                )
                for w in walls
            ]
        else:
            shapes = [Polygon([board(v) for v in part_local])]
        floors: list[tuple[Polygon, float]] = []
        upper = part_template.get("upper_floor")
        if upper:
            floor_shape = Polygon([board(v) for v in footprint_points(upper["footprint"])])
            floors.append((floor_shape, FLOOR_HEIGHT * int(upper.get("floor", 1))))
        category = part_template.get("terrain_category")
        for shape in shapes:
            resolved.features.append(
                ResolvedFeature(shape, heights[part], category, floors, f"{piece['id']} {part}")
            )
            floors = []
    return resolved


# ---------------------------------------------------------------------------------------------
# Names


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def disposition_names() -> dict[str, str]:
    """Slug of each Force Disposition (as 40kdc spells its matchup ids) -> the engine's name."""
    return {_slug(fd.name): fd.name for fd in force_dispositions()}


def pairing_of(matchup_id: str) -> tuple[str, str]:
    """The two Force Disposition names of a matchup id such as ``take-and-hold-vs-purge-the-foe``.

    >>> pairing_of("take-and-hold-vs-purge-the-foe")
    ('Take and Hold', 'Purge the Foe')
    """
    names = disposition_names()
    first, _, second = matchup_id.partition("-vs-")
    if first not in names or second not in names:
        raise ValueError(f"matchup {matchup_id!r} does not name two Force Dispositions")
    return names[first], names[second]


def letter_of(layout: Mapping[str, Any]) -> str:
    """The letter (A, B, C) of a layout: its ``variant``, else the number ending its id.

    >>> letter_of({"id": "bm-take-vs-prio-02"}), letter_of({"id": "x", "variant": 3})
    ('B', 'C')
    """
    variant = layout.get("variant")
    if not isinstance(variant, int):
        match = _MATCHUP_SUFFIX.search(str(layout["id"]))
        if match is None:
            raise ValueError(f"layout {layout['id']!r} has no variant")
        variant = int(match.group("variant"))
    if not 1 <= variant <= len(LETTERS):
        raise ValueError(f"layout {layout['id']!r}: variant {variant} is not 1 to 3")
    return LETTERS[variant - 1]


def warplan_id(pairing: tuple[str, str], letter: str) -> str:
    """``<fd>-vs-<fd>-<letter>``, e.g. ``take-and-hold-vs-purge-the-foe-a``."""
    return f"{_slug(pairing[0])}-vs-{_slug(pairing[1])}-{letter.lower()}"


# ---------------------------------------------------------------------------------------------
# Checks


def _rotated(geometry: Any) -> Any:
    return shapely.affinity.rotate(geometry, 180, origin=CENTRE)


def _outside_by(shape: Polygon, area: Any) -> float:
    """How far (inches) the farthest vertex of ``shape`` stands outside ``area``."""
    return float(max(area.distance(Point(p)) for p in shape.exterior.coords))


def _off_table(polygon: Polygon) -> float:
    table = shapely.box(0, 0, BOARD_WIDTH, BOARD_DEPTH)
    return _outside_by(polygon, table)


def _zone_polygons_of_pattern(pattern: Mapping[str, Any]) -> dict[str, Polygon]:
    """The 40kdc pattern's zones (``attacker``/``defender``) in Warplan's frame."""
    zones: dict[str, Polygon] = {}
    for zone in pattern.get("zones", ()):
        offset = zone.get("position", {"x": 0, "y": 0})
        local = footprint_points(zone["shape"])
        points = [to_ours((x + offset["x"], y + offset["y"])) for x, y in local]
        zones[str(zone["player"])] = Polygon(points).buffer(0)
    return zones


@dataclass
class LayoutReport:
    layout_id: str
    findings: list[str] = field(default_factory=list)
    symmetry: float = 0.0
    homes_in_our_zone: int = 0
    homes_data_agrees: int = 0
    homes: int = 0

    def add(self, text: str) -> None:
        self.findings.append(f"{self.layout_id}: {text}")


# ---------------------------------------------------------------------------------------------
# One layout


def _merge_link_groups(areas: list[ResolvedArea]) -> list[list[ResolvedArea]]:
    groups: dict[str, list[ResolvedArea]] = {}
    order: list[list[ResolvedArea]] = []
    for area in areas:
        link = area.raw.get("link_group")
        if link is None:
            order.append([area])
        elif link in groups:
            groups[link].append(area)
        else:
            groups[link] = [area]
            order.append(groups[link])
    return order


def _drop_duplicates(areas: list[ResolvedArea], report: LayoutReport) -> list[ResolvedArea]:
    kept: list[ResolvedArea] = []
    for area in areas:
        twin = next(
            (k for k in kept if k.polygon.hausdorff_distance(area.polygon) < DUPLICATE_TOLERANCE),
            None,
        )
        if twin is not None:
            report.add(f"{area.piece_id} repeats {twin.piece_id} (same outline); dropped")
            continue
        for other in kept:
            shared = other.polygon.intersection(area.polygon).area
            ratio = shared / min(other.polygon.area, area.polygon.area)
            if ratio > 0.5:
                report.add(
                    f"{area.piece_id} overlaps {other.piece_id} by {ratio:.0%} of the smaller "
                    "area (a mirrored copy?); kept both"
                )
        kept.append(area)
    return kept


def _reattach_features(areas: list[ResolvedArea], report: LayoutReport) -> None:
    """Move a feature standing mostly outside its own area but inside another to that area."""
    for area in areas:
        for feature in list(area.features):
            inside_own = feature.shape.intersection(area.polygon).area / feature.shape.area
            if inside_own >= 0.5:
                continue
            best = max(
                (
                    (feature.shape.intersection(other.polygon).area / feature.shape.area, other)
                    for other in areas
                    if other is not area
                ),
                key=lambda pair: pair[0],
                default=(0.0, area),
            )
            if best[0] > 0.5:
                area.features.remove(feature)
                best[1].features.append(feature)
                report.add(
                    f"feature {feature.label} stands {best[0]:.0%} in {best[1].piece_id} and "
                    f"{inside_own:.0%} in its own area; moved to {best[1].piece_id}"
                )
            else:
                report.add(
                    f"feature {feature.label} stands only {inside_own:.0%} in its area and in "
                    "no other; kept"
                )


def _clip_to_area(group: list[ResolvedArea], report: LayoutReport) -> None:
    union = shapely.union_all([a.polygon for a in group])
    for area in group:
        for feature in area.features:
            outside = _outside_by(feature.shape, union)
            if outside <= INSIDE_TOLERANCE:
                continue
            clipped = feature.shape.intersection(union)
            if isinstance(clipped, Polygon) and not clipped.is_empty:
                feature.shape = clipped
                report.add(
                    f'feature {feature.label} stood {outside:.3f}" outside its area; clipped '
                    "to the area"
                )
            else:
                report.add(f'feature {feature.label} stands {outside:.3f}" outside its area')


def _piece_json(group: list[ResolvedArea]) -> dict[str, Any]:
    first = group[0]
    polygons = [_ccw_outline(a.polygon) for a in group]
    features: list[dict[str, Any]] = []
    floors: list[dict[str, Any]] = []
    for area in group:
        for feature in area.features:
            entry: dict[str, Any] = {
                "shape": _ccw_outline(feature.shape),
                "height": feature.height,
            }
            if feature.category is not None:
                entry["category"] = feature.category
            features.append(entry)
            for floor, z in feature.floors:
                floors.append({"shape": _ccw_outline(floor), "z": z})
    piece: dict[str, Any] = {
        "id": "+".join(a.piece_id for a in group),
        "kind": first.name,
        "area": polygons[0] if len(polygons) == 1 else polygons,
        "features": features,
    }
    if floors:
        piece["floors"] = floors
    return piece


def _symmetry(pieces: list[Any], objectives: list[Vec]) -> float:
    """The largest distance between a piece (area and features) or objective and the nearest
    one of the layout turned 180 degrees about the centre."""
    worst = 0.0
    for geometry in pieces:
        turned = _rotated(geometry)
        worst = max(worst, min(turned.hausdorff_distance(other) for other in pieces))
    for x, y in objectives:
        tx, ty = 2 * CENTRE[0] - x, 2 * CENTRE[1] - y
        worst = max(worst, min(math.dist((tx, ty), o) for o in objectives))
    return worst


def convert_layout(
    layout: Mapping[str, Any],
    templates: Mapping[str, Mapping[str, Any]],
    patterns: Mapping[str, Mapping[str, Any]],
    heights: Mapping[str, float],
) -> tuple[dict[str, Any], dict[str, Any], LayoutReport]:
    """One 40kdc layout as Warplan's (index entry, layout file, report)."""
    pairing = pairing_of(str(layout["mission_matchup_id"]))
    letter = letter_of(layout)
    layout_id = warplan_id(pairing, letter)
    report = LayoutReport(layout_id)
    areas = [resolve_area(p, templates, heights) for p in layout["pieces"]]
    for area in areas:
        for note in area.notes:
            report.add(note)
        off = _off_table(area.polygon)
        if off > INSIDE_TOLERANCE:
            report.add(f'{area.piece_id} stands {off:.3f}" off the table')
    areas = _drop_duplicates(areas, report)
    _reattach_features(areas, report)
    groups = _merge_link_groups(areas)
    for group in groups:
        _clip_to_area(group, report)
    pieces = [_piece_json(group) for group in groups]

    deployment = str(layout["deployment_pattern_id"])
    card = load_deployment_map(deployment)
    our_zones = {
        "attacker": Polygon(card.zone_polygon("A")),
        "defender": Polygon(card.zone_polygon("B")),
    }
    their_zones = _zone_polygons_of_pattern(patterns[deployment])
    objectives: list[dict[str, Any]] = []
    counters: dict[str, int] = {}
    for group, piece in zip(groups, pieces, strict=True):
        holders = [a for a in group if a.raw.get("is_objective")]
        if not holders:
            continue
        points = [to_ours(_vec(a.raw["objective"]["position"])) for a in holders]
        x = round(sum(p[0] for p in points) / len(points), 4) + 0.0
        y = round(sum(p[1] for p in points) / len(points), 4) + 0.0
        data_role = str(holders[0].raw.get("objective_role", "other"))
        role = {"center": "central"}.get(data_role, data_role)
        counters[role] = counters.get(role, 0) + 1
        objective: dict[str, Any] = {"id": "", "x": x, "y": y, "role": role, "terrain": piece["id"]}
        if role == "home":
            side = _home_side(x, y, our_zones, their_zones, report)
            objective["home_of"] = side
            objective["id"] = f"obj-home-{side}"
        objectives.append(objective)
    for role in ("central", "expansion", "other"):
        of_role = sorted(
            (o for o in objectives if o["role"] == role), key=lambda o: (o["x"], o["y"])
        )
        base = "obj-centre" if role == "central" else f"obj-{role}"
        for number, objective in enumerate(of_role, start=1):
            objective["id"] = base if len(of_role) == 1 else f"{base}-{number}"
    homes = [o["home_of"] for o in objectives if o["role"] == "home"]
    if sorted(homes) != ["attacker", "defender"]:
        report.add(f"home objectives {homes}: not one per side")
    objectives.sort(key=lambda o: ("home", "central", "expansion", "other").index(o["role"]))

    shapes = [
        shapely.union_all([a.polygon for a in g] + [f.shape for a in g for f in a.features])
        for g in groups
    ]
    report.symmetry = _symmetry(shapes, [(o["x"], o["y"]) for o in objectives])
    if report.symmetry > SYMMETRY_TOLERANCE:
        report.add(f'not 180-degree symmetric: largest mismatch {report.symmetry:.3f}"')

    source = f"40kdc-data {VERSION}, imported by 40kdc from Battlemaster {layout['id']}"
    revision = _revision(layout, pairing, len(objectives))
    name = f"{pairing[0]} vs {pairing[1]} {letter}"
    index_entry = {
        "id": layout_id,
        "name": name,
        "pairing": list(pairing),
        "letter": letter,
        "deployment": deployment,
        "source": source,
        "revision": revision,
    }
    document = {
        **index_entry,
        "symmetry_mismatch": round(report.symmetry, 4),
        "terrain": pieces,
        "objectives": objectives,
    }
    return index_entry, document, report


def _vec(value: Mapping[str, Any]) -> Vec:
    return float(value["x"]), float(value["y"])


def _home_side(
    x: float,
    y: float,
    ours: Mapping[str, Polygon],
    theirs: Mapping[str, Polygon],
    report: LayoutReport,
) -> str:
    point = Point(x, y)
    report.homes += 1
    inside = [side for side, zone in ours.items() if zone.covers(point)]
    if len(inside) == 1:
        side = inside[0]
        report.homes_in_our_zone += 1
    else:
        side = min(ours, key=lambda s: ours[s].distance(point))
        report.add(
            f"home objective at ({x}, {y}) lies in no zone of Warplan's card; given to the "
            f'{side}, whose zone is nearest ({ours[side].distance(point):.2f}")'
        )
    data_sides = [s for s, zone in theirs.items() if zone.covers(point)]
    if data_sides == [side]:
        report.homes_data_agrees += 1
    else:
        report.add(
            f"home objective at ({x}, {y}): the data's 10th-edition pattern puts it in "
            f"{' and '.join(data_sides) or 'no'} zone, Warplan's card in the {side}'s"
        )
    return side


def _revision(layout: Mapping[str, Any], pairing: tuple[str, str], objective_count: int) -> str:
    dataslate = layout.get("game_version", {}).get("dataslate", "unknown")
    text = (
        f"Battlemaster import as of 40kdc-data {VERSION} (dataslate {dataslate}; the data gives "
        f"no revision date): {objective_count} objectives"
    )
    if "Purge the Foe" in pairing and objective_count == 6:
        text += ", as in GW's July 2026 revision (six objectives on every Purge the Foe layout)"
    return text


# ---------------------------------------------------------------------------------------------
# The converter


def convert_layouts(bundle: Mapping[str, Any]) -> Conversion:
    """``layouts/index.json`` and one ``layouts/<id>.json`` per Chapter Approved layout."""
    templates = {str(t["id"]): t for t in bundle["terrainTemplates"]}
    patterns = {str(p["id"]): p for p in bundle["deploymentPatterns"]}
    heights = part_heights(templates)
    findings: list[str] = [
        f"heights: 1.4.5 gives Battlemaster parts none; each takes its GW template's "
        f"default_height_inches ({', '.join(f'{p} {h:g}' for p, h in heights.items())})",
        f'upper floors: the data gives floor numbers; floor n is placed at z = {FLOOR_HEIGHT:g}n"',
    ]
    findings.extend(category_differences(templates))
    files: dict[str, Any] = {}
    index: list[dict[str, Any]] = []
    homes = [0, 0, 0]
    for layout in bundle["terrainLayouts"]:
        layout_id = str(layout["id"])
        if layout_id in SKIPPED_LAYOUTS:
            findings.append(f"{layout_id}: skipped, {SKIPPED_LAYOUTS[layout_id]}")
            continue
        entry, document, report = convert_layout(layout, templates, patterns, heights)
        if entry["id"] in files:
            findings.append(f"{layout_id}: a second layout for {entry['id']}; dropped")
            continue
        findings.extend(report.findings)
        homes[0] += report.homes
        homes[1] += report.homes_in_our_zone
        homes[2] += report.homes_data_agrees
        findings.append(f'{entry["id"]}: largest 180-degree mismatch {report.symmetry:.4f}"')
        index.append(entry)
        files[f"layouts/{entry['id']}.json"] = document
    findings.append(
        f"home objectives: {homes[1]} of {homes[0]} inside the zone of Warplan's card for their "
        f"side; the data's own (10th-edition, 'leviathan') patterns agree on {homes[2]}"
    )
    index.sort(key=lambda e: e["id"])
    files["layouts/index.json"] = index
    return Conversion("layouts", files, tuple(findings))
