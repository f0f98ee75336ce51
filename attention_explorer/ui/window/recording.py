"""File ▸ Record…: the canvas, the page or the window recorded while the user drags, or while a key turns once.

Frames are drawn by the program at the chosen size (ui/widgets/recording.py), never grabbed from the screen.
While dragging, a timer takes one frame every 1/fps s (a frame that took longer to draw stands for the ticks it
missed): the file plays at the speed the hand moved, pauses included, and a lab's own drags are recorded as well
as the canvas's. A turn takes one frame on each of the
model's `changed`: the turn animator steps 360° / (fps × seconds) every 1/fps s, so the file has exactly
fps × seconds frames however slow the machine is (the last step, back at 0°, is left out: the file loops).
A red "● Recording 3.2 s" and a Stop button sit in the status bar meanwhile (in presentation, where the status
bar is hidden, in the window's bottom right corner), never in the frames; the recorded time is frames / fps.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QElapsedTimer, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.files import animation
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.style.safe_text import literal, plain_label, window_title
from attention_explorer.ui.widgets.recording import add_frame, render_frame, write_animation

FORMAT_ORDER = ("gif", "webp", "apng", "mp4")
DEFAULTS = {"format": "gif", "width": 960, "height": 540, "fps": 20, "seconds": 4}


@dataclass(frozen=True)
class RecordSettings:
    """What the dialog asked for."""

    target: str  # "page" (the canvas on the Vectors page) or "window"
    turn_key: int | None  # None: record while the user drags, until Stop
    path: str
    fmt: str
    width: int
    height: int
    fps: int
    seconds: int


class RecordDialog(QDialog):
    """What to record, how, at what size and frame rate, into which file."""

    def __init__(self, window, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.setObjectName("recordDialog")
        self.setWindowTitle(window_title(self.tr("Record")))
        self.window_ = window
        settings = window.settings
        on_canvas = window.central_tabs.currentIndex() == 0

        self.target = QComboBox()
        self.target.setObjectName("recordTarget")
        self.target.addItem(self.tr("The canvas") if on_canvas else self.tr("The current page"), "page")
        self.target.addItem(self.tr("The whole window"), "window")
        self.drag = QRadioButton(self.tr("While I drag (until Stop)"))
        self.drag.setObjectName("recordDrag")
        self.turn = QRadioButton(self.tr("A full turn of key"))
        self.turn.setObjectName("recordTurn")
        self.key = QComboBox()
        self.key.setObjectName("recordKey")
        for label in window.model.scenario.labels:
            self.key.addItem(label)  # a combo box item is plain text
        self.key.setCurrentIndex(window.model.selected_key)
        self.seconds = self._spin("recordSeconds", animation.MIN_SECONDS, animation.MAX_SECONDS,
                                  settings.value("record/seconds", DEFAULTS["seconds"], int), self.tr(" s"))
        self.drag.setChecked(True)
        if not on_canvas:  # a turn moves a key of the Vectors page
            self.turn.setEnabled(False)
            self.turn.setToolTip(self.tr("A turn moves a key of the Vectors page: show that page first"))
        turn_row = QHBoxLayout()
        for widget in (self.turn, self.key, QLabel(self.tr("in")), self.seconds):
            turn_row.addWidget(widget)
        turn_row.addStretch(1)

        self.format = QComboBox()
        self.format.setObjectName("recordFormat")
        names = {"gif": self.tr("GIF"), "webp": self.tr("Animated WebP"), "apng": self.tr("Animated PNG (APNG)"),
                 "mp4": self.tr("MP4 video (H.264)")}
        for fmt in FORMAT_ORDER:
            self.format.addItem(names[fmt], fmt)
        if not animation.mp4_available():
            item = self.format.model().item(FORMAT_ORDER.index("mp4"))
            item.setEnabled(False)
            item.setToolTip(self.tr('MP4 needs the optional package imageio-ffmpeg, which brings its own ffmpeg: '
                                    'pip install "attention-explorer[video]"'))
        self.width_box = self._spin("recordWidth", animation.MIN_SIDE, animation.MAX_WIDTH,
                                    settings.value("record/width", DEFAULTS["width"], int))
        self.height_box = self._spin("recordHeight", animation.MIN_SIDE, animation.MAX_HEIGHT,
                                     settings.value("record/height", DEFAULTS["height"], int))
        size_row = QHBoxLayout()
        for widget in (self.width_box, QLabel("×"), self.height_box, QLabel(self.tr("pixels"))):
            size_row.addWidget(widget)
        size_row.addStretch(1)
        self.fps = self._spin("recordFps", animation.MIN_FPS, animation.MAX_FPS,
                              settings.value("record/fps", DEFAULTS["fps"], int), self.tr(" frames a second"))
        self.path = QLineEdit()
        self.path.setObjectName("recordPath")
        browse = QPushButton(self.tr("Browse…"))
        browse.setObjectName("recordBrowse")
        browse.clicked.connect(self._browse)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path, 1)
        path_row.addWidget(browse)
        self.problem = plain_label(QLabel())  # it may quote a file name
        self.problem.setObjectName("recordProblem")
        self.problem.setWordWrap(True)
        self.problem.hide()

        form = QFormLayout()
        form.addRow(self.tr("Record:"), self.target)
        form.addRow(self.tr("While:"), self.drag)
        form.addRow("", turn_row)
        form.addRow(self.tr("Format:"), self.format)
        form.addRow(self.tr("Size:"), size_row)
        form.addRow(self.tr("Frame rate:"), self.fps)
        form.addRow(self.tr("File:"), path_row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.record_button = buttons.addButton(self.tr("Record"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.record_button.setObjectName("recordStart")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)

        stored = settings.value("record/format", DEFAULTS["format"], str)
        self._choose_format(stored if stored in FORMAT_ORDER and self._available(stored) else "gif")
        folder = window._dialog_folder()
        self.path.setText(str(Path(folder) / f"recording{animation.SUFFIXES[self.chosen_format]}"))
        self.format.currentIndexChanged.connect(self._format_changed)
        self.path.editingFinished.connect(self._path_edited)
        self.turn.toggled.connect(self._mode_changed)
        self._mode_changed()

    def _spin(self, name: str, low: int, high: int, value: int, suffix: str = "") -> QSpinBox:
        box = QSpinBox()
        box.setObjectName(name)
        box.setRange(low, high)
        box.setValue(min(max(value, low), high))
        box.setSuffix(suffix)
        return box

    def _available(self, fmt: str) -> bool:
        model = self.format.model()
        return not isinstance(model, QStandardItemModel) or model.item(FORMAT_ORDER.index(fmt)).isEnabled()

    @property
    def chosen_format(self) -> str:
        return self.format.currentData()

    def _choose_format(self, fmt: str) -> None:
        self.format.setCurrentIndex(FORMAT_ORDER.index(fmt))

    def _format_changed(self) -> None:
        """The file name follows the format: recording.gif becomes recording.webp."""
        text = self.path.text().strip()
        if text:
            self.path.setText(str(Path(text).with_suffix(animation.SUFFIXES[self.chosen_format])))

    def _path_edited(self) -> None:
        """A name typed with a known suffix chooses its format (an unavailable one is left to Record to say)."""
        fmt = animation.format_of(self.path.text().strip())
        if fmt is not None and fmt != self.chosen_format and self._available(fmt):
            self.format.blockSignals(True)
            self._choose_format(fmt)
            self.format.blockSignals(False)

    def _mode_changed(self) -> None:
        turning = self.turn.isChecked()
        self.key.setEnabled(turning)
        self.seconds.setEnabled(turning)

    def _browse(self) -> None:
        filters = ";;".join(f"{self.format.itemText(index)} (*{animation.SUFFIXES[fmt]})"
                            for index, fmt in enumerate(FORMAT_ORDER) if self._available(fmt))
        path, _ = QFileDialog.getSaveFileName(self, window_title(self.tr("Record to")), self.path.text(), filters)
        if path:
            self.path.setText(path)
            self._path_edited()

    def settings(self) -> RecordSettings:
        """The choices as they stand."""
        return RecordSettings(self.target.currentData(), self.key.currentIndex() if self.turn.isChecked() else None,
                              self.path.text().strip(), self.chosen_format, self.width_box.value(),
                              self.height_box.value(), self.fps.value(), self.seconds.value())

    def accept(self) -> None:
        """Record, once the file name is usable (its suffix is added when missing)."""
        path = self.path.text().strip()
        if not path:
            return self._refuse(self.tr("Choose a file to record to."))
        fmt = animation.format_of(path)
        if fmt is None:
            path += animation.SUFFIXES[self.chosen_format]
        elif fmt != self.chosen_format:
            return self._refuse(self.tr("{0} is not a file of the format chosen.").format(Path(path).name))
        if Path(path).is_dir():
            return self._refuse(self.tr("{0} is a folder: choose a file name.").format(Path(path).name))
        if Path(path).exists():
            answer = QMessageBox.question(self, window_title(self.tr("Record")),
                                          literal(self.tr("{0} exists. Replace it?").format(Path(path).name)))
            if answer != QMessageBox.StandardButton.Yes:
                return None
        self.path.setText(path)
        store = self.window_.settings
        for name, value in (("format", self.chosen_format), ("width", self.width_box.value()),
                            ("height", self.height_box.value()), ("fps", self.fps.value()),
                            ("seconds", self.seconds.value())):
            store.setValue(f"record/{name}", value)
        return super().accept()

    def _refuse(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()


class RecordingIndicator(QWidget):
    """In the status bar while recording: a red "● Recording 3.2 s" and Stop."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("recordingIndicator")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = plain_label(QLabel())
        self.label.setObjectName("recordingTime")
        self.label.setStyleSheet("color: #d00000; font-weight: bold;")  # red on every theme's status bar
        self.stop_button = QPushButton()
        self.stop_button.setObjectName("recordingStop")
        self.stop_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Space and Esc stay the window's
        layout.addWidget(self.label)
        layout.addWidget(self.stop_button)
        self.seconds = 0.0
        self.retranslate()

    def show_time(self, seconds: float) -> None:
        self.seconds = seconds
        self.label.setText(self.tr("● Recording {0} s").format(f"{seconds:.1f}"))

    def retranslate(self) -> None:
        self.stop_button.setText(self.tr("Stop"))
        self.stop_button.setToolTip(self.tr("Stop recording and write the file"))
        self.show_time(self.seconds)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class Recorder(QObject):
    """One recording at a time on a window: its frames, its indicator, and the file written when it stops."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.indicator = RecordingIndicator()
        self.indicator.hide()
        self.indicator.stop_button.clicked.connect(self.stop)
        window.statusBar().addPermanentWidget(self.indicator)
        window.installEventFilter(self)  # a floating indicator keeps to the window's corner
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self.capture)
        self._clock = QElapsedTimer()  # a drag recording's time since it started
        self.settings: RecordSettings | None = None
        self.frames: animation.Frames | None = None
        self._target: QWidget | None = None
        self.last_count = 0  # frames in the last file written
        self.dialog: RecordDialog | None = None  # the dialog while it is open

    @property
    def recording(self) -> bool:
        return self.settings is not None

    def open_dialog(self) -> None:
        """File ▸ Record…: the dialog, then the recording; while one runs, the same entry stops it."""
        if self.recording:
            self.stop()
            return
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.raise_()
            return
        dialog = self.dialog = RecordDialog(self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        gone = id(dialog)
        dialog.destroyed.connect(lambda: self._forget_dialog(gone))
        dialog.accepted.connect(lambda: self.start(dialog.settings()))
        dialog.open()  # window-modal, without a nested event loop

    def _forget_dialog(self, gone: int) -> None:
        if id(self.dialog) == gone:
            self.dialog = None

    def start(self, settings: RecordSettings) -> None:
        """Begin recording as `settings` say."""
        window = self.window
        self.settings = settings
        self.frames = animation.Frames(settings.width, settings.height)
        self._target = window if settings.target == "window" else window.central_tabs.currentWidget()
        self.indicator.show_time(0.0)
        self._place_indicator()
        self.name_action()
        if settings.turn_key is None:
            self._clock.start()
            self.capture()
            self._timer.start(round(1000 / settings.fps))
            return
        window.animator.stop()
        window.model.select_key(settings.turn_key)
        count = settings.fps * settings.seconds
        window.animator.running_changed.connect(self._turn_running)
        window.animator.start(360.0 / count, round(1000 / settings.fps))  # the window shows the turn's trace
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self.capture()
        window.model.changed.connect(self.capture)

    def name_action(self) -> None:
        """File ▸ Record… reads "Stop recording" while a recording runs (choosing it then stops it), and goes back
        to the table's text after; called again when the language changes."""
        action = self.window.actions_by_name["record"]
        if self.recording:
            action.setText(self.tr("Stop recording"))
            action.setToolTip(self.tr("Stop recording and write the file"))
            action.setStatusTip(action.toolTip())
        else:
            self.window.action_table.retranslate_action("record")

    def capture(self) -> None:
        """One frame of the target as it is now."""
        if self.frames is None:
            return
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # an edit's new sizes, before drawing
        self.indicator.hide()  # never in the frames; shown again before anything is painted on the screen
        try:
            add_frame(self.frames, render_frame(self._target, self.frames.width, self.frames.height))
            if self.settings.turn_key is None:  # a slow frame let timer ticks pass: the picture stays for them
                due = self._clock.elapsed() * self.settings.fps // 1000 + 1
                while len(self.frames) < min(due, animation.MAX_SECONDS * self.settings.fps):
                    self.frames.repeat_last()
        finally:
            self.indicator.show_time(len(self.frames) / self.settings.fps)
            self._place_indicator()
        if len(self.frames) >= animation.MAX_SECONDS * self.settings.fps and self.settings.turn_key is None:
            self.stop()  # a drag recording's longest

    def _place_indicator(self) -> None:
        """In the status bar; floating in the window's bottom right corner while the status bar is hidden
        (presentation)."""
        window, indicator = self.window, self.indicator
        bar = window.statusBar()
        if bar.isVisible() and indicator.parent() is not bar:
            indicator.setAutoFillBackground(False)
            bar.addPermanentWidget(indicator)
        elif not bar.isVisible():
            if indicator.parent() is not window:
                indicator.setParent(window)
                indicator.setAutoFillBackground(True)  # readable over whatever is below it
            indicator.adjustSize()
            indicator.move(window.width() - indicator.width() - 8, window.height() - indicator.height() - 8)
        indicator.show()
        indicator.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.recording and self.indicator.parent() is self.window:
            self._place_indicator()
        elif event.type() == QEvent.Type.Close and self.recording:
            self.stop()  # what was recorded is written before the window goes
        return False

    def _turn_running(self, running: bool) -> None:
        if not running:
            self.stop()

    def stop(self) -> None:
        """Stop and write the file (a finished turn leaves out its last frame, the same as its first)."""
        if self.settings is None:
            return
        settings, frames = self.settings, self.frames
        self.settings = self.frames = None
        self._timer.stop()
        self.indicator.hide()
        self.name_action()
        if settings.turn_key is not None:
            self.window.model.changed.disconnect(self.capture)
            self.window.animator.running_changed.disconnect(self._turn_running)
            finished = self.window.animator.turned_deg >= 360.0 - 1e-6
            self.window.animator.stop()
            if finished and len(frames) > 1:
                frames.pop()
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            self.last_count = write_animation(settings.path, frames, settings.fmt, settings.fps)
        except Exception as error:  # a full or read-only disk, a folder's name, ffmpeg failing
            self.window.show_error(self.tr("Cannot record"), self.tr("{0} was not written: {1}").format(
                Path(settings.path).name, error_text(error)))
            return
        finally:
            QApplication.restoreOverrideCursor()
        self.window._show_hint(self.tr("Recorded {0}: {1} frames, {2} s").format(
            Path(settings.path).name, len(frames), f"{len(frames) / settings.fps:.1f}"))
