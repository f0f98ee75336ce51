"""The training lab driven like a user, in a real window: settings typed into its spin boxes (History steps), One
step and Start clicked, the plots' data read back and checked against `attention-explorer train` number for number,
the verdict read; Reset in the middle of a run; Chinese; presentation at 1280×720 with nothing cut."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.training import run as training
from attention_explorer.ui.i18n.switcher import language_switcher
from attention_explorer.ui.labs.registry import page_index
from attention_explorer.ui.style.theme import theme
from tests.cli.conftest import run_in_process
from tests.ui.window.test_presentation_text_fits import cut_texts
from tests.ui.window.test_workspace import history_lines, type_and_enter

HANG_GUARD_MS = 60_000  # a run of a few steps takes well under a second; this only stops a hang


@pytest.fixture(scope="module")
def window(make_module_window):
    win = make_module_window()
    win.show_page(page_index("training"))
    QApplication.processEvents()
    return win


@pytest.fixture
def lab(window):
    lab = window.page(page_index("training"))
    window.show_page(page_index("training"))
    return lab


def click(button) -> None:
    assert button.isEnabled(), button.text()
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def wait_idle(qtbot, lab) -> None:
    qtbot.waitUntil(lambda: not lab.session.running, timeout=HANG_GUARD_MS)
    QApplication.processEvents()


def curve(lab, name: str, scaled: bool) -> tuple[np.ndarray, np.ndarray]:
    return lab.curves[(name, scaled)].getData()


def points(lab, name: str, scaled: bool) -> int:
    """How many steps a curve draws (pyqtgraph gives None for an empty one)."""
    y = curve(lab, name, scaled)[1]
    return 0 if y is None else len(y)


def train_lines(tmp_path, *args: str) -> list[dict]:
    result = run_in_process("train", *args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.decode("utf-8").splitlines()]


def test_one_step_then_start_plots_what_train_prints_number_for_number(window, lab, qtbot, tmp_path):
    type_and_enter(lab.spins["d_k"], "16")
    type_and_enter(lab.spins["steps"], "6")
    type_and_enter(lab.spins["lr"], "0.02")
    assert history_lines(window)[-3:] == ["Training: Set d_k = 16", "Training: 6 steps",
                                          "Training: Learning rate 0.02"]
    assert window.document.modified and "*" in window.windowTitle()
    assert lab.training.scene.d_k == 16 and lab.training.scene.steps == 6 and lab.training.scene.lr == 0.02

    click(lab.step_button)
    wait_idle(qtbot, lab)
    x, _ = curve(lab, "loss", True)
    assert x.tolist() == [1.0] and points(lab, "loss", False) == 1
    assert lab.progress.text() == "Step 1 of 6"

    click(lab.start_button)
    wait_idle(qtbot, lab)
    assert lab.session.complete and lab.session.sweep_rows is not None
    assert lab.start_button.text() == "Start" and not lab.start_button.isEnabled()
    assert not lab.step_button.isEnabled()
    for scaled in (True, False):
        printed = train_lines(tmp_path, "--d-k", "16", "--steps", "6", "--lr", "0.02", "--seed", "0",
                              *([] if scaled else ["--no-scale"]))
        steps, summary = printed[:-1], printed[-1]
        for name in ("loss", "entropy", "jacobian_norm"):
            x, y = curve(lab, name, scaled)
            assert x.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
            assert y.tolist() == [step[name] for step in steps], name  # the same floats, bit for bit
        for name in ("grad_norm_q", "grad_norm_k"):  # a log axis: the plot holds log10 of them
            x, y = curve(lab, name, scaled)
            assert lab.curves[(name, scaled)].getOriginalDataset()[1].tolist() == [step[name] for step in steps]
            np.testing.assert_allclose(y, np.log10([step[name] for step in steps]), rtol=1e-12)
        probe = lab.heatmaps[scaled].image
        assert probe.shape == (8, 6)
        np.testing.assert_allclose(probe.sum(axis=0), 1.0)
        reached = summary["reached_threshold_at"]
        assert lab.session.reached_at(scaled) == reached
    verdict = lab.verdict_label.text()
    assert f"{lab.session.threshold:.4g}" in verdict
    scaled_at, unscaled_at = lab.session.reached_at(True), lab.session.reached_at(False)
    kind = training.compare(scaled_at, unscaled_at)
    expected = {training.SCALED_FASTER: "Scaled learned faster", training.UNSCALED_FASTER: "does not support",
                training.ABOUT_SAME: "No clear difference", training.NEITHER: "Neither run"}[kind]
    assert expected in verdict
    rows = lab.session.sweep_rows
    assert [row.d_k for row in rows] == list(training.SWEEP_D_KS)
    assert rows[0] == training.SweepRow(16, scaled_at, unscaled_at)  # the run on screen is the sweep's d_k = 16
    assert "16: " in verdict and "512: " in verdict

    assert window.actions_by_name["undo"].text() == "&Undo Training: Learning rate 0.02"
    window.actions_by_name["undo"].trigger()
    QApplication.processEvents()
    assert lab.training.scene.lr == training.DEFAULT_LR and lab.spins["lr"].value() == pytest.approx(0.001)
    assert lab.session.done == 0 and points(lab, "loss", True) == 0  # new settings: the runs start again


def test_a_short_run_that_learned_nothing_says_so(lab, qtbot):
    type_and_enter(lab.spins["d_k"], "16")
    type_and_enter(lab.spins["steps"], "2")
    click(lab.start_button)
    wait_idle(qtbot, lab)
    text = lab.verdict_label.text()
    assert "<b>Neither run</b> got below" in text and "in 2 steps" in text and "no difference in learning" in text


@pytest.fixture
def gate(monkeypatch):
    """Each step of a run waits for a permit: the test says how far a run gets before a click (no timing)."""
    permits = threading.Semaphore(0)
    permits.entered = 0  # steps that reached the gate: a click can wait until the job is inside the next step
    step = training.Run.step

    def gated(run):
        permits.entered += 1
        permits.acquire()
        return step(run)

    monkeypatch.setattr(training.Run, "step", gated)
    yield permits
    permits.release(10**6)  # whatever still runs goes on to its end


def test_pause_start_and_reset_in_the_middle_of_a_run(lab, qtbot, gate):
    type_and_enter(lab.spins["steps"], "2000")
    click(lab.start_button)
    assert lab.start_button.text() == "Pause" and not lab.step_button.isEnabled()
    gate.release(2)  # step 1 of both runs
    qtbot.waitUntil(lambda: lab.session.done == 1 and gate.entered == 3, timeout=HANG_GUARD_MS)
    click(lab.start_button)  # Pause: the job is inside step 2 and stops after it
    gate.release(2)
    wait_idle(qtbot, lab)
    assert lab.session.done == 2 and points(lab, "loss", False) == 2 and lab.progress.text() == "Step 2 of 2000"
    assert lab.start_button.text() == "Start" and lab.step_button.isEnabled()
    assert "(so far)" in lab.verdict_label.text()
    click(lab.start_button)  # on from where it paused
    gate.release(2)
    qtbot.waitUntil(lambda: lab.session.done == 3, timeout=HANG_GUARD_MS)
    gate.release(10**6)  # free running: Reset stops it wherever it is
    click(lab.reset_button)
    assert not lab.session.running and lab.session.done == 0
    QApplication.processEvents()  # a step the old job reported late is dropped
    assert lab.session.done == 0 and points(lab, "loss", True) == 0
    assert lab.heatmaps[True].image is None
    assert lab.start_button.text() == "Start" and lab.step_button.isEnabled()
    assert lab.progress.text() == "Step 0 of 2000"
    assert lab.verdict_label.text().startswith("Press <b>Start</b>")


def test_closing_a_lab_in_the_middle_of_a_run_is_safe(qtbot, gate):
    from attention_explorer.ui.labs.training.lab import TrainingLab
    from attention_explorer.ui.labs.training.session import _RUNNING

    lab = TrainingLab()
    qtbot.addWidget(lab)
    lab.show()
    click(lab.start_button)
    job = lab.session._job
    assert job is not None and job in _RUNNING
    gate.release(10**6)
    lab.close()  # stops the job and waits for its step
    lab.deleteLater()
    QApplication.processEvents()
    assert job.isFinished()


def test_a_lab_deleted_with_its_window_in_the_middle_of_a_run_stops_its_job(qtbot, gate):
    from attention_explorer.ui.labs.training.lab import TrainingLab

    lab = TrainingLab()  # in a window, a page is never closed on its own: it goes when the window goes
    click(lab.start_button)
    job = lab.session._job
    gate.release(2)
    qtbot.waitUntil(lambda: lab.session.done == 1, timeout=HANG_GUARD_MS)
    lab.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gate.release(10**6)
    assert job.wait(HANG_GUARD_MS) and len(job._runs[0].records) < 300  # it stopped, far from its last step


def settle() -> None:
    for _ in range(2):
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QApplication.processEvents()


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_in_presentation_at_1280_by_720_nothing_is_cut_and_chinese_is_spoken(window, lab, qtbot, language):
    type_and_enter(lab.spins["d_k"], "16")
    type_and_enter(lab.spins["steps"], "3")
    language_switcher().set_language(language)
    window.enter_presentation()  # shows the Vectors page first
    window.resize(1280, 720)
    window.show_page(page_index("training"))
    try:
        click(lab.reset_button)  # the settings may be those of the last run, done already
        click(lab.start_button)
        wait_idle(qtbot, lab)
        for zoom in (1.0, 1.5):
            theme().set_zoom(zoom)
            settle()
            assert cut_texts(window) == [], zoom
            for plot in (*lab.plots.values(), *lab.probe_plots.values()):
                assert plot.isVisible() and plot.viewport().height() >= 60 and plot.viewport().width() >= 150
        if language == "zh_CN":
            assert lab.start_button.text() == "开始" and lab.step_button.text() == "单步"
            assert "两次训练都没有" in lab.verdict_label.text() and "扫描" in lab.verdict_label.text()
            assert lab.progress.text() == "第 3 步，共 3 步"
    finally:
        theme().set_zoom(1.0)
        window.leave_presentation()
        language_switcher().set_language("en")


def test_the_sweep_paused_half_way_goes_on_with_start(lab, qtbot, gate):
    type_and_enter(lab.spins["d_k"], "16")
    type_and_enter(lab.spins["steps"], "2")
    type_and_enter(lab.spins["seed"], "9")  # steps, lr and seed no sweep has run with yet
    click(lab.start_button)
    gate.release(4)  # both steps of both runs; the sweep's d_k = 16 is the run shown, d_k = 32 waits at the gate
    qtbot.waitUntil(lambda: lab._sweep_progress == (1, 6), timeout=HANG_GUARD_MS)
    assert lab.progress.text() == "Sweep over d_k: 1 of 6"
    click(lab.start_button)  # Pause
    gate.release(10**6)
    wait_idle(qtbot, lab)
    assert lab.session.complete and lab.session.sweep_rows is None
    assert "Press <b>Start</b> to run the sweep" in lab.verdict_label.text()
    click(lab.start_button)
    wait_idle(qtbot, lab)
    assert [row.d_k for row in lab.session.sweep_rows] == list(training.SWEEP_D_KS)
    assert not lab.start_button.isEnabled() and "Sweep, step below the threshold" in lab.verdict_label.text()


def _pixels_near(image, colour, tolerance: int = 40) -> int:
    """How many pixels of `image` (a QImage) are within `tolerance` of `colour` in each channel."""
    array = np.frombuffer(image.convertToFormat(image.Format.Format_RGB888).constBits(), np.uint8)
    rgb = array.reshape(image.height(), -1)[:, :3 * image.width()].reshape(image.height(), image.width(), 3)
    target = np.array([colour.red(), colour.green(), colour.blue()])
    return int(np.sum(np.all(np.abs(rgb.astype(int) - target) <= tolerance, axis=2)))


def test_the_gradients_at_w_q_and_w_k_are_two_plots_each_showing_both_runs(window, lab, qtbot):
    from attention_explorer.ui.labs.training.lab import SCALED_COLOUR, UNSCALED_COLOUR
    from attention_explorer.ui.style.theme import key_color

    type_and_enter(lab.spins["d_k"], "256")
    type_and_enter(lab.spins["steps"], "8")
    click(lab.start_button)
    wait_idle(qtbot, lab)
    q_plot, k_plot = lab.plots["grad_norm_q"], lab.plots["grad_norm_k"]
    q_box, k_box = (plot.mapTo(lab, plot.rect().topLeft()) for plot in (q_plot, k_plot))
    assert q_box.y() == k_box.y() and q_box.x() + q_plot.width() <= k_box.x(), "side by side, not on top"
    assert "<sub>Q</sub>" in lab.titles["grad_norm_q"].text() and "<sub>K</sub>" in lab.titles["grad_norm_k"].text()
    # Each plot draws exactly its own quantity, both runs, step by step as the session measured them.
    for name, plot in (("grad_norm_q", q_plot), ("grad_norm_k", k_plot)):
        drawn = [item for item in plot.getPlotItem().listDataItems() if item.getData()[1] is not None]
        assert {id(item) for item in drawn} == {id(lab.curves[(name, scaled)]) for scaled in (True, False)}
        for scaled in (True, False):
            y = lab.curves[(name, scaled)].getData()[1]  # drawn on the log axis
            np.testing.assert_allclose(10 ** y, lab.session.series[scaled][name][:8], rtol=1e-9)
    # One log scale for both, holding every norm of both runs.
    ranges = [plot.getPlotItem().getViewBox().viewRange()[1] for plot in (q_plot, k_plot)]
    assert ranges[0] == pytest.approx(ranges[1])
    norms = np.log10(np.concatenate([lab.session.series[s][n][:8] for s in (True, False)
                                     for n in ("grad_norm_q", "grad_norm_k")]))
    assert ranges[0][0] <= norms.min() and norms.max() <= ranges[0][1]
    # What the screen shows: both runs' colours in each plot, on the theme's background, light and high contrast.
    try:
        for mode in ("light", "contrast"):
            theme().set_mode(mode)
            QApplication.processEvents()
            for plot in (q_plot, k_plot):
                assert plot.backgroundBrush().color() == theme().background()
                picture = plot.grab().toImage()
                for colour in (key_color(SCALED_COLOUR), key_color(UNSCALED_COLOUR)):
                    assert _pixels_near(picture, colour) > 20, (plot.objectName(), mode, colour.name())
    finally:
        theme().set_mode("light")
        QApplication.processEvents()


@pytest.mark.parametrize("typed, d_k", [("１２８", 128), ("５１２", 512), ("１６", 16)])
def test_full_width_digits_committed_by_an_input_method_set_d_k(window, lab, typed, d_k):
    """What a Chinese input method commits into the d_k box, as in the explorer's boxes: the limits included."""
    from PySide6.QtGui import QInputMethodEvent

    spin = lab.spins["d_k"]
    type_and_enter(spin, "64")
    line = spin.lineEdit()
    line.setFocus()
    line.selectAll()
    event = QInputMethodEvent()
    event.setCommitString(typed)
    QApplication.sendEvent(line, event)
    assert spin.text() == str(d_k)
    QTest.keyClick(spin, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert lab.training.scene.d_k == d_k and history_lines(window)[-1] == f"Training: Set d_k = {d_k}"


def test_full_width_past_the_limit_is_not_taken(window, lab):
    from PySide6.QtGui import QInputMethodEvent

    spin = lab.spins["d_k"]
    type_and_enter(spin, "64")
    for typed in ("５１３", "１５"):
        line = spin.lineEdit()
        line.setFocus()
        line.selectAll()
        event = QInputMethodEvent()
        event.setCommitString(typed)
        QApplication.sendEvent(line, event)
        QTest.keyClick(spin, Qt.Key.Key_Return)
        QApplication.processEvents()
        assert lab.training.scene.d_k == 64 and spin.value() == 64, typed


def test_a_full_width_learning_rate_is_the_number(window, lab):
    from PySide6.QtGui import QInputMethodEvent

    spin = lab.spins["lr"]
    line = spin.lineEdit()
    line.setFocus()
    line.selectAll()
    event = QInputMethodEvent()
    event.setCommitString("０．００５")
    QApplication.sendEvent(line, event)
    QTest.keyClick(spin, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert lab.training.scene.lr == 0.005
