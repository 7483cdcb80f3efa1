"""Shared test set-up: Qt runs offscreen and never touches the user's settings."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
