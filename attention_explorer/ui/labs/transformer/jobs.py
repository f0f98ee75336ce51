"""Loading a model and running it off the UI thread: one QThread per job, its progress and result as signals."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QThread, Signal
from PySide6.QtWidgets import QProgressBar, QWidget

from attention_explorer.core.pretrained.checkpoint import CheckpointError
from attention_explorer.ui.i18n.switcher import error_text

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate

Work = Callable[[Callable[[str, int, int], None]], Any]  # work(progress) → result; runs on the job's thread


class ModelJob(QThread):
    """Runs `work(progress)` on its own thread; the UI hears `progressed`, then `succeeded` or `failed`."""

    progressed = Signal(str, int, int)  # stage, done, total (queued to the UI thread)
    succeeded = Signal(object)
    failed = Signal(object)  # the exception: a CheckpointError, a MemoryError, or anything else that went wrong

    def __init__(self, work: Work, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._work = work

    def run(self) -> None:
        """The job's thread: nothing here may touch a widget.

        Whatever the work raises ends in `failed`, even a BaseException such as pyo3's PanicException: a thread that
        died silently would leave the page waiting for it, every control disabled, for good.
        """
        try:
            result = self._work(self.progressed.emit)
        except BaseException as error:  # see above; nothing interrupts a QThread from outside
            _report_unexpected(error)
            self.failed.emit(error)
            return
        self.succeeded.emit(result)


def run_now(work: Work) -> tuple[bool, Any]:
    """The same work on the calling thread, for scripts and the synchronous API: (succeeded, result or error)."""
    try:
        return True, work(lambda *_args: None)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # as ModelJob.run: the page must come back whatever happens
        _report_unexpected(error)
        return False, error


def _report_unexpected(error: BaseException) -> None:
    """An error that is not the model's own (a bug, a library's panic): its traceback on standard error, where there
    is one (pythonw on Windows has none)."""
    if isinstance(error, (CheckpointError, MemoryError)) or sys.stderr is None:
        return
    try:
        traceback.print_exception(error)
    except Exception:  # a closed or broken stream: the page shows the error anyway
        pass


def failure_text(error: BaseException, memory_text: str) -> str:
    """What the page says when a job failed: the model's message, `memory_text`, or the unexpected error in one
    line."""
    if isinstance(error, CheckpointError):
        return error_text(error)
    if isinstance(error, MemoryError):
        return memory_text
    detail = " ".join(str(error).split())[:300]
    name = type(error).__name__
    return _translate("TransformerLab", "Something went wrong: {0}").format(f"{name}: {detail}" if detail else name)


def stage_text(stage: str, done: int, total: int) -> str:
    """What the progress bar says during one stage of loading or of the forward pass."""
    if stage == "config":
        return _translate("TransformerLab", "Reading config.json…")
    if stage == "weights":
        return _translate("TransformerLab", "Reading the weights…")
    if stage == "tokenizer":
        return _translate("TransformerLab", "Reading the tokenizer…")
    if stage == "tokens":
        return _translate("TransformerLab", "Splitting the sentence into tokens…")
    return _translate("TransformerLab", "Layer {0} of {1}…").format(done, total)


def show_progress(bar: QProgressBar, stage: str, done: int, total: int) -> None:
    """Loading counts as the first third of the bar, the forward pass as the rest (one step per layer)."""
    if stage in ("layer", "tokens"):
        value = 33 + round(67 * done / max(total, 1))
    else:
        value = round(33 * done / max(total, 1))
    bar.setFormat(stage_text(stage, done, total))
    bar.setValue(value)
    bar.setVisible(True)
