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
