"""Entry point of the packaged app: the same as ``python -m gui [FILE] [--selftest] ...``.

PyInstaller freezes this script; ``startup_probe`` is bundled with it so that start-up time
can be measured on the built app exactly as on the source tree (``scripts/measure_startup.py``).
``warplan --selftest-kernels`` checks the compiled line-of-sight kernels in the package
(``startup_probe.kernel_selftest``).
"""

import os
import sys
from pathlib import Path

import kernel_cache
from startup_probe import install_from_environment, kernel_selftest

# Before anything imports numba, which reads its cache folder once, on import.
if getattr(sys, "frozen", False):
    kernel_cache.configure(os.environ, Path(sys._MEIPASS))

# The app re-runs itself as ``sys.executable -m gui ...`` (under Xvfb when there is no
# display); in the package ``sys.executable`` is this program, which is already ``gui``.
if sys.argv[1:3] == ["-m", "gui"]:
    del sys.argv[1:3]

if sys.argv[1:] == ["--selftest-kernels"]:
    sys.exit(kernel_selftest())

install_from_environment()

from gui.__main__ import main  # noqa: E402 (the probe must patch Qt before the app imports it)

if __name__ == "__main__":
    sys.exit(main())
