"""What one converter hands back: the files it wants written and what its checks found."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Conversion:
    """``files`` maps a path relative to ``assets/40kdc/`` to its JSON value; ``findings``
    are one-line, human-readable reports of what was wrong in the data and what was done."""

    name: str
    files: dict[str, Any]
    findings: tuple[str, ...] = field(default=())
