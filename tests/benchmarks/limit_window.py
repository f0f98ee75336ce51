"""The main window at the format's limits, in a fresh process: `python limit_window.py FILE MOVES EDITS`.

Opens FILE (512 keys × 4096 dimensions) as `attention-explorer FILE` does, then measures one drag move with the
paint, one typed edit with the paint, and the resident memory with the file open; after each of these, as the
floor of the same moment, the bare baseline window's full frame on the default example. Prints one JSON object.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline_window import BaselineWindow
from bench_interaction import (
    DRAGGED,
    HEIGHT,
    WIDTH,
    TipDrag,
    drain,
    make_app,
    measure_frames,
    open_window,
    resident_mb,
)
from PySide6.QtCore import QSettings, Qt

from attention_explorer.app import create_window
from attention_explorer.core.files.presets import DEFAULT_PRESET, load_preset

# A quick run (AE_BENCH_QUICK=1, the test suite's smoke test) only shows that the case still works: few frames.
_QUICK = os.environ.get("AE_BENCH_QUICK") == "1"


class Floor:
    """The bare baseline window replaying frames of the default example: one full frame between our measurements.

    Taking the floor's frame right after each of ours puts both under the same load on a busy machine.
    """

    def __init__(self, app, folder: str) -> None:
        self.app = app
        small = open_window(app, folder)
        small.model.load_scenario(load_preset(DEFAULT_PRESET))
        drain(app)
        _, self.frames = measure_frames(app, small, 3 if _QUICK else 12)
        sizes = {name: (dock.width(), dock.height()) for name, dock in small.docks.items() if dock.isVisible()}
        pages = small.centralWidget().count() if hasattr(small.centralWidget(), "count") else 1
        self.window = BaselineWindow(small.model.scenario.n, sizes, pages)
        small.model.undo_stack.setClean()
        small.close()
        small.deleteLater()
        drain(app)
        self.window.resize(WIDTH, HEIGHT)
        self.window.show()
        for _ in range(3):
            drain(app)
        self.window.match_layout()
        self.window.fit(self.frames)
        for _ in range(3):
            drain(app)
        self.count = 0
        self.times: list[float] = []
        for _ in range(1 if _QUICK else 3):
            self.frame()
        self.times.clear()

    def frame(self) -> None:
        frame = self.frames[self.count % len(self.frames)]
        self.count += 1
        self.window.setUpdatesEnabled(False)
        start = time.perf_counter()
        self.window.show_frame(frame, DRAGGED)
        drain(self.app)
        self.window.setUpdatesEnabled(True)
        self.window.repaint()
        self.times.append((time.perf_counter() - start) * 1000.0)


def drag_frames(app, window, moves: int, floor: Floor) -> list[float]:
    """Milliseconds for a drag move and the repaint of the whole window, at the limit."""
    drag = TipDrag(window, DRAGGED)
    drag.press()
    drain(app)
    times = []
    for _ in range(moves):
        event = drag.next_event()
        start = time.perf_counter()
        drag.send(event)
        drain(app)
        window.repaint()
        times.append((time.perf_counter() - start) * 1000.0)
        floor.frame()
    drag.release()
    drain(app)
    return times


def typed_edits(app, window, edits: int, floor: Floor | None = None) -> list[float]:
    """Milliseconds for a number typed into the vector table (committed as the cell's editor does) and the repaint."""
    table = window.editor.table_model
    times = []
    for number in range(edits):
        row = table.key_row((number * 37) % window.model.scenario.n)
        index = table.index(row, 1 + number % 2)
        start = time.perf_counter()
        if not table.setData(index, f"{0.25 + number / 100:.2f}", Qt.ItemDataRole.EditRole):
            raise AssertionError("the table refused a typed number")
        drain(app)
        window.repaint()
        times.append((time.perf_counter() - start) * 1000.0)
        if floor is not None:
            floor.frame()
    return times


def main() -> int:
    path, moves, edits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    app = make_app()
    with tempfile.TemporaryDirectory() as folder:
        settings = QSettings(os.path.join(folder, "settings.ini"), QSettings.Format.IniFormat)
        window = create_window(path, settings=settings)
        window.resize(WIDTH, HEIGHT)
        window.show()
        for _ in range(4):
            drain(app)
        window.canvas.plot.scene().minDragTime = 0
        window.repaint()
        gc.collect()
        rss_open = resident_mb()  # before the floor's windows exist: the program with the file open, nothing else
        floor = Floor(app, folder)
        drag = drag_frames(app, window, moves, floor)
        edit = typed_edits(app, window, edits, floor)
        gc.collect()
        rss_after = resident_mb()
        window.model.undo_stack.setClean()
        window.close()
        floor.window.close()
        drain(app)
    print(json.dumps({"drag_ms": drag, "edit_ms": edit, "baseline_frame_ms": floor.times,
                      "rss_open_mb": rss_open, "rss_after_mb": rss_after}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
