"""Multi-head attention in the core: against a plain-loop reference, against PyTorch, and its properties."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.multihead import scene as mh


def loop_reference(scenario: mh.MultiHeadScenario) -> dict:
    """Multi-head attention written with Python loops and math only: no numpy product, no core function."""
    x = scenario.embeddings.tolist()
    n, d_model, h = scenario.n, scenario.d_model, scenario.heads
    d_k = d_model // h

    def times(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(len(row))) for c in range(len(w[0]))] for row in rows]

    q, k, v = (times(x, getattr(scenario, name).tolist()) for name in ("w_q", "w_k", "w_v"))
    scale = 1 / math.sqrt(d_k) if scenario.scale is None else scenario.scale
    weights, heads_out, scores = [], [], []
    concat = [[0.0] * d_model for _ in range(n)]
    for head in range(h):
        columns = range(head * d_k, (head + 1) * d_k)
        head_scores, head_weights = [], []
        for i in range(n):
            row = [sum(q[i][c] * k[j][c] for c in columns) for j in range(n)]
            head_scores.append(row)
            seen = [j for j in range(n) if not (scenario.causal and j > i)]
            top = max(row[j] * scale for j in seen)
            exps = [math.exp(row[j] * scale - top) if j in seen else 0.0 for j in range(n)]
            total = sum(exps)
            head_weights.append([e / total for e in exps])
        out = [[sum(head_weights[i][j] * v[j][c] for j in range(n)) for c in columns] for i in range(n)]
        for i in range(n):
            for offset, c in enumerate(columns):
                concat[i][c] = out[i][offset]
        scores.append(head_scores)
        weights.append(head_weights)
        heads_out.append(out)
    output = times(concat, scenario.w_o.tolist())
    return {"scores": scores, "weights": weights, "head_outputs": heads_out, "concat": concat, "output": output}


def random_scenario(n: int, d_model: int, heads: int, seed: int, causal: bool = False,
                    scale: float | None = None) -> mh.MultiHeadScenario:
    return mh.build_multihead([f"t{i}" for i in range(n)], d_model, heads, seed=seed, causal=causal, scale=scale)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 6), head_width=st.integers(1, 4), heads=st.integers(1, 4), seed=st.integers(0, 10_000),
       causal=st.booleans(), manual=st.one_of(st.none(), st.floats(0.0, 3.0)))
def test_every_number_equals_the_plain_loop_reference(n, head_width, heads, seed, causal, manual):
    scenario = random_scenario(n, head_width * heads, heads, seed, causal, manual)
    result = scenario.compute()
    expected = loop_reference(scenario)
    for name, value in expected.items():
        np.testing.assert_allclose(getattr(result, name), value, rtol=1e-12, atol=1e-12, err_msg=name)
    assert result.d_k == head_width == scenario.d_k


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 6), heads=st.sampled_from([1, 2, 4]), seed=st.integers(0, 10_000), causal=st.booleans())
def test_properties_rows_sum_to_one_masks_are_exact_and_concat_is_the_heads_side_by_side(n, heads, seed, causal):
    scenario = random_scenario(n, 8, heads, seed, causal)
    result = scenario.compute()
    np.testing.assert_allclose(result.weights.sum(axis=-1), 1.0, atol=1e-12)
    if causal:
        assert (result.weights[:, np.triu_indices(n, 1)[0], np.triu_indices(n, 1)[1]] == 0.0).all()
        assert result.mask.sum() == n * (n - 1) // 2
    for head in range(heads):
        np.testing.assert_array_equal(result.concat[:, scenario.head_columns(head)], result.head_outputs[head])
    # One head over the whole width is ordinary self-attention with W_O applied after it.
    single = mh.replace_multihead(scenario, heads=1).compute()
    manual = single.weights[0] @ (scenario.embeddings @ scenario.w_v)
    np.testing.assert_allclose(single.output, manual @ scenario.w_o, rtol=1e-12, atol=1e-12)


def test_the_result_cannot_be_written_to():
    result = random_scenario(3, 4, 2, 0).compute()
    for array in (result.queries, result.weights, result.concat, result.output):
        with pytest.raises(ValueError):
            array[0, 0] = 1.0


@pytest.mark.parametrize(("n", "d_model", "heads", "causal"), [(5, 8, 2, False), (4, 12, 3, True), (1, 6, 6, True),
                                                               (7, 16, 4, False), (3, 5, 1, True)])
def test_equals_pytorch_multi_head_attention_to_1e_9(n, d_model, heads, causal):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: the comparison with it is skipped")
    scenario = random_scenario(n, d_model, heads, seed=n * 31 + d_model, causal=causal)
    result = scenario.compute()
    layer = torch.nn.MultiheadAttention(d_model, heads, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        # PyTorch multiplies by the transposed weight (x·Wᵀ); ours are written x·W.
        in_proj = np.concatenate([scenario.w_q.T, scenario.w_k.T, scenario.w_v.T])
        layer.in_proj_weight.copy_(torch.from_numpy(in_proj))
        layer.out_proj.weight.copy_(torch.from_numpy(np.array(scenario.w_o.T)))
        x = torch.from_numpy(np.array(scenario.embeddings))[None]
        mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1) if causal else None
        output, weights = layer(x, x, x, attn_mask=mask, need_weights=True, average_attn_weights=False)
        functional, _ = torch.nn.functional.multi_head_attention_forward(
            x.transpose(0, 1), x.transpose(0, 1), x.transpose(0, 1), d_model, heads,
            torch.from_numpy(in_proj), None, None, None, False, 0.0, torch.from_numpy(np.array(scenario.w_o.T)),
            None, need_weights=False, attn_mask=mask)
    np.testing.assert_allclose(result.output, output[0].numpy(), rtol=0, atol=1e-9)
    np.testing.assert_allclose(result.weights, weights[0].numpy(), rtol=0, atol=1e-9)
    np.testing.assert_allclose(result.output, functional[:, 0].numpy(), rtol=0, atol=1e-9)


def test_heads_must_divide_d_model_and_the_message_lists_what_would():
    with pytest.raises(ScenarioError) as caught:
        random_scenario(3, 8, 3, 0)
    assert str(caught.value) == ("heads: d_model = 8 is not divisible by h = 3 (each head gets d_model / h columns; "
                                 "h could be 1, 2, 4, 8)")
    assert mh.head_counts(12) == [1, 2, 3, 4, 6, 12]
    with pytest.raises(ScenarioError, match=r"^heads: expected 1 to 16 heads, got 32"):
        random_scenario(2, 64, 32, 0)


def test_a_head_and_a_token_become_a_single_query_scenario():
    scenario = random_scenario(4, 6, 3, 7, causal=True)
    result = scenario.compute()
    single = mh.head_query_scenario(scenario, result, 1, 2, title="t")
    np.testing.assert_array_equal(single.query, result.queries[2, 2:4])
    np.testing.assert_array_equal(single.keys, result.keys[:3, 2:4])  # causal: keys up to token 3
    np.testing.assert_array_equal(single.values, result.values[:3, 2:4])
    assert single.labels == scenario.tokens[:3] and single.title == "t"
    # The explorer's single query gets the same weights as that head's row.
    np.testing.assert_allclose(single.compute().weights, result.weights[1, 2, :3], atol=1e-15)
    with pytest.raises(ScenarioError, match="head 3 is out of range"):
        mh.head_query_scenario(scenario, result, 3, 0)


def test_seeded_weights_are_reproducible_and_w_o_has_its_own_stream():
    first, again = random_scenario(3, 8, 2, 5), random_scenario(3, 8, 2, 5)
    assert first == again
    assert not np.array_equal(first.w_o, first.w_q) and not np.array_equal(first.w_o, first.w_v)
    assert first != random_scenario(3, 8, 2, 6)
