"""Attention sinks: which columns are hidden, and the rest renormalised (checked against plain loops)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_explorer.core.pretrained.sinks import is_sink_token, sink_columns, sink_share, without_sinks


def test_the_first_token_specials_and_full_stops_are_sinks():
    tokens = ["I", "[CLS]", "love", ".", "Ġ.", "[SEP]", "<|endoftext|>", "。", "dog"]
    assert sink_columns(tokens).tolist() == [True, True, False, True, True, True, True, True, False]
    assert not is_sink_token("Ġdog") and is_sink_token("</s>")
    assert sink_columns([]).tolist() == []


def test_hidden_columns_are_zero_and_each_row_is_renormalised_like_a_plain_loop():
    rng = np.random.default_rng(3)
    weights = rng.dirichlet(np.ones(6), size=(2, 3, 6))  # layers × heads × N × N
    hidden = np.array([True, False, False, True, False, True])
    shown = without_sinks(weights, hidden)
    for index in np.ndindex(*weights.shape[:3]):
        row = weights[index]
        total = sum(row[j] for j in range(6) if not hidden[j])
        expected = [0.0 if hidden[j] else row[j] / total for j in range(6)]
        assert shown[index].tolist() == pytest.approx(expected, abs=1e-15)
    np.testing.assert_allclose(shown.sum(axis=-1), 1.0)


def test_a_row_that_only_saw_hidden_keys_stays_empty():
    causal = np.tril(np.ones((3, 3)))
    causal /= causal.sum(axis=1, keepdims=True)  # GPT-2's first token sees only itself
    shown = without_sinks(causal, np.array([True, False, False]))
    assert shown[0].tolist() == [0.0, 0.0, 0.0]
    assert shown[2].tolist() == pytest.approx([0.0, 0.5, 0.5])


def test_the_share_of_attention_on_the_sinks():
    weights = np.array([[0.5, 0.5, 0.0], [0.1, 0.2, 0.7]])
    assert sink_share(weights, np.array([True, False, False])) == pytest.approx((0.5 + 0.1) / 2)
