"""The scenario file format (``docs/scenario-format.md``): read, validate, migrate, write.

Reading collects every problem it finds, each with the JSON path of the offending value, and
raises one :class:`~engine.errors.ScenarioError` carrying them all. What each object holds, its
defaults and bounds are described once, in :mod:`engine.format_schema`; this module decodes the
text safely, migrates old versions, and writes files atomically: a file on disk is either the
old document or the new one, never half of each.

Choices made where the spec is silent (each is enforced and tested):

- A polygon written closed (last point = first) is accepted and stored open; polygons need
  three points, an area of at least ``MIN_POLYGON_AREA`` and no self-intersection.
- A UTF-8 byte-order mark is ignored. Files over 32 MiB, or nested over 64 levels, are refused,
  and so is anything that is not a regular file (a FIFO would block the reader forever).
- Every number lies within the bounds of :mod:`engine.limits`, so no extreme value reaches the
  geometry code; an integer is kept as written (the bounds make it exactly a float).
- Keywords must be upper case (``"Infantry"`` is refused, not silently changed).
- A unit has at least one model. Heights, ``z`` and ranges are >= 0; base sizes, objective
  diameters and the battlefield are > 0.
- A ``home`` objective needs an ``owner``; other roles may not have one.
- The two players may not have the same ``role``.
- ``options`` keys are those the file's rule system reads (its ``Ruleset.option_checks``: a
  typo, or another system's option, is an error);
  ``options.deployment_variant`` picks disputed deployment values (see ``engine.deployments``).
- Ids are non-empty strings, unique across the whole document (deployment regions included).
- Saving through a symbolic link writes the file it points to; a read-only file is refused.

>>> text = '''{"format": "warplan.scenario", "version": 1, "ruleset": "wh40k-ca2026",
...   "battlefield": {"width": 60, "depth": 44},
...   "players": [{"id": "red"}, {"id": "blue"}]}'''
>>> scenario = loads_scenario(text)
>>> scenario.player_ids()
('red', 'blue')
>>> scenario_to_json(scenario)["players"]
[{'id': 'red'}, {'id': 'blue'}]
>>> try:
...     loads_scenario(text.replace('"width": 60', '"width": -60'))
... except ScenarioError as error:
...     print(error)
battlefield.width: must be a positive number, got -60
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import re
import secrets
import stat
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import FormatVersionError, Problem, ScenarioError
from engine.format_messages import index, is_encodable, join, show
from engine.format_schema import (
    NOT_ON_A_BOARD,
    Reader,
    document_entity,
    write_entity,
)
from engine.model import FORMAT_NAME, FORMAT_VERSION, RULESETS, Scenario, thaw

try:
    import fcntl
except ImportError:  # Windows: leftovers are recognised by their age instead of a lock
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MIGRATIONS",
    "dumps_scenario",
    "load_scenario",
    "loads_scenario",
    "migrate",
    "parse_scenario",
    "read_json_file",
    "save_scenario",
    "scan_json",
    "scenario_to_json",
    "validate_path",
    "write_atomically",
]

MAX_FILE_BYTES = 32 * 1024 * 1024
"""Files larger than this are refused before they are read in full."""

MAX_DEPTH = 64
"""Objects and arrays nested deeper than this are refused (a file is a table, not a tree)."""

Migration = Callable[[dict[str, Any]], dict[str, Any]]

MIGRATIONS: dict[int, Migration] = {}
"""``MIGRATIONS[n]`` turns a version ``n`` document into a version ``n + 1`` one, in memory.

