"""Self-attention scenarios: the numbers of the 我 爱 北京 preset, the file kind, what is refused, the helpers."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attention_explorer.core import limits
from attention_explorer.core.files import anykind
from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query import file as sc
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.core.scenes.sequence import report as sequence_report
from attention_explorer.core.scenes.sequence import scene as sq
from attention_explorer.core.scenes.sequence.scene import SequenceScenario

# The preset by hand: features (a thing, an action, the speaker, a place) of 我, 爱, 北京.
X = [[1, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 1]]
W_Q = [[0, 1], [1.5, 0], [0, 0.5], [0.5, 0]]
W_K = [[1, 0], [0, 1.5], [0.5, 0], [0, 0]]
W_V = [[0, 0], [0, 1], [1, 0], [0.5, 0.5]]
SEQUENCE_FILE = {
    "format": "attention-explorer/1",
    "kind": "sequence",
    "title": "我 爱 北京",
    "tokens": ["我", "爱", "北京"],
    "embeddings": X,
    "w_q": W_Q,
    "w_k": W_K,
    "w_v": W_V,
}


def sequence_document(**changes):
    """The small self-attention file with some fields replaced (None removes a field)."""
    doc = json.loads(json.dumps(SEQUENCE_FILE))
    for name, value in changes.items():
        if value is None:
            doc.pop(name, None)
        else:
            doc[name] = value
    return doc


def refused(doc) -> str:
    """The ScenarioError message of loads_any for a document."""
    with pytest.raises(ScenarioError) as caught:
        anykind.loads_any(json.dumps(doc, ensure_ascii=False))
    return str(caught.value)


# ---------------------------------------------------------------- the numbers


def test_preset_projections_and_scores_by_hand():
    """Q = X·W_Q etc. written out; Q·Kᵀ row 爱 = [1.5·1.5, 0, 1.5·1] = [2.25, 0, 1.5]."""
    sequence = load_preset("self-attention")
    assert isinstance(sequence, SequenceScenario)
    assert sequence.tokens == ("我", "爱", "北京")
    assert (sequence.n, sequence.d_model, sequence.d_k, sequence.d_v) == (3, 4, 2, 2)
    result = sequence.compute()
    assert result.queries.tolist() == [[0, 1.5], [1.5, 0], [0.5, 1.0]]
    assert result.keys.tolist() == [[1.5, 0], [0, 1.5], [1.0, 0]]
    assert result.values.tolist() == [[1, 0], [0, 1], [0.5, 0.5]]
    assert result.scores.tolist() == [[0, 2.25, 0], [2.25, 0, 1.5], [0.75, 1.5, 0.5]]
    assert result.scale == pytest.approx(1 / math.sqrt(2))
    row = np.exp(np.array([2.25, 0, 1.5]) / math.sqrt(2))
    assert result.weights[1] == pytest.approx(row / row.sum())
    # the description's percentages
    assert [round(100 * w) for w in result.weights[1]] == [56, 11, 33]
    assert round(100 * result.weights[0, 1]) == 71
    assert "56%" in sequence.description and "71%" in sequence.description


def test_rows_sum_to_one_and_the_mask_gives_exact_zeros():
    """Without the mask every weight is positive; with it everything above the diagonal is exactly 0."""
    sequence = load_preset("self-attention")
    plain = sequence.compute()
    assert np.allclose(plain.weights.sum(axis=1), 1.0) and (plain.weights > 0).all()
    assert not plain.mask.any()
    causal = sq.replace_sequence(sequence, causal=True).compute()
    upper = np.triu(np.ones((3, 3), dtype=bool), k=1)
    assert (causal.weights[upper] == 0.0).all()
    assert np.isneginf(causal.scaled_scores[upper]).all()
    assert (causal.mask == upper).all()
    assert np.allclose(causal.weights.sum(axis=1), 1.0)
    assert causal.weights[0].tolist() == [1.0, 0.0, 0.0]  # the first token sees only itself
    assert causal.scores.tolist() == plain.scores.tolist()  # the raw Q·Kᵀ is never masked
    assert np.allclose(causal.output, causal.weights @ causal.values)


def test_compute_matches_plain_numpy_on_random_numbers():
    """An independent formula: softmax((XW_Q)(XW_K)ᵀ·s) (XW_V)."""
    rng = np.random.default_rng(7)
    x, wq, wk, wv = rng.normal(size=(5, 6)), rng.normal(size=(6, 3)), rng.normal(size=(6, 3)), rng.normal(size=(6, 4))
    sequence = SequenceScenario(tokens=tuple("abcde"), embeddings=x, w_q=wq, w_k=wk, w_v=wv, scale=0.4)
    result = sequence.compute()
    logits = (x @ wq) @ (x @ wk).T * 0.4
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    assert np.allclose(result.weights, weights)
    assert np.allclose(result.output, weights @ (x @ wv))
    assert result.output.shape == (5, 4)


# ---------------------------------------------------------------- the file kind


def test_self_file_loads_with_every_field():
    sequence = anykind.loads_any(json.dumps(sequence_document(causal=True, scale=0.5, description="d")))
    assert isinstance(sequence, SequenceScenario)
    assert sequence.embeddings.tolist() == X and sequence.w_v.tolist() == W_V
    assert sequence.causal is True and sequence.scale == 0.5 and sequence.description == "d"
    assert sequence.title == "我 爱 北京"


def test_defaults_and_single_files_still_load_as_before():
    """causal false and the automatic scale by default; a file without kind is a single-query Scenario."""
    sequence = anykind.loads_any(json.dumps(sequence_document(format=None, title=None)))
    assert sequence.causal is False and sequence.scale is None and sequence.effective_scale == 1 / math.sqrt(2)
    single = anykind.loads_any('{"query": [1, 0], "keys": [[1, 0]], "values": [[2]]}')
    assert isinstance(single, Scenario)
    assert sc.loads('{"query": [1, 0], "keys": [[1, 0]], "values": [[2]]}') == single


def test_single_query_loader_names_a_self_file_instead_of_misreading_it():
    with pytest.raises(ScenarioError, match='kind "sequence": a self-attention file'):
        sc.loads(json.dumps(SEQUENCE_FILE))
    with pytest.raises(ScenarioError, match='kind "self": a self-attention file'):
        sc.loads(json.dumps(sequence_document(kind="self")))


def test_older_files_saying_kind_self_load_as_the_same_sequence_and_are_saved_as_sequence():
    """"self" was the kind's name before "sequence": such a file reads exactly as the new spelling does."""
    old = anykind.loads_any(json.dumps(sequence_document(kind="self"), ensure_ascii=False))
    new = anykind.loads_any(json.dumps(sequence_document(kind="sequence"), ensure_ascii=False))
    assert isinstance(old, SequenceScenario) and old == new
    assert '"kind": "sequence"' in anykind.dumps(old) and '"self"' not in anykind.dumps(old)


