"""The main window. It only composes: the battlefield view, the docks (each with a stable
``objectName``), the actions, menus and toolbars; the document, scene, live rules and overlays
do the work.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QByteArray, QPointF, QSettings, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QGuiApplication,
    QKeySequence,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QWidget,
)

from engine.edits import Selection, remove_selection
from engine.errors import WarplanError
from engine.model import Battlefield, Player, Scenario
from gui.docks.inspector import InspectorPanel
from gui.docks.palette import PalettePanel
from gui.docks.ruling import RulingPanel, ruling_for
from gui.document import Change, ScenarioDocument
from gui.engine_bridge import engine_module, missing_message
from gui.export import EXPORT_FILTER, export_battlefield
from gui.files import AutosaveStore, FileController, error_text
from gui.live import LiveRules
from gui.missions import install_mission_docks
from gui.overlays import OVERLAY_NAMES, OverlayController
from gui.rulesets import install_ruleset_panels
from gui.scene import BattlefieldScene
from gui.shapes import battlefield_point
from gui.sight_overlay import install_sight
from gui.view import BattlefieldView

SNAP_STEP = 0.5


def blank_scenario(title: str = "New battlefield") -> Scenario:
    """An empty 60" x 44" table for two players (what New starts from)."""
    return Scenario(
        "wh40k-ca2026",
        (Player("red", "Red", "attacker"), Player("blue", "Blue", "defender")),
        Battlefield(60.0, 44.0),
        title=title,
    )


class MainWindow(QMainWindow):
    """Warplan's window over one :class:`ScenarioDocument`."""

    def __init__(
        self,
        scenario: Scenario | None = None,
        path: Path | None = None,
        *,
        settings: QSettings | None = None,
        autosave: AutosaveStore | None = None,
        restore_layout: bool = True,
    ) -> None:
        super().__init__()
        self.setObjectName("WarplanMainWindow")
        self.settings = settings or QSettings()
        self.document = ScenarioDocument(scenario or blank_scenario(), path, parent=self)
        self.scene = BattlefieldScene(self.document)
        self.view = BattlefieldView(self.scene)
        self.live = LiveRules(self.document, parent=self)
        self.overlays = OverlayController(self.scene, self.live)
        self.setCentralWidget(self.view)
        self.files = FileController(
            self.document, self.settings, autosave or AutosaveStore(), window=self
        )
        self.docks: dict[str, QDockWidget] = {}
        self.overlay_actions: dict[str, QAction] = {}

        self.palette = PalettePanel(self.document, self.placement_point)
        self.inspector = InspectorPanel(self.document)
        self.ruling = RulingPanel()
        self.add_dock(self.palette, "Palette", "PaletteDock", Qt.DockWidgetArea.LeftDockWidgetArea)
        self.add_dock(
            self.inspector, "Inspector", "InspectorDock", Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.add_dock(self.ruling, "Ruling", "RulingDock", Qt.DockWidgetArea.RightDockWidgetArea)

        self._status_rules = QLabel("")
        self._status_zoom = QLabel("")
        self.statusBar().addPermanentWidget(self._status_rules)
        self.statusBar().addPermanentWidget(self._status_zoom)

        self._build_actions()
        self._connect()
        self.mission_docks = install_mission_docks(self)
        self.ruleset_panels = install_ruleset_panels(self)
        self.sight = install_sight(self, restore_ruling=self._update_ruling)
        self._ruling_timer = QTimer(self)
        self._ruling_timer.setSingleShot(True)
        self._ruling_timer.setInterval(150)
        self._ruling_timer.timeout.connect(self._update_ruling)

        self.resize(1600, 1000)
        self._layout_restored = False
        self.keep_layout = True
        if restore_layout:
            self.restore_layout()
        self.live.refresh()
        self.overlays.refresh_all()
        self._update_title()
        self._update_ruling()
        QTimer.singleShot(0, self.view.fit_battlefield)

    # ------------------------------------------------------------------ composition

    def add_dock(
        self, widget: QWidget, title: str, object_name: str, area: Qt.DockWidgetArea
    ) -> QDockWidget:
        """Add ``widget`` as a dock with a stable ``object_name`` (its layout is restored).

        Other parts of the app (the Mission and Secondary docks) plug in through this; the
        dock's show/hide action is added to the View menu's Docks submenu.
        """
        dock = QDockWidget(title, self)
        dock.setObjectName(object_name)
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.addDockWidget(area, dock)
        self.docks[object_name] = dock
        docks_menu = getattr(self, "docks_menu", None)
        if docks_menu is not None:
            docks_menu.addAction(dock.toggleViewAction())
        return dock

    def _action(
        self,
        text: str,
        slot: Callable[[], object] | None = None,
        shortcut: QKeySequence | str | None = None,
        *,
        checkable: bool = False,
        checked: bool = False,
        tip: str = "",
        name: str = "",
    ) -> QAction:
        action = QAction(text, self)
        if name:
            action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        if checkable:
            action.setCheckable(True)
            action.setChecked(checked)
        if slot is not None:
            if checkable:
                action.toggled.connect(slot)
            else:
                action.triggered.connect(lambda _checked=False: slot())
        return action

    def _build_actions(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        self.action_new = self._action(
            "&New from mission generator...", self.new_document, QKeySequence.StandardKey.New
        )
        self.action_open = self._action(
            "&Open...", self.files.open_dialog, QKeySequence.StandardKey.Open
        )
        self.action_save = self._action("&Save", self.files.save, QKeySequence.StandardKey.Save)
        self.action_save_as = self._action(
            "Save &As...", self.files.save_as, QKeySequence.StandardKey.SaveAs
        )
        self.action_export = self._action(
            "&Export picture...",
            self.export_dialog,
            "Ctrl+E",
            tip="Save the battlefield as PNG, SVG or PDF with the ruling",
        )
        self.action_demo = self._action("Open the &demo", self.files.open_demo)
        file_menu.addAction(self.action_new)
        file_menu.addAction(self.action_open)
        file_menu.addMenu(self.files.recent_menu)
        file_menu.addAction(self.action_demo)
        file_menu.addSeparator()
        file_menu.addAction(self.action_save)
        file_menu.addAction(self.action_save_as)
        file_menu.addAction(self.action_export)
        file_menu.addSeparator()
        file_menu.addAction(self._action("&Quit", self.close, QKeySequence.StandardKey.Quit))

        edit_menu = menu.addMenu("&Edit")
        self.action_undo = self.document.undo_stack.createUndoAction(self, "&Undo")
        self.action_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.action_redo = self.document.undo_stack.createRedoAction(self, "&Redo")
        self.action_redo.setShortcut(QKeySequence.StandardKey.Redo)
        edit_menu.addAction(self.action_undo)
        edit_menu.addAction(self.action_redo)
        edit_menu.addSeparator()
        self.action_delete = self._action(
            "&Delete selected", self.delete_selected, QKeySequence.StandardKey.Delete
        )
        edit_menu.addAction(self.action_delete)
        edit_menu.addAction(
            self._action("Rotate selected +15°", lambda: self.scene.rotate_selected(15), "R")
        )
        edit_menu.addAction(
            self._action("Rotate selected -15°", lambda: self.scene.rotate_selected(-15), "Shift+R")
        )
        edit_menu.addAction(
            self._action("Select &all", self._select_all, QKeySequence.StandardKey.SelectAll)
        )
        for action in edit_menu.actions():
            if action.text().startswith("Rotate"):
                action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)

        view_menu = menu.addMenu("&View")
        overlay_bar = self.addToolBar("Overlays")
        overlay_bar.setObjectName("OverlaysToolbar")
        overlay_tips = {
            "objectives": "Objective ranges coloured by who controls each one, with OC levels",
            "engagement": "Engagement range round the selected unit; lines between engaged models",
            "quarters": "Table quarters, the 1 mm centre lines, the centre's 6\" circle",
            "deployment": "Deployment zones, territories and No Man's Land",
            "visibility": "Line of sight from the selected unit to every enemy unit",
        }
        for name, label in OVERLAY_NAMES.items():
            action = self._action(
                label,
                lambda on, name=name: self.set_overlay(name, on),
                checkable=True,
                checked=True,
                tip=overlay_tips[name],
                name=f"overlay-{name}",
            )
            self.overlay_actions[name] = action
            view_menu.addAction(action)
            overlay_bar.addAction(action)
        view_menu.addSeparator()
        self.action_engagement_all = self._action(
            "Engagement lines for all units",
            self._set_engagement_all,
            checkable=True,
            tip="Show every engaged pair, not only the selected unit's",
        )
        view_menu.addAction(self.action_engagement_all)
        self.action_snap = self._action(
            f'Snap to {SNAP_STEP:g}" grid', self._set_snap, checkable=True
        )
        view_menu.addAction(self.action_snap)
        view_menu.addSeparator()
        self.action_fit = self._action("&Fit to window", self.view.fit_battlefield, "Ctrl+0")
        view_menu.addAction(self.action_fit)
        view_menu.addAction(
            self._action(
                "Zoom &in", lambda: self.view.zoom_by(1.25), QKeySequence.StandardKey.ZoomIn
            )
        )
        view_menu.addAction(
            self._action(
                "Zoom &out", lambda: self.view.zoom_by(0.8), QKeySequence.StandardKey.ZoomOut
            )
        )
        view_menu.addSeparator()
        self.docks_menu = view_menu.addMenu("&Docks")
        for dock in self.docks.values():
            self.docks_menu.addAction(dock.toggleViewAction())

        tools_bar = self.addToolBar("Tools")
        tools_bar.setObjectName("ToolsToolbar")
        group = QActionGroup(self)
        group.setExclusive(True)
        self.tool_actions: dict[str, QAction] = {}
        tools_menu = menu.addMenu("&Tools")
        for tool, label, key, tip in (
            (
                "select",
                "Select / move",
                "S",
                "Drag models, units (Shift or the label), terrain, objectives",
            ),
            (
                "measure",
                "Measure",
                "M",
                "Drag a ruler; from a base it measures between closest points",
            ),
            ("polygon", "Draw terrain", "P", "Click corners; double-click or Enter to finish"),
        ):
            action = self._action(
                label,
                lambda on, tool=tool: on and self.set_tool(tool),
                key,
                checkable=True,
                checked=tool == "select",
                tip=tip,
                name=f"tool-{tool}",
            )
            group.addAction(action)
            tools_bar.addAction(action)
            tools_menu.addAction(action)
            self.tool_actions[tool] = action
        tools_bar.addSeparator()
        tools_bar.addAction(self.action_fit)
        tools_bar.addAction(self.action_undo)
        tools_bar.addAction(self.action_redo)

        help_menu = menu.addMenu("&Help")
        help_menu.addAction(
            self._action(
                "&How to use Warplan", self.show_help, QKeySequence.StandardKey.HelpContents
            )
        )

    def _connect(self) -> None:
        self.scene.selection_changed_ids.connect(self._on_selection)
        self.live.evaluated.connect(self._on_evaluated)
        self.live.overlaps_changed.connect(self.scene.set_overlapping)
        self.live.visibility_ready.connect(self._update_ruling)
        self.document.changed.connect(self._on_document_changed)
        # Bound methods, not lambdas: Qt drops these connections when the window goes, while
        # the document may outlive it.
        self.document.replaced.connect(self._on_replaced)
        self.document.modified_changed.connect(self._update_title)
        self.document.path_changed.connect(self._update_title)
        self.view.measured.connect(
            lambda d: self.statusBar().showMessage(f'Measured {d:.3f}"', 10_000)
        )
        self.view.zoom_changed.connect(
            lambda ppi: self._status_zoom.setText(f"{ppi:.1f} px per inch")
        )
        self.view.polygon_finished.connect(self._on_polygon)
        self.view.drawing_refused.connect(self._show_status)
        self.files.message.connect(self._show_status)
        self.scene.drag_started.connect(self._on_drag_started)
        self.scene.drag_finished.connect(self.view.end_static_cache)
        self.palette.selection_requested.connect(self.scene.select_ids)
        self.palette.draw_polygon_requested.connect(
            lambda: self.tool_actions["polygon"].setChecked(True)
        )

    # ------------------------------------------------------------------ reactions

    def _on_selection(self, selection: Selection) -> None:
        self.inspector.set_selection(selection)
        unit_ids = (
            selection.moved_unit_ids(self.document.scenario)
            if not selection.is_empty()
            else frozenset()
        )
        self.overlays.set_focus(frozenset(unit_ids))
        self.live.set_observer(self.scene.selected_unit_id())
        self._update_ruling()

    def _on_evaluated(self, snapshot: object) -> None:
        if snapshot is None:
            problem = self.live.last_error
            self._status_rules.setText(
                f"Rules cannot judge this: {problem}"
                if problem
                else missing_message("engine.evaluate")
            )
        else:
            self._status_rules.setText(f"rules {getattr(snapshot, 'seconds', 0.0) * 1000:.1f} ms")
        self._schedule_ruling()

    def _on_document_changed(self, change: Change) -> None:
        if change.structure:
            self.overlays.refresh_deployment()

    def _on_drag_started(self) -> None:
        static = self.scene.static_items_during_drag()
        static += self.overlays.layers["deployment"].graphics_items()
        self.view.begin_static_cache(static)

    def _show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 10_000)

    def _on_replaced(self, _scenario: object = None) -> None:
        self.live.refresh()
        self.overlays.refresh_all()
        self.view.fit_battlefield()
        self._update_title()
        self._update_ruling()

    def _schedule_ruling(self) -> None:
        """Update the ruling now, or at most every 150 ms while a drag is in progress."""
        if self.document.is_dragging:
            if not self._ruling_timer.isActive():
                self._ruling_timer.start()
        else:
            self._update_ruling()

    def _update_ruling(self, _result: object = None) -> None:
        if self.live.snapshot is None and self.live.last_error:
            self.ruling.show_ruling(
                "Ruling", f"The rules cannot judge this battlefield: {self.live.last_error}"
            )
            return
        heading, text = ruling_for(
            self.document.scenario,
            self.live.snapshot,
            self.scene.selection(),
            self.live.visibility,
            visibility_available=self.live.visibility_available,
        )
        self.ruling.show_ruling(heading, text)

    def _update_title(self, _changed: object = None) -> None:
        path = self.document.path
        name = path.name if path is not None else (self.document.scenario.title or "Untitled")
        self.setWindowTitle(f"{name}[*] - Warplan")
        self.setWindowModified(self.document.is_modified)

    def set_overlay(self, name: str, enabled: bool) -> None:
        self.overlays.set_enabled(name, enabled)
        if name == "visibility":
            self.live.visibility_enabled = enabled
            if enabled:
                self.live.request_visibility()
            self.sight.set_line_of_sight(enabled)

    def _set_engagement_all(self, enabled: bool) -> None:
        self.overlays.engagement_for_all = enabled
        self.overlays.refresh_engagement()

    def _set_snap(self, enabled: bool) -> None:
        self.scene.snap_step = SNAP_STEP if enabled else None

    def set_tool(self, tool: str) -> None:
        self.view.set_tool(tool)
        if self.tool_actions[tool].isChecked() is False:
            self.tool_actions[tool].setChecked(True)

    def _on_polygon(self, polygon: tuple[tuple[float, float], ...]) -> None:
        self.palette.add_drawn_terrain(polygon)
        self.tool_actions["select"].setChecked(True)

    def _select_all(self) -> None:
        scenario = self.document.scenario
        self.scene.select_ids({u.id for u in scenario.units})

    def placement_point(self) -> tuple[float, float]:
        """Where new things go: the view's centre, kept on the table."""
        centre = self.view.mapToScene(self.view.viewport().rect().center())
        x, y = battlefield_point(QPointF(centre))
        bf = self.document.scenario.battlefield
        return min(max(x, 2.0), bf.width - 2.0), min(max(y, 2.0), bf.depth - 2.0)

    def delete_selected(self) -> None:
        selection = self.scene.selection()
        if not selection.is_empty():
            self.document.apply(remove_selection(self.document.scenario, selection), "Delete")

    # ------------------------------------------------------------------ documents

    def show_error(self, title: str, message: str) -> None:
        QMessageBox.critical(self, title, message)

    def new_document(self) -> None:
        if not self.files.confirm_discard():
            return
        scenario = blank_scenario()
        missions = engine_module("engine.rulesets.wh40k_ca2026")
        if missions is not None:
            dispositions = list(missions.force_dispositions())
            names = [str(getattr(d, "name", d)) for d in dispositions]
            first, ok = QInputDialog.getItem(
                self, "New battle", "Red's Force Disposition", names, 0, False
            )
            if not ok:
                return
            second, ok = QInputDialog.getItem(
                self, "New battle", "Blue's Force Disposition", names, 0, False
            )
            if not ok:
                return
            seed = int(time.time()) % 100_000
            setup = missions.generate_mission(scenario.player_ids(), (first, second), seed)
            from engine.rulesets.wh40k_ca2026.generator import apply_setup

            scenario = apply_setup(setup, scenario)
        self.document.load(scenario, None)

    def export_dialog(self) -> None:
        name, _ = QFileDialog.getSaveFileName(
            self, "Export battlefield", "battlefield.png", EXPORT_FILTER
        )
        if not name:
            return
        caption, ok = QInputDialog.getText(
            self, "Caption", "Caption (optional):", text=self.document.scenario.title
        )
        if not ok:
            return
        self.export_to(Path(name), caption=caption, include_ruling=True)

    def export_to(
        self, path: Path, *, caption: str = "", include_ruling: bool = True
    ) -> Path | None:
        try:
            return export_battlefield(
                self.scene,
                self.scene.board_rect().adjusted(-1.5, -1.5, 1.5, 1.5),
                path,
                caption=caption,
                ruling=self.ruling.ruling_text() if include_ruling else "",
            )
        except WarplanError as error:
            self.show_error("Cannot export", error_text(error))
            return None

    # ------------------------------------------------------------------ layout, closing

    def restore_layout(self) -> None:
        geometry = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if isinstance(geometry, QByteArray | bytes):
            self.restoreGeometry(QByteArray(geometry))
        if isinstance(state, QByteArray | bytes):
            self._layout_restored = self.restoreState(QByteArray(state))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not self._layout_restored:
            self._layout_restored = True
            self.arrange_default_layout()
            QTimer.singleShot(0, self.view.fit_battlefield)

    def arrange_default_layout(self) -> None:
        """The first-start layout: the battlefield gets the whole height of the window.

        Editing tools share the left column; the right column holds, above, the explanations
        and mission panels and, below, the per-player decks, the turn tracker and the score
        chart, each group tabbed.
        """
        self._fit_to_screen()
        # Moving docks stacks them for a moment and grows the window; it returns to this size.
        intended = self.size()
        right_area = Qt.DockWidgetArea.RightDockWidgetArea
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, right_area)
        upper = ["RulingDock", "MissionDock", "ScrollhammerDock", "SharedModulesDock"]
        lower = ["SecondaryDockPlayer1", "SecondaryDockPlayer2", "TurnLedgerDock", "ScoreChartDock"]
        lower = [name for name in lower if name in self.docks]
        for name in lower:
            # A new row under the explanations (Qt cannot split a tabbed dock).
            self.addDockWidget(right_area, self.docks[name], Qt.Orientation.Vertical)
        ruling = self.docks["RulingDock"]
        self._tabify_present(["PaletteDock", "InspectorDock"])
        self._tabify_present(upper)
        self._tabify_present(lower)
        self.resize(intended)
        QTimer.singleShot(0, lambda: self.resize(intended))
        self.resizeDocks([self.docks["PaletteDock"], ruling], [270, 440], Qt.Orientation.Horizontal)
        if lower:
            self.resizeDocks(
                [ruling, self.docks[lower[0]]], [self.height() // 2] * 2, Qt.Orientation.Vertical
            )
        for name in ("PaletteDock", "RulingDock", "TurnLedgerDock"):
            if name in self.docks:
                self.docks[name].raise_()

    def _fit_to_screen(self) -> None:
        """Shrink the first-start window to a small real screen (laptops), never grow it."""
        screen = self.screen()
        if screen is None or QGuiApplication.platformName() == "offscreen":
            return
        available = screen.availableGeometry()
        width = min(self.width(), int(available.width() * 0.95))
        height = min(self.height(), int(available.height() * 0.92))
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)

    def _tabify_present(self, names: list[str]) -> None:
        present = [self.docks[name] for name in names if name in self.docks]
        for first, second in itertools.pairwise(present):
            self.tabifyDockWidget(first, second)

    def save_layout(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        if not self.files.confirm_discard():
            event.ignore()
            return
        if self.keep_layout:
            self.save_layout()
        self.files.end_session()
        self.live.wait_for_visibility(5_000)
        self.sight.controller.wait(5_000)
        event.accept()

    def show_help(self) -> None:
        QMessageBox.information(
            self,
            "How to use Warplan",
            "Drag a model to move it; Shift+drag (or drag its label) moves the whole unit; drag on "
            'empty table to select several. Arrow keys nudge by 0.1" (Shift: 1"); R rotates ovals '
            "and hulls. Wheel zooms, middle button or Space+drag pans.\n\n"
            "The View menu and the toolbar toggle the rule overlays. Select a unit to see its "
            "engagement range and line of sight; select an objective or a unit to read the ruling.",
        )
