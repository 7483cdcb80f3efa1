"""Write PNGs of Warplan's main window on the demo for the README.

Usage: ``.venv/bin/python scripts/screenshots.py [OUT_DIR]`` (default ``docs/images``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui.screenshots import take_screenshots  # noqa: E402


def main() -> int:
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    for path in take_screenshots(out_dir):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
