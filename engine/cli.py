"""``python -m engine``: evaluate, validate and score scenario files, look up Primaries, bench,
list the recommended layouts, write a new game on one, read army lists, show a unit's threat,
compare two boards (two files or two snapshots), map where a model could stand hidden,
compile the line-of-sight kernels ahead of use.

Exit status: 0 on success, 2 when a file cannot be read or does not follow the format (one
``path: problem`` line per problem on standard error), 1 for a bad command line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TextIO

from engine.errors import ScenarioError, WarplanError

if TYPE_CHECKING:
    from numba.core.dispatcher import Dispatcher

    from engine.model import Base, Scenario

EXIT_OK = 0
EXIT_USAGE = 1
EXIT_BAD_INPUT = 2


def _print_problems(error: ScenarioError, source: str, err: TextIO) -> None:
    from engine.format_messages import capped

    print(f"{source}: not a valid scenario", file=err)
    for line in capped(error.problems):
        print(line, file=err)


def _cmd_validate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from engine.scenario_io import load_scenario

    scenario = load_scenario(Path(args.file))
    models = sum(len(u.models) for u in scenario.units)
    print(
        f"{args.file}: valid ({scenario.ruleset}, {len(scenario.units)} units, {models} models, "
        f"{len(scenario.terrain)} terrain pieces, {len(scenario.objectives)} objectives)",
        file=out,
    )
    return EXIT_OK


def _cmd_evaluate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from engine.evaluate import evaluate
    from engine.scenario_io import load_scenario

    scenario = load_scenario(Path(args.file))
    evaluation = evaluate(scenario, visibility=not args.no_visibility)
    if args.json:
        json.dump(evaluation.to_json(), out, indent=2, sort_keys=False)
        out.write("\n")
    else:
        out.write(evaluation.ruling_text())
        if not evaluation.ruling_text().endswith("\n"):
            out.write("\n")
    return EXIT_OK


def _cmd_score(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from engine.evaluate import evaluate
    from engine.scenario_io import load_scenario

    report = evaluate(load_scenario(Path(args.file)), visibility=False).score()
    if args.json:
        json.dump(report.to_json(), out, indent=2)
        out.write("\n")
    else:
        out.write(report.text())
        out.write("\n")
    return EXIT_OK


def _cmd_primary(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from engine.rulesets.wh40k_ca2026 import primary_mission

    print(primary_mission(args.player_fd, args.opponent_fd), file=out)
    return EXIT_OK


def _cmd_layouts(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from engine.layouts import layout_index

    entries = layout_index()
    if args.json:
        rows = [
            {
                "id": e.id,
                "name": e.name,
                "pairing": list(e.pairing),
                "letter": e.letter,
                "deployment": e.deployment,
                "source": e.source,
                "revision": e.revision,
            }
            for e in entries
        ]
        json.dump(rows, out, indent=2)
        out.write("\n")
        return EXIT_OK
    for e in entries:
        print(f"{e.id}\t{e.pairing[0]} vs {e.pairing[1]}\t{e.letter}\t{e.deployment}", file=out)
    return EXIT_OK


def _cmd_new(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from engine.layouts import layout
    from engine.model import Battlefield, Player, Scenario
    from engine.rulesets.wh40k_ca2026.generator import new_game
    from engine.scenario_io import save_scenario

    chosen = layout(args.layout)
    blank = Scenario(
        "wh40k-ca2026", (Player("red"), Player("blue")), Battlefield(), title=chosen.name
    )
    game = new_game(blank, seed=args.seed, force_dispositions=chosen.pairing, layout=chosen.letter)
    save_scenario(game, Path(args.out))
    print(f"{args.out}: {chosen.name} ({chosen.deployment}), seed {args.seed}", file=out)
    return EXIT_OK


def _cmd_bench(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from benchmarks.bench import bench_scenario, run_benchmarks

    if args.scenario is None:
        run_benchmarks(out, quick=args.quick, naive_visibility=not args.skip_naive_visibility)
        return EXIT_OK
    from engine.scenario_io import load_scenario

    scenario = load_scenario(Path(args.scenario))
    figures = bench_scenario(scenario, repeats=3 if args.quick else 5)
    if args.json:
        print(json.dumps(figures), file=out)
    else:
        for key, value in figures.items():
            print(f"{key}: {value}", file=out)
    return EXIT_OK


def _cmd_import_army(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from engine.army_lists import load_army_list

    army = load_army_list(Path(args.file))
    if args.json:
        json.dump(army.to_json(), out, indent=2, ensure_ascii=False)
        out.write("\n")
        return EXIT_OK
    print(f"{args.file}: {army.format}, {len(army.units)} units for {args.player}", file=out)
    for entry in army.units:
        note = f" ({entry.problem})" if entry.problem else ""
        print(f"  line {entry.line}: {entry.models} x {entry.datasheet.name}{note}", file=out)
    for unresolved in army.unresolved:
        closest = ", ".join(unresolved.suggestions) or "none"
        print(
            f"  line {unresolved.line}: {unresolved.text}: unresolved (closest: {closest})",
            file=out,
        )
    return EXIT_OK


def _cmd_threat(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from engine.scenario_io import load_scenario
    from engine.threat import unit_threats

    report = unit_threats(load_scenario(Path(args.file)), args.unit)
    if args.json:
        json.dump(report.to_json(), out, indent=2)
        out.write("\n")
    else:
        out.write(report.text())
    return EXIT_OK


def _compared_boards(args: argparse.Namespace) -> tuple[Scenario, Scenario, str, str]:
    """The two boards ``compare`` is asked about, and their labels: two files' boards; two
    snapshots of one file; or one snapshot of a file and the file's live board."""
    from engine.scenario_io import load_scenario
    from engine.snapshots import snapshot

    def load(path: str) -> Scenario:
        args.file = path  # the file a problem is reported against
        return load_scenario(Path(path))

    files, snapshots = list(args.files), list(args.snapshot or ())
    if len(files) == 2 and not snapshots:
        return load(files[0]), load(files[1]), files[0], files[1]
    if len(files) != 1 or not 1 <= len(snapshots) <= 2:
        raise CommandLineError("compare takes two files, or one file and one or two --snapshot ids")
    scenario = load(files[0])
    first = snapshot(scenario, snapshots[0])
    if len(snapshots) == 1:
        return first.board, scenario, f"{first.name} ({first.id})", f"{files[0]} (live board)"
    second = snapshot(scenario, snapshots[1])
    return first.board, second.board, f"{first.name} ({first.id})", f"{second.name} ({second.id})"


