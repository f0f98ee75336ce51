"""core.variance: exact dot-product sampling, moments, histograms and the one-hot share."""

import math

import numpy as np
import pytest

from attention_explorer.core.maths.attention import sample_dot_products
from attention_explorer.core.maths.variance import (
    D_K_LADDER,
    dot_product_std,
    example_scores,
    example_vectors,
    example_weights,
    expected_counts,
    histogram_counts,
    histogram_edges,
    max_weights,
    moments,
    one_hot_share,
    sample_dot_products_exact,
)


def ks_distance(a, b):
    """Two-sample Kolmogorov–Smirnov statistic (largest gap between the empirical CDFs)."""
    a, b = np.sort(a), np.sort(b)
    points = np.concatenate([a, b])
    cdf_a = np.searchsorted(a, points, side="right") / a.size
    cdf_b = np.searchsorted(b, points, side="right") / b.size
    return float(np.max(np.abs(cdf_a - cdf_b)))


@pytest.mark.parametrize("d_k", [1, 16, 64])
def test_exact_sampler_has_the_same_distribution_as_drawing_both_vectors(d_k):
    fast = sample_dot_products_exact(d_k, 20_000, seed=3).raw
    direct = sample_dot_products(d_k, 20_000, seed=4).raw
    # 1.95·√(2/20000) ≈ 0.0195 is the 0.1 % critical value; seeds are fixed, so this is deterministic.
    assert ks_distance(fast, direct) < 0.0195
    # The fourth moment too: E[(q·k)^4] / Var² = 3 + 6/d_k for standard normal vectors.
    kurtosis = float(np.mean(fast**4) / np.mean(fast**2) ** 2)
    assert kurtosis == pytest.approx(3 + 6 / d_k, rel=0.08)


@pytest.mark.parametrize("d_k", [64, 512])
def test_std_is_root_d_k_and_one_after_scaling(d_k):
    sample = sample_dot_products_exact(d_k, 20_000, seed=0)
    raw, scaled = moments(sample.raw), moments(sample.scaled)
    assert raw.std == pytest.approx(math.sqrt(d_k), rel=0.03)
    assert raw.variance == pytest.approx(d_k, rel=0.06)
    assert abs(raw.mean) < 4 * math.sqrt(d_k / 20_000)
    assert scaled.std == pytest.approx(1.0, rel=0.03)
    assert np.allclose(sample.scaled * math.sqrt(d_k), sample.raw)


def test_same_seed_same_samples_other_seed_other_samples():
    first = sample_dot_products_exact(256, 1000, seed=7).raw
    assert np.array_equal(first, sample_dot_products_exact(256, 1000, seed=7).raw)
    assert not np.array_equal(first, sample_dot_products_exact(256, 1000, seed=8).raw)
    with pytest.raises(ValueError):
        sample_dot_products_exact(0, 10, 0)


def test_moments_by_hand():
    m = moments(np.array([1.0, 2.0, 3.0, 6.0]))
    assert m.mean == 3.0 and m.variance == pytest.approx(14 / 3) and m.std == pytest.approx(math.sqrt(14 / 3))


def test_histogram_and_normal_curve_cover_the_same_area():
    edges = histogram_edges(8.0)
    assert edges[0] == -36.0 and edges[-1] == 36.0 and len(edges) == 62
    counts = histogram_counts(np.array([-100.0, -0.1, 0.1, 35.9]), edges)
    assert counts.sum() == 3 and counts[30] == 2  # the middle bin straddles 0; −100 is outside
    width = float(edges[1] - edges[0])
    centres = (edges[:-1] + edges[1:]) / 2
    assert expected_counts(centres, 8.0, 20_000, width).sum() == pytest.approx(20_000, rel=1e-3)
    assert expected_counts(np.array([0.0]), 1.0, 1, 1.0)[0] == pytest.approx(1 / math.sqrt(2 * math.pi))


def test_example_scores_use_leading_components_and_keys():
    query, keys = example_vectors(5)
    scores = example_scores(query, keys, d_k=3, n_keys=2)
    assert scores.tolist() == pytest.approx([float(np.dot(keys[i, :3], query[:3])) for i in range(2)])


def test_max_weights_by_hand():
    assert max_weights(np.array([[2.0, 1.0, 0.0]]))[0] == pytest.approx(0.66524, abs=5e-6)
    assert max_weights(np.array([[1000.0, 0.0]]))[0] == 1.0


def test_one_hot_share_grows_with_d_k_only_without_scaling():
    unscaled, scaled = one_hot_share(D_K_LADDER, n_keys=8, trials=500, seed=0)
    assert unscaled.shape == scaled.shape == (13,)
    assert unscaled[-1] > 0.7 and scaled[-1] < 0.05  # d_k = 4096
    assert unscaled[-1] > unscaled[6] > unscaled[0]  # 4096 > 64 > 1
    assert unscaled[0] == scaled[0]  # d_k = 1: scaling by 1 changes nothing
    again = one_hot_share(D_K_LADDER, n_keys=8, trials=500, seed=0)
    assert np.array_equal(again[0], unscaled) and np.array_equal(again[1], scaled)


def test_dot_product_std_is_the_root_of_d_k():
    assert [dot_product_std(d) for d in (1, 4, 64, 512)] == [1.0, 2.0, 8.0, math.sqrt(512)]


def test_example_weights_are_the_softmax_of_the_raw_and_the_scaled_scores():
    scores = np.array([2.0, -1.0, 0.5, 4.0])
    raw, scaled = example_weights(scores, 16)
    by_hand_raw = np.exp(scores) / np.exp(scores).sum()
    by_hand_scaled = np.exp(scores / 4.0) / np.exp(scores / 4.0).sum()
    np.testing.assert_allclose(raw, by_hand_raw, rtol=1e-13)
    np.testing.assert_allclose(scaled, by_hand_scaled, rtol=1e-13)
    assert raw.sum() == pytest.approx(1.0) and scaled.sum() == pytest.approx(1.0)
    assert scaled.max() < raw.max()  # dividing by √d_k softens the weights


def test_example_weights_survive_scores_that_overflow_a_naive_exp():
    raw, scaled = example_weights(np.array([1000.0, 990.0, -1000.0]), 1)
    assert np.isfinite(raw).all() and np.array_equal(raw, scaled)
    assert raw[0] == pytest.approx(1.0 / (1.0 + math.exp(-10.0)))
