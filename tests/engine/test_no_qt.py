"""The engine must import without Qt: importing every engine module loads no Qt module."""

import importlib
import pkgutil
import subprocess
import sys

import engine


def test_engine_modules_import_without_qt() -> None:
    names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'PySide6', 'shiboken6', 'pyqtgraph', 'gui'})\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
    assert importlib.import_module("engine.model") is not None
