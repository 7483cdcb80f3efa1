"""Warplan's desktop app (PySide6). Builds on ``engine``; see ``docs/architecture.md``."""
