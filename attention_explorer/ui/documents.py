"""The open document: its file, unsaved changes, recent files, and the crash-recovery autosave."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, QStandardPaths, QTimer, Signal

from ..core import scenario as scenario_file
from ..core.scenario import Scenario, ScenarioError
from ..model import ExplorerModel

MAX_RECENT = 8
AUTOSAVE_DELAY_MS = 1500


def app_data_dir() -> Path:
    """Per-user folder for the recovery file (created on demand)."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    path = Path(folder or Path.home() / ".attention-explorer")
    path.mkdir(parents=True, exist_ok=True)
    return path


class Document(QObject):
    """Which file the model's scenario belongs to, whether it has unsaved changes, and its recovery copy."""

    path_changed = Signal()
    recent_changed = Signal()

    def __init__(self, model: ExplorerModel, settings: QSettings, data_dir: Path | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.settings = settings
        self.data_dir = data_dir or app_data_dir()
        self._path: Path | None = None
        self._autosave = QTimer(self)
        self._autosave.setSingleShot(True)
        self._autosave.setInterval(AUTOSAVE_DELAY_MS)
        self._autosave.timeout.connect(self.write_recovery)
        # Bound methods (not lambdas): Qt drops these connections when this object is destroyed.
        model.undo_stack.cleanChanged.connect(self._clean_changed)
        model.changed.connect(self._schedule_autosave)

    def _clean_changed(self, _clean: bool) -> None:
        self.path_changed.emit()

    # ------------------------------------------------------------ state

    @property
    def path(self) -> Path | None:
        """The file the scenario was opened from or saved to (None: never saved)."""
        return self._path

    @property
    def modified(self) -> bool:
        """True when there are edits since the last open or save."""
        return not self.model.undo_stack.isClean()

    @property
    def recovery_path(self) -> Path:
        """Where the autosave goes: our own folder, never next to (or over) a user's file."""
        return self.data_dir / "recovery.json"

    @property
    def running_marker(self) -> Path:
        """Exists while a window is open; left behind by a crash."""
        return self.data_dir / "session.running"

    # ------------------------------------------------------------ files

    def open(self, path: str | os.PathLike[str], loaded: Scenario | None = None) -> None:
        """Load a scenario file (or its already-read `loaded` scenario) into the model; a bad file raises
        ScenarioError and changes nothing."""
        if loaded is None:
            loaded = scenario_file.load(path)
        self.model.load_scenario(loaded)
        self._path = Path(path).resolve()
        self.model.undo_stack.setClean()
        self.add_recent(self._path)
        self.path_changed.emit()

    def open_scenario(self, scenario: Scenario, path: Path | None = None) -> None:
        """Load an in-memory scenario (a preset, New, a recovery) as a document with no file."""
        self.model.load_scenario(scenario)
        self._path = path
        self.model.undo_stack.setClean()
        self.path_changed.emit()

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Save atomically to `path` (or the current file); raises OSError/ScenarioError on failure."""
        target = Path(path) if path is not None else self._path
        if target is None:
            raise ScenarioError("no file name yet: use Save As")
        scenario_file.save(self.model.scenario, target)
        self._path = target.resolve()
        self.model.undo_stack.setClean()
        self.add_recent(self._path)
        self.path_changed.emit()
        return self._path

    # ------------------------------------------------------------ recent files

    def recent_files(self) -> list[str]:
        """Most recent first, only files that still exist."""
        stored = self.settings.value("recentFiles", [])
        if isinstance(stored, str):
            stored = [stored]
        return [name for name in (stored or []) if Path(name).is_file()][:MAX_RECENT]

    def add_recent(self, path: Path) -> None:
        """Put `path` at the top of the recent-files list."""
        names = [name for name in self.recent_files() if name != str(path)]
        self.settings.setValue("recentFiles", [str(path), *names][:MAX_RECENT])
        self.recent_changed.emit()

    # ------------------------------------------------------------ crash recovery

    def _schedule_autosave(self) -> None:
        if self.modified:
            self._autosave.start()

    def write_recovery(self) -> None:
        """Write the current scenario to the recovery file (atomic; failures are not fatal)."""
        try:
            scenario_file.save(self.model.scenario, self.recovery_path)
        except OSError:
            pass  # a full disk must not interrupt a lecture; the next change tries again

    def start_session(self) -> Scenario | None:
        """Mark the session as running; return the recovered scenario if the last one did not end cleanly."""
        recovered = None
        if self.running_marker.exists() and self.recovery_path.exists():
            try:
                recovered = scenario_file.load(self.recovery_path)
            except ScenarioError:
                recovered = None
        try:
            self.running_marker.write_text(str(os.getpid()), encoding="utf-8")
        except OSError:
            pass
        return recovered

    def end_session(self) -> None:
        """A clean exit: forget the recovery file and the running marker."""
        self._autosave.stop()
        for path in (self.recovery_path, self.running_marker):
            try:
                path.unlink()
            except OSError:
                pass
