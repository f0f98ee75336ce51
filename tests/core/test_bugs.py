"""Spot the bug: each variant shows its symptom, the decoy equals the right weights, the right weights are the app's."""

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.attention import causal_mask
from attention_explorer.core.scenes.multihead.scene import build_multihead, compute_multihead
from attention_explorer.core.scenes.sequence.scene import build_sequence, compute_sequence
from attention_explorer.core.teaching import bugs as b

EXPECTED = {
    b.WRONG_AXIS: b.ROW_SUMS, b.SCALE_D_MODEL: b.TEMPERATURE, b.MASK_AFTER_SOFTMAX: b.ROW_SUMS,
    b.MASK_WITH_ZERO: b.MASKED_WEIGHT, b.ALL_MASKED_NAN: b.NAN, b.NO_MAX_SHIFT: b.OVERFLOW,
    b.K_NOT_TRANSPOSED: b.DIFFERENT, b.SCALE_Q_FIRST: b.NONE,
}
SMALL = settings(max_examples=25, deadline=None)


def naive_row_softmax(scores):
    """softmax one row at a time with math.exp, the maximum subtracted: an independent reference."""
    out = np.zeros_like(scores)
    for i, row in enumerate(scores):
        top = max(x for x in row if x != -math.inf)
        exps = [0.0 if x == -math.inf else math.exp(x - top) for x in row]
        out[i] = [e / sum(exps) for e in exps]
    return out


@pytest.mark.parametrize("bug_id", b.BUGS)
def test_each_variant_shows_its_symptom(bug_id):
    found = b.case(bug_id)
    assert found.symptom.kind == EXPECTED[bug_id]
    assert found.bug.is_bug == (bug_id != b.SCALE_Q_FIRST)
    assert found.scene.n == 4


def test_the_symptoms_numbers():
    axis = b.case(b.WRONG_AXIS).symptom
    assert np.allclose(axis.column_sums, 1.0) and max(abs(s - 1) for s in axis.row_sums) > 0.3

    after = b.case(b.MASK_AFTER_SOFTMAX)
    assert all(s < 1 - 0.1 for s in after.symptom.row_sums[:3]) and after.symptom.row_sums[3] == pytest.approx(1)
    unmasked = naive_row_softmax(after.scene.queries @ after.scene.keys.T * after.scene.scale)
    assert np.allclose(after.symptom.row_sums, np.where(causal_mask(4), 0, unmasked).sum(axis=1))

    zero = b.case(b.MASK_WITH_ZERO)
    assert zero.symptom.masked_weight > 0.3
    assert np.allclose(zero.symptom.row_sums, 1.0)
    assert zero.wrong.weights[0, 1] > 0 and zero.right[0, 1] == 0

    empty = b.case(b.ALL_MASKED_NAN)
    assert empty.symptom.worst_row == 3 and empty.symptom.nan_cells == 4 and empty.symptom.inf_exponentials == 0
    assert np.all(np.isnan(empty.wrong.weights[3])) and np.all(empty.right[3] == 0)

    overflow = b.case(b.NO_MAX_SHIFT).symptom
    assert overflow.largest_score > b.EXP_OVERFLOW and overflow.largest_score == pytest.approx(1000, abs=10)
    assert overflow.inf_exponentials > 0 and overflow.nan_cells > 0

    heads = b.case(b.SCALE_D_MODEL)
    assert heads.symptom.temperature == pytest.approx(math.sqrt(heads.scene.d_k / heads.scene.d_model))
    assert heads.symptom.entropy_wrong > heads.symptom.entropy_right + 0.1  # flatter

    transposed = b.case(b.K_NOT_TRANSPOSED).symptom
    assert transposed.max_difference > 0.1 and np.allclose(transposed.row_sums, 1.0) and transposed.nan_cells == 0
    assert b.case(b.SCALE_Q_FIRST).symptom.max_difference <= b.SAME


def test_the_large_scores_scene_has_the_small_scenes_weights():
    """Adding the same 1000 to every score changes nothing in a shifted softmax: its right weights are the small
    scene's, scores × 4 (q and k doubled)."""
    small = b._from_sequence(seed=4)
    large = b.scene_for(b.NO_MAX_SHIFT)
    scores = small.queries @ small.keys.T * 4 / math.sqrt(large.d_k)
    assert np.allclose(b.right(large), naive_row_softmax(scores), atol=1e-9)


def test_the_right_weights_are_the_apps():
    sequence = build_sequence(b.TOKENS, d_model=8, d_k=4, d_v=4, seed=3)
    assert np.array_equal(b.right(b.scene_for(b.WRONG_AXIS)), compute_sequence(sequence).weights)
    causal = build_sequence(b.TOKENS, d_model=8, d_k=4, d_v=4, seed=1, causal=True)
    assert np.array_equal(b.right(b.scene_for(b.MASK_AFTER_SOFTMAX)), compute_sequence(causal).weights)
    heads = compute_multihead(build_multihead(b.TOKENS, b.MULTIHEAD_D_MODEL, b.MULTIHEAD_HEADS, seed=0))
    assert np.allclose(b.right(b.scene_for(b.SCALE_D_MODEL)), heads.weights[b.MULTIHEAD_HEAD], atol=1e-15)
    padded = compute_sequence(build_sequence(b.PADDED, d_model=8, d_k=4, d_v=4, seed=2, padding=(3,)))
    assert np.array_equal(b.right(b.scene_for(b.ALL_MASKED_NAN))[:3], padded.weights[:3])


