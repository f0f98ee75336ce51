"""What the user feels: from a mouse move event to the end of the paint Qt then does by itself.

No forced `repaint()`: the window paints as a real one does, only the regions its items marked as changed, when
Qt's event loop handles the top-level window's UpdateRequest. The time ends after the last event-loop pass that
painted (a scene's update is queued, so the paint may come one pass after the move).
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget

_PAINTING = (QEvent.Type.UpdateRequest, QEvent.Type.Paint)


class PaintCounter(QObject):
    """Counts the UpdateRequest and Paint events a widget receives (an event filter; it never eats one)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in _PAINTING:
            self.count += 1
        return False


def _drain(app: QApplication) -> None:
    app.processEvents()
    app.sendPostedEvents()
    app.processEvents()


def settle(app: QApplication, counter: PaintCounter, passes: int = 12) -> bool:
    """Process events until a pass paints nothing; True if any pass painted."""
    painted = False
    for _ in range(passes):
        before = counter.count
        _drain(app)
        if counter.count == before:
            break
        painted = True
    return painted


def measure_feel(app: QApplication, window: QWidget, drag, moves: int, gesture: int) -> tuple[list[float], int]:
    """Milliseconds from sending each move to the end of the paint it causes; and how many moves painted nothing."""
    counter = PaintCounter()
    window.installEventFilter(counter)
    times: list[float] = []
    unpainted = 0
    try:
        settle(app, counter)
        for move in range(moves):
            if move % gesture == 0:
                if drag.pressed:
                    drag.release()
                drag.press()
                settle(app, counter)
            event = drag.next_event()
            start = time.perf_counter()
            drag.send(event)
            end = start
            for _ in range(12):
                before = counter.count
                _drain(app)
                if counter.count == before:
                    break
                end = time.perf_counter()
            if end == start:
                unpainted += 1
                end = time.perf_counter()
            times.append((end - start) * 1000.0)
        drag.release()
        settle(app, counter)
    finally:
        window.removeEventFilter(counter)
    return times, unpainted
