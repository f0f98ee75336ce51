"""The training lab's two runs and the worker that advances them off the UI thread.

A TrainingJob (a QThread) steps both runs a number of times, reporting every step as a signal; once the runs reach
their last step it runs the sweep over d_k (the same steps, learning rate and seed at d_k = 16 … 512) that tells at
which d_k the difference appears. Only the job touches the runs while it works; the UI keeps its own copy of what
every step measured (the records) from the signals. Pause asks the job to stop after its current step; Reset and a
change of settings stop it, wait for that step (milliseconds) and start afresh, so a late signal of an old job is
recognised by its generation and dropped. A job outlives the lab if it must (closing the window mid-run): it is kept
in a module-level set until it ends and is stopped and waited for when the application quits.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, QThread, QTimer, Signal

from attention_explorer.core.scenes.training.scene import TrainingScene
from attention_explorer.core.training import run as training
from attention_explorer.core.training.model import N_KEYS

SERIES = ("loss", "entropy", "jacobian_norm", "grad_norm_q", "grad_norm_k")

_RUNNING: set[TrainingJob] = set()  # jobs alive (a QThread must not be destroyed while it runs)


def _stop_all() -> None:
    for job in list(_RUNNING):
        job.stop()
        job.wait()


class TrainingJob(QThread):
    """Steps both runs `count` times, then (when `sweep` says so) runs the sweep over d_k."""

    stepped = Signal(int, object, object)  # generation, the scaled run's StepRecord, the unscaled run's
    sweep_progressed = Signal(int, int, int)  # generation, d_k values done, total
    swept = Signal(int, object)  # generation, the SweepRows
    ended = Signal(int)  # generation: the job is done (finished, paused or stopped)
    failed = Signal(int, str)

    def __init__(self, generation: int, runs: Sequence[training.Run], count: int,
                 sweep: tuple[int, float, int] | None) -> None:
        super().__init__()  # no parent: the lab may go before the job ends
        self.generation = generation
        self._runs = tuple(runs)
        self._count = count
        self._sweep = sweep
        self._stopping = False
        _RUNNING.add(self)
        self.finished.connect(lambda: _RUNNING.discard(self))
        app = QCoreApplication.instance()
        if app is not None and not getattr(app, "_training_jobs_stopped_on_quit", False):
            app.aboutToQuit.connect(_stop_all)
            app._training_jobs_stopped_on_quit = True

    def stop(self) -> None:
        """Stop after the step under way (any thread)."""
        self._stopping = True

    def run(self) -> None:
        """The job's thread: nothing here touches a widget."""
        try:
            for _ in range(self._count):
                if self._stopping:
                    return
                scaled, unscaled = (run.step() for run in self._runs)
                self.stepped.emit(self.generation, scaled, unscaled)
            if self._sweep is not None and not self._stopping:
                steps, lr, seed = self._sweep
                scaled, unscaled = self._runs  # the run shown may be one of the sweep's: its steps are not run twice
                limit = training.threshold(scaled.task)
                known = {scaled.d_k: tuple(training.first_below([r.loss for r in run.records], limit)
                                           for run in self._runs)} if len(scaled.records) == steps else {}
                rows = training.sweep(steps, lr, seed, known=known, stop=lambda: self._stopping,
                                      progress=lambda done, total: self.sweep_progressed.emit(self.generation, done,
                                                                                              total))
                self.swept.emit(self.generation, rows)
        except training.Stopped:
            return
        except BaseException as error:  # a thread that died silently would leave the lab running for good
            if sys.stderr is not None:
                traceback.print_exception(error)
            self.failed.emit(self.generation, f"{type(error).__name__}: {error}")
        finally:
            self.ended.emit(self.generation)


