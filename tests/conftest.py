"""Shared test set-up: Qt renders offscreen, pyqtgraph drags work with synthetic events."""

import os

# Must happen before any QApplication exists: without a display Qt would otherwise abort.
os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp/runtime-" + str(os.getuid()))
os.makedirs(os.environ["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)

import pytest  # noqa: E402


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
    from attention_explorer.model import ExplorerModel

    return ExplorerModel()


@pytest.fixture
def library_model(qapp):
    """A fresh ExplorerModel on the article's library example."""
    from attention_explorer.core.presets import load_preset
    from attention_explorer.model import ExplorerModel

    return ExplorerModel(load_preset("library"))