Version 1 is the first version, so the registry is empty today. Each step also migrates every
snapshot's board (``snapshots.items[i].board``), given to it first as a document of its own of
the same version, so a file with snapshots written today opens in a later version.
"""

DOCUMENT = document_entity(FORMAT_NAME, RULESETS)
"""The whole document: its fields, and through them every entity of the file."""

_DEPTH_SCAN_CHUNK = 1 << 20


def _dedupe(problems: Iterable[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


# ---------------------------------------------------------------------------------------------
# Raw JSON: text checks, duplicate keys, the generic tree walk
class _JSONObject(dict[str, Any]):
    """A decoded JSON object that remembers keys it saw twice."""

    duplicate_keys: tuple[str, ...] = ()


def _object_from_pairs(pairs: list[tuple[str, Any]]) -> _JSONObject:
    obj = _JSONObject()
    duplicates = []
    for key, value in pairs:
        if key in obj:
            duplicates.append(key)
        obj[key] = value
    if duplicates:
        obj.duplicate_keys = tuple(duplicates)
    return obj


def _parse_constant(name: str) -> float:
    # NaN and Infinity literals are not JSON; keep them as floats so the tree walk reports them
    # with their path instead of failing the whole parse with no location.
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[name]


def _nesting_exceeds(raw: bytes, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than ``limit``: linear, no recursion.

    Escaped backslashes, then escaped quotes, are blanked first (``bytes.replace`` pairs them
    from the left, as JSON does), so every quote left opens or closes a string. The scan then
    runs in chunks, carrying the depth and whether it is inside a string: memory stays a copy of
    the text plus one chunk, whatever the text holds.
    """
    cleaned = raw.replace(b"\\\\", b"__").replace(b'\\"', b"__") if b"\\" in raw else raw
    data = np.frombuffer(cleaned, dtype=np.uint8)
    depth = 0
    inside = False
    for start in range(0, data.size, _DEPTH_SCAN_CHUNK):
        chunk = data[start : start + _DEPTH_SCAN_CHUNK]
        quotes = np.cumsum(chunk == ord('"'), dtype=np.int32)
        outside = (quotes & 1) == int(inside)
        steps = np.zeros(chunk.size, dtype=np.int32)
        steps[(chunk == ord("[")) | (chunk == ord("{"))] = 1
        steps[(chunk == ord("]")) | (chunk == ord("}"))] = -1
        running = np.cumsum(steps * outside, dtype=np.int32) + depth
        if int(running.max()) > limit:
            return True
        depth = int(running[-1])
        inside = bool((int(quotes[-1]) & 1) ^ inside)
    return False


def _decode_text(data: str | bytes, source: str) -> str:
    if isinstance(data, str):
        if len(data) > MAX_FILE_BYTES:
            raise ScenarioError([Problem(source, _too_big(len(data)))])
        return data.removeprefix("\ufeff")
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError([Problem(source, _too_big(len(data)))])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = data[error.start : error.start + 1].hex()
        raise ScenarioError(
            [Problem(source, f"not UTF-8 text: invalid byte 0x{bad} at offset {error.start}")]
        ) from None
    # Windows editors like to start UTF-8 files with a byte-order mark; it carries no data.
    return text.removeprefix("\ufeff")


def _too_big(size: int) -> str:
    return f"file too large: {size} bytes, the limit is {MAX_FILE_BYTES} bytes (32 MiB)"


def _decode_json(text: str, source: str) -> Any:
    raw = text.encode("utf-8", errors="surrogatepass")
    if _nesting_exceeds(raw, MAX_DEPTH):
        raise ScenarioError(
            [Problem(source, f"nested deeper than {MAX_DEPTH} levels of objects and arrays")]
        )
    try:
        return json.loads(
            text, object_pairs_hook=_object_from_pairs, parse_constant=_parse_constant
        )
    except json.JSONDecodeError as error:
        raise ScenarioError(
            [
                Problem(
                    source,
                    f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}",
                )
            ]
        ) from None
    except (ValueError, RecursionError) as error:
        raise ScenarioError([Problem(source, f"not valid JSON: {error}")]) from None


def _non_finite(value: float) -> str:
    return f"must be a finite number, got {show(value)}"


