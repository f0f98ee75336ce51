"""Cross-attention in the core: a target's queries against a source's keys, checked by hand, by loops and by torch."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.cross import scene as cx


def random_cross(n_q: int = 4, n_k: int = 6, d_model: int = 5, d_k: int = 3, d_v: int = 2, seed: int = 7,
                 scale: float | None = None) -> cx.CrossScenario:
    rng = np.random.default_rng(seed)
    return cx.CrossScenario(
        target_tokens=tuple(f"t{i}" for i in range(n_q)), source_tokens=tuple(f"s{j}" for j in range(n_k)),
        target_embeddings=rng.standard_normal((n_q, d_model)), source_embeddings=rng.standard_normal((n_k, d_model)),
        w_q=rng.standard_normal((d_model, d_k)), w_k=rng.standard_normal((d_model, d_k)),
        w_v=rng.standard_normal((d_model, d_v)), scale=scale,
    )


def loop_reference(cross: cx.CrossScenario) -> tuple[list[list[float]], list[list[float]]]:
    """Weights and output with plain Python loops: nothing shared with the core's numpy."""
    def times(rows, matrix):
        return [[math.fsum(row[m] * matrix[m][c] for m in range(len(row))) for c in range(len(matrix[0]))]
                for row in rows]
    y, x = cross.target_embeddings.tolist(), cross.source_embeddings.tolist()
    q, k, v = times(y, cross.w_q.tolist()), times(x, cross.w_k.tolist()), times(x, cross.w_v.tolist())
    scale = 1 / math.sqrt(len(q[0])) if cross.scale is None else cross.scale
    weights, output = [], []
    for query in q:
        scores = [scale * math.fsum(a * b for a, b in zip(query, key)) for key in k]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = math.fsum(exps)
        row = [e / total for e in exps]
        weights.append(row)
        output.append([math.fsum(row[j] * v[j][c] for j in range(len(v))) for c in range(len(v[0]))])
    return weights, output


def test_shapes_are_n_q_by_n_k_and_rows_sum_to_one():
    cross = random_cross(n_q=4, n_k=6, d_k=3, d_v=2)
    result = cross.compute()
    assert result.queries.shape == (4, 3) and result.keys.shape == (6, 3) and result.values.shape == (6, 2)
    assert result.scores.shape == result.weights.shape == (4, 6)
    assert result.output.shape == (4, 2)
    assert np.allclose(result.weights.sum(axis=1), 1.0)


@pytest.mark.parametrize("scale", [None, 0.0, 2.5])
def test_weights_and_output_equal_a_plain_loop(scale):
    cross = random_cross(n_q=3, n_k=5, scale=scale)
    weights, output = loop_reference(cross)
    result = cross.compute()
    assert np.allclose(result.weights, weights, rtol=0, atol=1e-12)
    assert np.allclose(result.output, output, rtol=0, atol=1e-12)


def test_equals_torch_scaled_dot_product_attention():
    torch = pytest.importorskip("torch")
    cross = random_cross(n_q=5, n_k=7, d_model=6, d_k=4, d_v=3, seed=11)
    result = cross.compute()
    y = torch.tensor(cross.target_embeddings, dtype=torch.float64)
    x = torch.tensor(cross.source_embeddings, dtype=torch.float64)
    q = y @ torch.tensor(cross.w_q, dtype=torch.float64)
    k = x @ torch.tensor(cross.w_k, dtype=torch.float64)
    v = x @ torch.tensor(cross.w_v, dtype=torch.float64)
    expected = torch.nn.functional.scaled_dot_product_attention(q[None], k[None], v[None])[0].numpy()
    assert np.max(np.abs(result.output - expected)) < 1e-9
    weights = torch.softmax(q @ k.T / math.sqrt(4), dim=-1).numpy()
    assert np.max(np.abs(result.weights - weights)) < 1e-9


def test_translation_preset_aligns_each_word_with_its_translation():
    """我 → I 0.89, 爱 → love 0.88, 北京 → Beijing 0.95: "almost all", as the story says (row 我 by hand too)."""
    cross = load_preset("translation")
    assert isinstance(cross, cx.CrossScenario)
    assert cross.target_tokens == ("我", "爱", "北京") and cross.source_tokens == ("I", "love", "Beijing")
    result = cross.compute()
    # q_我 = 1.8·(1, 0) + 0.3·(−0.5, 0.866) = (1.65, 0.2598); k_I = 1.6·(1, 0): q·k = 2.64
    assert result.scores[0, 0] == pytest.approx(2.64)
    # Row 我 after scaling by 1/√2: 2.64, −0.96, −1.68 (q_我·k_love = 1.65·−0.8 + 0.2598·1.3856)
    scaled = np.array([2.64, -0.96, -1.68]) / math.sqrt(2)
    assert result.weights[0, 0] == pytest.approx(math.exp(scaled[0]) / sum(math.exp(s) for s in scaled), abs=1e-3)
    assert [round(result.weights[i, i], 2) for i in range(3)] == [0.89, 0.88, 0.95]
    assert "almost all of its attention" in cross.description  # the story's words for 0.88 and more


def test_a_query_row_becomes_a_single_query_scenario_against_the_source():
    cross = load_preset("translation")
    result = cross.compute()
    scenario = cx.cross_query_scenario(cross, result, 1, "爱")
    assert scenario.labels == ("I", "love", "Beijing")
    assert np.array_equal(scenario.query, result.queries[1])
    assert np.array_equal(scenario.keys, result.keys) and np.array_equal(scenario.values, result.values)
    assert np.allclose(scenario.compute().weights, result.weights[1], rtol=0, atol=1e-15)
    with pytest.raises(ScenarioError, match="target token index 3 is out of range"):
        cx.cross_query_scenario(cross, result, 3)


@pytest.mark.parametrize(("changes", "message"), [
    ({"target_embeddings": [[1.0, 2.0]]}, "target_embeddings: expected rows of 3 numbers (d_model from "
                                          "source_embeddings = 3), got 2"),
    ({"w_k": [[1.0], [2.0], [3.0]]}, "w_k: expected rows of 2 numbers (d_k, the width of w_q = 2), got 1"),
    ({"source_tokens": ("I", "")}, "source_tokens[1]: 0 characters, a token has 1 to 64"),
    ({"target_tokens": ()}, "target_tokens: expected 1 to 512 tokens, got 0"),
    ({"scale": -1.0}, "scale: -1 is out of range"),
])
def test_a_bad_scenario_names_its_first_problem(changes, message):
    base = cx.CrossScenario(target_tokens=("a",), source_tokens=("b", "c"), target_embeddings=[[1, 0, 0]],
                            source_embeddings=[[0, 1, 0], [0, 0, 1]], w_q=[[1, 0]] * 3, w_k=[[0, 1]] * 3,
                            w_v=[[1.0]] * 3)
    with pytest.raises(ScenarioError) as caught:
        cx.replace_cross(base, **changes)
    assert str(caught.value).startswith(message)


def test_one_cell_edit_changes_only_that_number_and_a_bad_one_changes_nothing():
    cross = load_preset("translation")
    edited = cx.with_cross_cell(cross, "source_embeddings", 2, 2, 3.0)
    assert edited.source_embeddings[2, 2] == 3.0 and cross.source_embeddings[2, 2] == 1.6
    with pytest.raises(ScenarioError, match=r"w_v\[0\]\[1\]: NaN is not allowed"):
        cx.with_cross_cell(cross, "w_v", 0, 1, float("nan"))
    with pytest.raises(ScenarioError, match="no cell"):
        cx.with_cross_cell(cross, "w_q", 3, 0, 1.0)
