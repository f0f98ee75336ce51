"""High contrast as a projector shows it: every kind of control is grabbed in that theme and its pixels measured.

A boundary or indicator must reach 3:1 against the background (WCAG 2.1, 1.4.11), text 7:1 (1.4.6); a disabled
control stays readable (4.5:1) but must look different from an enabled one. Colours come from the grabbed
pixels, never from the palette, so whatever the style really paints is what is judged.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QImage, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QLineEdit,
    QMenu,
    QPushButton,
    QRadioButton,
    QSlider,
    QSpinBox,
    QStyle,
    QStyleOptionButton,
    QStyleOptionComboBox,
    QStyleOptionSlider,
    QTabBar,
    QTableView,
    QWidget,
)

from attention_explorer.ui.style.theme import apply_widget_colours, theme

BOUNDARY = 3.0  # WCAG 2.1 1.4.11, non-text contrast
TEXT = 7.0  # WCAG 2.1 1.4.6, enhanced text contrast
DISABLED_TEXT = 4.5  # still readable when disabled
BAND = 3  # how deep (px) into a control its edge is looked for (short of where its text starts)


def rgb(image: QImage) -> np.ndarray:
    """The image as an (height, width, 3) array of 0–255 channels."""
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    raw = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(image.height(), image.bytesPerLine())
    return raw[:, : image.width() * 3].reshape(image.height(), image.width(), 3).astype(float)


def luminance(pixels: np.ndarray) -> np.ndarray:
    """WCAG 2 relative luminance of every pixel."""
    value = pixels / 255.0
    linear = np.where(value <= 0.04045, value / 12.92, ((value + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def contrast(pixels: np.ndarray, background: np.ndarray) -> np.ndarray:
    """WCAG 2 contrast ratio of every pixel against one background colour."""
    first, second = luminance(pixels), float(luminance(background))
    return (np.maximum(first, second) + 0.05) / (np.minimum(first, second) + 0.05)


def best_contrast(pixels: np.ndarray, background: np.ndarray) -> float:
    """The most contrasting colour of a region against the background."""
    return float(contrast(pixels.reshape(-1, 3), background).max())


def region(pixels: np.ndarray, rect: QRect) -> np.ndarray:
    """The pixels inside `rect`, clipped to the image."""
    top, left = max(rect.top(), 0), max(rect.left(), 0)
    return pixels[top: rect.bottom() + 1, left: rect.right() + 1]


def edge_contrasts(pixels: np.ndarray, background: np.ndarray, rect: QRect | None = None) -> dict[str, float]:
    """For each side of `rect` (default: the whole image): the best contrast in a band just inside that edge."""
    rect = rect or QRect(0, 0, pixels.shape[1], pixels.shape[0])
    inner = rect.adjusted(BAND, BAND, -BAND, -BAND)  # the bands leave out the corners (round corners are fine)
    bands = {
        "left": QRect(rect.left(), inner.top(), BAND, inner.height()),
        "right": QRect(rect.right() - BAND + 1, inner.top(), BAND, inner.height()),
        "top": QRect(inner.left(), rect.top(), inner.width(), BAND),
        "bottom": QRect(inner.left(), rect.bottom() - BAND + 1, inner.width(), BAND),
    }
    return {side: best_contrast(region(pixels, band), background) for side, band in bands.items()}


@pytest.fixture
def contrast_theme(qapp):
    """The high-contrast theme applied to the application as the window applies it; light again afterwards."""
    theme().set_mode("contrast")
    apply_widget_colours(qapp, "contrast")
    yield
    theme().set_mode("light")
    apply_widget_colours(qapp, "light")


@pytest.fixture
def host(qtbot, contrast_theme):
    """An empty top-level widget controls are put in; `host.show_all()` shows it and returns its background."""
    widget = QWidget()
    layout = QGridLayout(widget)
    layout.setContentsMargins(12, 12, 12, 12)
    layout.setSpacing(12)
    widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    qtbot.addWidget(widget)

    def show_all(*controls: QWidget) -> np.ndarray:
        for row, control in enumerate(controls):
            layout.addWidget(control, row, 0)
        widget.resize(640, 40 + 60 * len(controls))
        widget.show()
        qtbot.waitExposed(widget)
        widget.setFocus()  # no control has the focus: its focus ring would pass for a frame
        QApplication.processEvents()
        return rgb(widget.grab(QRect(0, 0, 4, 4)).toImage())[1, 1]  # the window's own background, by pixel

    widget.show_all = show_all
    return widget


def grab(control: QWidget) -> np.ndarray:
    """What `control` paints, as pixels."""
    QApplication.processEvents()
    return rgb(control.grab().toImage())


def assert_framed(control: QWidget, background: np.ndarray, minimum: float = BOUNDARY) -> None:
    """Each of the four edges of `control` shows a colour at `minimum`:1 or more against the background."""
    sides = edge_contrasts(grab(control), background)
    assert min(sides.values()) >= minimum, f"{type(control).__name__} edges against the background: {sides}"


def text_contrast(control: QWidget, background: np.ndarray, rect: QRect) -> float:
    """The best contrast of the pixels in `rect` (where the control's text is) against the background."""
    return best_contrast(region(grab(control), rect), background)


def slider_rects(slider: QSlider) -> tuple[QRect, QRect]:
    """(groove, handle) of a slider, as its style places them."""
    option = QStyleOptionSlider()
    slider.initStyleOption(option)
    style = slider.style()
    groove = style.subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderGroove, slider)
    handle = style.subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderHandle, slider)
    return groove, handle


