"""A live readout repaints itself only: the panel and the dock under it are not painted again on each change."""

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QVBoxLayout, QWidget

from attention_explorer.ui.widgets.live_label import LiveLabelHost


class _Paints(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def test_a_changed_readout_does_not_repaint_the_panel_and_dock_under_it(qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    panel = QWidget()
    layout = QVBoxLayout(panel)
    readout = QLabel("θ = 18.4°")
    layout.addWidget(QLabel("caption"))
    layout.addWidget(LiveLabelHost(readout))
    dock = QDockWidget("Output")
    dock.setWidget(panel)
    window.setCentralWidget(QWidget())
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.resize(600, 400)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(50)
    under, label_paints = _Paints(), _Paints()
    for widget in (panel, dock):
        widget.installEventFilter(under)
    readout.installEventFilter(label_paints)
    for degrees in range(10):
        readout.setText(f"θ = {20 + degrees}.4°")
        qtbot.waitUntil(lambda d=degrees: label_paints.count > d)
    assert label_paints.count >= 10
    assert under.count == 0  # a transparent label had the panel and the dock painted under it, every time
    grabbed = readout.grab().toImage()
    assert grabbed.pixelColor(1, 1) == readout.palette().window().color()  # its own background: the panel's


class _MeasuredLabel(QLabel):
    """Counts how often its size is asked for (each time lays its text out)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.measured = 0

    def minimumSizeHint(self):
        self.measured += 1
        return super().minimumSizeHint()

    def sizeHint(self):
        self.measured += 1
        return super().sizeHint()


def test_a_readout_swinging_between_shapes_is_measured_once_per_shape_and_still_grows_when_it_must(qtbot):
    panel = QWidget()
    qtbot.addWidget(panel)
    layout = QVBoxLayout(panel)
    readout = _MeasuredLabel("cos θ = 0.31")
    readout.setWordWrap(True)  # as every live readout of the app: rich text that wraps
    host = LiveLabelHost(readout)
    layout.addWidget(host)
    layout.addStretch()
    panel.resize(400, 200)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.wait(20)
    swing = ["cos θ = 0.31", "cos θ = −0.31", "cos θ = 1.00", "cos θ = −0.05"]
    for text in swing:  # the first pass measures each shape
        readout.setText(text)
        qtbot.wait(5)
    readout.measured = 0
    for _sweep in range(5):
        for text in swing:
            readout.setText(text.replace("3", "4").replace("0.0", "0.2"))  # other digits, same shapes
            qtbot.wait(5)
    assert readout.measured == 0
    height = host.height()
    readout.setText("cos θ = 0.31: the key points almost the same way as the query, " * 3)
    qtbot.waitUntil(lambda: host.height() > height)  # a longer text still gets the lines it needs
    assert host.height() == readout.heightForWidth(host.width())