class TrainingSession(QObject):
    """The two runs of the scene shown, what their steps measured, the sweep, and the job running them."""

    changed = Signal()  # steps arrived, a run was reset, the sweep came, a job started or ended
    sweep_progressed = Signal(int, int)

    def __init__(self, scene: TrainingScene, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._generation = 0
        self._job: TrainingJob | None = None
        self._redraw_pending = False
        self._sweeps: dict[tuple[int, float, int], tuple[training.SweepRow, ...]] = {}
        self.error = ""
        self.reset(scene)

    # ------------------------------------------------------------ state

    @property
    def running(self) -> bool:
        """A job is stepping the runs (or sweeping)."""
        return self._job is not None

    @property
    def done(self) -> int:
        """Steps both runs have done (and reported)."""
        return len(self.records[True])

    @property
    def complete(self) -> bool:
        """Both runs did every step."""
        return self.done >= self.scene.steps

    @property
    def sweep_rows(self) -> tuple[training.SweepRow, ...] | None:
        """The sweep over d_k for these steps, lr and seed, once computed."""
        return self._sweeps.get(self._sweep_key())

    @property
    def threshold(self) -> float:
        """The loss below which a run counts as having learned."""
        return training.threshold(self._task)

    @property
    def probe_target(self) -> int:
        """The key the probe query should find."""
        return self._task.probe_target

    def reached_at(self, scaled: bool) -> int | None:
        """The first step whose loss got below the threshold."""
        return training.first_below([record.loss for record in self.records[scaled]], self.threshold)

    def _sweep_key(self) -> tuple[int, float, int]:
        return (self.scene.steps, self.scene.lr, self.scene.seed)

    # ------------------------------------------------------------ commands

    def reset(self, scene: TrainingScene | None = None) -> None:
        """Stop any job and start both runs afresh (from `scene`'s settings when given)."""
        self._stop_and_wait()
        if scene is not None:
            self.scene = scene
        self._task = training.make_task(self.scene.seed)
        self._runs = tuple(training.Run(self.scene.d_k, self.scene.lr, self.scene.seed, scaled, self._task)
                           for scaled in (True, False))
        self.records: dict[bool, list[training.StepRecord]] = {True: [], False: []}
        # What the plots draw, filled in place as steps arrive: one array per measure and run, the probe's weights.
        steps = self.scene.steps
        self.series = {scaled: {name: np.zeros(steps) for name in SERIES} for scaled in (True, False)}
        self.probe = {scaled: np.zeros((N_KEYS, steps)) for scaled in (True, False)}
        self.error = ""
        self.changed.emit()

    @property
    def startable(self) -> bool:
        """Start has something to do: steps left, or the sweep (paused while it ran)."""
        return not self.running and (not self.complete or self.sweep_rows is None)

    def start(self) -> None:
        """Run the remaining steps (and then the sweep, if not known yet)."""
        if self.startable:
            self._launch(self.scene.steps - self.done)

    def one_step(self) -> None:
        """One more step of both runs."""
        if not self.running and not self.complete:
            self._launch(1)

    def pause(self) -> None:
        """Stop after the step under way; Start goes on from there."""
        if self._job is not None:
            self._job.stop()

    def wait(self) -> None:
        """Wait for the job to end and take in all it reported (scripts and tests)."""
        job = self._job
        if job is not None:
            job.wait()
            QCoreApplication.sendPostedEvents(self)  # the queued signals: its steps, its sweep, its end
            self._redraw()

    def _launch(self, count: int) -> None:
        finishing = self.done + count >= self.scene.steps
        sweep = self._sweep_key() if finishing and self.sweep_rows is None else None
        self._generation += 1
        job = TrainingJob(self._generation, self._runs, count, sweep)
        job.stepped.connect(self._stepped)
        job.sweep_progressed.connect(self._sweep_progressed)
        job.swept.connect(self._swept)
        job.failed.connect(self._failed)
        job.ended.connect(self._ended)
        self.destroyed.connect(job.stop)  # the window closed under a run: the job stops after its step
        self._job = job
        self.error = ""
        job.start()
        self.changed.emit()

    # ------------------------------------------------------------ the job's reports (UI thread)

    def _stepped(self, generation: int, scaled: training.StepRecord, unscaled: training.StepRecord) -> None:
        if generation == self._generation:
            index = len(self.records[True])
            for run, record in ((True, scaled), (False, unscaled)):
                self.records[run].append(record)
                for name in SERIES:
                    self.series[run][name][index] = getattr(record, name)
                self.probe[run][:, index] = record.probe
            # Steps can come faster than the screen redraws: one redraw for all that arrived meanwhile.
            if not self._redraw_pending:
                self._redraw_pending = True
                QTimer.singleShot(0, self, self._redraw)  # dropped if the session goes first

    def _redraw(self) -> None:
        if self._redraw_pending:
            self._redraw_pending = False
            self.changed.emit()

    def _sweep_progressed(self, generation: int, done: int, total: int) -> None:
        if generation == self._generation:
            self.sweep_progressed.emit(done, total)

    def _swept(self, generation: int, rows: tuple[training.SweepRow, ...]) -> None:
        if generation == self._generation:
            steps, lr, seed = self._sweep_key()
            self._sweeps[(steps, lr, seed)] = rows

    def _failed(self, generation: int, message: str) -> None:
        if generation == self._generation:
            self.error = message

    def _ended(self, generation: int) -> None:
        if generation == self._generation and self._job is not None:
            self._job.wait()  # its signal came from the last line of run(): the thread is ending
            self._job = None
            self.changed.emit()

    def _stop_and_wait(self) -> None:
        job, self._job = self._job, None
        self._generation += 1  # whatever it still reports is dropped
        if job is not None:
            job.stop()
            job.wait()
