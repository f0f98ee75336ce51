"""Scoring functions side by side: dot, scaled dot, cosine and additive scores by hand and by plain loops."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attention_explorer.core.maths.attention import attend
from attention_explorer.core.maths.scoring import SCORINGS, additive_weights, compare_scorings


def loop_softmax(scores):
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    return [e / sum(exps) for e in exps]


def test_dot_scaled_and_cosine_by_hand():
    """q = [3, 4], keys [3, 4], [4, −3], [−6, −8]: dots 25, 0, −50; cosines 1, 0, −1."""
    comparison = compare_scorings(np.array([3.0, 4.0]), np.array([[3.0, 4.0], [4.0, -3.0], [-6.0, -8.0]]), 0.1)
    assert comparison.scores["dot"].tolist() == [25.0, 0.0, -50.0]
    assert np.allclose(comparison.scores["scaled"], [2.5, 0.0, -5.0])
    assert np.allclose(comparison.scores["cosine"], [1.0, 0.0, -1.0])
    assert np.allclose(comparison.weights["cosine"], loop_softmax([1.0, 0.0, -1.0]))
    assert np.allclose(comparison.weights["scaled"], loop_softmax([2.5, 0.0, -5.0]))


def test_additive_score_equals_a_plain_loop_and_is_seeded():
    """vᵀ tanh(W_q q + W_k k) one hidden unit at a time, with the seeded weights; the same call, the same numbers."""
    q = [0.5, -1.0, 2.0]
    keys = [[1.0, 0.0, 0.0], [0.0, 2.0, -1.0]]
    w_q, w_k, v = additive_weights(3)
    expected = []
    for k in keys:
        hidden = [math.tanh(sum(w_q[a][c] * q[c] for c in range(3)) + sum(w_k[a][c] * k[c] for c in range(3)))
                  for a in range(len(v))]
        expected.append(sum(v[a] * hidden[a] for a in range(len(v))))
    comparison = compare_scorings(np.array(q), np.array(keys), 1.0)
    assert np.allclose(comparison.scores["additive"], expected, rtol=0, atol=1e-12)
    assert np.array_equal(additive_weights(3)[0], w_q) and not np.array_equal(additive_weights(4)[0][:, :3], w_q)


def test_scaled_weights_are_the_explorers_and_a_zero_query_has_cosine_zero():
    q, keys = np.array([1.5, 0.5]), np.array([[1.2, 0.9], [-0.6, 1.3], [0.8, -1.0]])
    assert np.allclose(compare_scorings(q, keys, 0.5).weights["scaled"], attend(q, keys, keys, 0.5).weights)
    zero = compare_scorings(np.zeros(2), keys, 1.0)
    assert zero.scores["cosine"].tolist() == [0.0, 0.0, 0.0]
    assert np.allclose(zero.weights["cosine"], [1 / 3] * 3)


@settings(max_examples=30, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 5)),
                  elements=st.floats(-1e3, 1e3, allow_nan=False)), st.floats(0.0, 10.0))
def test_every_function_gives_a_distribution(keys, scale):
    comparison = compare_scorings(keys[0], keys, scale)
    for name in SCORINGS:
        weights = comparison.weights[name]
        assert np.isfinite(weights).all() and math.isclose(weights.sum(), 1.0, abs_tol=1e-9), name
        assert -1.0 <= comparison.scores["cosine"].min() and comparison.scores["cosine"].max() <= 1.0
