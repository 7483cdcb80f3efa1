"""Reading and writing scenario files for the app, and the autosave store.

Reading never changes anything on disk; a bad file raises :class:`engine.errors.WarplanError`
(``ScenarioError`` with every problem) so the window can show a clear dialog. Saving is atomic
(the engine writes a temporary file in the same folder and replaces the target).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSaveFile, QStandardPaths

from engine.errors import ScenarioError, WarplanError
from engine.model import Scenario
from gui.engine_bridge import engine_module, missing_message

SCENARIO_FILTER = "Warplan scenarios (*.warplan.json);;JSON files (*.json);;All files (*)"


def _scenario_io():  # type: ignore[no-untyped-def]
    module = engine_module("engine.scenario_io")
    if module is None:
        raise WarplanError(missing_message("engine.scenario_io"))
    return module


def read_scenario(path: Path) -> Scenario:
    """The scenario in ``path``; raises ``WarplanError`` (never anything else for bad input)."""
    try:
        return _scenario_io().load_scenario(path)
    except WarplanError:
        raise
    except OSError as error:
        raise WarplanError(f"{path}: cannot be read ({error.strerror or error})") from error


def write_scenario(scenario: Scenario, path: Path) -> None:
    try:
        _scenario_io().save_scenario(scenario, path)
    except OSError as error:
        raise WarplanError(f"{path}: cannot be written ({error.strerror or error})") from error


def error_text(error: BaseException) -> str:
    """What went wrong, one problem per line (no traceback)."""
    if isinstance(error, ScenarioError) and error.problems:
        return "\n".join(str(p) for p in error.problems)
    return str(error) or type(error).__name__


def with_suffix(path: Path) -> Path:
    """``path`` ending in ``.warplan.json`` (added when the user typed a bare name)."""
    return path if path.name.endswith(".json") else path.with_name(path.name + ".warplan.json")


# ------------------------------------------------------------------------------ autosave


@dataclass(frozen=True)
class AutosaveEntry:
    """One autosaved document: its scenario file, its metadata and the process that wrote it."""

    scenario_path: Path
    meta_path: Path
    pid: int
    original: Path | None
    saved_at: float
    title: str


def _process_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class AutosaveStore:
    """Autosaves in Qt's ``AppDataLocation``/``autosave`` (tests enable Qt's test mode).

    Each running app owns ``autosave-<pid>.warplan.json`` plus ``autosave-<pid>.meta.json``.
    After a crash or kill the files stay; the next start finds those whose process is gone and
    offers to recover them.
    """

    def __init__(self, directory: Path | None = None, pid: int | None = None) -> None:
        if directory is None:
            base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
            directory = Path(base) / "autosave"
        self.directory = directory
        self.pid = os.getpid() if pid is None else pid

    @property
    def scenario_path(self) -> Path:
        return self.directory / f"autosave-{self.pid}.warplan.json"

    @property
    def meta_path(self) -> Path:
        return self.directory / f"autosave-{self.pid}.meta.json"

    def write(self, scenario: Scenario, original: Path | None) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        write_scenario(scenario, self.scenario_path)
        meta = {
            "pid": self.pid,
            "original": str(original) if original is not None else None,
            "saved_at": time.time(),
            "title": scenario.title,
        }
        saver = QSaveFile(str(self.meta_path))
        if not saver.open(QSaveFile.OpenModeFlag.WriteOnly):
            raise WarplanError(f"{self.meta_path}: cannot be written ({saver.errorString()})")
        saver.write(json.dumps(meta, indent=2).encode())
        if not saver.commit():
            raise WarplanError(f"{self.meta_path}: cannot be written ({saver.errorString()})")

    def clear(self) -> None:
        """Remove this process's autosave (after a save, or on a clean exit)."""
        for path in (self.scenario_path, self.meta_path):
            path.unlink(missing_ok=True)

    def orphans(self) -> list[AutosaveEntry]:
        """Autosaves left by processes that no longer run, newest first."""
        if not self.directory.is_dir():
            return []
        entries = []
        for meta_path in self.directory.glob("autosave-*.meta.json"):
            try:
                meta = json.loads(meta_path.read_text(encoding="utf-8"))
                pid = int(meta["pid"])
            except (OSError, ValueError, KeyError, TypeError):
                continue
            scenario_path = self.directory / f"autosave-{pid}.warplan.json"
            if pid == self.pid or _process_alive(pid) or not scenario_path.exists():
                continue
            original = meta.get("original")
            entries.append(
                AutosaveEntry(
                    scenario_path=scenario_path,
                    meta_path=meta_path,
                    pid=pid,
                    original=Path(original) if original else None,
                    saved_at=float(meta.get("saved_at", 0.0)),
                    title=str(meta.get("title", "")),
                )
            )
        return sorted(entries, key=lambda e: e.saved_at, reverse=True)

    @staticmethod
    def discard(entry: AutosaveEntry) -> None:
        for path in (entry.scenario_path, entry.meta_path):
            path.unlink(missing_ok=True)
