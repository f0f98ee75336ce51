"""`attention-explorer model DIR …` on the tiny Llama and Qwen2: kv_head, q and k after RoPE and before it."""

from __future__ import annotations

import json
import math

import numpy as np

from attention_explorer.app import main
from attention_explorer.core.pretrained.rope import Rotary
from tests.helpers.tiny_gpt2 import tiny_gpt2_dir
from tests.helpers.tiny_llama import tiny_llama_dir, tiny_llama_variants, tiny_qwen2_dir

assert tiny_llama_dir and tiny_qwen2_dir and tiny_gpt2_dir and tiny_llama_variants  # fixtures, found by import


def run(capsys, *args):
    status = main(["model", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_llama_head_names_its_key_value_head_and_prints_q_and_k_before_and_after_rope(capsys, tiny_llama_dir):
    status, out, err = run(capsys, tiny_llama_dir, "--text", "我 爱 北京", "--layer", 1, "--head", 3)
    assert status == 0 and err == ""
    document = json.loads(out)
    assert (document["model_type"], document["causal"], document["num_heads"], document["num_kv_heads"],
            document["kv_head"], document["head_size"], document["rope_theta"]) == (
        "llama", True, 4, 2, 1, 16, 10000.0)
    assert document["tokens"][0] == "<s>" and "北京" in document["tokens"]
    q, k, attention = (np.array(document[name]) for name in ("q", "k", "attention"))
    n = len(document["tokens"])
    rotary = Rotary(10000.0, 16)
    np.testing.assert_allclose(rotary.rotate(np.array(document["q_unrotated"]), np.arange(n)), q, atol=1e-12)
    np.testing.assert_allclose(rotary.rotate(np.array(document["k_unrotated"]), np.arange(n)), k, atol=1e-12)
    scores = q @ k.T / math.sqrt(16)  # the printed weights, recomputed from the printed (rotated) q and k
    for i in range(n):
        row = np.exp(scores[i, : i + 1] - scores[i, : i + 1].max())
        np.testing.assert_allclose(attention[i, : i + 1], row / row.sum(), atol=1e-12)
        assert np.all(attention[i, i + 1:] == 0.0)


def test_two_query_heads_of_a_group_print_the_same_keys(capsys, tiny_qwen2_dir):
    first = json.loads(run(capsys, tiny_qwen2_dir, "--text", "the cat", "--head", 0)[1])
    second = json.loads(run(capsys, tiny_qwen2_dir, "--text", "the cat", "--head", 1)[1])
    assert (first["model_type"], first["kv_head"], second["kv_head"]) == ("qwen2", 0, 0)
    assert first["k"] == second["k"] and first["v"] == second["v"] and first["q"] != second["q"]


def test_a_sharded_bf16_model_is_read_and_gpt2_says_each_head_is_its_own(capsys, tiny_llama_variants, tiny_gpt2_dir):
    status, out, _err = run(capsys, tiny_llama_variants["qwen2-bf16-sharded"], "--text", "a dog")
    assert status == 0 and json.loads(out)["num_kv_heads"] == 2
    document = json.loads(run(capsys, tiny_gpt2_dir, "--text", "a dog", "--head", 2)[1])
    assert (document["num_kv_heads"], document["kv_head"]) == (4, 2) and "q_unrotated" not in document


def test_an_unsupported_rope_is_one_line_and_status_2(capsys, tmp_path, tiny_llama_dir):
    import shutil

    folder = tmp_path / "llama3"
    shutil.copytree(tiny_llama_dir, folder)
    document = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    document["rope_scaling"] = {"rope_type": "llama3"}
    (folder / "config.json").write_text(json.dumps(document), encoding="utf-8")
    status, out, err = run(capsys, folder, "--text", "a dog")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and 'RoPE of type "llama3" is not supported' in err
