"""Space plays a full turn of the selected key; the whole turn is one undo step; Esc stops it."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.geometry import plane_angle_deg, rotate_in_plane
from attention_explorer.state.explorer import ExplorerModel, new_merge_key

STEP_DEG = 3.0
TICK_MS = 33  # ~30 frames a second: smooth on a projector, light on a 2-core laptop


class RotationAnimator(QObject):
    """Turns the selected key through 360° in small steps, each one an edit through the model."""

    running_changed = Signal(bool)

    def __init__(self, model: ExplorerModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self.advance)
        self._key = 0
        self._turned = 0.0
        self._merge_key: int | None = None
        self._step = STEP_DEG
        self._running = False
        self.start_direction = 0.0

    @property
    def running(self) -> bool:
        """True while the key is turning."""
        return self._running

    @property
    def turned_deg(self) -> float:
        """How far the current (or last) turn has gone, 0–360."""
        return self._turned

    def start(self, step_deg: float = STEP_DEG, interval_ms: int = TICK_MS, timed: bool = True) -> None:
        """Start a full turn of the selected key (restart if one is running), `step_deg` every `interval_ms`.

        A recording asks for its own pace: 360 / (fps × seconds) degrees every 1000 / fps ms. Not `timed`, no timer
        runs and each `advance` is one step (the command line's `record` steps as fast as it renders).
        """
        self._key = self.model.selected_key
        self._turned = 0.0
        self._step = step_deg
        self._merge_key = new_merge_key()
        self.start_direction = plane_angle_deg(self.model.scenario.keys[self._key])
        self._timer.setInterval(interval_ms)
        if timed:
            self._timer.start()
        else:
            self._timer.stop()
        self._running = True
        self.running_changed.emit(True)

    def toggle(self) -> None:
        """Space: play, or stop when playing."""
        if self.running:
            self.stop()
        else:
            self.start()

    def stop(self) -> None:
        """Stop where the key is now."""
        self._timer.stop()
        if self._running:
            self._running = False
            self.running_changed.emit(False)

    def advance(self) -> None:
        """One frame: turn the key by its step (the last frame lands exactly on 360°)."""
        if self._key >= self.model.scenario.n:
            self.stop()
            return
        step = min(self._step, 360.0 - self._turned)
        key = self.model.scenario.keys[self._key]
        try:
            self.model.set_vector("key", self._key, rotate_in_plane(key, step), merge_key=self._merge_key)
        except ScenarioError:
            self.stop()
            return
        self._turned += step
        if self._turned >= 360.0 - 1e-9:
            self.stop()
