"""Slider ticks are drawn under the handle's positions, measured again whenever the geometry changes."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QSlider, QVBoxLayout, QWidget

from attention_explorer.ui.widgets.slider_ticks import SliderTicks
from tests.ui.widget_helpers import show_widget


def tick_columns(ticks: SliderTicks) -> list[int]:
    """The x of every pixel column whose top rows (the tick marks) are drawn in the text colour."""
    image = ticks.grab().toImage()
    background = ticks.palette().color(QPalette.ColorRole.Window).value()
    return [x for x in range(image.width())
            if all(abs(QColor(image.pixel(x, y)).value() - background) > 60 for y in range(1, 4))]


def test_ticks_follow_the_slider_after_a_resize(qtbot):
    holder = QWidget()
    slider = QSlider(Qt.Orientation.Horizontal)
    slider.setRange(0, 100)
    ticks = SliderTicks(slider, [(0, "0"), (50, "50"), (100, "100")])
    layout = QVBoxLayout(holder)
    layout.addWidget(slider)
    layout.addWidget(ticks)
    show_widget(qtbot, holder, (300, 80))
    for width in (300, 520, 260):
        holder.resize(width, 80)
        qtbot.waitUntil(lambda width=width: holder.width() == width)
        wanted = [round(ticks.tick_x(position) - 0.5) for position, _ in ticks._ticks]
        drawn = tick_columns(ticks)
        # Each tick drawn where the handle's centre is at this width (antialiasing may spread it over two columns).
        assert all(any(abs(x - want) <= 1 for x in drawn) for want in wanted), (width, wanted, drawn)
        assert len(drawn) <= 2 * len(wanted), (width, drawn)