def test_save_and_load_round_trip_exactly(tmp_path):
    """Awkward floats, Chinese tokens, mask and a manual scale come back bit for bit."""
    awkward = np.array([[0.1 + 0.2, -1e-300, 123456.789012345], [5e-324, -0.5, 1e6]])
    sequence = SequenceScenario(
        tokens=("北京", "x"), embeddings=awkward, w_q=[[1 / 3], [2 / 3], [-1e-7]],
        w_k=[[0.7], [0.1], [1e-12]], w_v=[[1.0, 2.0], [3.0, 4.0], [math.pi, math.e]], causal=True, scale=0.125,
        title="往返", description="round trip",
    )
    path = tmp_path / "sequence.json"
    anykind.save(sequence, path)
    loaded = anykind.load_any(path)
    assert loaded == sequence
    for name in sq.MATRICES:
        assert getattr(loaded, name).tobytes() == getattr(sequence, name).tobytes()
    text = path.read_text(encoding="utf-8")
    assert '"kind": "sequence"' in text and "北京" in text  # non-ASCII kept readable
    assert "    [0.30000000000000004, -1e-300, 123456.789012345]," in text  # one row per line
    assert anykind.loads_any(anykind.dumps(sequence)) == sequence


def test_preset_file_round_trips():
    sequence = load_preset("self-attention")
    assert anykind.loads_any(anykind.dumps(sequence)) == sequence


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(1, 4), d_model=st.integers(1, 4), d_k=st.integers(1, 3), d_v=st.integers(1, 3),
    data=st.data(), causal=st.booleans(),
)
def test_dumps_loads_round_trip_any_valid_sequence(n, d_model, d_k, d_v, data, causal):
    numbers = st.floats(-1e6, 1e6, allow_nan=False)
    matrices = {
        name: data.draw(hnp.arrays(np.float64, shape, elements=numbers))
        for name, shape in (("embeddings", (n, d_model)), ("w_q", (d_model, d_k)), ("w_k", (d_model, d_k)),
                            ("w_v", (d_model, d_v)))
    }
    words = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=5)
    tokens = tuple(data.draw(words) for _ in range(n))
    sequence = SequenceScenario(tokens=tokens, causal=causal, **matrices)
    assert anykind.loads_any(anykind.dumps(sequence)) == sequence


