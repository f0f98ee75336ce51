"""The positions lab driven like a user: sliders move m and n, the visible q·k and the curves follow the maths."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from attention_explorer.core.maths.positional import seeded_pair
from attention_explorer.ui.labs.positions.lab import PositionalLab

MINUS = "\u2212"


@pytest.fixture(scope="module")
def lab(qapp):
    widget = PositionalLab()
    widget.resize(1200, 620)
    widget.show()
    QTest.qWaitForWindowExposed(widget)
    yield widget
    widget.close()
    widget.deleteLater()


def rope_loop(q, k, m, n) -> float:
    """R(m)q · R(n)k with a loop over the pairs, θ_i = 10000^(−2i/d)."""
    d, total = len(q), 0.0
    for i in range(d // 2):
        theta = 10000 ** (-2 * i / d)
        a, b = m * theta, n * theta
        qx = q[2 * i] * math.cos(a) - q[2 * i + 1] * math.sin(a)
        qy = q[2 * i] * math.sin(a) + q[2 * i + 1] * math.cos(a)
        kx = k[2 * i] * math.cos(b) - k[2 * i + 1] * math.sin(b)
        ky = k[2 * i] * math.sin(b) + k[2 * i + 1] * math.cos(b)
        total += qx * kx + qy * ky
    return total


def sinusoidal_loop(q, k, m, n) -> float:
    d, total = len(q), 0.0
    for i in range(d // 2):
        theta = 10000 ** (-2 * i / d)
        total += (q[2 * i] + math.sin(m * theta)) * (k[2 * i] + math.sin(n * theta))
        total += (q[2 * i + 1] + math.cos(m * theta)) * (k[2 * i + 1] + math.cos(n * theta))
    return total


def shown_number(label) -> float:
    return float(re.search(r"<b>([−\-0-9.]+)</b>", label.text()).group(1).replace(MINUS, "-"))


def set_slider(slider, value: int) -> None:
    """Keys, as a user moves a focused slider: Home, then Right arrows."""
    slider.setFocus()
    QTest.keyClick(slider, Qt.Key.Key_Home)
    for _ in range(value):
        QTest.keyClick(slider, Qt.Key.Key_Right)


def test_moving_m_and_n_together_keeps_rope_and_changes_sinusoidal(lab):
    q, k = seeded_pair(8, 0)
    set_slider(lab.sliders["m"], 5)
    set_slider(lab.sliders["n"], 2)
    assert lab.slider_labels["m"].text() == "m = 5" and lab.slider_labels["n"].text() == "n = 2"
    rope, sinus = shown_number(lab.readouts["rope"]), shown_number(lab.readouts["sinusoidal"])
    assert rope == pytest.approx(rope_loop(q, k, 5, 2), abs=5e-4)
    assert sinus == pytest.approx(sinusoidal_loop(q, k, 5, 2), abs=5e-4)
    set_slider(lab.sliders["m"], 15)
    set_slider(lab.sliders["n"], 12)  # the same m − n = 3, ten positions later
    assert shown_number(lab.readouts["rope"]) == rope
    assert shown_number(lab.readouts["sinusoidal"]) == pytest.approx(sinusoidal_loop(q, k, 15, 12), abs=5e-4)
    assert shown_number(lab.readouts["sinusoidal"]) != sinus
    assert "m − n = 3" in lab.readouts["rope"].text()
    marker_x, marker_y = lab.markers["rope"].getData()
    assert marker_x.tolist() == [3] and marker_y[0] == pytest.approx(rope_loop(q, k, 15, 12))


def test_the_rope_curves_lie_on_each_other_and_the_sinusoidal_ones_do_not(lab):
    q, k = seeded_pair(8, 0)
    rope = [curve.getData() for curve in lab.curves["rope"]]
    sinus = [curve.getData() for curve in lab.curves["sinusoidal"]]
    assert len(rope) == 3
    offsets = rope[2][0]
    for x, _y in rope:
        assert np.array_equal(x, offsets)
    # Key positions 0, 16, 32: at offset +4 every RoPE curve has the same q·k, the loop's R(n+4)q·R(n)k.
    at = int(np.flatnonzero(offsets == 4)[0])
    assert [y[at] for _, y in rope] == pytest.approx([rope_loop(q, k, 4, 0)] * 3, abs=1e-12)
    values = [y[at] for _, y in sinus]
    assert values == pytest.approx([sinusoidal_loop(q, k, n + 4, n) for n in (0, 16, 32)], abs=1e-12)
    assert max(values) - min(values) > 0.1


def test_the_plane_shows_one_pair_turned_by_m_and_n_theta(lab):
    lab.spins["d"].setValue(4)
    lab.spins["pair"].setValue(1)
    set_slider(lab.sliders["m"], 20)
    set_slider(lab.sliders["n"], 10)
    q, k = seeded_pair(4, 0)
    theta = 0.01  # 10000^(−2/4)
    x, y = lab.plane_lines["q"].getData()
    assert (x[1], y[1]) == pytest.approx((q[2] * math.cos(0.2) - q[3] * math.sin(0.2),
                                         q[2] * math.sin(0.2) + q[3] * math.cos(0.2)))
    x0, y0 = lab.plane_lines["k0"].getData()
    assert (x0[1], y0[1]) == pytest.approx((k[2], k[3]))
    text = lab.pair_label.text()
    assert f"(m − n)θ = {math.degrees(10 * theta):.1f}°" in text
    assert "θ<sub>1</sub> = 0.01 rad" in lab.plane_title.text()
    assert lab.spins["pair"].maximum() == 1


def test_an_odd_d_is_not_offered_and_zoom_and_theme_apply(lab):
    lab.spins["d"].setValue(8)
    lab.spins["d"].setFocus()
    QTest.keyClick(lab.spins["d"], Qt.Key.Key_Up)
    assert lab.positions.d == 10  # the spin box steps in pairs
    from attention_explorer.ui.style.theme import theme

    before = lab.readouts["rope"].text()
    theme().set_zoom(1.5)
    try:
        assert f"font-size:{theme().number_pt():.0f}pt" in lab.readouts["rope"].text() != before
    finally:
        theme().set_zoom(1.0)


def test_the_legends_read_in_the_contrast_theme_and_follow_the_language(lab):
    from attention_explorer.ui.style.theme import theme

    theme().set_mode("contrast")
    try:
        QTest.qWait(20)
        foreground = theme().foreground()
        for method in ("sinusoidal", "rope"):
            plot = lab.plots[method]
            legend = plot.getPlotItem().legend
            texts = [label.text for _, label in legend.items]
            assert texts == ["n = 0", "n = 16", "n = 32"]
            image = plot.grab().toImage()
            for _, label in legend.items:
                box = plot.mapFromScene(label.sceneBoundingRect()).boundingRect()
                pixels = [image.pixelColor(x, y) for x in range(box.left(), box.right())
                          for y in range(box.top(), box.bottom())]
                # the text is drawn in the theme's foreground (white on black), not pyqtgraph's default grey
                near = [c for c in pixels if abs(c.red() - foreground.red()) + abs(c.green() - foreground.green())
                        + abs(c.blue() - foreground.blue()) < 60]
                assert len(near) >= 10, (method, label.text, len(near))
    finally:
        theme().set_mode("light")


def type_into(spin, text: str) -> None:
    """Select the box's text, type `text` and press Enter, as a user does."""
    spin.setFocus()
    spin.lineEdit().selectAll()
    QTest.keyClicks(spin, text)
    QTest.keyClick(spin, Qt.Key.Key_Return)


