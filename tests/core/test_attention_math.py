"""The attention core against hand-calculated numbers (the article's) and against its defining properties."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attention_explorer.core.maths.attention import (
    attend,
    causal_mask,
    entropy_bits,
    inv_sqrt_scale,
    sample_dot_products,
    self_attention,
    softmax,
    softmax_jacobian_norm,
)

LIBRARY_QUERY = [1, 0, 1, 0]
LIBRARY_KEYS = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]]
ARTICLE_VALUES = [[0.8, 0.2], [0.3, 0.7], [0.1, 0.9]]  # in the article's order: weights 0.506, 0.307, 0.186


# ---------------------------------------------------------------- the article's numbers


def test_library_scores_and_scaled_scores():
    """Q·K_i = 2, 0, 1 by hand; d_k = 4 so the scale is 1/2."""
    result = attend(LIBRARY_QUERY, LIBRARY_KEYS, [[0.0]] * 3, inv_sqrt_scale(4))
    assert result.scores.tolist() == [2.0, 0.0, 1.0]
    assert result.scale == 0.5
    assert result.scaled_scores.tolist() == [1.0, 0.0, 0.5]


def test_library_weights_match_hand_exponentials():
    """softmax([1, 0, 0.5]) = [e, 1, √e] / (e + 1 + √e) ≈ [0.506, 0.186, 0.307]."""
    result = attend(LIBRARY_QUERY, LIBRARY_KEYS, [[0.0]] * 3, 0.5)
    total = math.e + 1 + math.sqrt(math.e)
    assert result.weights == pytest.approx([math.e / total, 1 / total, math.sqrt(math.e) / total], abs=1e-15)
    assert np.round(result.weights, 3).tolist() == [0.506, 0.186, 0.307]
    assert result.exponentials == pytest.approx([math.e, 1.0, math.sqrt(math.e)])
    assert result.exp_sum == pytest.approx(5.367, abs=5e-4)
    assert result.exp_shifted is False


def test_article_output_is_exactly_0_516_0_484():
    """Weights 0.506/0.307/0.186 on the article's V's: the exact output rounds to [0.516, 0.484].

    The article prints 0.483 because it adds terms it has already rounded; the app shows the exact value.
    """
    keys_in_article_order = [LIBRARY_KEYS[0], LIBRARY_KEYS[2], LIBRARY_KEYS[1]]
    result = attend(LIBRARY_QUERY, keys_in_article_order, ARTICLE_VALUES, 0.5)
    assert np.round(result.weights, 3).tolist() == [0.506, 0.307, 0.186]
    assert np.round(result.output, 3).tolist() == [0.516, 0.484]
    # every V sums to 1, so the output does too: 0.516 + 0.484
    assert result.output.sum() == pytest.approx(1.0, abs=1e-15)
    rounded_terms = np.round(np.round(result.weights, 3)[:, None] * np.array(ARTICLE_VALUES), 3)
    assert round(float(rounded_terms[:, 1].sum()), 3) == 0.483  # the article's slip, reproduced by hand
    assert result.weighted_values == pytest.approx(result.weights[:, None] * np.array(ARTICLE_VALUES))


def test_softmax_of_2_1_0():
    """e^2, e^1, e^0 over their sum: 0.665, 0.245, 0.090."""
    assert softmax([2.0, 1.0, 0.0]) == pytest.approx([0.665, 0.245, 0.090], abs=5e-4)


def test_softmax_of_20_10_0_is_nearly_one_hot():
    """1/(1 + e^-10 + e^-20) ≈ 0.99995, e^-10 ≈ 4.54e-5, e^-20 ≈ 2.06e-9."""
    weights = softmax([20.0, 10.0, 0.0])
    assert weights[0] == pytest.approx(0.99995, abs=5e-6)
    assert weights[1] == pytest.approx(4.54e-5, rel=1e-3)
    assert weights[2] == pytest.approx(2.06e-9, rel=1e-3)


@pytest.mark.parametrize(("d_k", "raw_std"), [(64, 8.0), (512, 22.6)])
def test_dot_product_spread_grows_like_sqrt_dk(d_k, raw_std):
    """Var(q·k) = d_k for q, k ~ N(0, I): std 8 at 64, √512 ≈ 22.6 at 512; scaling by 1/√d_k brings it to 1.

    With 20,000 samples the sample std is within about 0.5% of the truth (one sigma), so 4% is eight sigmas.
    """
    for seed in (0, 1):
        sample = sample_dot_products(d_k, 20_000, seed=seed)
        assert sample.raw.shape == (20_000,)
        assert float(np.std(sample.raw)) == pytest.approx(raw_std, rel=0.04)
        assert float(np.std(sample.scaled)) == pytest.approx(1.0, rel=0.04)
        assert float(np.mean(sample.scaled)) == pytest.approx(0.0, abs=0.05)
        assert np.array_equal(sample.scaled, sample.raw / math.sqrt(d_k))


def test_dot_product_sample_is_seeded():
    """Same seed, same numbers; another seed, other numbers; bad sizes refused."""
    first = sample_dot_products(16, 500, seed=7)
    assert np.array_equal(first.raw, sample_dot_products(16, 500, seed=7).raw)
    assert not np.array_equal(first.raw, sample_dot_products(16, 500, seed=8).raw)
    assert (first.d_k, first.seed) == (16, 7)
    with pytest.raises(ValueError):
        sample_dot_products(0, 10, seed=0)
    with pytest.raises(ValueError):
        sample_dot_products(4, 0, seed=0)


# ---------------------------------------------------------------- smaller hand checks


def test_cosines_and_angles_by_hand():
    """Q = [1, 0]; keys along it, at 90°, against it, at 45°, and zero (undefined, never NaN)."""
    result = attend([1.0, 0.0], [[2, 0], [0, 3], [-1, 0], [1, 1], [0, 0]], [[1.0]] * 5, 1.0)
    assert result.cosines[:4] == pytest.approx([1.0, 0.0, -1.0, math.sqrt(0.5)])
    assert result.angles_deg[:4] == pytest.approx([0.0, 90.0, 180.0, 45.0])
    assert result.cosines[4] is None and result.angles_deg[4] is None
    assert result.query_norm == 1.0
    assert result.key_norms.tolist() == pytest.approx([2.0, 3.0, 1.0, math.sqrt(2), 0.0])


def test_zero_query_has_no_angles():
    """A zero Q has no direction: every cos θ is None, the weights are uniform."""
    result = attend([0.0, 0.0], [[1, 0], [0, 1]], [[1.0], [3.0]], 1.0)
    assert result.cosines == (None, None) and result.angles_deg == (None, None)
    assert result.weights.tolist() == [0.5, 0.5]
    assert result.output.tolist() == [2.0]


def test_tiny_vectors_still_have_an_angle():
    """Components of 1e-170 square to 0 in float64; the angle must not be lost to underflow."""
    result = attend([1e-170, 0.0], [[1e-170, 1e-170], [0.0, 0.0]], [[1.0], [1.0]], 1.0)
    assert result.cosines[0] == pytest.approx(math.sqrt(0.5))
    assert result.cosines[1] is None
    assert result.query_norm == pytest.approx(1e-170)


def test_entropy_max_weight_and_jacobian():
    """Uniform over 4: 2 bits; one-hot: 0 bits and a zero Jacobian; [0.5, 0.5]: Jacobian norm 0.5."""
    uniform = attend([0.0, 0.0], [[1, 0]] * 4, [[1.0]] * 4, 1.0)
    assert uniform.entropy == pytest.approx(2.0)
    assert uniform.max_weight == 0.25
    assert entropy_bits(np.array([1.0, 0.0, 0.0])) == 0.0
    assert softmax_jacobian_norm(np.array([1.0, 0.0, 0.0])) == 0.0
    assert softmax_jacobian_norm(np.array([0.5, 0.5])) == pytest.approx(0.5)
    weights = np.array([0.665, 0.245, 0.09])
    explicit = np.diag(weights) - np.outer(weights, weights)
    assert softmax_jacobian_norm(weights) == pytest.approx(float(np.linalg.norm(explicit)))


def test_saturation_lowers_entropy_and_gradient():
    """Scores 20/10/0 against 2/1/0: nearly one-hot, so lower entropy and a far smaller Jacobian."""
    soft = attend([1.0, 0.0], [[2, 0], [1, 1], [0, 2]], [[1.0]] * 3, 1.0)
    hard = attend([10.0, 0.0], [[2, 0], [1, 1], [0, 2]], [[1.0]] * 3, 1.0)
    assert hard.scores.tolist() == [20.0, 10.0, 0.0]
    assert hard.max_weight == pytest.approx(0.99995, abs=5e-6)
    assert hard.entropy < 0.01 < soft.entropy
    assert hard.jacobian_norm < 1e-3 < soft.jacobian_norm


def test_huge_scores_are_shifted_before_exponentiating():
    """e^800 overflows float64: the exponentials are then e^(x − max), and the weights stay exact."""
    result = attend([1.0], [[800.0], [799.0]], [[1.0], [0.0]], 1.0)
    assert result.exp_shifted is True
    assert result.exponentials == pytest.approx([1.0, math.exp(-1)])
    assert result.weights == pytest.approx([1 / (1 + math.exp(-1)), math.exp(-1) / (1 + math.exp(-1))])


def test_result_carries_the_weights_without_scaling():
    """Library raw scores [2, 0, 1] at factor 1: [e², 1, e] / (e² + 1 + e), whatever scale was applied."""
    by_hand = np.array([math.e**2, 1.0, math.e]) / (math.e**2 + 1.0 + math.e)
    for scale in (0.5, 0.0, 3.0):
        result = attend(LIBRARY_QUERY, LIBRARY_KEYS, [[0.0]] * 3, scale)
        assert result.unscaled_weights == pytest.approx(by_hand, abs=1e-15)
        assert not result.unscaled_weights.flags.writeable
    assert attend(LIBRARY_QUERY, LIBRARY_KEYS, [[0.0]] * 3, 1.0).weights == pytest.approx(by_hand, abs=1e-15)


def test_scale_zero_gives_uniform_weights_and_infinite_temperature():
    """A factor of 0 flattens every score to 0."""
    result = attend([5.0, 1.0], [[1, 0], [0, 1], [3, 3]], [[0.0], [3.0], [6.0]], 0.0)
    assert result.weights == pytest.approx([1 / 3] * 3)
    assert result.output == pytest.approx([3.0])
    assert math.isinf(result.temperature)
    assert attend([1.0], [[1.0]], [[1.0]], 0.25).temperature == 4.0


def test_result_arrays_are_read_only():
    """A view cannot change the numbers it is given."""
    result = attend([1.0], [[1.0], [2.0]], [[1.0], [2.0]], 1.0)
    assert result.n == 2
    with pytest.raises(ValueError):
        result.weights[0] = 1.0


def test_self_attention_by_hand():
    """Two positions: Q·Kᵀ by hand, causal row 0 sees only itself."""
    queries = [[1.0, 0.0], [0.0, 1.0]]
    keys = [[1.0, 0.0], [1.0, 1.0]]
    values = [[1.0, 0.0], [0.0, 1.0]]
    full = self_attention(queries, keys, values, 1.0)
    assert full.scores.tolist() == [[1.0, 1.0], [0.0, 1.0]]
    assert full.weights[0].tolist() == [0.5, 0.5]
    assert full.weights[1] == pytest.approx([1 / (1 + math.e), math.e / (1 + math.e)])
    causal = self_attention(queries, keys, values, 1.0, causal=True)
    assert causal.weights[0].tolist() == [1.0, 0.0]
    assert causal.output[0].tolist() == [1.0, 0.0]
    assert causal_mask(3).tolist() == [[False, True, True], [False, False, True], [False, False, False]]


# ---------------------------------------------------------------- properties

FAST = settings(max_examples=60, deadline=None)

moderate = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False)
any_allowed = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@st.composite
def attention_inputs(draw, elements=any_allowed, max_n=8, max_d=6):
    """Q, K, V and a scale within the scenario file's limits."""
    n = draw(st.integers(1, max_n))
    d_k = draw(st.integers(1, max_d))
    d_v = draw(st.integers(1, max_d))
    query = draw(hnp.arrays(np.float64, d_k, elements=elements))
    keys = draw(hnp.arrays(np.float64, (n, d_k), elements=elements))
    values = draw(hnp.arrays(np.float64, (n, d_v), elements=elements))
    scale = draw(st.one_of(st.just(inv_sqrt_scale(d_k)), st.floats(0, 1e6, allow_nan=False)))
    return query, keys, values, scale