BAD_SELF_FILES = {
    "ragged embeddings": (sequence_document(embeddings=[[1, 0, 1, 0], [0, 1, 0], [1, 0, 0, 1]]),
                          "embeddings[1]: expected 4 numbers (d_model = 4), got 3"),
    "w_q rows": (sequence_document(w_q=W_Q[:3]),
                 "w_q: expected 4 rows (d_model = 4, the width of the embeddings), got 3"),
    "d_k mismatch": (sequence_document(w_k=[[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]]),
                     "w_k[0]: expected 2 numbers (d_k from w_q = 2), got 3"),
    "w_v rows": (sequence_document(w_v=W_V + [[1, 1]]), "w_v: expected 4 rows (d_model = 4), got 5"),
    "unknown field": (sequence_document(queries=[[1]]), '"queries": unknown field'),
    "single-kind field": (sequence_document(labels=["a", "b", "c"]), '"labels": unknown field'),
    "token count": (sequence_document(tokens=["我", "爱"]), "embeddings: expected 2 rows (one per token), got 3"),
    "nan": ('{"kind": "self", "tokens": ["a"], "embeddings": [[NaN]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]]}',
            "embeddings[0][0]: NaN is not allowed"),
    "infinity": (json.dumps(sequence_document(w_v=[[0, 0], [0, 1], [1, 0], [0.5, float("inf")]])),
                 "w_v[3][1]: infinity is not allowed"),
    "boolean number": (sequence_document(w_q=[[0, True], [1.5, 0], [0, 0.5], [0.5, 0]]),
                       "w_q[0][1]: expected a number, got true/false"),
    "boolean token": (sequence_document(tokens=["我", False, "北京"]), "tokens[1]: expected a string, got true/false"),
    "causal string": (sequence_document(causal="yes"), "causal: expected true or false, got a string"),
    "string number": (sequence_document(embeddings=[[1, 0, 1, 0], [0, "1", 0, 0], [1, 0, 0, 1]]),
                      "embeddings[1][1]: expected a number, got a string"),
    "missing": (sequence_document(w_v=None), '"w_v": missing'),
    "wrong kind": (sequence_document(kind="crossed"),
                   'kind: expected "sequence" (a self-attention file), "multihead" (a multi-head file), "cross"'),
    "kind not a string": (sequence_document(kind=["self"]), 'kind: expected "sequence" (a self-attention file), '),
    "empty token": (sequence_document(tokens=["我", "", "北京"]), "tokens[1]: empty"),
    "long token": (sequence_document(tokens=["我", "爱" * 65, "北京"]), "tokens[1]: 65 characters, at most 64"),
    "no tokens": (sequence_document(tokens=[]), "tokens: expected a list of 1 to 512 strings, got 0"),
    "too many tokens": (sequence_document(tokens=["t"] * 513), "tokens: expected a list of 1 to 512 strings, got 513"),
    "empty rows": (sequence_document(embeddings=[[], [], []]), "embeddings[0]: expected 1 to 4096 numbers, got 0"),
    "negative scale": (sequence_document(scale=-1), "scale: -1 is out of range"),
    "out of range": (sequence_document(embeddings=[[1, 0, 1, 0], [0, 2e6, 0, 0], [1, 0, 0, 1]]),
                     "embeddings[1][1]: 2 000 000 is out of range"),
    "wrong format": (sequence_document(format="attention-explorer/2"), 'format: expected "attention-explorer/1"'),
    "kind twice": (json.dumps(sequence_document()).replace('"kind": "sequence"', '"kind": "other", "kind": "sequence"'),
                   '"kind": duplicate key'),
    "tokens twice": (json.dumps(sequence_document())[:-1] + ', "tokens": ["a", "b", "c"]}', '"tokens": duplicate key'),
    "just over the limit": (sequence_document(embeddings=[[1, 0, 1, 0], [0, 1000000.1, 0, 0], [1, 0, 0, 1]]),
                            "embeddings[1][1]: 1000000.1 is out of range (|x| must be at most 1 000 000)"),
    "scale just over": (sequence_document(scale=1000000.1), "scale: 1000000.1 is out of range (0 to 1 000 000)"),
}