def _scan_tree(data: object, problems: list[Problem]) -> bool:
    """Walk any value without recursion, checking that it is plain, finite, shallow JSON.

    Reports duplicate keys, non-finite numbers, lone surrogates, non-JSON values and excessive
    nesting. Returns False when the value cannot be examined further (too deep, not JSON).
    """
    sound = True
    stack: list[tuple[object, str, int]] = [(data, "", 1)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, Mapping | list | tuple) and depth > MAX_DEPTH:
            problems.append(
                Problem(path, f"nested deeper than {MAX_DEPTH} levels of objects and arrays")
            )
            sound = False
            continue
        if isinstance(value, Mapping):
            for key in getattr(value, "duplicate_keys", ()):
                problems.append(Problem(join(path, key), "duplicate key in one JSON object"))
            children: list[tuple[object, str, int]] = []
            for key, child in value.items():
                if not isinstance(key, str):
                    problems.append(Problem(path, f"object keys must be text, got {show(key)}"))
                    sound = False
                    continue
                if not is_encodable(key):
                    problems.append(Problem(path, "object key is not valid Unicode text"))
                    continue
                children.append((child, join(path, key), depth + 1))
            stack.extend(reversed(children))
        elif isinstance(value, list | tuple):
            stack.extend(
                (child, index(path, i), depth + 1) for i, child in reversed(list(enumerate(value)))
            )
        elif isinstance(value, str):
            if not is_encodable(value):
                problems.append(Problem(path, "must be valid Unicode text (lone surrogate)"))
        elif isinstance(value, float):
            if not math.isfinite(value):
                problems.append(Problem(path, _non_finite(value)))
        elif value is None or isinstance(value, bool | int):
            continue
        else:
            problems.append(Problem(path, f"is not a JSON value, got {show(value)}"))
            sound = False
    return sound


# ---------------------------------------------------------------------------------------------
# Versions


