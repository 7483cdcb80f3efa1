"""Application-wide set-up: the QApplication, its identity (for QSettings), and the font.

The font ships in ``assets/fonts`` so text renders the same on every machine, including a
fresh headless one with no fonts installed (where Qt would otherwise draw empty boxes).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
FONT_DIR = ASSETS / "fonts"
ICON_DIR = ASSETS / "icons"
DEMO_SCENARIO = ASSETS / "scenarios" / "demo.warplan.json"

ORGANIZATION = "Warplan"
APPLICATION = "Warplan"


def load_app_font() -> str | None:
    """Register the bundled DejaVu Sans faces and return the family name (None if missing)."""
    family: str | None = None
    for font_file in sorted(FONT_DIR.glob("*.ttf")):
        font_id = QFontDatabase.addApplicationFont(str(font_file))
        families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
        if families and family is None:
            family = families[0]
    return family


def ensure_application(argv: list[str] | None = None) -> QApplication:
    """The running QApplication, created (with identity and font) on first call."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        configure_application(existing)
        return existing
    app = QApplication(argv if argv is not None else sys.argv[:1])
    configure_application(app)
    return app


def configure_application(app: QApplication) -> None:
    """Name the app (QSettings and autosave paths derive from it) and set the bundled font."""
    if app.property("warplan_configured"):
        return
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    family = load_app_font()
    if family:
        font = QFont(family)
        font.setPointSizeF(9.5)
        app.setFont(font)
    app.setProperty("warplan_configured", True)