@pytest.mark.parametrize("case", sorted(BAD_SELF_FILES))
def test_bad_self_files_name_the_first_problem(case):
    doc, expected = BAD_SELF_FILES[case]
    if isinstance(doc, str):
        with pytest.raises(ScenarioError) as caught:
            anykind.loads_any(doc)
        message = str(caught.value)
    else:
        message = refused(doc)
    assert message.startswith(expected), message


def test_direct_construction_is_validated_too():
    with pytest.raises(ScenarioError, match=r"w_k: expected rows of 2 numbers \(d_k, the width of w_q = 2\), got 3"):
        SequenceScenario(tokens=("a",), embeddings=[[1.0]], w_q=[[1.0, 2.0]], w_k=[[1.0, 2.0, 3.0]], w_v=[[1.0]])
    with pytest.raises(ScenarioError, match="tokens: expected a list of strings, got a string"):
        SequenceScenario(tokens="abc", embeddings=[[1.0]], w_q=[[1.0]], w_k=[[1.0]], w_v=[[1.0]])
    with pytest.raises(ScenarioError, match="causal: expected true or false"):
        SequenceScenario(tokens=("a",), embeddings=[[1.0]], w_q=[[1.0]], w_k=[[1.0]], w_v=[[1.0]], causal=1)


def test_scores_stay_finite_at_the_limits():
    """The largest numbers the format allows give a large but finite score bound, so the guard never refuses them."""
    biggest = SequenceScenario(tokens=("a", "b"), embeddings=np.full((2, 8), 1e6), w_q=np.full((8, 2), -1e6),
                                    w_k=np.full((8, 2), 1e6), w_v=np.full((8, 1), 1e6), scale=1e6)
    assert sq.score_bound(biggest) < limits.MAX_SCORE
    result = biggest.compute()
    assert np.isfinite(result.scores).all() and np.isfinite(result.output).all()
    assert np.allclose(result.weights.sum(axis=1), 1.0)
    # at every dimension's limit the bound is still about 7e40, far below float64's 1.8e308
    assert 4096 * (4096 * 1e12) ** 2 * 1e6 < 1e41


# ---------------------------------------------------------------- helpers for the lab and the explorer


def test_query_scenario_is_one_row_of_q_against_k_and_v():
    sequence = load_preset("self-attention")
    result = sequence.compute()
    scenario = sq.query_scenario(sequence, result, 1, title="“爱” as the query")
    assert scenario.query.tolist() == [1.5, 0.0]
    assert scenario.keys.tolist() == result.keys.tolist() and scenario.values.tolist() == result.values.tolist()
    assert scenario.labels == ("我", "爱", "北京") and scenario.scale is None
    # its single-query weights are the sequence's row 1
    assert np.allclose(scenario.compute().weights, result.weights[1])
    causal = sq.replace_sequence(sequence, causal=True)
    cut = sq.query_scenario(causal, causal.compute(), 1)
    assert cut.labels == ("我", "爱") and cut.keys.tolist() == result.keys[:2].tolist()
    assert np.allclose(cut.compute().weights, causal.compute().weights[1, :2])
    with pytest.raises(ScenarioError, match="token index 3 is out of range"):
        sq.query_scenario(sequence, result, 3)


