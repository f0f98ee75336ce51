"""Shared test set-up: Qt renders offscreen, pyqtgraph drags work with synthetic events."""

import itertools
import os

# Must happen before any QApplication exists: without a display Qt would otherwise abort. An explicit xcb with a
# display is kept: tests/ui/realwindow runs that way under Xvfb (.ci/run), where shortcuts behave as on a desk.
if not (os.environ.get("QT_QPA_PLATFORM") == "xcb" and os.environ.get("DISPLAY")):
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp/runtime-" + str(os.getuid()))
os.makedirs(os.environ["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)

import pytest  # noqa: E402


def pytest_addoption(parser):
    """--monkey-long: the robustness monkey sends 10,000 random events instead of 1,000 (about a minute)."""
    parser.addoption("--monkey-long", action="store_true", default=False,
                     help="run the long (10,000-event) monkey test of the main window")


def pytest_configure(config):
    """Before any worker starts: compile the package and the benchmark scripts to bytecode, once.

    Where PYTHONDONTWRITEBYTECODE is set (as on the project's machines) nothing is ever cached, so each of the
    suite's ~60 child processes (command line, recovery, benchmark) compiled every module it imported again:
    ~0.2 s each. Reading a cached .pyc is allowed under that setting; only writing is not.
    """
    config.addinivalue_line("markers", "shared_window: the module's `window` fixture may hand this test the "
                            "module's one window, reset to its start (the module defines how)")
    if hasattr(config, "workerinput"):  # an xdist worker: the controller has done it
        return
    import compileall
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for folder in (root / "attention_explorer", root / "tests" / "benchmarks"):
        compileall.compile_dir(str(folder), quiet=1)


# The longest single tests start first, so that no core is left running one of them alone at the end of the run.
LONGEST_FIRST = ("tests/test_benchmark_quick.py", "tests/robustness/test_monkey_window.py",
                 "tests/robustness/test_recovery.py")


def pytest_collection_modifyitems(config, items):
    """Put the longest tests at the front of the run (the order of the others is kept)."""
    items.sort(key=lambda item: not item.nodeid.startswith(LONGEST_FIRST))


@pytest.fixture(autouse=True, scope="session")
def _isolated_settings(qapp):
    """Settings, recent files and recovery files go to Qt's test locations, never the user's."""
    from PySide6.QtCore import QStandardPaths

    QStandardPaths.setTestModeEnabled(True)
    qapp.setOrganizationName("Attention Explorer Tests")
    qapp.setApplicationName("Attention Explorer Tests")
    yield


@pytest.fixture(autouse=True, scope="session")
def _pyqtgraph_for_tests():
    """pyqtgraph rate-limits mouse moves; synthetic drags need every move delivered."""
    import pyqtgraph as pg

    pg.setConfigOption("mouseRateLimit", -1)
    pg.setConfigOptions(antialias=True)
    yield


@pytest.fixture
def model(qapp):
    """A fresh ExplorerModel on the default preset."""
    from attention_explorer.state.explorer import ExplorerModel

    return ExplorerModel()


@pytest.fixture
def library_model(qapp):
    """A fresh ExplorerModel on the article's library example."""
    from attention_explorer.core.files.presets import load_preset
    from attention_explorer.state.explorer import ExplorerModel

    return ExplorerModel(load_preset("library"))


@pytest.fixture(autouse=True)
def _no_modal_dialogs(monkeypatch):
    """A modal dialog would block an offscreen test forever: answer them and record what was asked."""
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    asked: list[tuple[str, str]] = []

    def answer(default):
        def fake(parent, title, text, *args, **kwargs):
            asked.append((title, text))
            return default
        return fake

    for name in ("warning", "critical", "information"):
        monkeypatch.setattr(QMessageBox, name, answer(QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Discard))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: ("", ""))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("", ""))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: "")
    yield asked


