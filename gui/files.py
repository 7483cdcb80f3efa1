"""Reading and writing scenario files for the app, the autosave store, and the file flows
(open, save, save as, recent files, autosave, recovery) as a :class:`FileController` the window
composes.

Reading never changes anything on disk; a bad file raises :class:`engine.errors.WarplanError`
(``ScenarioError`` with every problem) so the window can show a clear dialog. Saving is atomic
(the engine writes a temporary file in the same folder and replaces the target).

Autosave waits for a pause in the editing (``AUTOSAVE_DEBOUNCE_MS``) but never longer than
``AUTOSAVE_MAX_WAIT_MS`` after the first unsaved change: steady editing cannot postpone it, so
at most 15 s of work is at risk. Each running session holds a lock on its own lock file for as
long as it lives (``fcntl.flock``; ``msvcrt.locking`` on Windows): the operating system drops it
when the process dies however it dies, so an autosave whose lock can be taken is an orphan to
recover, whatever process id the new session happens to have. When a save or an autosave fails
the window shows a banner at once, with a Save As button.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from PySide6.QtCore import QEvent, QObject, QSaveFile, QSettings, QStandardPaths, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from engine import scenario_io
from engine.errors import ScenarioError, WarplanError
from engine.format_messages import capped
from engine.model import Scenario
from gui.document import ScenarioDocument

AUTOSAVE_DEBOUNCE_MS = 5_000
"""Autosave this long after the last change..."""
AUTOSAVE_MAX_WAIT_MS = 15_000
"""...but at the latest this long after the first change not autosaved yet."""
MAX_RECENT = 8

SCENARIO_FILTER = "Warplan scenarios (*.warplan.json);;JSON files (*.json);;All files (*)"


def read_scenario(path: Path) -> Scenario:
    """The scenario in ``path``; raises ``WarplanError`` (never anything else for bad input)."""
    try:
        return scenario_io.load_scenario(path)
    except WarplanError:
        raise
    except OSError as error:
        raise WarplanError(f"{path}: cannot be read ({error.strerror or error})") from error


def write_scenario(scenario: Scenario, path: Path) -> None:
    try:
        scenario_io.save_scenario(scenario, path)
    except OSError as error:
        raise WarplanError(f"{path}: cannot be written ({error.strerror or error})") from error


def error_text(error: BaseException) -> str:
    """What went wrong, one problem per line (no traceback), capped as the command line caps
    it (:func:`engine.format_messages.capped`: the first problems, then "... and N more")."""
    if isinstance(error, ScenarioError) and error.problems:
        return "\n".join(capped(error.problems))
    return str(error) or type(error).__name__


MESSAGE_BOX_LINES = 8
"""Messages of more lines than this are shown in an :class:`ErrorDialog` (scrollable) rather
than a plain message box, which grows with its text and can outgrow the screen."""
SCREEN_SHARE = 0.8
"""The share of the screen's available height an :class:`ErrorDialog` may take at most."""


class ErrorDialog(QDialog):
    """An error with a long list of problems: a sentence, the problems in a scrollable
    read-only text, and an OK button that stays visible however long the list; never taller
    than :data:`SCREEN_SHARE` of the screen."""

    def __init__(self, parent: QWidget | None, title: str, message: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        intro, _, details = message.partition("\n\n")
        if not details:
            intro, details = title, message
        icon = QLabel()
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_MessageBoxIconSize)
        icon.setPixmap(
            self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical).pixmap(size)
        )
        self.intro = QLabel(intro)
        self.intro.setWordWrap(True)
        heading = QHBoxLayout()
        heading.addWidget(icon)
        heading.addWidget(self.intro, 1)
        self.details = QPlainTextEdit(details)
        self.details.setReadOnly(True)
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        self.buttons.accepted.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addLayout(heading)
        layout.addWidget(self.details, 1)
        layout.addWidget(self.buttons)
        screen = (parent.screen() if parent is not None else None) or (
            QGuiApplication.primaryScreen()
        )
        available = screen.availableGeometry()
        self.setMaximumHeight(int(available.height() * SCREEN_SHARE))
        # The text's own size hint ignores its length: ask for every line, within the cap.
        lines = details.count("\n") + 2
        text_height = lines * self.details.fontMetrics().lineSpacing()
        wanted = self.sizeHint().height() - self.details.sizeHint().height() + text_height
        self.resize(
            min(self.sizeHint().width() + 200, int(available.width() * SCREEN_SHARE)),
            min(wanted, self.maximumHeight()),
        )


