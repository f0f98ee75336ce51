"""Positional encodings in the core: hand numbers, and RoPE's q·k depending on m − n only (hypothesis)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths import positional as pos

vectors = st.integers(1, 64).flatmap(lambda half: st.tuples(
    st.lists(st.floats(-10, 10), min_size=2 * half, max_size=2 * half),
    st.lists(st.floats(-10, 10), min_size=2 * half, max_size=2 * half)))
positions = st.integers(0, 1000)


def test_hand_numbers_at_d_2_and_d_4():
    # d = 2: θ_0 = 1, so position 1 turns (1, 0) by one radian; p_pos = (sin pos, cos pos).
    assert np.allclose(pos.rope_rotate([1.0, 0.0], 1), [math.cos(1), math.sin(1)])
    assert np.allclose(pos.sinusoidal_encoding(2, 2), [math.sin(2), math.cos(2)])
    # q = k = (1, 0): RoPE gives cos((m − n)·1); sinusoidal (1 + sin m)(1 + sin n) + cos m cos n.
    assert pos.scores("rope", [1, 0], [1, 0], 5, 2) == pytest.approx(math.cos(3))
    expected = (1 + math.sin(5)) * (1 + math.sin(2)) + math.cos(5) * math.cos(2)
    assert pos.scores("sinusoidal", [1, 0], [1, 0], 5, 2) == pytest.approx(expected)
    # d = 4: θ = (1, 10000^(−1/2) = 0.01); position 100 turns the second pair by exactly one radian.
    assert np.allclose(pos.frequencies(4), [1.0, 0.01])
    assert np.allclose(pos.rope_rotate([0, 0, 1.0, 0], 100), [0, 0, math.cos(1), math.sin(1)])


@settings(max_examples=60, deadline=None)
@given(vectors, positions, positions, st.integers(0, 2000))
def test_rope_q_dot_k_is_unchanged_when_both_positions_shift(pair, m, n, shift):
    q, k = np.array(pair[0]), np.array(pair[1])
    before = pos.scores("rope", q, k, m, n)
    after = pos.scores("rope", q, k, m + shift, n + shift)
    assert after == pytest.approx(before, abs=1e-9 * (1 + np.linalg.norm(q) * np.linalg.norm(k)))


@settings(max_examples=60, deadline=None)
@given(vectors, positions)
def test_rope_keeps_every_norm(pair, m):
    q = np.array(pair[0])
    rotated = pos.rope_rotate(q, m)
    assert np.linalg.norm(rotated) == pytest.approx(np.linalg.norm(q), abs=1e-9)
    assert np.allclose(np.hypot(rotated[0::2], rotated[1::2]), np.hypot(q[0::2], q[1::2]))


def test_offset_curves_coincide_for_rope_and_not_for_sinusoidal():
    q, k = pos.seeded_pair(8, seed=3)
    rope = pos.offset_curves("rope", q, k, (0, 10, 20), max_offset=16)
    sinusoidal = pos.offset_curves("sinusoidal", q, k, (0, 10, 20), max_offset=16)
    assert rope.values.shape == (3, 33) and np.isnan(rope.values[0, 0])  # m = 0 − 16 does not exist
    assert rope.spread() < 1e-12
    assert sinusoidal.spread() > 0.5


def test_pair_view_turns_q_and_k_and_their_angle_grows_by_m_minus_n_theta():
    q, k = np.array([1.0, 0, 2, 0]), np.array([0, 1.0, 0, 3])
    view = pos.pair_view(q, k, m=150, n=50, pair=1)
    assert view.theta == pytest.approx(0.01)
    assert np.allclose(view.q_rotated, [2 * math.cos(1.5), 2 * math.sin(1.5)])
    assert np.allclose(view.k_rotated, [-3 * math.sin(0.5), 3 * math.cos(0.5)])
    assert view.angle_before == pytest.approx(-math.pi / 2)
    assert view.angle_after == pytest.approx(-math.pi / 2 + 1.0)
    assert view.dot == pytest.approx(6 * math.cos(-math.pi / 2 + 1.0))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: pos.frequencies(3), "d: expected an even whole number from 2 to 1024"),
    (lambda: pos.pair_view([1, 0], [0, 1], -1, 0, 0), "m: expected a whole number from 0 to 4096, got -1"),
    (lambda: pos.pair_view([1, 0], [0, 1], 0, 0, 1), "pair: expected 0 to 0, got 1"),
    (lambda: pos.scores("alibi", [1, 0], [1, 0], 0, 0), "method: expected one of sinusoidal, rope"),
])
def test_bad_arguments_are_named(call, message):
    with pytest.raises(ScenarioError) as caught:
        call()
    assert str(caught.value).startswith(message)


# ---------------------------------------------------------------- a Llama-family head's q and k in the lab's layout


@settings(max_examples=40, deadline=None)
@given(half=st.integers(1, 16), m=st.integers(0, 300), n=st.integers(0, 300),
       base=st.sampled_from([10000.0, 100000.0, 1000000.0, 2.5]), seed=st.integers(0, 2**16))
def test_the_halves_layout_reordered_gives_the_model_s_rope_score(half, m, n, base, seed):
    """Llama turns number i with i + d/2 (core/pretrained/rope.py); the lab turns 2i with 2i + 1: reordered by
    `interleaved`, the lab's R(m)q·R(n)k is the model's q_m·k_n, and no dot product changes."""
    from attention_explorer.core.pretrained.rope import Rotary

    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal(2 * half), rng.standard_normal(2 * half)
    rotary = Rotary(base, 2 * half)
    model = float(rotary.rotate(q, m) @ rotary.rotate(k, n))
    lab = float(pos.scores("rope", pos.interleaved(q), pos.interleaved(k), m, n, base))
    assert lab == pytest.approx(model, rel=1e-9, abs=1e-9)
    assert float(pos.interleaved(q) @ pos.interleaved(k)) == pytest.approx(float(q @ k), rel=1e-12, abs=1e-12)
    assert pos.interleaved(np.arange(6.0)).tolist() == [0, 3, 1, 4, 2, 5]
