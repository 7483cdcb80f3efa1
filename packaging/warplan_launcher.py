"""Entry point of the packaged app: the same as ``python -m gui [FILE] [--selftest] ...``.

PyInstaller freezes this script; ``startup_probe`` is bundled with it so that start-up time
can be measured on the built app exactly as on the source tree (``scripts/measure_startup.py``).
"""

import sys

from startup_probe import install_from_environment

# The app re-runs itself as ``sys.executable -m gui ...`` (under Xvfb when there is no
# display); in the package ``sys.executable`` is this program, which is already ``gui``.
if sys.argv[1:3] == ["-m", "gui"]:
    del sys.argv[1:3]

install_from_environment()

from gui.__main__ import main  # noqa: E402 (the probe must patch Qt before the app imports it)

if __name__ == "__main__":
    sys.exit(main())
