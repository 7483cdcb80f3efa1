"""Drag benchmark on the 200-model stress scenario or the official table (real mouse events).

Usage: ``.venv/bin/python scripts/bench_drag.py [--steps N] [--board stress|official] [--json]``
(offscreen). The integrator's bench calls :func:`benchmarks.bench_drag.run_drag_benchmark`
directly. Target: median < 16 ms, p90 < 33 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from benchmarks.bench_drag import format_report, run_drag_benchmark  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--board", choices=("stress", "official"), default="stress")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--board-only", action="store_true", help="hide the docks (big board)")
    args = parser.parse_args()
    result = run_drag_benchmark(
        steps=args.steps, seed=args.seed, board_only=args.board_only, board=args.board
    )
    print(json.dumps(result, indent=2) if args.json else format_report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