def show_error_message(parent: QWidget | None, title: str, message: str) -> None:
    """Show an error modally: a message box for a few lines, an :class:`ErrorDialog` for more."""
    if message.count("\n") < MESSAGE_BOX_LINES:
        QMessageBox.critical(parent, title, message)
        return
    ErrorDialog(parent, title, message).exec()


def with_suffix(path: Path) -> Path:
    """``path`` ending in ``.warplan.json`` (added when the user typed a bare name)."""
    return path if path.name.endswith(".json") else path.with_name(path.name + ".warplan.json")


# ------------------------------------------------------------------------------ autosave


@dataclass(frozen=True)
class AutosaveEntry:
    """One autosaved document: its scenario file, its metadata and the session that wrote it."""

    scenario_path: Path
    meta_path: Path
    session: str
    pid: int
    original: Path | None
    saved_at: float
    title: str


if sys.platform == "win32":
    import msvcrt

    def _try_lock(handle: IO[bytes]) -> bool:
        # msvcrt locks bytes from the current position: always the first one.
        handle.seek(0)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(handle: IO[bytes]) -> None:
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(handle: IO[bytes]) -> bool:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True

    def _unlock(handle: IO[bytes]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _session_alive(lock_path: Path) -> bool:
    """True while the session owning ``lock_path`` runs: its lock cannot be taken.

    No lock file means no live session (a live one creates it before its first autosave).
    """
    try:
        handle = open(lock_path, "r+b")  # noqa: SIM115 - closed below, after the lock test
    except FileNotFoundError:
        return False
    except OSError:
        # A lock file that cannot be opened is not proof of death: leave its autosave alone.
        return True
    with handle:
        if not _try_lock(handle):
            return True
        _unlock(handle)
        return False


class AutosaveStore:
    """Autosaves in Qt's ``AppDataLocation``/``autosave`` (tests enable Qt's test mode).

    Each running session owns ``autosave-<session>.warplan.json``, ``autosave-<session>.meta
    .json`` and ``autosave-<session>.lock``, where the session is a random id; the session holds
    a lock on its lock file from its first autosave until :meth:`close`. After a crash or kill
    the files stay and the lock is gone; the next start offers to recover them.
    """

    def __init__(
        self, directory: Path | None = None, pid: int | None = None, session: str | None = None
    ) -> None:
        if directory is None:
            base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
            directory = Path(base) / "autosave"
        self.directory = directory
        self.pid = os.getpid() if pid is None else pid
        """Recorded for people reading the folder; liveness is the lock's business."""
        self.session = session or uuid.uuid4().hex
        self._lock: IO[bytes] | None = None

    @property
    def scenario_path(self) -> Path:
        return self.directory / f"autosave-{self.session}.warplan.json"

    @property
    def meta_path(self) -> Path:
        return self.directory / f"autosave-{self.session}.meta.json"

    @property
    def lock_path(self) -> Path:
        return self.directory / f"autosave-{self.session}.lock"

    def _hold_lock(self) -> None:
        if self._lock is not None:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        handle = open(self.lock_path, "a+b")  # noqa: SIM115 - held open for the session's life
        if not _try_lock(handle):
            handle.close()
            raise WarplanError(f"{self.lock_path}: is locked by another session")
        self._lock = handle

    def write(self, scenario: Scenario, original: Path | None) -> None:
        try:
            self._hold_lock()
        except OSError as error:
            raise WarplanError(
                f"{self.directory}: cannot be written ({error.strerror or error})"
            ) from error
        write_scenario(scenario, self.scenario_path)
        meta = {
            "session": self.session,
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
        """Remove this session's autosave (after a save, or when nothing is unsaved).

        A folder that cannot be written held no autosave of this session to remove.
        """
        _remove(self.scenario_path, self.meta_path)

    def close(self) -> None:
        """End the session cleanly: its autosave, its lock and its lock file go."""
        self.clear()
        if self._lock is not None:
            with contextlib.suppress(OSError):
                _unlock(self._lock)
            self._lock.close()
            self._lock = None
            _remove(self.lock_path)

    def orphans(self) -> list[AutosaveEntry]:
        """Autosaves of sessions that no longer run, newest first (lock files they left with
        nothing to recover are removed)."""
        if not self.directory.is_dir():
            return []
        entries = []
        for meta_path in self.directory.glob("autosave-*.meta.json"):
            session = meta_path.name.removeprefix("autosave-").removesuffix(".meta.json")
            scenario_path = self.directory / f"autosave-{session}.warplan.json"
            if not scenario_path.exists() or _session_alive(
                self.directory / f"autosave-{session}.lock"
            ):
                continue
            try:
                meta = json.loads(meta_path.read_text(encoding="utf-8"))
                original = meta.get("original")
                entry = AutosaveEntry(
                    scenario_path=scenario_path,
                    meta_path=meta_path,
                    session=session,
                    pid=int(meta.get("pid", 0)),
                    original=Path(original) if original else None,
                    saved_at=float(meta.get("saved_at", 0.0)),
                    title=str(meta.get("title", "")),
                )
            except (OSError, ValueError, AttributeError, TypeError):
                continue
            entries.append(entry)
        for lock_path in self.directory.glob("autosave-*.lock"):
            session = lock_path.name.removeprefix("autosave-").removesuffix(".lock")
            meta_path = self.directory / f"autosave-{session}.meta.json"
            if not meta_path.exists() and not _session_alive(lock_path):
                _remove(lock_path)
        return sorted(entries, key=lambda e: e.saved_at, reverse=True)

    @staticmethod
    def discard(entry: AutosaveEntry) -> None:
        _remove(
            entry.scenario_path,
            entry.meta_path,
            entry.scenario_path.with_name(f"autosave-{entry.session}.lock"),
        )


def _remove(*paths: Path) -> None:
    for path in paths:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


# ------------------------------------------------------------------------------ the banner


class SaveProblemBanner(QFrame):
    """A bar across the top of ``host`` saying that the work is not safe on disk, with a Save
    As button; it stays until a save or an autosave succeeds, or the user dismisses it."""

    save_as_requested = Signal()

    def __init__(self, host: QWidget) -> None:
        super().__init__(host)
        self.setObjectName("SaveProblemBanner")
        self.setStyleSheet(
            "#SaveProblemBanner { background: #b00020; }"
            "#SaveProblemBanner QLabel { color: white; font-weight: bold; }"
        )
        self.text = QLabel("")
        self.text.setWordWrap(True)
        save_as = QPushButton("Save As...")
        save_as.clicked.connect(self.save_as_requested.emit)
        dismiss = QPushButton("Dismiss")
        dismiss.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.addWidget(self.text, 1)
        layout.addWidget(save_as)
        layout.addWidget(dismiss)
        self.hide()
        host.installEventFilter(self)

    def show_problem(self, text: str) -> None:
        self.text.setText(text)
        self._fit()
        self.show()
        self.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize and self.isVisible():
            self._fit()
        return False

    def _fit(self) -> None:
        host = self.parentWidget()
        if host is not None:
            width = host.width()
            wrapped = self.heightForWidth(width)
            self.setGeometry(0, 0, width, wrapped if wrapped > 0 else self.sizeHint().height())


# ------------------------------------------------------------------------------ file flows


class FileController(QObject):
    """Open, save, save as, recent files, autosave and recovery of one document.

    ``window`` parents the dialogs and hosts the failure banner over its central widget; with
    none (scripts, tests), failures are still reported through ``save_failed``.
    """

    message = Signal(str)
    """A sentence for the status bar (what was opened or saved)."""
    save_failed = Signal(str)
    """Emitted with the reason when a save or an autosave fails (the banner shows it too)."""
    autosaved = Signal()

    def __init__(
        self,
        document: ScenarioDocument,
        settings: QSettings,
        autosave: AutosaveStore,
        *,
        window: QMainWindow | None = None,
        debounce_ms: int = AUTOSAVE_DEBOUNCE_MS,
        max_wait_ms: int = AUTOSAVE_MAX_WAIT_MS,
    ) -> None:
        super().__init__(window)
        self.document = document
        self.settings = settings
        self.autosave = autosave
        self.window = window
        self.recent_menu = QMenu("Open &Recent", window)
        self.banner: SaveProblemBanner | None = None
        host = window.centralWidget() if window is not None else None
        if host is not None:
            self.banner = SaveProblemBanner(host)
            self.banner.save_as_requested.connect(self.save_as)
        self._debounce = self._timer(debounce_ms)
        self._max_wait = self._timer(max_wait_ms)
        document.undo_stack.indexChanged.connect(self._schedule_autosave)
        self._rebuild_recent_menu()

    def _timer(self, interval_ms: int) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(interval_ms)
        timer.timeout.connect(self.write_autosave)
        return timer

    # ------------------------------------------------------------------ reporting

    def show_error(self, title: str, message: str) -> None:
        show_error_message(self.window, title, message)

    def _report_failure(self, text: str) -> None:
        if self.banner is not None:
            self.banner.show_problem(text)
        self.save_failed.emit(text)

    def _clear_failure(self) -> None:
        if self.banner is not None:
            self.banner.hide()

    # ------------------------------------------------------------------ open

    def confirm_discard(self) -> bool:
        """Ask before unsaved changes are lost; True to go on."""
        if not self.document.is_modified:
            return True
        answer = QMessageBox.question(
            self.window,
            "Unsaved changes",
            "The battlefield has unsaved changes. Save them first?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def open_path(self, path: Path) -> bool:
        """Open ``path``; on a bad file show what is wrong and change nothing."""
        try:
            scenario = read_scenario(path)
        except WarplanError as error:
            self.show_error(
                "Cannot open this file",
                f"{path.name} was not opened; nothing was changed.\n\n{error_text(error)}",
            )
            return False
        self.document.load(scenario, path)
        self._add_recent(path)
        self.message.emit(f"Opened {path}")
        return True

    def open_dialog(self) -> None:
        if not self.confirm_discard():
            return
        start = str(self.document.path.parent) if self.document.path else ""
        name, _ = QFileDialog.getOpenFileName(self.window, "Open scenario", start, SCENARIO_FILTER)
        if name:
            self.open_path(Path(name))

    def open_demo(self) -> None:
        from gui.app import DEMO_SCENARIO

        if self.confirm_discard() and self.open_path(DEMO_SCENARIO):
            self.document.set_path(None)

    # ------------------------------------------------------------------ save

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self.save_to(self.document.path)

    def save_as(self, path: Path | None = None) -> bool:
        if path is None:
            start = str(
                self.document.path
                or (self.document.scenario.title or "battlefield") + ".warplan.json"
            )
            name, _ = QFileDialog.getSaveFileName(
                self.window, "Save scenario as", start, SCENARIO_FILTER
            )
            if not name:
                return False
            path = with_suffix(Path(name))
        return self.save_to(path)

    def save_to(self, path: Path) -> bool:
        try:
            write_scenario(self.document.scenario, path)
        except WarplanError as error:
            reason = error_text(error)
            self._report_failure(
                f"Not saved: {reason}\nYour changes are only in this window. "
                "Use Save As to keep them in another file or folder."
            )
            self.show_error("Cannot save", f"The file was not saved.\n\n{reason}")
            return False
        self.document.mark_saved(path)
        self.autosave.clear()
        self._clear_failure()
        self._add_recent(path)
        self.message.emit(f"Saved {path}")
        return True

    # ------------------------------------------------------------------ recent files

    def _add_recent(self, path: Path) -> None:
        recent = [p for p in self.recent_files() if p != str(path)]
        recent.insert(0, str(path))
        self.settings.setValue("recentFiles", recent[:MAX_RECENT])
        self._rebuild_recent_menu()

    def recent_files(self) -> list[str]:
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def _rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_files()
        for entry in recent:
            action = self.recent_menu.addAction(entry)
            action.triggered.connect(self._opener(Path(entry)))
        self.recent_menu.setEnabled(bool(recent))

    def _opener(self, path: Path) -> Callable[[], None]:
        def open_recent() -> None:
            if self.confirm_discard():
                self.open_path(path)

        return open_recent

    # ------------------------------------------------------------------ autosave, recovery

    def _schedule_autosave(self, _index: int = 0) -> None:
        """A change: autosave after a pause, and at the latest ``max_wait`` after the first
        change not autosaved yet (restarting only the pause timer)."""
        self._debounce.start()
        if not self._max_wait.isActive():
            self._max_wait.start()

    def write_autosave(self) -> None:
        self._debounce.stop()
        self._max_wait.stop()
        if not self.document.is_modified:
            self.autosave.clear()
            return
        try:
            self.autosave.write(self.document.scenario, self.document.path)
        except WarplanError as error:
            self._report_failure(
                f"Autosave failed: {error_text(error)}\nIf Warplan stopped now, your unsaved "
                "changes would be lost. Use Save As to keep them in another file or folder."
            )
            return
        self._clear_failure()
        self.autosaved.emit()

    def ask_recover(self, entry: AutosaveEntry) -> bool:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.saved_at))
        source = str(entry.original) if entry.original else "an unsaved battlefield"
        answer = QMessageBox.question(
            self.window,
            "Recover unsaved work?",
            f"Warplan closed unexpectedly. Unsaved changes to {source} "
            f"({entry.title or 'untitled'}) were autosaved at {when}.\n\nRecover them?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def offer_recovery(self) -> bool:
        """After a crash or kill: offer the newest orphaned autosave. True if one was loaded.

        When the autosave's original file can still be read, the recovery is one undo step
        from that file's content ("Recover autosaved changes"); otherwise the recovered
        document is loaded as unsaved, with no step to undo.
        """
        for entry in self.autosave.orphans():
            if self.ask_recover(entry):
                try:
                    scenario = read_scenario(entry.scenario_path)
                except WarplanError as error:
                    self.show_error("Cannot recover", error_text(error))
                    continue
                self._load_recovered(scenario, entry.original)
                self.autosave.discard(entry)
                self.write_autosave()
                return True
            self.autosave.discard(entry)
        return False

    def _load_recovered(self, scenario: Scenario, original: Path | None) -> None:
        on_disk: Scenario | None = None
        if original is not None:
            with contextlib.suppress(WarplanError):
                on_disk = read_scenario(original)
        if on_disk is None:
            self.document.load(scenario, original, modified=True)
            return
        if on_disk == scenario:
            self.document.load(scenario, original)
            return
        self.document.load(on_disk, original)
        self.document.apply(scenario, "Recover autosaved changes")

    def end_session(self) -> None:
        """The window closes cleanly: nothing is left to recover."""
        self._debounce.stop()
        self._max_wait.stop()
        self.autosave.close()
