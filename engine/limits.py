"""The bounds of every number and size a scenario file may hold.

A file is read only if every value lies within these limits, so no extreme but legal JSON value
(``1e308``, ``5e-324``, an integer of 400 digits) ever reaches the geometry code, shapely/GEOS
or numpy: what ``validate`` accepts, ``evaluate`` and ``score`` can judge. The limits are far
beyond any real table (a battlefield is 44" x 60"), and each is documented in
``docs/scenario-format.md``.

>>> MAX_COORDINATE >= 10 * 60
True
>>> MIN_BASE_MM < 1 < MAX_BASE_MM
True
"""

from __future__ import annotations

MAX_BATTLEFIELD = 600.0
"""Inches: the longest side a battlefield may have (50 feet)."""

MIN_BATTLEFIELD = 1.0
"""Inches: the shortest side a battlefield may have."""

MAX_COORDINATE = 1200.0
"""Inches: every ``x`` and ``y`` (models, objectives, markers, polygon points) lies within
``-MAX_COORDINATE .. MAX_COORDINATE``: twice the largest battlefield, so a model parked off
the table still fits."""

MAX_HEIGHT = 1200.0
"""Inches: the largest ``z``, model ``height`` and terrain feature ``height``."""

MAX_DISTANCE = 1200.0
"""Inches: the largest range or distance an option or a characteristic (``move``) may give."""

MAX_RING_RADIUS = 120.0
"""Inches: the largest range ring a unit may carry (twice a battlefield's 60" long side)."""

MAX_RINGS = 12
"""The most range rings one unit may carry."""

MIN_BASE_MM = 0.1
"""Millimetres: the smallest base size or objective marker diameter."""

MAX_BASE_MM = 5000.0
"""Millimetres: the largest base size or objective marker diameter (5 metres)."""

MAX_ROTATION = 36000.0
"""Degrees: a ``rotation`` lies within ``-MAX_ROTATION .. MAX_ROTATION`` (a hundred turns)."""

MAX_COUNT = 10_000
"""The largest count a file may give: OC, wounds, victory and command points, shuffles."""

MAX_SEED = 2**63 - 1
"""A deck's shuffle ``seed`` is a signed 64-bit integer: ``-MAX_SEED - 1 .. MAX_SEED``."""

MAX_GAME_LIST = 1000
"""The longest list the ``game`` section may hold (units destroyed in a turn, a deck's log)."""

MAX_PROBLEMS_SHOWN = 20
"""How many problems a refused file shows before "and N more" (the CLI and the app)."""
