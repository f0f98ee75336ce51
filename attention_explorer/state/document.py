"""The open document: its file, unsaved changes, recent files, and the crash-recovery autosave.

The document is the window's whole workspace (state/workspace.py): the explorer's scenario, whose file is `path`,
and each lab's scene with a file of its own. `modified` is true when any page is; the autosave keeps every
modified page (core/files/workspace.py) and a restore brings each back to its page.

Every window keeps its own recovery file, `recovery-<session>.json` in the application's data folder, guarded
by a `QLockFile` beside it (`recovery-<session>.lock`). A window that dies leaves both behind; its lock then
names a process that is gone, so the next window to start can take the lock and offer what was autosaved.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QSettings, QStandardPaths, Qt, QTimer, Signal

from attention_explorer.core.files import anykind
from attention_explorer.core.files import safety as filesafety
from attention_explorer.core.files import workspace as workspace_file
from attention_explorer.core.files.safety import FileStamp
from attention_explorer.core.files.workspace import WorkspaceWork
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query import file as scenario_file
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.state.workspace import EXPLORER, Workspace, scene_arrays

MAX_RECENT = 8
# An edit is autosaved once the edits pause this long, and never later than AUTOSAVE_LATEST_MS after it:
# a drag that goes on for a minute still reaches the disk about once a second.
AUTOSAVE_QUIET_MS = 250
AUTOSAVE_LATEST_MS = 900
# A copy that will take t seconds of CPU waits at least this many times t after the edit: at the format's limits a copy
# (31 MB) takes about a second, and edits must not queue behind one write after another (issue 15).
AUTOSAVE_COST_FACTOR = 10
_COSTLY_NUMBERS = 100_000  # copies of at least this many numbers measure the cost per number
# Until a costly copy has been measured: about what the development machine takes (a 512 × 4096 copy, 4.2 million
# numbers, in about a second). Without it the first copy of a large file was never paced, and ran under the
# first seconds of a drag (moves of 150–440 ms instead of 50).
ESTIMATED_SECONDS_PER_NUMBER = 2.5e-7
# While the recovery copy cannot be written (a full disk), it is tried again this often even without new edits:
# the status bar's warning goes as soon as the disk has room again.
AUTOSAVE_RETRY_MS = 5000
RECOVERY_PREFIX = "recovery-"


def app_data_dir() -> Path:
    """Per-user folder for the recovery files (created on demand; a failure shows later as a failed autosave)."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    path = Path(folder or Path.home() / ".attention-explorer")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # a file in the folder's place must not stop the window from starting
    return path



def _numbers(scenario: Scenario | WorkspaceWork | object) -> int:
    """How many numbers a scenario's file (or a recovery of several pages) holds: what its copy's cost grows with."""
    if isinstance(scenario, WorkspaceWork):
        return max(1, sum(_numbers(scene) for scene in scenario.scenes.values()))
    if isinstance(scenario, Scenario):
        return max(1, int(scenario.query.size + scenario.keys.size + scenario.values.size))
    return max(1, sum(int(array.size) for array in scene_arrays(scenario)))

@dataclass
class Recovery:
    """A recovery file left by a window that did not close cleanly; its lock is held while it is offered."""

    path: Path
    saved_at: float  # seconds since the epoch (the file's modification time)
    scenario: Scenario | None  # the explorer's scenario (None: only labs had unsaved work)
    lock: QLockFile
    work: WorkspaceWork | None = None  # every page's recovered scene (None: the scenario alone)

    @property
    def pages(self) -> WorkspaceWork:
        """Every recovered scene by page kind, and the page that was shown."""
        return self.work if self.work is not None else WorkspaceWork({EXPLORER: self.scenario})


