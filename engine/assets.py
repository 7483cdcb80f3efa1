"""Where the engine's shipped data lives: the project's ``assets/`` folder.

Every rule system and data module finds its files from :data:`ASSET_ROOT`, so moving a module
never changes where its data is read from.

>>> (ASSET_ROOT / "bases.json").is_file()
True
"""

from __future__ import annotations

from pathlib import Path

ASSET_ROOT = Path(__file__).resolve().parent.parent / "assets"
"""The ``assets/`` folder beside ``engine/`` (in the source tree and in the package)."""
