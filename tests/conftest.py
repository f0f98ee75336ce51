"""Shared test set-up: Qt renders offscreen, pyqtgraph drags work with synthetic events."""

import os

# Must happen before any QApplication exists: without a display Qt would otherwise abort.
os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp/runtime-" + str(os.getuid()))
os.makedirs(os.environ["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)

import pytest  # noqa: E402


def pytest_addoption(parser):
    """--monkey-long: the robustness monkey sends 10,000 random events instead of 1,000 (about a minute)."""
    parser.addoption("--monkey-long", action="store_true", default=False,
                     help="run the long (10,000-event) monkey test of the main window")


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
    from attention_explorer.core.presets import load_preset
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