@FAST
@given(attention_inputs())
def test_weights_are_a_probability_distribution(inputs):
    """Every weight in [0, 1], summing to 1, whatever the (allowed) inputs."""
    result = attend(*inputs)
    assert np.all(result.weights >= 0) and np.all(result.weights <= 1)
    assert float(result.weights.sum()) == pytest.approx(1.0, abs=1e-12)
    assert np.all(np.isfinite(result.exponentials)) and math.isfinite(result.exp_sum)
    assert result.max_weight == float(result.weights.max())
    assert 0.0 <= result.entropy <= math.log2(result.n) + 1e-9
    assert math.isfinite(result.jacobian_norm)


@FAST
@given(hnp.arrays(np.float64, st.integers(1, 10), elements=any_allowed), moderate)
def test_softmax_ignores_a_constant_added_to_every_score(scores, constant):
    """softmax(x + c) = softmax(x): only differences between scores matter."""
    assert softmax(scores + constant) == pytest.approx(softmax(scores), abs=1e-9)


@FAST
@given(attention_inputs(elements=moderate), moderate)
def test_attend_ignores_a_constant_added_to_every_score(inputs, constant):
    """An extra component (c in Q, 1 in every K) adds c to every score and must not change the weights."""
    query, keys, values, _ = inputs
    plain = attend(query, keys, values, 1.0)
    shifted = attend(np.append(query, constant), np.hstack([keys, np.ones((len(keys), 1))]), values, 1.0)
    assert shifted.scores == pytest.approx(plain.scores + constant, abs=1e-6)
    assert shifted.weights == pytest.approx(plain.weights, abs=1e-6)


