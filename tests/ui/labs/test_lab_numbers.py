"""The variance lab's one-hot share, as plotted, against a direct count on the same random samples."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtWidgets import QApplication

from attention_explorer.ui.labs.variance.lab import VarianceLab
from attention_explorer.ui.style.theme import theme
from tests.ui.widget_helpers import show_widget

LADDER = [2**power for power in range(13)]  # the d_k axis of the plot: 1, 2, 4, … 4096
TRIALS = 2000  # "Share of 2000 random queries …", as the plot's description says


def counted_share(n_keys: int, seed: int) -> tuple[list[float], list[float]]:
    """Per d_k, the share of trials whose largest softmax weight is above 0.99: counted from each trial's weights.

    The same samples as the lab: for each trial n_keys N(0, 1) numbers z, scaled per d_k by |q| with
    |q|² ~ χ²_d_k (given q, the scores q·k_i are N(0, |q|²)), drawn in the lab's order from its seed.
    Each trial's softmax is computed in full here and the trials with a weight above 0.99 are counted.
    """
    rng = np.random.default_rng(seed)
    unit = rng.standard_normal((TRIALS, n_keys))
    raw_share, scaled_share = [], []
    for d_k in LADDER:
        scores = np.sqrt(rng.chisquare(d_k, TRIALS))[:, None] * unit
        for divisor, shares in ((1.0, raw_share), (math.sqrt(d_k), scaled_share)):
            x = scores / divisor
            e = np.exp(x - x.max(axis=1, keepdims=True))
            weights = e / e.sum(axis=1, keepdims=True)  # every trial's whole softmax, not just its top weight
            shares.append(int(np.count_nonzero(weights.max(axis=1) > 0.99)) / TRIALS)
    return raw_share, scaled_share


def test_the_plotted_one_hot_share_is_the_count_on_the_same_samples(qtbot, model):
    theme().set_zoom(1.0)
    theme().set_mode("light")
    lab = show_widget(qtbot, VarianceLab(model), (900, 600))
    lab.keys_slider.setValue(5)  # N = 5 keys, seed 3: not the defaults
    lab.seed_spin.setValue(3)
    QApplication.processEvents()
    assert (lab.n_keys, lab.seed) == (5, 3)
    raw, scaled = counted_share(5, 3)
    x, plotted_raw = lab.share_unscaled.getData()
    _, plotted_scaled = lab.share_scaled.getData()
    np.testing.assert_allclose(x, np.log2(LADDER))
    np.testing.assert_allclose(plotted_raw, raw, rtol=0, atol=1e-12)
    np.testing.assert_allclose(plotted_scaled, scaled, rtol=0, atol=1e-12)
    # The counts are informative: near 0 at d_k = 1 and far apart at d_k = 4096.
    assert raw[-1] > 0.7 and scaled[-1] < 0.1
