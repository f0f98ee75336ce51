"""`ae.attend`: the window's numbers from Python, equal to `compute`'s on every built-in example and to an independent
numpy formula; arrays of any kind (a torch tensor that requires grad); bad input refused with the window's message."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_explorer as ae
from attention_explorer.cli import main
from attention_explorer.core.files.presets import load_preset, preset_names
from attention_explorer.core.limits import MAX_ABS, MAX_DIM, MAX_KEYS, ScenarioError
from attention_explorer.core.scenes.query.scene import Scenario

SINGLE_QUERY = [name for name in preset_names() if isinstance(load_preset(name), Scenario)]


def test_every_kind_of_built_in_example_is_checked():
    """Single-query examples below, and the rows of the self-attention, multi-head and cross examples."""
    assert len(SINGLE_QUERY) >= 8 and len(preset_names()) > len(SINGLE_QUERY)


@pytest.mark.parametrize("name", SINGLE_QUERY)
def test_attend_equals_compute_on_each_single_query_example(name, capsys):
    """Every number `attention-explorer compute --preset NAME` prints, bit for bit."""
    assert main(["compute", "--preset", name]) == 0
    printed = json.loads(capsys.readouterr().out)
    scene = load_preset(name)
    result = ae.attend(scene.query, scene.keys, scene.values, scale=scene.scale, labels=scene.labels)
    numbers = json.loads(json.dumps(result.to_dict()))
    assert numbers.pop("title") == "" and printed.pop("title") == scene.title
    assert numbers == printed
    # The attributes themselves are what to_dict lists (the same arrays the window draws).
    assert np.array_equal(result.weights, scene.compute().weights)
    assert np.array_equal(result.output, printed["output"]) and result.scale == printed["scale"]
    assert result.labels == scene.labels and result.auto_scale == (scene.scale is None)


def _rows(name: str):
    """Each query row of a self-attention, multi-head or cross example: (q, K, V, scale, weights, output) over the
    keys that row may look at."""
    scene = load_preset(name)
    result = scene.compute()
    heads = getattr(scene, "heads", None)
    if heads is None:
        parts = [(result.queries, result.keys, result.values, result.weights, result.output)]
    else:
        d_k = result.queries.shape[1] // heads
        parts = [tuple(m[:, h * d_k:(h + 1) * d_k] for m in (result.queries, result.keys, result.values))
                 + (result.weights[h], result.head_outputs[h]) for h in range(heads)]
    blocked = getattr(scene, "blocked", None)
    for queries, keys, values, weights, outputs in parts:
        n_q, n_k = weights.shape
        if blocked is None:
            blocked = np.triu(np.ones((n_q, n_k), bool), 1) if getattr(scene, "causal", False) else np.zeros(
                (n_q, n_k), bool)
        for i in range(n_q):
            seen = ~blocked[i]
            yield queries[i], keys[seen], values[seen], result.scale, weights[i][seen], outputs[i]


@pytest.mark.parametrize("name", [name for name in preset_names() if name not in SINGLE_QUERY])
def test_attend_equals_each_row_of_the_sequence_examples(name):
    """A self-attention, multi-head or cross example is one query attending per row: each row, as the lab computes
    it, equals ae.attend on that row's query and the keys it may see (masked ones get weight 0 there)."""
    rows = list(_rows(name))
    assert rows
    for query, keys, values, scale, weights, output in rows:
        result = ae.attend(query, keys, values, scale=scale)
        np.testing.assert_allclose(result.weights, weights, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(result.output, output, rtol=1e-12, atol=1e-14)


def _independent(query, keys, values, scale):
    """softmax(scale · K·q) · V written out from the definition, in plain Python sums."""
    scores = np.array([math.fsum(k * q for k, q in zip(key, query)) for key in keys])
    factor = 1 / math.sqrt(len(query)) if scale is None else scale
    scaled = scores * factor
    exps = np.exp(scaled - scaled.max())
    weights = exps / exps.sum()
    output = np.array([math.fsum(w * v[j] for w, v in zip(weights, values)) for j in range(len(values[0]))])
    return scores, scaled, weights, output


_number = st.floats(-20, 20, allow_nan=False, allow_infinity=False)


@st.composite
def _scenes(draw):
    n, d_k, d_v = draw(st.integers(1, 6)), draw(st.integers(1, 5)), draw(st.integers(1, 4))
    query = draw(st.lists(_number, min_size=d_k, max_size=d_k))
    keys = draw(st.lists(st.lists(_number, min_size=d_k, max_size=d_k), min_size=n, max_size=n))
    values = draw(st.lists(st.lists(_number, min_size=d_v, max_size=d_v), min_size=n, max_size=n))
    scale = draw(st.none() | st.floats(0, 10, allow_nan=False))
    return query, keys, values, scale


@settings(max_examples=20, deadline=None)
@given(_scenes())
def test_attend_matches_the_formula_written_out(scene):
    query, keys, values, scale = scene
    result = ae.attend(query, keys, values, scale=scale)
    scores, scaled, weights, output = _independent(query, keys, values, scale)
    np.testing.assert_allclose(result.scores, scores, rtol=1e-12, atol=1e-10)
    np.testing.assert_allclose(result.scaled_scores, scaled, rtol=1e-12, atol=1e-10)
    np.testing.assert_allclose(result.weights, weights, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(result.output, output, rtol=1e-9, atol=1e-9)
    assert math.isclose(result.weights.sum(), 1.0, rel_tol=1e-12)
    assert result.max_weight == result.weights.max() and result.n == len(keys)
    assert result.scale == (1 / math.sqrt(len(query)) if scale is None else scale)
    np.testing.assert_allclose(result.weighted_values.sum(axis=0), result.output, rtol=1e-9, atol=1e-9)


def test_the_arrays_come_back_read_only_and_the_callers_arrays_untouched():
    keys = np.array([[1.0, 0.0], [0.0, 1.0]])
    result = ae.attend(np.array([1.0, 0.0]), keys, [[1], [2]])
    assert keys.flags.writeable and not result.weights.flags.writeable and not result.keys.flags.writeable
    assert result.labels == ("K1", "K2") and (result.n, result.d_k, result.d_v) == (2, 2, 1)
    assert "weights=[0.6698 0.3302]" in repr(result)


class _Wrapped:
    """Anything with __array__, neither a list nor an ndarray."""

    def __init__(self, rows) -> None:
        self.rows = rows

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.rows, dtype=dtype)


def test_lists_numpy_arrays_and_anything_with_array_give_the_same_numbers():
    query, keys, values = [0.5, 1.0], [[1, 0], [0, 2], [3, 1]], [[1.0], [2.0], [3.0]]
    expected = ae.attend(query, keys, values).to_dict()
    assert ae.attend(np.array(query), np.array(keys, dtype=np.int32), np.array(values, dtype=np.float32)
                     ).to_dict() == expected
    assert ae.attend(_Wrapped(query), _Wrapped(keys), _Wrapped(values)).to_dict() == expected
    assert ae.attend(tuple(query), [tuple(row) for row in keys], values).to_dict() == expected


def test_a_torch_tensor_that_requires_grad_in_bfloat16_or_in_a_list_is_read():
    torch = pytest.importorskip("torch")
    generator = torch.Generator().manual_seed(0)
    query = torch.randn(4, generator=generator, requires_grad=True)
    keys = torch.randn(5, 4, generator=generator, requires_grad=True)
    values = torch.randn(5, 3, generator=generator)
    result = ae.attend(query, keys, values)
    plain = ae.attend(query.detach().numpy(), keys.detach().numpy(), values.numpy())
    assert result.to_dict() == plain.to_dict()
    assert query.requires_grad and query.grad is None  # the caller's tensor as it was
    expected = torch.softmax(keys.detach().double() @ query.detach().double() / 2.0, dim=0)
    np.testing.assert_allclose(result.weights, expected.numpy(), rtol=1e-12)
    half = ae.attend(query.to(torch.bfloat16), keys.to(torch.bfloat16), values)  # numpy has no bfloat16
    assert np.array_equal(half.query, query.detach().to(torch.bfloat16).float().numpy().astype(np.float64))
    listed = ae.attend(query, list(keys), values)  # rows that each require grad
    assert listed.to_dict() == plain.to_dict()


N_OK = [[1.0, 0.0]] * MAX_KEYS


@pytest.mark.parametrize(("args", "message"), [
    (([1, 0], [[1, 0], [0]], [[1], [2]]), "keys: expected numbers in equal-length rows"),
    (([1, float("nan")], [[1, 0]], [[1]]), "query[1]: NaN is not allowed (every number must be finite)"),
    (([1, 0], [[1, 0], [0, float("inf")]], [[1], [2]]),
     "keys[1][1]: infinity is not allowed (every number must be finite)"),
    (([1, 0], [[1, 0, 0]], [[1]]), "keys: expected rows of 2 numbers (d_k = 2), got 3"),
    (([1, 0], N_OK + [[1.0, 0.0]], [[1]] * (MAX_KEYS + 1)), f"keys: expected 1 to {MAX_KEYS} rows"),
    (([1, 0], [[1, 0]], [[1], [2]]), "values: expected 1 rows, one per key"),
    (([1, 0], [1, 0], [[1]]), f"keys: expected 1 to {MAX_KEYS} rows"),
    (([[1, 0]], [[1, 0]], [[1]]), f"query: expected 1 to {MAX_DIM} numbers"),
    ([[0.0] * (MAX_DIM + 1), [[0.0] * (MAX_DIM + 1)], [[1]]], f"query: expected 1 to {MAX_DIM} numbers"),
    (([1, 2e6], [[1, 0]], [[1]]), "query[1]: 2\u2009000\u2009000 is out of range (|x| must be at most 1\u2009000\u2009000)"),
    (("12", [[1]], [[1]]), "query: expected numbers, got a string"),
    (([1j, 0], [[1, 0]], [[1]]), "query: expected a number, got complex"),
    (([True], [[1]], [[1]]), "query: expected a number, got true/false"),
    ((None, [[1]], [[1]]), "query: expected a number, got null"),
    (([1, "a"], [[1, 0]], [[1]]), "query: expected numbers, got a string"),
    (([1, None], [[1, 0]], [[1]]), "query[1]: expected a number, got null"),
    (([1, 0], [[1, 0], [0, 1]], [[1], [[2]]]), "values: expected numbers in equal-length rows"),
])
def test_bad_input_is_refused_with_the_windows_message(args, message):
    with pytest.raises(ScenarioError) as caught:
        ae.attend(*args)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError) and ae.ScenarioError is ScenarioError