def _read_regular_file(path: Path) -> tuple[bytes, float]:
    """The bytes and modification time of a regular file; a FIFO, folder, device or symlink raises OSError."""
    # O_NONBLOCK: opening a FIFO must not wait for a writer; O_NOFOLLOW: a link to /dev/zero is not followed.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    handle = os.open(path, flags)
    with os.fdopen(handle, "rb") as stream:
        status = os.fstat(stream.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise OSError(f"{path.name} is not a regular file")
        if status.st_size > anykind.MAX_FILE_BYTES:
            raise OSError(f"{path.name} is too large")
        return stream.read(anykind.MAX_FILE_BYTES + 1), status.st_mtime


def _take_stale_lock(path: Path) -> QLockFile | None:
    """The lock at `path`, taken, when no live process holds it (absent or stale); otherwise None."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        status = None
    except OSError:
        return None
    if status is not None and not stat.S_ISREG(status.st_mode):
        return None  # no window makes a FIFO, folder or link here: not ours to judge, so leave it alone
    lock = QLockFile(str(path))
    # Never stale by age: a live window's lock may be hours old. Stale only when its process is gone.
    lock.setStaleLockTime(0)
    return lock if lock.tryLock(0) else None


def _lock_error(lock: QLockFile, path: Path) -> OSError:
    """Why a new lock file (in a folder of our own, under a fresh name) could not be made, as an OSError."""
    if lock.error() == QLockFile.LockError.PermissionError:
        code = errno.EACCES
    else:  # Qt says only "unknown" when writing the lock's few bytes failed: most often the disk is full
        import shutil

        try:
            code = errno.ENOSPC if shutil.disk_usage(path.parent).free < 2**20 else errno.EIO
        except OSError:
            code = errno.EIO
    return OSError(code, os.strerror(code), str(path))


def _remove(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class Document(QObject):
    """Which file the model's scenario belongs to, whether it has unsaved changes, and its recovery copy."""

    path_changed = Signal()
    recent_changed = Signal()
    # The autosave's standing problem changed: the ScenarioError that stops it (too large), the OSError of a copy
    # that cannot be written (a full disk, no permission), or None once a copy is written again.
    autosave_problem = Signal(object)
    _written = Signal(object)  # from the writing thread: what the last write ran into (None: fine)

    def __init__(self, model: ExplorerModel, settings: QSettings, data_dir: Path | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.workspace = Workspace(model, self)  # every page's scene: which are modified, the labs' files
        self.settings = settings
        self.data_dir = data_dir or app_data_dir()
        self._path: Path | None = None
        # What the file held when this window last read or wrote it (core/files/safety.py): before a save, and when
        # the window is activated, the file on disk is compared with it (ui/window/disk_changes.py).
        self.disk_stamp: FileStamp | None = None
        self._session = self._new_session_name()
        self._lock: QLockFile | None = None
        self._ended = False
        self._first_unwritten: float | None = None
        # CPU seconds per number the latest costly recovery copy took to write (an estimate before the first)
        self.write_seconds_per_number = ESTIMATED_SECONDS_PER_NUMBER
        self._autosave = QTimer(self)
        self._autosave.setSingleShot(True)
        # A coarse timer may fire 5 % early: a 3 s pause after a costly copy would then be 2.85 s.
        self._autosave.setTimerType(Qt.TimerType.PreciseTimer)
        self._autosave.timeout.connect(self._autosave_due)
        # One writing thread at a time; it writes the newest scenario handed over, skipping older ones.
        self._job_guard = threading.Lock()
        self._job: object = _NO_JOB
        self._writer: threading.Thread | None = None
        # The last work found too large to autosave, and the error (its .kinds: the pages too large on their own).
        self._too_large: tuple[WorkspaceWork, ScenarioError] | None = None
        self._problem: ScenarioError | OSError | None = None
        self._lock_problem: OSError | None = None  # why the lock (and so any copy) could not be made
        self._written.connect(self._note_written)
        # Bound methods (not lambdas): Qt drops these connections when this object is destroyed.
        self.workspace.modified_changed.connect(self._clean_changed)
        # Every change, the first after an open or save included: at that moment the undo stack has not yet
        # moved off its clean index, so whether there is anything to keep is decided when the timer fires.
        model.changed.connect(self._schedule_autosave)
        self.workspace.scene_changed.connect(self._schedule_autosave)

    def _clean_changed(self) -> None:
        self.path_changed.emit()
        self._schedule_autosave()

    @staticmethod
    def _new_session_name() -> str:
        return f"{os.getpid()}-{os.urandom(6).hex()}"

    # ------------------------------------------------------------ state

    @property
    def path(self) -> Path | None:
        """The file the scenario was opened from or saved to (None: never saved)."""
        return self._path

    @property
    def modified(self) -> bool:
        """True when any page has edits since it was last opened or saved."""
        return self.workspace.modified()

    def page_path(self, kind: str) -> Path | None:
        """The file of the page of `kind`: the explorer's scenario's (`path`), or a lab's own."""
        return self._path if kind == EXPLORER else self.workspace.path(kind)

    @property
    def recovery_path(self) -> Path:
        """Where this window's autosave goes: our own folder, never next to (or over) a user's file."""
        return self.data_dir / f"{RECOVERY_PREFIX}{self._session}.json"

    @property
    def lock_path(self) -> Path:
        """The lock that says this window's recovery file belongs to a live process."""
        return self.data_dir / f"{RECOVERY_PREFIX}{self._session}.lock"

    # ------------------------------------------------------------ files

    def open(self, path: str | os.PathLike[str], loaded: Scenario | None = None) -> None:
        """Load a scenario file (or its already-read `loaded` scenario) into the model; a bad file raises
        ScenarioError and changes nothing."""
        if loaded is None:
            loaded = scenario_file.load(path)
        self.model.load_scenario(loaded)
        # Absolute, links kept: the title shows the name the user chose, and Save writes through the link.
        self._path = Path(os.path.abspath(path))
        self.disk_stamp = filesafety.last_read(path) or filesafety.stamp_file(path)
        self.model.undo_stack.setClean()
        self.add_recent(self._path)
        self.path_changed.emit()

    def open_scenario(self, scenario: Scenario, path: Path | None = None) -> None:
        """Load an in-memory scenario (a preset, New, a recovery) as a document with no file."""
        self.model.load_scenario(scenario)
        self._path = path
        self.disk_stamp = None
        self.model.undo_stack.setClean()
        self.path_changed.emit()

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Save atomically to `path` (or the current file); raises OSError/ScenarioError on failure."""
        target = Path(path) if path is not None else self._path
        if target is None:
            raise ScenarioError("no file name yet: use Save As")
        scenario = self.model.scenario
        too_large = self._too_large
        if too_large is not None and EXPLORER in getattr(too_large[1], "kinds", ()) \
                and too_large[0].scenes.get(EXPLORER) is scenario:
            raise too_large[1]  # the autosave measured this very scenario already
        self.disk_stamp = anykind.save(scenario, target)
        self._path = Path(os.path.abspath(target))
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

    # ------------------------------------------------------------ autosave

    def _schedule_autosave(self) -> None:
        if self._ended:
            return
        now = time.monotonic()
        if self._first_unwritten is None:
            self._first_unwritten = now
        # What a copy of the current scenario costs, by the latest one's rate: back to a small scenario after a
        # large one, the copies come at once again.
        cost_s = self.write_seconds_per_number * _numbers(self.workspace.work() or self.model.scenario)
        spacing_ms = AUTOSAVE_COST_FACTOR * cost_s * 1000.0
        left_ms = max(AUTOSAVE_LATEST_MS, spacing_ms) - (now - self._first_unwritten) * 1000.0
        self._autosave.start(int(max(0.0, min(max(AUTOSAVE_QUIET_MS, spacing_ms), left_ms))))

    def _autosave_due(self) -> None:
        """Hand every modified page's scene (or, with nothing unsaved, the copy's removal) to the writing thread."""
        self._first_unwritten = None
        work = self.workspace.work()
        if work is not None:
            if not self._ensure_lock():
                self._note_written(self._lock_problem)  # no copy can be written at all: say so
                return
            job: WorkspaceWork | None = work
        elif self._lock is not None:
            job = None  # saved or undone back to the file: nothing left to recover
        else:
            self._note_written(None)  # nothing unsaved: nothing is left unprotected
            return
        with self._job_guard:
            self._job = job
            if self._writer is not None:
                return  # the running thread picks the newest job up when it is done
            self._writer = threading.Thread(target=self._write_jobs, name="autosave", daemon=True)
            self._writer.start()

    def _write_jobs(self) -> None:
        """The writing thread: write the newest job until none is left."""
        while True:
            with self._job_guard:
                job, self._job = self._job, _NO_JOB
                if job is _NO_JOB:
                    self._writer = None
                    return
            started = time.thread_time()  # the CPU it took (formatting holds the GIL), not a slow disk's wait
            problem = self._write(job)  # type: ignore[arg-type]
            if job is not None and _numbers(job) >= _COSTLY_NUMBERS:  # a small copy's cost is mostly fixed
                self.write_seconds_per_number = (time.thread_time() - started) / _numbers(job)
            try:
                self._written.emit(problem)
            except RuntimeError:
                pass  # the document was deleted while the file was written

    def _write(self, work: WorkspaceWork | None) -> ScenarioError | OSError | None:
        """Write `work` to the recovery file (None: remove it); returns what stopped it, if anything."""
        try:
            if work is None:
                _remove(self.recovery_path)
            elif self._too_large is not None and _same_work(self._too_large[0], work):
                return self._too_large[1]
            else:
                workspace_file.save(work, self.recovery_path)
        except ScenarioError as error:
            # Too large to load again: keep the last copy that fitted rather than nothing.
            self._too_large = (work, error)  # type: ignore[assignment]
            return error
        except OSError as error:
            return error  # a full disk must not interrupt a lecture: the status bar says it, and a retry follows
        return None

    def _note_written(self, problem: ScenarioError | OSError | None) -> None:
        """Tell the window when the autosave starts or stops failing: once, not at every edit."""
        if (problem is None) != (self._problem is None) or (problem is not None and str(problem) != str(self._problem)):
            self._problem = problem
            self.autosave_problem.emit(problem)
        if isinstance(problem, OSError) and self.modified and not self._ended and not self._autosave.isActive():
            self._autosave.start(AUTOSAVE_RETRY_MS)

    def write_recovery(self) -> None:
        """Write every modified page (else the scenario) to the recovery file now, on this thread (atomic; failures
        are not fatal)."""
        self._wait_for_writer()
        if self._ensure_lock():
            work = self.workspace.work() or WorkspaceWork({EXPLORER: self.model.scenario})
            self._note_written(self._write(work))
        else:
            self._note_written(self._lock_problem)

    def _wait_for_writer(self) -> None:
        with self._job_guard:
            writer = self._writer
        if writer is not None:
            writer.join()

    def _ensure_lock(self) -> bool:
        """Hold this window's lock before its recovery file exists, so a live window's file is never offered."""
        if self._lock is not None:
            return True
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            self._lock_problem = error
            return False
        for _attempt in range(3):
            if not (os.path.lexists(self.recovery_path) or os.path.lexists(self.lock_path)):
                break
            self._session = self._new_session_name()  # something is already there: not ours to overwrite
        else:
            self._lock_problem = OSError(errno.EEXIST, os.strerror(errno.EEXIST), str(self.lock_path))
            return False
        lock = QLockFile(str(self.lock_path))
        lock.setStaleLockTime(0)
        if not lock.tryLock(0):
            self._lock_problem = _lock_error(lock, self.lock_path)
            return False
        self._lock, self._lock_problem = lock, None
        return True

    # ------------------------------------------------------------ crash recovery

    def stale_recoveries(self) -> list[Recovery]:
        """Recovery files of windows that are gone, newest first, each locked until discarded or released.

        A live window's file is never among them (its lock is held); nor is anything that is not a regular
        file, or does not load.
        """
        try:
            candidates = sorted(self.data_dir.glob(f"{RECOVERY_PREFIX}*.json"))
        except OSError:
            return []
        found = []
        for path in candidates:
            if path == self.recovery_path:
                continue
            lock = _take_stale_lock(path.with_suffix(".lock"))
            if lock is None:
                continue
            try:
                data, saved_at = _read_regular_file(path)
                work = workspace_file.loads(data)
                found.append(Recovery(path, saved_at, work.scenes.get(EXPLORER), lock, work))
            except (OSError, ScenarioError):
                lock.unlock()  # unreadable: left as it is, never offered
        self._remove_orphan_locks()
        found.sort(key=lambda recovery: recovery.saved_at, reverse=True)
        return found

    def _remove_orphan_locks(self) -> None:
        """Stale locks whose recovery file is gone (a crash between the two removals of a clean quit)."""
        try:
            locks = list(self.data_dir.glob(f"{RECOVERY_PREFIX}*.lock"))
        except OSError:
            return
        for path in locks:
            if path != self.lock_path and not os.path.lexists(path.with_suffix(".json")):
                lock = _take_stale_lock(path)
                if lock is not None:
                    lock.unlock()

    def restore(self, recovery: Recovery, text: str) -> None:
        """Load every recovered scene into its page as unsaved work with no file (Save asks where), then drop its old
        copy."""
        self.workspace.restore(recovery.pages, text)
        if EXPLORER in recovery.pages.scenes:
            self._path = None
            self.disk_stamp = None
        self.path_changed.emit()
        self.write_recovery()  # our own copy first, so a crash right now still loses nothing
        self.discard_recovery(recovery)

    def discard_recovery(self, recovery: Recovery) -> None:
        """Delete a recovery file the user declined (or restored), with its lock and any half-written copy."""
        _remove(recovery.path)
        for temporary in recovery.path.parent.glob(f".{recovery.path.name}.*.tmp"):
            _remove(temporary)
        recovery.lock.unlock()

    @staticmethod
    def release_recovery(recovery: Recovery) -> None:
        """Let go of a recovery that was not answered: it is offered again at the next start."""
        if recovery.lock.isLocked():
            recovery.lock.unlock()

    def end_session(self) -> None:
        """A clean exit: remove this window's recovery file, then its lock (never another window's)."""
        if not self._ended:
            # A model that outlives its document (no window owns both) would call these on a dead object.
            self.workspace.modified_changed.disconnect(self._clean_changed)
            self.workspace.scene_changed.disconnect(self._schedule_autosave)
            self.workspace.detach()
            self.model.changed.disconnect(self._schedule_autosave)
        self._ended = True
        self._autosave.stop()
        self._wait_for_writer()
        _remove(self.recovery_path)
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None


def _same_work(first: WorkspaceWork, second: WorkspaceWork) -> bool:
    """True when two recoveries hold the very same scenes (not equal numbers: the same objects)."""
    return first.scenes.keys() == second.scenes.keys() and all(
        first.scenes[kind] is second.scenes[kind] for kind in first.scenes)


_NO_JOB = object()
