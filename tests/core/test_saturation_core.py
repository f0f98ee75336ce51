"""core.saturation: weights, entropy and Jacobian over many factors; the shift and the naive overflow."""

import math
import warnings

import numpy as np
import pytest

from attention_explorer.core.maths.attention import entropy_bits, softmax_jacobian_norm
from attention_explorer.core.maths.saturation import (
    entropy_rows,
    factor_grid,
    jacobian_norm_rows,
    naive_softmax,
    shifted_softmax,
    weights_over_factors,
)

SCORES = np.array([2.0, 1.0, 0.0])


def hand_softmax(x):
    """e^x / Σ e^x written out, for small inputs only."""
    e = [math.exp(v) for v in x]
    return [v / sum(e) for v in e]


def test_grid_runs_from_001_to_10_with_the_powers_of_ten_exactly_on_it():
    grid = factor_grid()
    assert grid[0] == 0.01 and grid[-1] == 10.0
    assert {0.01, 0.1, 1.0, 10.0} <= set(grid.tolist())
    assert np.all(np.diff(grid) > 0)


def test_weights_over_factors_are_the_softmax_of_each_scaled_row():
    factors = np.array([0.0, 0.5, 1.0, 10.0])
    weights = weights_over_factors(SCORES, factors)
    assert weights.shape == (4, 3)
    assert np.allclose(weights[0], [1 / 3] * 3)
    assert np.allclose(weights[2], [0.66524, 0.24473, 0.09003], atol=5e-6)  # the article's [2, 1, 0]
    assert np.allclose(weights[1], hand_softmax([1.0, 0.5, 0.0]))
    assert weights[3, 0] == pytest.approx(0.99995, abs=5e-6)  # [20, 10, 0]
    assert np.allclose(weights.sum(axis=1), 1.0)


def test_huge_scores_saturate_without_overflow():
    weights = weights_over_factors(np.array([1e6, 0.0, -1e6]), np.array([10.0]))
    assert np.array_equal(weights, [[1.0, 0.0, 0.0]])


def test_entropy_and_jacobian_rows_match_the_single_vector_versions_and_the_explicit_matrix():
    weights = weights_over_factors(SCORES, factor_grid(10))
    entropy = entropy_rows(weights)
    jacobian = jacobian_norm_rows(weights)
    for row, w in enumerate(weights):
        assert entropy[row] == pytest.approx(entropy_bits(w), abs=1e-12)
        assert jacobian[row] == pytest.approx(softmax_jacobian_norm(w), abs=1e-12)
        explicit = np.diag(w) - np.outer(w, w)
        assert jacobian[row] == pytest.approx(np.linalg.norm(explicit, "fro"), abs=1e-12)
    # At factor 0 the weights are uniform: log2 3 bits, ‖J‖ = √(1/3 − 1/9).
    uniform = weights_over_factors(SCORES, np.array([0.0]))
    assert entropy_rows(uniform)[0] == pytest.approx(math.log2(3))
    assert jacobian_norm_rows(uniform)[0] == pytest.approx(math.sqrt(1 / 3 - 1 / 9))
    # Saturation: both fall towards 0 as the factor grows.
    assert entropy[-1] < 0.01 and jacobian[-1] < 0.01
    assert np.all(np.diff(entropy) <= 1e-12)


def test_one_hot_rows_have_zero_entropy_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert entropy_rows(np.array([[1.0, 0.0, 0.0]]))[0] == 0.0


def test_shift_leaves_the_weights_unchanged():
    base = shifted_softmax(SCORES, 0.0)
    for shift in (-1000.0, -3.5, 1000.0):
        assert np.allclose(shifted_softmax(SCORES, shift), base, atol=1e-12)


def test_naive_softmax_overflows_at_1000_and_underflows_at_minus_1000_silently():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # np.errstate must keep the overflow quiet
        high = naive_softmax(SCORES, 1000.0)
        low = naive_softmax(SCORES, -1000.0)
        fine = naive_softmax(SCORES, 0.0)
    assert high.overflow and high.failed and np.all(np.isinf(high.exponentials))
    assert np.all(np.isnan(high.weights))  # inf / inf
    assert low.underflow and low.failed and not low.overflow and np.all(np.isnan(low.weights))  # 0 / 0
    assert not fine.failed and np.allclose(fine.weights, hand_softmax(SCORES))