def test_the_grabbed_background_is_the_themes(host):
    assert tuple(host.show_all(QWidget())) == (0.0, 0.0, 0.0)


def test_a_slider_shows_its_whole_groove_and_its_handle(host):
    slider = QSlider(Qt.Orientation.Horizontal)
    slider.setRange(1, 100)
    slider.setValue(1)  # handle at the left end: what is right of it is groove only
    background = host.show_all(slider)
    pixels = grab(slider)
    groove, handle = slider_rects(slider)
    assert best_contrast(region(pixels, handle), background) >= BOUNDARY, "the handle disappears"
    # The groove must be a visible track along the whole length, not a dot: every column right of the handle.
    track = pixels[:, handle.right() + 3: groove.right() - 2]
    column_best = contrast(track.reshape(-1, 3), background).reshape(track.shape[:2]).max(axis=0)
    assert track.shape[1] > 100
    assert column_best.min() >= BOUNDARY, f"groove columns below {BOUNDARY}:1: {np.sum(column_best < BOUNDARY)}"


@pytest.mark.parametrize("kind", [QRadioButton, QCheckBox])
def test_radio_and_check_indicators_show_their_edge_and_their_state(host, kind):
    unchecked, checked = kind("Manual"), kind("Auto")
    checked.setChecked(True)
    if kind is QRadioButton:
        unchecked.setAutoExclusive(False)
        checked.setAutoExclusive(False)
    background = host.show_all(unchecked, checked)
    option = QStyleOptionButton()
    unchecked.initStyleOption(option)
    element = (QStyle.SubElement.SE_RadioButtonIndicator if kind is QRadioButton
               else QStyle.SubElement.SE_CheckBoxIndicator)
    indicator = unchecked.style().subElementRect(element, option, unchecked)
    off, on = region(grab(unchecked), indicator), region(grab(checked), indicator)
    # The unchecked indicator is an outline: its edge must show, not only the checked one's dot.
    assert best_contrast(off, background) >= BOUNDARY, "the unchecked indicator is invisible"
    # Checked and unchecked differ where the mark is: the middle of the indicator.
    middle_off = off[off.shape[0] // 2, off.shape[1] // 2]
    middle_on = on[on.shape[0] // 2, on.shape[1] // 2]
    assert float(contrast(middle_on[None], middle_off)[0]) >= BOUNDARY, "checked looks like unchecked"
    label = QRect(indicator.right() + 2, 0, unchecked.width() - indicator.right() - 2, unchecked.height())
    assert text_contrast(unchecked, background, label) >= TEXT


@pytest.mark.parametrize("kind", [QLineEdit, QSpinBox, QDoubleSpinBox, QComboBox, QPushButton])
def test_fields_and_buttons_have_a_visible_frame_and_text(host, kind):
    control = kind()
    if kind is QComboBox:
        control.addItems(["zeros", "random N(0,1)"])
    elif kind is QPushButton:
        control.setText("No scaling (× 1)")
    elif kind is not QLineEdit:
        control.setValue(7)
    background = host.show_all(control)
    assert not control.hasFocus()
    assert_framed(control, background)
    if kind is QLineEdit:
        control.setText("0.125")
    inside = control.rect().adjusted(BAND + 2, BAND + 2, -BAND - 2, -BAND - 2)
    assert text_contrast(control, background, inside) >= TEXT


@pytest.mark.parametrize("kind", [QSpinBox, QDoubleSpinBox])
def test_spin_box_arrows_are_visible(host, kind):
    control = kind()
    control.setValue(1)
    background = host.show_all(control)
    pixels = grab(control)
    # The step buttons sit at the right end; something in them other than the frame must contrast.
    buttons = QRect(control.width() - 20, BAND, 20 - BAND, control.height() - 2 * BAND)
    assert best_contrast(region(pixels, buttons), background) >= BOUNDARY


def test_combo_box_arrow_is_visible(host):
    combo = QComboBox()
    combo.addItems(["zeros", "random N(0,1)"])
    background = host.show_all(combo)
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    arrow = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                         QStyle.SubControl.SC_ComboBoxArrow, combo)
    assert best_contrast(region(grab(combo), arrow.adjusted(2, 2, -2, -2)), background) >= BOUNDARY


@pytest.mark.parametrize("kind", [QSpinBox, QDoubleSpinBox, QLineEdit, QPushButton, QComboBox])
def test_disabled_controls_are_readable_yet_look_disabled(host, kind):
    enabled, disabled = kind(), kind()
    for control in (enabled, disabled):
        if kind is QPushButton:
            control.setText("Apply")
        elif kind is QLineEdit:
            control.setText("42")
        elif kind is QComboBox:
            control.addItems(["zeros"])
        else:
            control.setValue(42)
    disabled.setEnabled(False)
    background = host.show_all(enabled, disabled)
    inside = enabled.rect().adjusted(BAND + 2, BAND + 2, -BAND - 22, -BAND - 2)  # text, not arrows
    on, off = region(grab(enabled), inside), region(grab(disabled), inside)
    assert best_contrast(off, background) >= DISABLED_TEXT, "disabled text is unreadable"
    assert_framed(disabled, background)  # a disabled field is still a field
    # The disabled text is plainly dimmer: its brightest ink against the enabled one's.
    brightest_on = on.reshape(-1, 3)[np.argmax(luminance(on.reshape(-1, 3)))]
    brightest_off = off.reshape(-1, 3)[np.argmax(luminance(off.reshape(-1, 3)))]
    assert float(contrast(brightest_off[None], brightest_on)[0]) >= 2.0, "the disabled control looks enabled"


def test_a_disabled_slider_looks_disabled(host):
    enabled, disabled = QSlider(Qt.Orientation.Horizontal), QSlider(Qt.Orientation.Horizontal)
    for slider in (enabled, disabled):
        slider.setRange(0, 10)
        slider.setValue(5)
    disabled.setEnabled(False)
    background = host.show_all(enabled, disabled)
    _, handle = slider_rects(enabled)
    on, off = region(grab(enabled), handle), region(grab(disabled), handle)
    assert best_contrast(off, background) >= BOUNDARY
    assert np.abs(on - off).max() > 60, "the disabled slider's handle looks the same as the enabled one's"


def test_a_menu_has_an_edge_and_readable_items(host, qtbot):
    background = host.show_all(QWidget())
    menu = QMenu(host)
    menu.addAction("Open…")
    checked = menu.addAction("High contrast (projector)")
    checked.setCheckable(True)
    checked.setChecked(True)
    menu.addSeparator()
    menu.addAction("Disabled").setEnabled(False)
    menu.popup(host.mapToGlobal(QPoint(20, 20)))
    qtbot.waitExposed(menu)
    pixels = grab(menu)
    sides = edge_contrasts(pixels, background)
    assert min(sides.values()) >= BOUNDARY, f"the menu has no edge: {sides}"
    first = menu.actionGeometry(menu.actions()[0])
    assert best_contrast(region(pixels, first), background) >= TEXT
    menu.close()


def test_tabs_show_their_edges_and_which_is_current(host):
    tabs = QTabBar()
    tabs.addTab("Vectors")
    tabs.addTab("About this example")
    tabs.addTab("History")
    tabs.setCurrentIndex(0)
    background = host.show_all(tabs)
    pixels = grab(tabs)
    for index in range(tabs.count()):
        sides = edge_contrasts(pixels, background, tabs.tabRect(index))
        # A tab is open towards its page; the other three edges must show.
        assert min(sides["left"], sides["top"], sides["right"]) >= BOUNDARY, f"tab {index}: {sides}"
    current = region(pixels, tabs.tabRect(0).adjusted(BAND, BAND, -BAND, -BAND))
    other = region(pixels, tabs.tabRect(2).adjusted(BAND, BAND, -BAND, -BAND))
    fill_current = np.median(current.reshape(-1, 3), axis=0)
    fill_other = np.median(other.reshape(-1, 3), axis=0)
    assert float(contrast(fill_current[None], fill_other)[0]) >= BOUNDARY, "the current tab looks like the others"


def test_a_table_shows_its_grid_its_header_and_its_scroll_bar(host):
    model = QStandardItemModel(30, 3)
    model.setHorizontalHeaderLabels(["Q/K 0", "Q/K 1", "V 0"])
    for row in range(30):
        for column in range(3):
            model.setItem(row, column, QStandardItem(f"{row}.{column}"))
    table = QTableView()
    table.setModel(model)
    table.setFixedHeight(160)
    background = host.show_all(table)
    header = table.horizontalHeader()
    header_pixels = rgb(header.grab().toImage())
    for column in range(2):  # the boundary between two header sections
        x = header.sectionViewportPosition(column) + header.sectionSize(column)
        seam = header_pixels[BAND: -BAND, max(x - 2, 0): x + 2]
        assert best_contrast(seam, background) >= BOUNDARY, f"header section {column} has no visible edge"
    label = header_pixels[:, header.sectionViewportPosition(0) + BAND: header.sectionSize(0) - BAND]
    assert best_contrast(label, background) >= TEXT
    viewport = rgb(table.viewport().grab().toImage())
    y = table.rowViewportPosition(0) + table.rowHeight(0)
    grid = viewport[max(y - 2, 0): y + 2, BAND: -BAND]
    assert best_contrast(grid, background) >= BOUNDARY, "the grid between rows is invisible"
    scroll_bar = table.verticalScrollBar()
    assert scroll_bar.isVisible()
    bar = rgb(scroll_bar.grab().toImage())
    option = QStyleOptionSlider()
    scroll_bar.initStyleOption(option)
    handle = scroll_bar.style().subControlRect(QStyle.ComplexControl.CC_ScrollBar, option,
                                               QStyle.SubControl.SC_ScrollBarSlider, scroll_bar)
    groove_colour = bar[-BAND - 1, bar.shape[1] // 2]  # the far end: groove, the handle is at the top
    assert best_contrast(region(bar, handle), groove_colour) >= BOUNDARY, "the scroll bar handle is invisible"


def test_a_ticked_box_shows_a_tick_not_only_a_yellow_square(host):
    """Issue 36: ticked boxes were plain yellow squares; the tick is a dark mark on the yellow, 7:1 against it."""
    ticked = QCheckBox("Auto")
    ticked.setChecked(True)
    host.show_all(ticked)
    option = QStyleOptionButton()
    ticked.initStyleOption(option)
    indicator = ticked.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, ticked)
    pixels = region(grab(ticked), indicator).reshape(-1, 3)
    yellow = np.array([0xFF, 0xD4, 0x00])
    dark = contrast(pixels, yellow) >= 7.0
    assert (np.abs(pixels.astype(int) - yellow).sum(axis=1) < 30).sum() > 20  # the yellow fill
    assert 12 <= dark.sum() <= pixels.shape[0] // 2  # a mark: more than a speck, less than half the box