@FAST
@given(attention_inputs())
def test_output_lies_in_the_convex_hull_of_the_values(inputs):
    """Σ w_i V_i with w a distribution: each component lies between the smallest and largest V."""
    values = inputs[2]
    result = attend(*inputs)
    slack = 1e-12 * (1.0 + float(np.max(np.abs(values))))
    assert np.all(result.output >= values.min(axis=0) - slack)
    assert np.all(result.output <= values.max(axis=0) + slack)
    assert result.output == pytest.approx(result.weighted_values.sum(axis=0))


@FAST
@given(attention_inputs(elements=st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=True)))
def test_cosine_is_bounded_and_reproduces_the_dot_product(inputs):
    """cos θ ∈ [−1, 1], q·k = |q||k| cos θ, and cos θ is None exactly when q or k is zero."""
    query, keys, values, scale = inputs
    result = attend(query, keys, values, scale)
    for i, cosine in enumerate(result.cosines):
        if not query.any() or not keys[i].any():
            assert cosine is None and result.angles_deg[i] is None
            continue
        assert cosine is not None and -1.0 <= cosine <= 1.0
        assert 0.0 <= result.angles_deg[i] <= 180.0
        product = result.query_norm * float(result.key_norms[i])
        bound = 1e-12 * float(np.abs(query) @ np.abs(keys[i])) + 1e-300
        assert abs(float(result.scores[i]) - product * cosine) <= max(bound, 1e-9 * product)