def test_seeded_embeddings_same_word_same_vector_and_wider_extends():
    a = sq.token_embeddings(["the", "cat", "the"], 6, seed=3)
    assert np.array_equal(a[0], a[2]) and not np.array_equal(a[0], a[1])
    assert np.array_equal(sq.token_embeddings(["the"], 4, seed=3)[0], a[0, :4])
    assert not np.array_equal(sq.token_embeddings(["the"], 6, seed=4)[0], a[0])


def test_random_projection_is_seeded_and_scaled_like_an_initialised_layer():
    w = sq.random_projection("w_q", 256, 64, seed=1)
    assert np.array_equal(w, sq.random_projection("w_q", 256, 64, seed=1))
    assert not np.array_equal(w, sq.random_projection("w_k", 256, 64, seed=1))
    assert w.std() == pytest.approx(1 / 16, rel=0.05)
    assert np.array_equal(sq.random_projection("w_q", 256, 32, seed=1), w[:, :32])  # more d_k adds columns


def test_build_sequence_identity_and_its_refusal():
    sequence = sq.build_sequence(["a", "b"], 3, 3, 3, seed=2, identity=True)
    result = sequence.compute()
    assert np.array_equal(result.queries, sequence.embeddings) and np.array_equal(result.values, sequence.embeddings)
    assert sq.identity_refusal(3, 3, 3) is None
    with pytest.raises(ScenarioError, match="an identity W needs d_k = d_v = d_model"):
        sq.build_sequence(["a"], 4, 2, 2, identity=True)


def test_block_edit_and_its_refusals():
    sequence = load_preset("self-attention")
    edited = sq.with_block(sequence, "w_q", 2, 0, [[9.0, 8.0], [7.0, 6.0]])
    assert edited.w_q.tolist() == [[0, 1], [1.5, 0], [9, 8], [7, 6]]
    assert sequence.w_q.tolist() == W_Q  # immutable: the old one is untouched
    with pytest.raises(ScenarioError, match="does not fit"):
        sq.with_block(sequence, "w_q", 3, 0, [[1.0], [2.0]])
    with pytest.raises(ScenarioError, match="unknown matrix"):
        sq.with_cell(sequence, "q", 0, 0, 1.0)
    with pytest.raises(ScenarioError, match=r"w_v\[0\]\[0\] block\[0\]\[0\]: NaN is not allowed"):
        sq.with_cell(sequence, "w_v", 0, 0, float("nan"))


def test_embeddings_for_new_tokens_keep_known_rows():
    sequence = load_preset("self-attention")
    rows = sq.embeddings_for_tokens(sequence, ["北京", "爱", "猫"], seed=0)
    assert rows[0].tolist() == X[2] and rows[1].tolist() == X[1]
    assert np.array_equal(rows[2], sq.token_embedding("猫", 4, 0))


def test_report_has_every_documented_field_and_null_for_masked_entries():
    sequence = sq.replace_sequence(load_preset("self-attention"), causal=True)
    report = sequence_report.sequence_report(sequence, sequence.compute())
    for field in ("queries", "keys", "values", "scores", "scale", "scaled_scores", "weights", "output", "tokens",
                  "causal", "d_model", "d_k", "d_v", "n"):
        assert field in report, field
    assert report["scaled_scores"][0][1] is None and report["scaled_scores"][1][0] == pytest.approx(2.25 / 2**0.5)
    assert report["weights"][0] == [1.0, 0.0, 0.0]
    json.loads(sequence_report.sequence_report_json(sequence, sequence.compute()))  # strict JSON: no Infinity
    text = sequence_report.sequence_report_text(sequence, sequence.compute())
    assert "-inf" in text and "each row sums to 1" in text


@pytest.mark.parametrize(("tokens", "sentence"), [
    (["我", "爱", "北京"], "我爱北京"),
    (["I", "love", "Beijing"], "I love Beijing"),
    (["我", "love", "北京", "!"], "我love北京!"),
    (["the", "cat"], "the cat"),
    ([], ""),
])
def test_tokens_are_joined_as_the_language_is_written(tokens, sentence):
    from attention_explorer.core.scenes.sequence.tokens import joined_sentence, split_tokens

    assert joined_sentence(tokens) == sentence
    if sentence == "我爱北京":
        assert split_tokens(sentence) == ["我", "爱", "北", "京"]  # as Chinese BERT splits it again
