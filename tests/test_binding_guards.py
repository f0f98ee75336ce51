"""Guards for the PySide6/pyqtgraph pin (see pyproject.toml): each check runs in its own process.

Two breakages were seen with pyqtgraph 0.14.0 on Python 3.11: PySide6-Essentials 6.12.0 drops a reference
to None on every repaint of a plot, until the interpreter dies ("Fatal Python error: none_dealloc"), and
pyqtgraph's SVG export raises ValueError with 6.11.3 and 6.12.0. A subprocess turns such a crash into a
failed test instead of a dead test run.

Note for readers of the numbers: 6.10.3 itself *adds* five references to None each time a QPainter is
opened on a QPicture (pyqtgraph does that when an axis, a multi-colour BarGraphItem or a scatter plot redraws
its cache). That is harmless (a count can only overflow after 2**63 of them), but it would hide a loss, so the
sensitive check below uses a plot that never re-records a QPicture: fixed axis ranges, single-colour bars.
"""

import json
import os
import signal
import struct
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

_PRELUDE = """\
import json, os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QApplication
app = QApplication.instance() or QApplication([])


def report(**values):
    print("GUARD-REPORT " + json.dumps(values), flush=True)
"""


def run_qt_snippet(snippet: str, cwd: Path, timeout: float = 60) -> dict:
    """Run `snippet` in a fresh offscreen Qt process (with np, pg, app and report(**values) defined).

    Returns the values the snippet passed to report(); a crash, a traceback or a hang fails the test.
    """
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    code = _PRELUDE + "\n" + textwrap.dedent(snippet)
    try:
        process = subprocess.run(
            [sys.executable, "-c", code], cwd=cwd, env=environment, capture_output=True, text=True,
            stdin=subprocess.DEVNULL, timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the Qt process did not finish within {timeout} s")
    if process.returncode != 0:
        how = (f"was killed by {signal.Signals(-process.returncode).name}" if process.returncode < 0
               else f"exited with status {process.returncode}")
        pytest.fail(f"the Qt process {how}; stderr ends with:\n{process.stderr[-3000:]}")
    reports = [line for line in process.stdout.splitlines() if line.startswith("GUARD-REPORT ")]
    assert reports, f"the snippet reported nothing; stdout: {process.stdout[-2000:]}"
    return json.loads(reports[-1][len("GUARD-REPORT "):])


def repaint_none_refcount(setup: str, change: str, cwd: Path, paints: int = 300) -> dict:
    """Repaint `widget` (built and shown by `setup`) `paints` times, running `change` (with i) before each.

    Reports sys.getrefcount(None) before and after the loop: a binding that loses a reference per paint
    makes `after` fall below `before`.
    """
    snippet = (
        textwrap.dedent(setup)
        + "\nfor _ in range(5):\n    app.processEvents()\n    widget.grab()\n"
        + "before = sys.getrefcount(None)\n"
        + f"for i in range({paints}):\n"
        + textwrap.indent(textwrap.dedent(change), "    ")
        + "\n    widget.grab()\n    app.processEvents()\n"
        + f"report(before=before, after=sys.getrefcount(None), paints={paints})\n"
    )
    return run_qt_snippet(snippet, cwd)


IMMORTAL_NONE = pytest.mark.skipif(
    sys.version_info >= (3, 12),
    reason="from Python 3.12 None is immortal: its refcount never moves, so a binding cannot kill it this way",
)

PLOT_CHANGES = """\
phase = i / 10
curve.setData([0, 1, 2, 3], [np.sin(phase), 1, np.cos(phase), 0.5])
bars.setOpts(height=[1 + np.sin(phase), 2, 3 - np.cos(phase)])
label.setText(f"w = {0.5 + 0.4 * np.sin(phase):.3f}")
label.setPos(i % 3, 4)
"""


@IMMORTAL_NONE
def test_repainting_a_plot_keeps_none_alive(tmp_path):
    """300 repaints of a plot whose curve, bars and text change: None's refcount must not fall."""
    setup = """\
    widget = pg.PlotWidget()
    widget.resize(480, 320)
    # fixed ranges and one bar colour: nothing re-records a QPicture, so 6.10.3's count stays flat
    widget.setXRange(-1, 4, padding=0)
    widget.setYRange(-1, 5, padding=0)
    widget.enableAutoRange(enable=False)
    curve = widget.plot([0, 1, 2, 3], [0, 1, 0, 1], pen=pg.mkPen("#0072B2", width=4))
    bars = pg.BarGraphItem(x=[0, 1, 2], height=[1, 2, 3], width=0.6, brush="#E69F00")
    widget.addItem(bars)
    label = pg.TextItem("w = 0.500", anchor=(0.5, 0))
    widget.addItem(label)
    widget.show()
    """
    numbers = repaint_none_refcount(setup, PLOT_CHANGES, tmp_path, paints=300)
    lost = numbers["before"] - numbers["after"]
    # the broken binding loses about 2 per paint (600 here); a healthy one moves by a handful at most
    assert lost <= 10, f"None lost {lost} references over {numbers['paints']} paints: the binding is broken"


@IMMORTAL_NONE
def test_repainting_a_lively_plot_survives(tmp_path):
    """The way the app's charts draw (autorange axes, one colour per bar): 300 repaints, no crash, no loss."""
    setup = """\
    widget = pg.PlotWidget()
    widget.resize(480, 320)
    curve = widget.plot([0, 1, 2, 3], [0, 1, 0, 1], pen=pg.mkPen("#0072B2", width=4))
    bars = pg.BarGraphItem(x=[0, 1, 2], height=[1, 2, 3], width=0.6, brushes=["#E69F00", "#56B4E9", "#009E73"])
    widget.addItem(bars)
    label = pg.TextItem("w = 0.500", anchor=(0.5, 0))
    widget.addItem(label)
    widget.show()
    """
    numbers = repaint_none_refcount(setup, PLOT_CHANGES, tmp_path, paints=300)
    assert numbers["after"] >= numbers["before"] - 10


@IMMORTAL_NONE
def test_repainting_the_main_window_survives(tmp_path):
    """The whole window at projector size, a key moving on every paint: no crash, None keeps its references."""
    setup = """\
    from pathlib import Path

    from PySide6.QtCore import QSettings, QStandardPaths

    QStandardPaths.setTestModeEnabled(True)  # never touch the user's settings or recovery files
    from attention_explorer.app import create_window

    widget = create_window("drag-2d", settings=QSettings("settings.ini", QSettings.Format.IniFormat))
    widget.document.data_dir = Path.cwd()  # the edits' recovery file stays in the test's folder, not Qt's test one
    widget.resize(1280, 720)
    widget.show()
    """
    change = """\
    widget.model.set_plane_position("key", i % 3, 1.5 * np.cos(i / 7), 1.5 * np.sin(i / 7))
    """
    numbers = repaint_none_refcount(setup, change, tmp_path, paints=40)
    assert numbers["after"] >= numbers["before"] - 10


def test_svg_and_png_export(tmp_path):
    """pyqtgraph's exporters on a shown plot with a curve, coloured bars and text: both files are real."""
    snippet = """\
    from pyqtgraph.exporters import ImageExporter, SVGExporter

    widget = pg.PlotWidget()
    widget.resize(640, 400)
    widget.plot([0, 1, 2, 3], [0, 1, 0, 1], pen=pg.mkPen("#0072B2", width=4))
    widget.addItem(pg.BarGraphItem(x=[0, 1, 2], height=[0.51, 0.19, 0.31], width=0.6,
                                   brushes=["#E69F00", "#56B4E9", "#009E73"]))
    label = pg.TextItem("0.516", anchor=(0.5, 0))
    widget.addItem(label)
    widget.show()
    for _ in range(3):
        app.processEvents()
    SVGExporter(widget.plotItem).export("plot.svg")
    png = ImageExporter(widget.plotItem)
    png.parameters()["width"] = 800
    png.export("plot.png")
    report(done=True)
    """
    assert run_qt_snippet(snippet, tmp_path) == {"done": True}
    svg = tmp_path / "plot.svg"
    png = tmp_path / "plot.png"
    assert svg.stat().st_size > 0 and png.stat().st_size > 0
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert "0.516" in svg.read_text(encoding="utf-8")
    header = png.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    assert width == 800 and height > 0


def test_a_crash_in_the_snippet_fails_instead_of_killing_the_suite(tmp_path):
    """The helper itself: a process that dies (as none_dealloc would) becomes a test failure."""
    with pytest.raises(pytest.fail.Exception, match="killed by SIGABRT"):
        run_qt_snippet("import os\nos.abort()\n", tmp_path)