@pytest.fixture(autouse=True)
def _no_leftover_windows(qapp):
    """Windows a test leaves behind would repaint and re-theme in every later test: delete them."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QMainWindow, QMessageBox

    before = set(qapp.topLevelWidgets())  # windows of wider-scoped fixtures are already here
    yield
    leftovers = [w for w in qapp.topLevelWidgets() if isinstance(w, QMainWindow) and w not in before]
    for window in leftovers:
        if hasattr(window, "ask_unsaved_changes"):
            window.ask_unsaved_changes = lambda: QMessageBox.StandardButton.Discard
        window.close()
        window.deleteLater()
    if leftovers:
        qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete)


class WindowFactory:
    """Opens real main windows for tests, each in its own settings and data folders, and closes them after."""

    def __init__(self, folder, qtbot=None, monkeypatch=None) -> None:
        self.folder = folder  # a callable giving a fresh folder for each window
        self.qtbot = qtbot
        self.monkeypatch = monkeypatch
        self.windows = []

    def __call__(self, source=None, *, language=None, size=(1280, 720), settings=None, record_errors=False,
                 discard_changes=False, focus_canvas=False, activate=False, instant_drags=False, show=True):
        """The window on `source` (a file or preset name, None: the default example), shown at `size`.

        language: switched to before the window is built (a window started in Chinese lays out differently).
        record_errors: show_error appends (title, text) to window.errors instead of opening a message box.
        discard_changes: the unsaved-changes question answers Discard. instant_drags: pyqtgraph drags at once.
        """
        from PySide6.QtCore import QSettings
        from PySide6.QtWidgets import QApplication, QMessageBox

        from attention_explorer.app import create_window
        from attention_explorer.ui.i18n.switcher import language_switcher
        from attention_explorer.ui.style.theme import theme

        folder = self.folder()
        theme().set_zoom(1.0)
        theme().set_mode("light")
        if language is not None:
            language_switcher().set_language(language)
        if settings is None:
            settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
        win = create_window(source, settings=settings)
        self.windows.append(win)
        win.document.data_dir = folder / "appdata"  # recovery files and locks of this window only
        win.document.data_dir.mkdir(exist_ok=True)
        if record_errors:
            win.errors = []
            self._replace(win, "show_error", lambda title, text: win.errors.append((title, text)))
        if discard_changes:
            self._replace(win, "ask_unsaved_changes", lambda: QMessageBox.StandardButton.Discard)
        if self.qtbot is not None:
            self.qtbot.addWidget(win)
        win.resize(*size)
        if show:
            win.show()
            if self.qtbot is not None:
                self.qtbot.waitExposed(win)
        if activate:
            win.activateWindow()
        if focus_canvas:
            win.canvas.setFocus()
        if instant_drags:
            win.canvas.plot.scene().minDragTime = 0
        QApplication.processEvents()
        return win

    def _replace(self, win, name, replacement) -> None:
        if self.monkeypatch is not None:
            self.monkeypatch.setattr(win, name, replacement)
        else:
            setattr(win, name, replacement)

    def close(self) -> None:
        """Stop every window's animation, end its session (its recovery file goes), and reset theme and language."""
        from PySide6.QtWidgets import QMessageBox

        from attention_explorer.ui.i18n.switcher import language_switcher
        from attention_explorer.ui.style.theme import theme

        for win in self.windows:
            win.animator.stop()
            win.document.end_session()
            if self.qtbot is None:  # no qtbot to close it: close it here, without asking about changes
                win.ask_unsaved_changes = lambda: QMessageBox.StandardButton.Discard
                win.close()
                win.deleteLater()
        theme().set_zoom(1.0)
        theme().set_mode("light")
        language_switcher().set_language("en")


@pytest.fixture
def make_window(qtbot, tmp_path, monkeypatch):
    """make_window(source=None, language=..., size=..., ...): real main windows, closed after the test."""
    # The first window keeps its files in tmp_path itself (settings.ini, appdata/); any others in subfolders.
    folders = itertools.chain([tmp_path], (tmp_path / f"window{number}" for number in itertools.count(1)))
    factory = WindowFactory(lambda: _fresh(next(folders)), qtbot, monkeypatch)
    yield factory
    factory.close()


@pytest.fixture(scope="module")
def make_module_window(qapp, tmp_path_factory):
    """make_window for a window that a whole module shares (closed when the module ends)."""
    factory = WindowFactory(lambda: tmp_path_factory.mktemp("window"))
    yield factory
    factory.close()


def _fresh(folder):
    folder.mkdir(parents=True, exist_ok=True)
    return folder
