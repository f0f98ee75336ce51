"""The core's one softmax: equal to the textbook formula where that does not overflow, and always a distribution."""

import ast
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attention_explorer.core.maths.attention import softmax
from tests.helpers.sources import parsed

CORE = Path(__file__).resolve().parents[2] / "attention_explorer" / "core"
# Where e^x cannot overflow float64 (e^709.78 is the largest finite value), the naive formula is exact enough.
SAFE = st.floats(-300, 300, allow_nan=False)
ANY_FINITE = st.floats(-1e300, 1e300, allow_nan=False)
SHAPES = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6)


def naive(scores: np.ndarray, axis: int) -> np.ndarray:
    """e^x / Σ e^x exactly as written on the board."""
    exps = np.exp(scores)
    return exps / np.sum(exps, axis=axis, keepdims=True)


@settings(max_examples=200, deadline=None)
@given(hnp.arrays(np.float64, SHAPES, elements=SAFE), st.data())
def test_softmax_equals_the_naive_formula_where_it_does_not_overflow(scores, data):
    axis = data.draw(st.integers(-scores.ndim, scores.ndim - 1))
    assert np.allclose(softmax(scores, axis=axis), naive(scores, axis), rtol=1e-12, atol=1e-300)


@settings(max_examples=200, deadline=None)
@given(hnp.arrays(np.float64, SHAPES, elements=ANY_FINITE), st.data())
def test_softmax_sums_to_one_along_its_axis_for_any_finite_scores(scores, data):
    axis = data.draw(st.integers(-scores.ndim, scores.ndim - 1))
    weights = softmax(scores, axis=axis)
    assert np.all(np.isfinite(weights)) and np.all(weights >= 0)
    assert np.allclose(np.sum(weights, axis=axis), 1.0, atol=1e-12)


@settings(max_examples=200, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 6)), elements=SAFE), st.data())
def test_masked_entries_get_exactly_zero_and_the_rest_is_the_softmax_of_the_kept_ones(scores, data):
    mask = data.draw(hnp.arrays(bool, scores.shape))
    mask[:, 0] = True  # every row keeps at least one key, as BERT's padding mask does
    weights = softmax(scores, mask=mask)
    assert np.all(weights[~mask] == 0.0)
    for row, keep in zip(range(scores.shape[0]), mask):
        assert np.allclose(weights[row, keep], naive(scores[row, keep], -1), rtol=1e-12, atol=1e-300)


def test_the_core_writes_e_to_the_x_over_a_sum_only_in_attention_py():
    """One softmax: outside core/maths/attention.py only the lab's naive formula and a normal density use exp."""
    callers = {}
    for path in sorted(CORE.rglob("*.py")):
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.FunctionDef) and any(
                isinstance(call, ast.Attribute) and call.attr == "exp" for call in ast.walk(node)
            ):
                callers.setdefault(path.relative_to(CORE).as_posix(), []).append(node.name)
    assert callers == {
        "maths/attention.py": ["softmax", "attend"],  # attend: the e^x column the steps view shows
        "maths/saturation.py": ["naive_softmax"],  # the lab shows where the formula without the max breaks
        "maths/variance.py": ["expected_counts"],  # the normal curve over the histogram
        # Spot the bug computes softmax as the buggy code did: without the max, along any axis, NaN on a masked row
        "teaching/bugs.py": ["_rows_softmax_naive", "_shifted"],
    }
