"""Questions generated from a scene and answers checked, against numbers worked out here by hand or with plain numpy."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query.scene import Scenario, with_scale, with_vector
from attention_explorer.core.teaching import questions as qs

LIBRARY_WEIGHTS = (0.506, 0.186, 0.307)  # the article's softmax of [1, 0, 0.5]
LIBRARY_OUTPUT = (0.492, 0.508)


@pytest.fixture(scope="module")
def library() -> Scenario:
    return load_preset("library")


def test_every_explorer_kind_applies_to_the_library_and_only_attend_most_to_a_sentence(library):
    assert qs.kinds_for(library) == qs.EXPLORER_KINDS
    assert qs.kinds_for(load_preset("self-attention")) == (qs.ATTEND_MOST,)
    one_key = Scenario(query=[1, 0], keys=[[1, 0]], values=[[1, 0]])
    assert qs.kinds_for(one_key) == ()  # one key: its weight is always 1, nothing to ask
    with pytest.raises(ScenarioError, match="does not apply"):
        qs.generate(qs.LARGEST_WEIGHT, one_key)
    with pytest.raises(ScenarioError, match="unknown question 'nope'"):
        qs.generate("nope", library)


def test_the_largest_weight_is_k1s_and_ties_all_count(library):
    question = qs.generate(qs.LARGEST_WEIGHT, library)
    right, wrong = qs.check_key(question, library, 0), qs.check_key(question, library, 2)
    assert right.correct and not wrong.correct
    assert wrong.truth[0] == 0 and round(wrong.truth[1], 3) == LIBRARY_WEIGHTS[0]
    assert round(wrong.guess[1], 3) == LIBRARY_WEIGHTS[2]
    assert qs.largest_keys(np.array([0.4, 0.2, 0.4])) == (0, 2)


def test_the_output_question_measures_the_distance_from_the_true_output(library):
    question = qs.generate(qs.OUTPUT_PLACE, library)
    # A tenth of the longest distance between two V's: |[0.8, 0.2] − [0.1, 0.9]| = 0.7·√2.
    assert question.tolerance == pytest.approx(0.07 * math.sqrt(2))
    verdict = qs.check_point(question, library, 0.5, 0.5)
    assert np.allclose(verdict.truth, LIBRARY_OUTPUT, atol=5e-4)
    assert verdict.distance == pytest.approx(math.hypot(0.5 - verdict.truth[0], 0.5 - verdict.truth[1]))
    assert verdict.correct and not qs.check_point(question, library, 0.8, 0.2).correct


def test_drag_to_one_half_picks_a_key_not_there_yet_and_checks_the_dragged_scene(library):
    question = qs.generate(qs.WEIGHT_HALF, library, selected=0)
    assert question.key == 1  # K1 already has 0.506, within ±0.05 of 0.5: the next key is asked for
    assert not qs.check_weight(question, library).correct
    # K2 = Q·t: its scaled score t·|Q|²/2 = t must equal log(e¹ + e^0.5) for a weight of exactly 1/2.
    t = math.log(math.e + math.exp(0.5))
    dragged = with_vector(library, "key", 1, [t, 0, t, 0])
    verdict = qs.check_weight(question, dragged)
    assert verdict.correct and verdict.guess[0] == pytest.approx(0.5) and verdict.distance < 1e-12


def _entropy(weights: np.ndarray) -> float:
    return float(-sum(w * math.log2(w) for w in weights if w > 0))


@pytest.mark.parametrize("scale", [None, 1.0, 0.25])
def test_flatter_or_sharper_against_a_plain_numpy_growth_of_d_k(library, scale):
    library = with_scale(library, scale)
    question = qs.generate(qs.FLATTER_SHARPER, library, variant=1)  # the variant never changes the scale asked about
    assert (question.d_from, question.d_to, question.scaled) == (4, 16, scale is None)
    factor = scale or 1.0
    rows = np.vstack([library.query, library.keys])
    grown = np.hstack([rows, np.random.default_rng(0).standard_normal((rows.shape[0], 12))])
    entropies = []
    for vectors, d_k in ((rows, 4), (grown, 16)):
        scores = vectors[1:] @ vectors[0] * (1 / math.sqrt(d_k) if question.scaled else factor)
        weights = np.exp(scores - scores.max())
        entropies.append(_entropy(weights / weights.sum()))
    answer, before, after = qs.flatter_or_sharper(library, question)
    assert (before, after) == pytest.approx(entropies)
    assert answer == (qs.SHARPER if entropies[1] < entropies[0] else qs.FLATTER)
    verdict = qs.check_choice(question, library, qs.SHARPER)
    assert verdict.correct == (answer == qs.SHARPER)
    with pytest.raises(ScenarioError, match="expected flatter or sharper"):
        qs.check_choice(question, library, "rounder")


def test_attend_most_asks_each_token_in_turn_and_checks_its_row():
    sentence = load_preset("self-attention")
    assert [qs.generate(qs.ATTEND_MOST, sentence, variant=v).token for v in range(4)] == [0, 1, 2, 0]
    question = qs.generate(qs.ATTEND_MOST, sentence, variant=1)  # 爱
    x = sentence.embeddings
    q, k = x @ sentence.w_q, x @ sentence.w_k
    scores = q[1] @ k.T / math.sqrt(q.shape[1])
    best = int(np.argmax(scores))  # the softmax keeps the order of the scores
    assert qs.check_key(question, sentence, best).correct
    assert not qs.check_key(question, sentence, (best + 1) % 3).correct


def test_the_score_counts_answers_and_resets():
    score = qs.Score()
    score.add(qs.Verdict(True, (0,), (0,)))
    score.add(qs.Verdict(False, (0,), (1,)))
    assert (score.right, score.asked) == (1, 2)
    score.reset()
    assert (score.right, score.asked) == (0, 0)