def _cmd_compare(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from engine.compare import compare

    a, b, a_label, b_label = _compared_boards(args)
    comparison = compare(a, b, a_label, b_label, hidden=not args.no_hidden)
    if args.json:
        json.dump(comparison.to_json(), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(comparison.text() + "\n")
    return EXIT_OK


class CommandLineError(Exception):
    """A command line argparse accepts but the command cannot use (exit status 1)."""


def _base_argument(text: str) -> Base:
    """``32`` (round, mm), ``60x35`` (oval), ``rect:100x50`` (rectangle)."""
    from engine.model import CircleBase, OvalBase, RectBase

    shape, _, sizes = text.rpartition(":")
    try:
        numbers = [float(part) for part in sizes.lower().split("x")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a base: {text!r}") from None
    if shape in ("", "round", "oval") and len(numbers) == 1 and shape != "oval":
        return CircleBase(numbers[0])
    if shape in ("", "oval") and len(numbers) == 2:
        return OvalBase(numbers[0], numbers[1])
    if shape == "rect" and len(numbers) == 2:
        return RectBase(numbers[0], numbers[1])
    raise argparse.ArgumentTypeError(f"not a base: {text!r} (32, 60x35 or rect:100x50)")


def _cmd_hidden(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from engine.hidden import hidden_map
    from engine.scenario_io import load_scenario

    scenario = load_scenario(Path(args.file))
    started = time.perf_counter()
    result = hidden_map(
        scenario,
        player=args.player,
        base=args.base,
        height=args.height,
        step=args.step,
        region=args.region,
        within=args.within,
        mode=args.mode,
        observers=args.observers,
        observer_height=args.observer_height,
    )
    elapsed = time.perf_counter() - started
    if args.json:
        json.dump(result.to_json(), out)
        out.write("\n")
    else:
        out.write(result.text())
        out.write(f"worked out in {elapsed * 1000:.0f} ms\n")
    return EXIT_OK


@dataclass(frozen=True)
class KernelWarmUp:
    """One compiled kernel after :func:`warm_up_kernels`: its signatures, and how many of them
    numba loaded from its on-disk cache and how many it had to compile."""

    name: str
    signatures: tuple[str, ...]
    loaded: int
    compiled: int

    def how(self) -> str:
        """How many signatures it has and where their code came from, in words (the
        signatures themselves, long for kernels over whole scenes, are in the JSON)."""
        if not self.signatures:
            # Loaded callers carry the code of the kernels they call: nothing is compiled.
            return "called only by other kernels, whose cached code includes it"
        count = len(self.signatures)
        origin = "compiled" if self.compiled else "loaded from the cache"
        return f"{count} signature{'s' if count > 1 else ''}, {origin}"


@dataclass(frozen=True)
class WarmUpReport:
    """What :func:`warm_up_kernels` did and how long it took, in seconds: importing numba and
    the kernel module, then compiling (or loading) every kernel.

    >>> report = WarmUpReport(
    ...     (KernelWarmUp("first_free", ("(float64, float64)",), 1, 0),
    ...      KernelWarmUp("inside_polygon", (), 0, 0)),
    ...     0.31, 0.84, "engine/__pycache__")
    >>> print(report.text(), end="")  # doctest: +NORMALIZE_WHITESPACE
    first_free: 1 signature, loaded from the cache
    inside_polygon: called only by other kernels, whose cached code includes it
    warm-up: 2 kernels, 0 signatures compiled and 1 loaded from the cache in 0.84 s
    (importing numba and the kernels: 0.31 s); cache: engine/__pycache__
    """

    kernels: tuple[KernelWarmUp, ...]
    import_seconds: float
    compile_seconds: float
    cache_dir: str

    @property
    def compiled(self) -> int:
        return sum(kernel.compiled for kernel in self.kernels)

    @property
    def loaded(self) -> int:
        return sum(kernel.loaded for kernel in self.kernels)

    def to_json(self) -> dict[str, object]:
        return {
            "kernels": [
                {
                    "name": k.name,
                    "signatures": list(k.signatures),
                    "loaded": k.loaded,
                    "compiled": k.compiled,
                }
                for k in self.kernels
            ],
            "import_seconds": round(self.import_seconds, 4),
            "compile_seconds": round(self.compile_seconds, 4),
            "cache_dir": self.cache_dir,
        }

    def text(self) -> str:
        lines = [f"{k.name}: {k.how()}" for k in self.kernels]
        lines.append(
            f"warm-up: {len(self.kernels)} kernels, {self.compiled} signatures compiled and "
            f"{self.loaded} loaded from the cache in {self.compile_seconds:.2f} s "
            f"(importing numba and the kernels: {self.import_seconds:.2f} s); "
            f"cache: {self.cache_dir}"
        )
        return "\n".join(lines) + "\n"


def kernel_dispatchers(module: ModuleType) -> list[tuple[str, Dispatcher[Any]]]:
    """The numba-compiled functions defined in ``module`` (not the ones it imports)."""
    from numba.core.dispatcher import Dispatcher

    found = [
        (name, value)
        for name, value in vars(module).items()
        if isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__
    ]
    return sorted(found, key=lambda entry: entry[0])


def warm_up_kernels() -> WarmUpReport:
    """Compiles every line-of-sight kernel, or loads it from numba's cache when an earlier run
    compiled the same source with the same numba for the same processor: the app then never
    pays the compile on first use. The kernels' module imports numba, which ``import engine``
    does not, so this is imported here, on demand."""
    started = time.perf_counter()
    from engine import hidden_kernel, sight_kernel

    imported = time.perf_counter()
    sight_kernel.warm_up()
    hidden_kernel.warm_up()
    finished = time.perf_counter()
    kernels = []
    cache_dirs = set()
    for name, dispatcher in [
        *kernel_dispatchers(sight_kernel),
        *kernel_dispatchers(hidden_kernel),
    ]:
        stats = dispatcher.stats
        cache_dirs.add(str(stats.cache_path))
        kernels.append(
            KernelWarmUp(
                name,
                tuple(
                    "(" + ", ".join(str(argument) for argument in signature) + ")"
                    for signature in dispatcher.signatures
                ),
                sum(stats.cache_hits.values()),
                sum(stats.cache_misses.values()),
            )
        )
    return WarmUpReport(
        tuple(kernels), imported - started, finished - imported, ", ".join(sorted(cache_dirs))
    )


def _cmd_warm_up(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    report = warm_up_kernels()
    if args.json:
        json.dump(report.to_json(), out, indent=2)
        out.write("\n")
    else:
        out.write(report.text())
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Warplan's rules engine: what the rules say about a battlefield.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    evaluate = commands.add_parser("evaluate", help="print the rulings for a scenario file")
    evaluate.add_argument("file", help="a .warplan.json scenario")
    evaluate.add_argument("--json", action="store_true", help="print the contract JSON")
    evaluate.add_argument(
        "--no-visibility", action="store_true", help="skip line of sight (faster)"
    )
    evaluate.set_defaults(handler=_cmd_evaluate)

    validate = commands.add_parser("validate", help="check a scenario file against the format")
    validate.add_argument("file")
    validate.set_defaults(handler=_cmd_validate)

    score = commands.add_parser("score", help="score the moment a scenario's game section gives")
    score.add_argument("file")
    score.add_argument("--json", action="store_true", help="print the contract JSON")
    score.set_defaults(handler=_cmd_score)

    primary = commands.add_parser(
        "primary", help="the Primary Mission a pair of Force Disposition cards gives a player"
    )
    primary.add_argument("player_fd", metavar="PLAYER_FD")
    primary.add_argument("opponent_fd", metavar="OPPONENT_FD")
    primary.set_defaults(handler=_cmd_primary)

    layouts = commands.add_parser(
        "layouts", help="list the recommended layouts: id, pairing, letter, Deployment card"
    )
    layouts.add_argument("--json", action="store_true", help="print JSON")
    layouts.set_defaults(handler=_cmd_layouts)

    new = commands.add_parser(
        "new", help="write a new Chapter Approved game on a recommended layout"
    )
    new.add_argument("--layout", required=True, metavar="ID", help="a layout id (see layouts)")
    new.add_argument("--out", required=True, metavar="FILE", help="the scenario file to write")
    new.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    new.set_defaults(handler=_cmd_new)

    bench = commands.add_parser("bench", help="run the performance benchmark (medians, ratios)")
    bench.add_argument(
        "--quick", action="store_true", help="fewer repeats; no full line-of-sight matrix"
    )
    bench.add_argument(
        "--skip-naive-visibility",
        action="store_true",
        help="skip the naive line-of-sight baseline",
    )
    bench.add_argument(
        "--scenario", metavar="FILE", help="time this scenario file instead (no baselines)"
    )
    bench.add_argument("--json", action="store_true", help="with --scenario: print JSON")
    bench.set_defaults(handler=_cmd_bench)

    import_army = commands.add_parser(
        "import-army",
        help="read an army list (GW app text, ListForge, NewRecruit) and resolve its datasheets",
    )
    import_army.add_argument("file", help="the exported list")
    import_army.add_argument("--player", default="red", help="the player it is for (red)")
    import_army.add_argument("--json", action="store_true", help="print the contract JSON")
    import_army.set_defaults(handler=_cmd_import_army)

    threat = commands.add_parser(
        "threat",
        help="the enemy units a unit can reach this turn (normal move, advance, charge)",
    )
    threat.add_argument("file", help="a .warplan.json scenario")
    threat.add_argument("--unit", required=True, metavar="ID", help="the unit on the battlefield")
    threat.add_argument("--json", action="store_true", help="print the contract JSON")
    threat.set_defaults(handler=_cmd_threat)

    compare = commands.add_parser(
        "compare",
        help="what differs between two boards: control, sight, threat, moves, hidden areas",
    )
    compare.add_argument(
        "files", nargs="+", metavar="FILE", help="two scenarios, or one with --snapshot"
    )
    compare.add_argument(
        "--snapshot",
        action="append",
        metavar="ID",
        help="a snapshot of the one file (twice: two snapshots; once: it and the live board)",
    )
    compare.add_argument("--json", action="store_true", help="print the contract JSON")
    compare.add_argument(
        "--no-hidden", action="store_true", help="leave out the hidden areas (faster)"
    )
    compare.set_defaults(handler=_cmd_compare)
    hidden = commands.add_parser(
        "hidden", help="where a model of a base and height could stand unseen by the enemy"
    )
    hidden.add_argument("file", help="a .warplan.json scenario")
    hidden.add_argument("--player", required=True, help="the player placing the model")
    hidden.add_argument(
        "--base", required=True, type=_base_argument, help="mm: 32, 60x35 (oval), rect:100x50"
    )
    hidden.add_argument("--height", required=True, type=float, help="the model's height (in)")
    hidden.add_argument("--step", type=float, default=0.5, help="grid step in inches (0.5)")
    hidden.add_argument(
        "--region", choices=("zone", "table"), help="default: the player's zone, else the table"
    )
    hidden.add_argument("--within", type=float, help="only enemy units within this many inches")
    hidden.add_argument(
        "--mode", choices=("hidden", "not-fully-visible"), default="hidden", help="(hidden)"
    )
    hidden.add_argument(
        "--observers", choices=("models", "zone"), default="models", help="(models)"
    )
    hidden.add_argument("--observer-height", type=float, help="zone observers' height (in)")
    hidden.add_argument("--json", action="store_true", help="print the contract JSON")
    hidden.set_defaults(handler=_cmd_hidden)

    warm_up = commands.add_parser(
        "warm-up",
        help="compile the line-of-sight kernels now (or load them from the cache) and say so",
    )
    warm_up.add_argument("--json", action="store_true", help="print JSON")
    warm_up.set_defaults(handler=_cmd_warm_up)
    return parser


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the command line; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_request:
        return EXIT_OK if exit_request.code == 0 else EXIT_USAGE
    try:
        status: int = args.handler(args, out, err)
    except CommandLineError as error:
        print(f"error: {error}", file=err)
        return EXIT_USAGE
    except ScenarioError as error:
        _print_problems(error, getattr(args, "file", ""), err)
        return EXIT_BAD_INPUT
    except WarplanError as error:
        print(f"error: {error}", file=err)
        return EXIT_BAD_INPUT
    return status
