"""Masked attention (causal + padding) against PyTorch SDPA and a plain loop; the file field; compute."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_explorer.core.files import anykind as sc
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.masks import attention_mask, masked_attention
from attention_explorer.core.scenes.sequence import report as sequence_report
from attention_explorer.core.scenes.sequence import scene as sq

X = [[1, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 1]]
W_Q = [[0, 1], [1.5, 0], [0, 0.5], [0.5, 0]]
W_K = [[1, 0], [0, 1.5], [0.5, 0], [0, 0]]
W_V = [[0, 0], [0, 1], [1, 0], [0.5, 0.5]]
FILE = {"kind": "sequence", "tokens": ["我", "爱", "北京"], "embeddings": X, "w_q": W_Q, "w_k": W_K, "w_v": W_V}


def loop_attention(q, k, v, scale, causal, padded):
    """softmax(scale·q·k + M)·V one query and one key at a time, the mask decided per (i, j) by its definition."""
    n, out = len(q), []
    weights = []
    for i in range(n):
        allowed = [j for j in range(n) if j not in padded and not (causal and j > i)]
        logits = {j: scale * sum(a * b for a, b in zip(q[i], k[j])) for j in allowed}
        top = max(logits.values())
        exps = {j: math.exp(x - top) for j, x in logits.items()}
        total = sum(exps.values())
        row = [exps.get(j, 0.0) / total for j in range(n)]
        weights.append(row)
        out.append([sum(row[j] * v[j][c] for j in range(n)) for c in range(len(v[0]))])
    return np.array(weights), np.array(out)


def random_case(seed: int, n: int, causal: bool):
    rng = np.random.default_rng(seed)
    q, k, v = rng.standard_normal((n, 3)), rng.standard_normal((n, 3)), rng.standard_normal((n, 2))
    candidates = range(1 if causal else 0, n)
    padded = tuple(sorted(rng.choice(list(candidates), size=min(2, n - 1), replace=False).tolist()))
    return q, k, v, padded


@pytest.mark.parametrize("causal", [False, True])
def test_masked_attention_equals_a_plain_loop(causal):
    """Weights and output of causal + padding against the loop reference (runs everywhere, no torch)."""
    q, k, v, padded = random_case(7, 6, causal)
    result = masked_attention(q, k, v, 0.6, attention_mask(6, causal, padded), causal)
    weights, output = loop_attention(q.tolist(), k.tolist(), v.tolist(), 0.6, causal, padded)
    assert np.allclose(result.weights, weights, rtol=0, atol=1e-12)
    assert np.allclose(result.output, output, rtol=0, atol=1e-12)
    assert (result.weights[:, list(padded)] == 0.0).all()
    assert np.isneginf(result.scaled_scores[:, list(padded)]).all()


@pytest.mark.parametrize("causal", [False, True])
def test_masked_attention_equals_pytorch_sdpa(causal):
    """torch's scaled_dot_product_attention with a boolean attn_mask (True = may look), float64, to 1e-9."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: the plain-loop reference still runs")
    q, k, v, padded = random_case(11, 7, causal)
    sequence = sq.SequenceScenario(tokens=tuple("abcdefg"), embeddings=np.hstack([q, k, v]),
                                   w_q=np.vstack([np.eye(3), np.zeros((5, 3))]),
                                   w_k=np.vstack([np.zeros((3, 3)), np.eye(3), np.zeros((2, 3))]),
                                   w_v=np.vstack([np.zeros((6, 2)), np.eye(2)]), causal=causal, padding=padded)
    result = sequence.compute()
    allowed = torch.from_numpy(~attention_mask(7, causal, padded))
    expected = torch.nn.functional.scaled_dot_product_attention(
        torch.from_numpy(q)[None], torch.from_numpy(k)[None], torch.from_numpy(v)[None], attn_mask=allowed,
        scale=1 / math.sqrt(3))[0].numpy()
    assert np.abs(result.output - expected).max() <= 1e-9
    logits = torch.from_numpy(q @ k.T / math.sqrt(3)).masked_fill(~allowed, float("-inf"))
    assert np.abs(result.weights - torch.softmax(logits, dim=-1).numpy()).max() <= 1e-9


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 8), seed=st.integers(0, 10_000), causal=st.booleans(), data=st.data())
def test_masked_rows_sum_to_one_and_masked_weights_are_zero(n, seed, causal, data):
    """Any padding the loader accepts: every row is a distribution, every masked weight exactly 0."""
    padded = data.draw(st.sets(st.integers(1 if causal else 0, n - 1), max_size=n - 1))
    rng = np.random.default_rng(seed)
    q, k, v = rng.standard_normal((n, 2)) * 5, rng.standard_normal((n, 2)) * 5, rng.standard_normal((n, 2))
    blocked = attention_mask(n, causal, padded)
    result = masked_attention(q, k, v, 1.0, blocked, causal)
    assert np.allclose(result.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert (result.weights[blocked] == 0.0).all()
    assert (result.weights[~blocked] > 0.0).all()


def test_padding_round_trips_through_a_file_and_compute(tmp_path):
    """"padding": [2] reads back, saves sorted, and `compute` reports it with M (null for −∞)."""
    sequence = sc.loads_any(json.dumps({**FILE, "padding": [2]}))
    assert sequence.padding == (2,)
    path = tmp_path / "padded.json"
    sc.save(sequence, path)
    assert json.loads(path.read_text(encoding="utf-8"))["padding"] == [2]
    assert sc.load_any(path) == sequence
    report = sequence_report.sequence_report(sequence, sequence.compute())
    assert report["padding"] == [2]
    assert report["mask"] == [[0.0, 0.0, None]] * 3
    assert report["weights"][0][2] == 0.0 and report["scaled_scores"][1][2] is None
    assert "padding: 2" in sequence_report.sequence_report_text(sequence, sequence.compute())
    plain = sc.loads_any(json.dumps(FILE))
    assert plain.padding == () and "padding" not in json.loads(sc.dumps(plain))


@pytest.mark.parametrize(("padding", "causal", "message"), [
    ("2", False, "padding: expected a list of token positions, got a string"),
    ([1.5], False, "padding[0]: expected a whole number (a token position from 0), got float"),
    ([True], False, "padding[0]: expected a whole number (a token position from 0), got true/false"),
    ([1, 3], False, "padding[1]: position 3 is out of range (there are 3 tokens, from 0 to 2)"),
    ([2, 2], False, "padding[1]: position 2 is given twice"),
    ([0, 1, 2], False, "padding: every token is padded; at least one must stay for the queries to look at"),
    ([0], True, "padding: with the causal mask the first token (position 0) cannot be padded"),
    (list(range(5000)), False, "padding: 5000 positions, more than the 3 tokens"),
])
def test_bad_padding_is_refused_with_its_place(padding, causal, message):
    """The first problem of the field, named; nothing is built."""
    with pytest.raises(ScenarioError) as caught:
        sc.loads_any(json.dumps({**FILE, "padding": padding, "causal": causal}))
    assert str(caught.value).startswith(message)


def test_padding_follows_shorter_tokens_and_leaves_the_explorer_query():
    """Cutting the sentence cuts padding beyond it; a token as the query sees only the unpadded keys."""
    sequence = sc.loads_any(json.dumps({**FILE, "padding": [1, 2]}))
    assert sq.replace_sequence(sequence, tokens=("我", "爱"), embeddings=X[:2]).padding == (1,)
    scenario = sq.query_scenario(sequence, sequence.compute(), 2)
    assert scenario.labels == ("我",) and scenario.keys.shape == (1, 2)


def test_the_documented_self_attention_example_loads_with_its_padding():
    """docs/file-formats.md's example is a valid file, and its padding is the one documented."""
    from pathlib import Path

    formats = Path(__file__).resolve().parents[2] / "docs" / "file-formats.md"
    if not formats.is_file():
        pytest.skip("not a source checkout: no docs/file-formats.md")
    section = formats.read_text(encoding="utf-8").split("## Self-attention files", 1)[1]
    example = section.split("```json", 1)[1].split("```", 1)[0]
    sequence = sc.loads_any(example)
    assert sequence.padding == (2,) and (sequence.compute().weights[:, 2] == 0.0).all()