def migrate(data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``data`` migrated in memory to this program's format version.

    Raises :class:`FormatVersionError` for a newer version or one with no migration path.

    >>> migrate({"format": "warplan.scenario", "version": 1})["version"]
    1
    """
    document: dict[str, Any] = thaw(data)
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise FormatVersionError([Problem("version", f"must be an integer, got {show(version)}")])
    if version > FORMAT_VERSION:
        raise FormatVersionError(
            [
                Problem(
                    "version",
                    f"written by a newer Warplan: version {version}, this program reads up to "
                    f"{FORMAT_VERSION}",
                )
            ]
        )
    while version < FORMAT_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise FormatVersionError(
                [
                    Problem(
                        "version",
                        f"cannot read version {version}: no migration from it to version "
                        f"{version + 1}",
                    )
                ]
            )
        try:
            document = step(_with_boards_migrated(document, version, step))
        except Exception as error:
            # A migration reads an old file nobody has validated yet: whatever goes wrong in it
            # is a problem with that file, reported as such rather than as a crash.
            raise FormatVersionError(
                [
                    Problem(
                        "version",
                        f"cannot migrate version {version} to version {version + 1}: "
                        f"{type(error).__name__}: {error}",
                    )
                ]
            ) from error
        version += 1
        document["version"] = version
    return document


def _with_boards_migrated(
    document: dict[str, Any], version: int, step: Migration
) -> dict[str, Any]:
    """``document`` with each snapshot's board migrated by ``step`` as a whole document of
    ``version`` would be (the keys only a document holds taken away again)."""
    section = document.get("snapshots")
    items = section.get("items") if isinstance(section, dict) else None
    if not isinstance(items, list):
        return document
    for item in items:
        board = item.get("board") if isinstance(item, dict) else None
        if isinstance(board, dict):
            whole = step({"format": document.get("format"), "version": version, **board})
            item["board"] = {k: v for k, v in whole.items() if k not in NOT_ON_A_BOARD}
    return document


# ---------------------------------------------------------------------------------------------
# Public reading API


def parse_scenario(data: object, source: str = "") -> Scenario:
    """Validate a decoded JSON document (or the same structure in Python) and build it.

    ``source`` names where the data came from; it is the path of problems about the whole
    document. Raises :class:`ScenarioError` listing every problem, or
    :class:`FormatVersionError` for a file from a newer Warplan.
    """
    problems: list[Problem] = []
    if not _scan_tree(data, problems):
        raise ScenarioError(_dedupe(problems))
    if not isinstance(data, Mapping):
        problems.append(Problem(source, f"the document must be a JSON object, got {show(data)}"))
        raise ScenarioError(problems)
    if "version" not in data:
        problems.append(Problem("version", "missing required key"))
        raise ScenarioError(_dedupe(problems))
    try:
        document = migrate(data)
    except FormatVersionError as error:
        raise FormatVersionError(_dedupe([*problems, *error.problems])) from None
    reader = Reader(problems=problems)
    scenario = reader.entity(DOCUMENT, document, "")
    if scenario is None or reader.problems:
        if not reader.problems:
            reader.problem(source, "not a valid scenario")
        raise ScenarioError(_dedupe(reader.problems))
    assert isinstance(scenario, Scenario)
    return scenario


def loads_scenario(text: str | bytes, source: str = "") -> Scenario:
    """Read a scenario from JSON text (``str``, or ``bytes`` that must be UTF-8)."""
    return parse_scenario(_decode_json(_decode_text(text, source), source), source)


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read a ``.warplan.json`` file; any failure to read it is a :class:`ScenarioError`.

    Only a regular file is read: a FIFO or a device named like a scenario is refused without
    waiting on it (it is opened non-blocking and checked before anything is read).
    """
    return parse_scenario(read_json_file(path), str(path))


def read_json_file(path: str | os.PathLike[str]) -> Any:
    """The decoded JSON of a Warplan file (a scenario, a lesson), read as
    :func:`load_scenario` reads: a regular file only, within the size cap, UTF-8, no
    duplicate keys or excessive nesting; any failure is a :class:`ScenarioError`."""
    source = str(path)
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise ScenarioError([Problem(source, _cannot_read(error))]) from None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise ScenarioError([Problem(source, "cannot read the file: not a regular file")])
        if status.st_size > MAX_FILE_BYTES:
            raise ScenarioError([Problem(source, _too_big(status.st_size))])
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            # Read one byte past the limit: a file that grows (or lies about its size) is caught.
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise ScenarioError([Problem(source, _cannot_read(error))]) from None
    finally:
        os.close(descriptor)
    return _decode_json(_decode_text(raw, source), source)


def scan_json(data: object) -> list[Problem]:
    """The problems of a value that is not plain, finite, shallow JSON (none when it is)."""
    problems: list[Problem] = []
    _scan_tree(data, problems)
    return _dedupe(problems)


def _cannot_read(error: OSError) -> str:
    return f"cannot read the file: {error.strerror or type(error).__name__}"


def validate_path(path: str | os.PathLike[str]) -> list[Problem]:
    """Every problem with the scenario file at ``path`` (an empty list when it is valid)."""
    try:
        load_scenario(path)
    except ScenarioError as error:
        return list(error.problems)
    return []


# ---------------------------------------------------------------------------------------------
# Writing


def scenario_to_json(scenario: Scenario) -> dict[str, Any]:
    """The plain JSON of a scenario: keys in the spec's order, optional defaults left out."""
    return write_entity(DOCUMENT, scenario)


_LEAF_ARRAY = re.compile(r"\[\n\s*([^\[\]{}]*?)\n\s*\]")


def _one_line(match: re.Match[str]) -> str:
    # Only whitespace holding a newline is touched, and JSON strings never hold a raw newline,
    # so this cannot change a value.
    return "[" + re.sub(r",\n\s*", ", ", match.group(1)) + "]"


def dumps_scenario(scenario: Scenario) -> str:
    """The scenario as file text: JSON indented by 2, ending with a newline.

    Arrays of plain values (a point, a keyword list) stay on one line.
    """
    try:
        text = json.dumps(scenario_to_json(scenario), indent=2, ensure_ascii=False, allow_nan=False)
    except ValueError as error:
        raise ScenarioError([Problem("", f"cannot be written as JSON: {error}")]) from None
    return _LEAF_ARRAY.sub(_one_line, text) + "\n"


def save_scenario(scenario: Scenario, path: str | os.PathLike[str]) -> None:
    """Write ``scenario`` to ``path`` atomically.

    The text is validated by reading it back first. It goes to a temporary file in the same
    folder, flushed and synced to disk, then renamed over the file: on any error the old file is
    untouched and no temporary file is left behind. Through a symbolic link, the file it points
    to is written (the link stays). A read-only file is refused (``PermissionError``). Temporary
    files that interrupted saves left in the folder are removed first.
    """
    text = dumps_scenario(scenario)
    loads_scenario(text, str(path))
    write_atomically(text, path)


def write_atomically(text: str, path: str | os.PathLike[str]) -> None:
    """Write ``text`` (UTF-8) to ``path`` as :func:`save_scenario` does: a synced temporary
    file renamed over the target, through symbolic links, a read-only file refused."""
    data = text.encode("utf-8")
    target = Path(os.path.realpath(path))
    folder = target.parent
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o644
    else:
        # The mode bits too: an administrator may write anything, but a file marked read-only
        # was marked so to be kept.
        if not mode & 0o222 or not os.access(target, os.W_OK):
            raise PermissionError(errno.EACCES, "the file is read-only", str(path))
    _remove_leftovers(folder)
    handle, temp_name = _temporary_file(folder)
    try:
        with os.fdopen(handle, "wb") as temp:
            _lock(temp.fileno())
            temp.write(data)
            temp.flush()
            os.fsync(temp.fileno())
            os.chmod(temp_name, mode)
            os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise
    _sync_folder(folder)


_TEMPORARY = re.compile(r"\.warplan-[0-9a-f]{8}\.tmp")
"""Our temporary files: short names, so that a file name of up to 255 bytes can be saved."""

_OLD_TEMPORARY = re.compile(r"\..+\.warplan\.json\.[a-z0-9_]{8}\.tmp", re.DOTALL)
"""The temporary files earlier versions made (``.NAME.XXXXXXXX.tmp``)."""


def _temporary_file(folder: Path) -> tuple[int, str]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        name = str(folder / f".warplan-{secrets.token_hex(4)}.tmp")
        try:
            return os.open(name, flags, 0o600), name
        except FileExistsError:
            continue


def _lock(descriptor: int) -> None:
    """Mark a temporary file as in use (POSIX advisory lock, released when the writer ends)."""
    if fcntl is not None:
        fcntl.flock(descriptor, fcntl.LOCK_EX)


def _remove_leftovers(folder: Path) -> None:
    """Remove temporary files of saves that were interrupted (ours, and not in use).

    A save holds a lock on its temporary file until it renames it; a file whose lock can be
    taken belongs to a save that ended without renaming it. Where locks do not exist, a
    leftover must be an hour old.
    """
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not (_TEMPORARY.fullmatch(name) or _OLD_TEMPORARY.fullmatch(name)):
            continue
        leftover = folder / name
        with contextlib.suppress(OSError):
            _remove_if_abandoned(leftover)


def _remove_if_abandoned(leftover: Path) -> None:
    status = os.lstat(leftover)
    if not stat.S_ISREG(status.st_mode):
        return
    if fcntl is None:
        if time.time() - status.st_mtime > 3600:
            os.unlink(leftover)
        return
    descriptor = os.open(leftover, os.O_RDONLY | os.O_NONBLOCK)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return
        os.unlink(leftover)
    finally:
        os.close(descriptor)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); folders cannot be opened this way on Windows."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