def test_an_odd_d_typed_in_is_refused_in_the_lab_and_the_box_shows_d_again(make_window):
    from PySide6.QtWidgets import QApplication

    from attention_explorer.ui.labs.registry import page_index

    window = make_window(record_errors=True, discard_changes=True, activate=True)
    window.show_page(page_index("positions"))
    lab = window.page(page_index("positions"))
    spin, message = lab.spins["d"], lab.message_label
    curves_before = [curve.getData()[1].copy() for curve in lab.curves["rope"]]
    assert not message.isVisible()
    type_into(spin, "3")
    QApplication.processEvents()
    refusal = "d: expected an even whole number from 2 to 1024 (pairs of sin and cos), got 3"
    assert lab.positions.d == 8 and spin.value() == 8 and spin.text() == "8"  # nothing changed, the box says so
    assert message.isVisible() and refusal in message.text() and "⚠" in message.text()
    assert refusal in window._hint_label.text()  # the status bar repeats it
    assert all(np.array_equal(curve.getData()[1], before, equal_nan=True)
               for curve, before in zip(lab.curves["rope"], curves_before))
    window.actions_by_name["lang_zh_CN"].trigger()  # the refusal follows the language
    QApplication.processEvents()
    assert "d：应为 2 到 1024 之间的偶数（sin 与 cos 成对），实际为 3" in message.text()
    window.actions_by_name["lang_en"].trigger()
    QApplication.processEvents()
    assert refusal in message.text()
    type_into(spin, "6")  # a good value: the message goes
    QApplication.processEvents()
    assert lab.positions.d == 6 and spin.text() == "6" and not message.isVisible()
    assert window.errors == []