@SMALL
@given(seed=st.integers(0, 10_000), n=st.integers(2, 6), d_k=st.integers(1, 6), causal=st.booleans())
def test_the_decoy_is_the_right_result_and_the_bugs_keep_their_symptoms(seed, n, d_k, causal):
    tokens = tuple(f"t{i}" for i in range(n))
    sequence = build_sequence(tokens, d_model=6, d_k=d_k, d_v=3, seed=seed, causal=causal)
    result = compute_sequence(sequence)
    scene = b._scene(tokens, result.queries, result.keys, result.values, result.mask)
    good = b.right(scene)
    assert np.array_equal(good, result.weights)  # the app's compute
    assert np.allclose(good, naive_row_softmax(np.where(result.mask, -np.inf, result.scores * scene.scale)))
    assert np.allclose(b.run(b.SCALE_Q_FIRST, scene).weights, good, rtol=0, atol=b.SAME)
    assert np.allclose(np.sum(b.run(b.WRONG_AXIS, scene).weights, axis=0), 1.0)
    assert np.all(np.sum(b.run(b.MASK_AFTER_SOFTMAX, scene).weights, axis=1) <= 1 + 1e-12)
    if causal:
        leaked = b.run(b.MASK_WITH_ZERO, scene).weights[result.mask]
        assert np.all(leaked > 0)  # e^0 is never 0
        assert b.diagnose(scene, b.run(b.MASK_WITH_ZERO, scene)).kind == b.MASKED_WEIGHT


@SMALL
@given(seed=st.integers(0, 10_000), heads=st.sampled_from([2, 4, 8]))
def test_scaling_by_d_model_is_a_temperature_of_one_over_root_h(seed, heads):
    scenario = build_multihead(b.TOKENS, 16, heads, seed=seed)
    result = compute_multihead(scenario)
    columns = scenario.head_columns(0)
    scene = b._scene(b.TOKENS, result.queries[:, columns], result.keys[:, columns], result.values[:, columns],
                     heads=heads)
    symptom = b.diagnose(scene, b.run(b.SCALE_D_MODEL, scene))
    assert symptom.kind == b.TEMPERATURE
    assert symptom.temperature == pytest.approx(1 / math.sqrt(heads), rel=1e-6)


def test_k_not_transposed_is_a_shape_error_when_n_is_not_d_k():
    scene = b._from_sequence(d_k=3)
    assert b.transpose_refusal(scene) == (4, 3, 4, 3)
    with pytest.raises(ScenarioError, match="4×3"):
        b.run(b.K_NOT_TRANSPOSED, scene)
    with pytest.raises(ValueError):
        scene.queries @ scene.keys  # what numpy (and torch) say to the same code
    assert b.transpose_refusal(b.scene_for(b.K_NOT_TRANSPOSED)) is None


def test_questions_have_four_different_choices_with_the_bug_among_them():
    decoy_offered = 0
    for seed in range(40):
        for shown in b.order(seed):
            asked = b.question(shown, seed)
            assert len(set(asked.choices)) == 4 and asked.choices[asked.answer] == shown
            assert b.is_right(asked, asked.answer)
            assert not b.is_right(asked, (asked.answer + 1) % 4)
            decoy_offered += shown != b.SCALE_Q_FIRST and b.SCALE_Q_FIRST in asked.choices
    assert 0 < decoy_offered < 40 * 7  # sometimes, not always
    assert sorted(b.order(3)) == sorted(b.BUGS)
    assert b.question(b.WRONG_AXIS, 5) == b.question(b.WRONG_AXIS, 5)  # seeded
    with pytest.raises(ScenarioError):
        b.is_right(b.question(b.WRONG_AXIS, 5), 4)
    with pytest.raises(ScenarioError):
        b.case("no_such_bug")


def test_every_bug_names_where_it_was_seen():
    for bug_id in b.BUGS:
        for sighting in b.bug(bug_id).seen:
            assert sighting.url.startswith("https://github.com/") and str(sighting.number) in sighting.label
    assert b.bug(b.SCALE_D_MODEL).seen[0].label == "karpathy/ng-video-lecture PR #6"


def test_the_guide_names_where_each_bug_was_seen_in_both_languages():
    guide = json.loads((Path(__file__).resolve().parents[2] / "resources" / "help" / "guide.json").read_text("utf-8"))
    (section,) = [s for s in guide["sections"] if s.get("try") == {"page": "bugs"}]
    for language in ("en", "zh_CN"):
        text = section["text"][language]
        for bug_id in b.BUGS:
            for sighting in b.bug(bug_id).seen:
                short = sighting.repo.split("/")[1] + (" PR #" if sighting.pull else " #") + str(sighting.number)
                assert short in text, (language, short)
