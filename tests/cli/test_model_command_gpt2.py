"""`attention-explorer model DIR …` on the tiny GPT-2: causal attention, model_type in the JSON, a text too long."""

from __future__ import annotations

import json
import math

import numpy as np

from attention_explorer.app import main
from tests.helpers.tiny_bert import tiny_bert_dir
from tests.helpers.tiny_gpt2 import tiny_gpt2_dir

assert tiny_gpt2_dir and tiny_bert_dir  # fixtures: pytest finds them through this import


def run(capsys, *args):
    status = main(["model", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_gpt2_prints_causal_attention_and_its_model_type(capsys, tiny_gpt2_dir):
    status, out, err = run(capsys, tiny_gpt2_dir, "--text", "the cat sat", "--layer", 1, "--head", 3)
    assert status == 0 and err == ""
    document = json.loads(out)
    assert (document["model_type"], document["causal"], document["num_layers"], document["num_heads"]) == (
        "gpt2", True, 2, 4)
    assert "".join(document["tokens"]) == "the cat sat"
    attention, q, k = (np.array(document[name]) for name in ("attention", "q", "k"))
    n = len(document["tokens"])
    # softmax of q·kᵀ/√8 over the keys up to the query itself, recomputed from the printed q and k
    scores = q @ k.T / math.sqrt(8)
    for i in range(n):
        row = np.exp(scores[i, : i + 1] - scores[i, : i + 1].max())
        np.testing.assert_allclose(attention[i, : i + 1], row / row.sum(), atol=1e-12)
        assert np.all(attention[i, i + 1:] == 0.0)


def test_a_bert_says_bert_and_not_causal(capsys, tiny_bert_dir):
    document = json.loads(run(capsys, tiny_bert_dir, "--text", "a dog")[1])
    assert (document["model_type"], document["causal"]) == ("bert", False)


def test_a_text_longer_than_the_positions_is_refused(capsys, tiny_gpt2_dir):
    status, out, err = run(capsys, tiny_gpt2_dir, "--text", "the cat sat on the mat. " * 6)
    assert status == 2 and out == ""
    assert err.startswith("attention-explorer model: the text is ")
    assert err.rstrip().endswith("tokens long; this model takes at most 24")