huge = st.sampled_from([-1e6, 1e6, 0.0, 999_999.5, -3.25])


@FAST
@given(
    st.integers(1, 6).flatmap(
        lambda n: st.integers(1, 64).flatmap(
            lambda d_k: st.tuples(
                hnp.arrays(np.float64, d_k, elements=huge), hnp.arrays(np.float64, (n, d_k), elements=huge)
            )
        )
    ),
    st.floats(0, 1e6, allow_nan=False),
)
def test_million_sized_vectors_give_finite_weights(vectors, scale):
    """Vectors at the file limit |x| = 1e6 give scores near 6e13 (scaled up to 6e19): weights stay finite."""
    query, keys = vectors
    result = attend(query, keys, np.eye(len(keys), 3), scale)
    assert np.all(np.isfinite(result.weights)) and np.all(np.isfinite(result.output))
    assert float(result.weights.sum()) == pytest.approx(1.0, abs=1e-12)
    assert math.isfinite(result.entropy) and math.isfinite(result.jacobian_norm)
    assert np.all(np.isfinite(result.exponentials)) and math.isfinite(result.exp_sum)


@FAST
@given(
    st.integers(1, 7).flatmap(
        lambda n: st.tuples(
            hnp.arrays(np.float64, (n, 3), elements=any_allowed),
            hnp.arrays(np.float64, (n, 3), elements=any_allowed),
            hnp.arrays(np.float64, (n, 2), elements=moderate),
        )
    ),
    st.floats(0, 10, allow_nan=False),
    st.booleans(),
)
def test_self_attention_rows_are_distributions(arrays, scale, causal):
    """Each row sums to 1; with the causal mask, the future gets exactly 0 and the past is a softmax."""
    queries, keys, values = arrays
    result = self_attention(queries, keys, values, scale, causal=causal)
    n = len(queries)
    assert result.weights.shape == (n, n) and result.output.shape == (n, 2)
    assert result.weights.sum(axis=1) == pytest.approx(np.ones(n), abs=1e-12)
    assert np.all(result.weights >= 0)
    if causal:
        assert np.all(result.weights[causal_mask(n)] == 0.0)
        for row in range(n):
            visible = (queries[row] @ keys[: row + 1].T) * scale
            # One matrix product and row-by-row products may round differently (BLAS), and e^x turns a rounding
            # of a score of 8e6 into a relative change of 2e-9 in its weight: check the scores against the row
            # products, and the weights as the softmax of the very scores they came from.
            magnitude = (np.abs(queries[row]) @ np.abs(keys[: row + 1]).T) * scale  # bounds the rounding error
            assert np.all(np.abs(result.scaled_scores[row, : row + 1] - visible) <= 1e-14 * magnitude + 1e-300)
            assert result.weights[row, : row + 1] == pytest.approx(
                softmax(result.scaled_scores[row, : row + 1]), rel=1e-12, abs=1e-15)
    assert result.output == pytest.approx(result.weights @ values, rel=1e-9, abs=1e-9)