def test_each_limit_is_accepted_at_the_limit_and_refused_past_it():
    assert ae.attend([1.0, 0.0], N_OK, [[1.0]] * MAX_KEYS).n == MAX_KEYS
    assert ae.attend([0.0] * MAX_DIM, [[0.0] * MAX_DIM], [[1.0] * MAX_DIM]).d_k == MAX_DIM
    assert ae.attend([MAX_ABS, -MAX_ABS], [[1, 0]], [[1]]).scores[0] == MAX_ABS
    with pytest.raises(ScenarioError, match="out of range"):
        ae.attend([np.nextafter(MAX_ABS, np.inf)], [[1]], [[1]])
    assert ae.attend([1], [[1]], [[1]], scale=0).weights[0] == 1.0
    with pytest.raises(ScenarioError, match="scale"):
        ae.attend([1], [[1]], [[1]], scale=-0.5)
    with pytest.raises(ScenarioError) as caught:
        ae.attend([1], [[1]], [[1]], scale="2")
    assert str(caught.value) == "scale: expected a number, got a string"


def test_labels_are_checked_as_the_window_checks_them():
    assert ae.attend([1], [[1], [2]], [[1], [2]], labels=["猫", "dog"]).labels == ("猫", "dog")
    for labels, message in ((["a"], "labels: expected 2 labels, one per key, got 1"),
                            ("ab", "labels: expected a list of strings, got a string"),
                            ([1, 2], "labels[0]: expected a string")):
        with pytest.raises(ScenarioError) as caught:
            ae.attend([1], [[1], [2]], [[1], [2]], labels=labels)
        assert str(caught.value) == message
