"""Waiting, in tests, for the transformer panel's job (loading, a forward pass) to end, with events processed."""

from __future__ import annotations

import time

from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication


def wait_idle(panel, timeout_s: float = 20.0) -> None:
    """Process events until the panel has no job running (its result then shown)."""
    QApplication.processEvents()
    deadline = time.monotonic() + timeout_s
    while panel.busy and time.monotonic() < deadline:
        QTest.qWait(2)
    assert not panel.busy, "the model job did not end"
