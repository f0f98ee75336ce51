"""The numpy GPT-2 against a plain-loop reference, generation with the KV cache against recomputing, and the limits."""

from __future__ import annotations

import json
import math
import shutil

import numpy as np
import pytest

from attention_explorer.core.pretrained import weights_size
from attention_explorer.core.pretrained.checkpoint import CheckpointError, load_checkpoint, read_config, tensor_shapes
from attention_explorer.core.pretrained.generation import cache_cost, next_token_id
from attention_explorer.core.pretrained.gpt2 import decode
from attention_explorer.core.pretrained.safetensors_file import read_header, read_tensors
from tests.helpers.safetensors_layout import layout, write
from tests.helpers.tiny_gpt2 import CONFIG, tiny_gpt2_dir

assert tiny_gpt2_dir  # a fixture: pytest finds it through this import


def _loop_layer_norm(row, weight, bias, eps):
    mean = sum(row) / len(row)
    variance = sum((x - mean) ** 2 for x in row) / len(row)
    return [(x - mean) / math.sqrt(variance + eps) * w + b for x, w, b in zip(row, weight, bias)]


def _loop_conv1d(row, weight, bias):
    return [sum(row[i] * float(weight[i][j]) for i in range(len(row))) + float(bias[j]) for j in range(len(bias))]


def _loop_gelu(x):
    return 0.5 * x * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


def reference_forward(tensors, config, ids):
    """GPT-2 written out with Python loops and floats from the Hugging Face tensors: (attentions, hidden states)."""
    tensors = {name: value.astype(np.float64).tolist() for name, value in tensors.items()}  # Python floats
    heads, hidden, eps = config["n_head"], config["n_embd"], config["layer_norm_epsilon"]
    size = hidden // heads
    x = [[float(a) + float(b) for a, b in zip(tensors["wte.weight"][t], tensors["wpe.weight"][p])]
         for p, t in enumerate(ids)]
    states, attentions = [x], []
    for layer in range(config["n_layer"]):
        t = {name[len(f"h.{layer}."):]: value for name, value in tensors.items() if name.startswith(f"h.{layer}.")}
        mixed = [_loop_conv1d(_loop_layer_norm(row, t["ln_1.weight"], t["ln_1.bias"], eps), t["attn.c_attn.weight"],
                              t["attn.c_attn.bias"]) for row in x]
        layer_weights, context = [], [[0.0] * hidden for _ in ids]
        for h in range(heads):
            def part(row, third, h=h):
                return row[third * hidden + h * size: third * hidden + (h + 1) * size]
            rows = []
            for i in range(len(ids)):
                scores = [sum(a * b for a, b in zip(part(mixed[i], 0), part(mixed[j], 1))) / math.sqrt(size)
                          for j in range(i + 1)]
                top = max(scores)
                exps = [math.exp(s - top) for s in scores]
                weights = [e / sum(exps) for e in exps] + [0.0] * (len(ids) - i - 1)
                rows.append(weights)
                for j in range(i + 1):
                    for c, value in enumerate(part(mixed[j], 2)):
                        context[i][h * size + c] += weights[j] * value
            layer_weights.append(rows)
        attentions.append(layer_weights)
        x = [[a + b for a, b in zip(row, _loop_conv1d(ctx, t["attn.c_proj.weight"], t["attn.c_proj.bias"]))]
             for row, ctx in zip(x, context)]
        inner = [[_loop_gelu(v) for v in _loop_conv1d(_loop_layer_norm(row, t["ln_2.weight"], t["ln_2.bias"], eps),
                                                       t["mlp.c_fc.weight"], t["mlp.c_fc.bias"])] for row in x]
        x = [[a + b for a, b in zip(row, _loop_conv1d(i, t["mlp.c_proj.weight"], t["mlp.c_proj.bias"]))]
             for row, i in zip(x, inner)]
        states.append(x)
    final = [_loop_layer_norm(row, tensors["ln_f.weight"], tensors["ln_f.bias"], eps) for row in x]
    return np.array(attentions), np.array(states), np.array(final)


@pytest.fixture(scope="module")
def model(tiny_gpt2_dir):
    return load_checkpoint(tiny_gpt2_dir)


def test_the_forward_pass_matches_a_plain_loop_reference(model, tiny_gpt2_dir):
    from safetensors.numpy import load_file

    tensors = load_file(str(tiny_gpt2_dir / "model.safetensors"))
    config = json.loads((tiny_gpt2_dir / "config.json").read_text(encoding="utf-8"))
    analysis = model.analyse("I love Beijing")
    attentions, states, final = reference_forward(tensors, config, list(analysis.ids))
    assert analysis.output.attentions.shape == (2, 4, analysis.n, analysis.n)
    np.testing.assert_allclose(analysis.output.attentions, attentions, atol=1e-12)
    np.testing.assert_allclose(np.array(analysis.output.hidden_states), states, atol=1e-10)
    np.testing.assert_allclose(analysis.output.last_hidden_state, final, atol=1e-10)
    logits = [sum(a * b for a, b in zip(row, final[-1])) for row in tensors["wte.weight"].astype(float).tolist()]
    np.testing.assert_allclose(analysis.output.next_logits, logits, atol=1e-9)
    assert np.all(np.triu(analysis.output.attentions[0, 0], 1) == 0.0)  # causal: nothing after the query
    spread = analysis.output.attentions[:, :, 1:, :]
    assert np.mean((spread > 0.05) & (spread < 0.95)) > 0.2  # not one-hot, so the agreement says something


def test_byte_level_tokens_are_shown_as_text_and_the_model_type_is_gpt2(model):
    analysis = model.analyse("the cat sat")
    assert model.model_type == "gpt2" and analysis.causal
    assert "".join(analysis.tokens) == "the cat sat"  # " cat", not "Ġcat"
    raw = [model.tokenizer.id_to_token(i) for i in analysis.ids]
    assert any(token.startswith("Ġ") for token in raw)
    assert model.analyse("I love Beijing").tokens[:3] == ("I", " love", "␣")  # a lone space stays visible
    # an escape character and half of a Chinese character keep their byte-level form, never a control or "�"
    shown = model.analyse("a\x1bb 爱").tokens
    assert all(token.isprintable() and "\ufffd" not in token for token in shown)


def test_generating_with_the_cache_equals_recomputing_the_whole_sequence(model):
    analysis = model.analyse("the cat")
    for _ in range(5):
        token = next_token_id(analysis.output.next_logits)
        analysis = model.next_token(analysis, token)
        again = decode(model.weights, list(analysis.ids))
        np.testing.assert_allclose(analysis.output.next_logits, again.next_logits, atol=1e-9, rtol=0)
        np.testing.assert_allclose(analysis.output.attentions, again.attentions, atol=1e-9, rtol=0)
        for cached, full in zip(analysis.output.layers, again.layers):
            for name in ("queries", "keys", "values", "scaled_scores"):
                np.testing.assert_allclose(getattr(cached, name), getattr(full, name), atol=1e-9, rtol=0)
        for cached, full in zip(analysis.output.hidden_states, again.hidden_states):
            np.testing.assert_allclose(cached, full, atol=1e-9, rtol=0)
    assert analysis.generated == 5 and analysis.n == len(model.analyse("the cat").ids) + 5


def test_top_k_draws_are_seeded_and_stay_among_the_k_best():
    logits = np.array([0.1, 3.0, 2.9, -1.0, 2.8, 0.0])
    assert next_token_id(logits) == 1
    draws = {next_token_id(logits, top_k=3, seed=4, position=p) for p in range(60)}
    assert draws == {1, 2, 4}
    assert [next_token_id(logits, 3, 9, p) for p in range(10)] == [next_token_id(logits, 3, 9, p) for p in range(10)]
    with pytest.raises(CheckpointError, match="top-k: expected a whole number from 1 to 1000, got 0"):
        next_token_id(logits, top_k=0)


def test_the_cache_cost_counts_numbers_bytes_and_work(model):
    cost = cache_cost(model.config, 7)
    assert cost.shape == (2, 2, 4, 7, 8)
    assert cost.bytes == 2 * 2 * 4 * 7 * 8 * 8
    assert (cost.step_with_cache, cost.step_without_cache) == (2 * 2 * 8 * 32, 2 * 2 * 64 * 32)


def test_a_sequence_longer_than_the_positions_is_refused_not_cut(model):
    with pytest.raises(CheckpointError, match="tokens long; this model takes at most 24"):
        model.analyse("the cat sat on the mat. " * 6)
    analysis = model.analyse("the cat sat on the mat.")
    while analysis.n < 24:
        analysis = model.next_token(analysis, 5)
    with pytest.raises(CheckpointError, match="the sequence is 24 tokens long, and this model takes at most 24"):
        model.next_token(analysis, 5)


class _EveryName:
    """Names that hold every tensor name: the tensors config.json asks for, all under their first name."""

    def __contains__(self, name: object) -> bool:
        return True


def test_a_model_larger_than_free_memory_is_refused_from_its_header(tmp_path, tiny_gpt2_dir, monkeypatch):
    """A GPT-2 of 1600 numbers a token: config.json and the header agree, no byte of the data is there (a hole)."""
    folder = tmp_path / "huge"
    shutil.copytree(tiny_gpt2_dir, folder)
    sizes = {"vocab_size": 50257, "n_embd": 1600, "n_layer": 1, "n_head": 25, "n_positions": 1024}
    (folder / "config.json").write_text(json.dumps({**CONFIG, **sizes}), encoding="utf-8")
    config = read_config(folder / "config.json")
    header = layout({name: ("F32", shape) for name, shape in tensor_shapes(config, _EveryName()).items()})
    write(folder / "model.safetensors", header)
    monkeypatch.setattr(weights_size, "available_memory_bytes", lambda: 1_000_000_000)
    # 112 793 600 float32 numbers (wte 80 411 200, wpe 1 638 400, the block 30 740 800) in 451 174 400 bytes; the
    # largest tensor, wte, twice in float64 outweighs all of them once
    numbers = 50257 * 1600 + 1024 * 1600 + 2 * 1600 + (4 * 1600 + 1600 * 4800 + 4800 + 1600 * 1600 + 1600
                                                       + 2 * 1600 * 6400 + 6400 + 1600)
    assert numbers == 112_793_600
    assert 4 * numbers + 8 * 2 * 80_411_200 == 1_737_753_600
    with pytest.raises(CheckpointError, match=r"model.safetensors: this model needs about 1738 MB of memory to "
                                              r"load, and only 1000 MB are free"):
        load_checkpoint(folder)
    path = tiny_gpt2_dir / "model.safetensors"
    tensors = read_tensors(read_header(path), read_header(path).entries).values()
    numbers = sum(t.size for t in tensors)  # here all numbers once in float64 outweigh the largest twice
    assert numbers > 2 * max(t.size for t in tensors)
    assert weights_size.needed_bytes(read_header(path).entries.values()) == 4 * numbers + 8 * numbers
    monkeypatch.setattr(weights_size, "available_memory_bytes", lambda: 10)
    with pytest.raises(CheckpointError, match="only 0 MB are free"):
        load_checkpoint(tiny_gpt2_dir)
    monkeypatch.setattr(weights_size, "available_memory_bytes", lambda: None)
    assert load_checkpoint(tiny_gpt2_dir).model_type == "gpt2"


def _with_config(tmp_path, tiny_gpt2_dir, **changes):
    folder = tmp_path / "broken"
    shutil.copytree(tiny_gpt2_dir, folder)
    document = json.loads((tiny_gpt2_dir / "config.json").read_text(encoding="utf-8"))
    (folder / "config.json").write_text(json.dumps({**document, **changes}), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("changes", "message"), [
    ({"n_embd": None}, "n_embd: expected a whole number, got null"),
    ({"n_head": 5}, "n_embd 32 is not a multiple of n_head 5"),
    ({"n_layer": "2"}, "n_layer: expected a whole number, got a string"),
    ({"n_positions": 0}, r"n_positions: 0 is out of range \(1 to 1048576\)"),
    ({"vocab_size": 10**9}, "vocab_size: 1000000000 is out of range"),
    ({"layer_norm_epsilon": "1e-5"}, "layer_norm_epsilon: expected a number, got a string"),
    ({"activation_function": "swish"}, "activation_function 'swish' is not supported"),
    ({"scale_attn_weights": False}, "scale_attn_weights false is not supported"),
    ({"scale_attn_by_inverse_layer_idx": True}, "scale_attn_by_inverse_layer_idx true is not supported"),
    ({"n_inner": 64}, r"tensor h\.0\.mlp\.c_fc\.weight: expected shape \(32, 64\), got \(32, 128\).*belong to "
                      r"these weights"),
    ({"n_layer": 3}, r"tensor h\.2\.ln_1\.weight is missing"),
])
def test_unusable_gpt2_configs_are_one_clear_message(tmp_path, tiny_gpt2_dir, changes, message):
    folder = _with_config(tmp_path, tiny_gpt2_dir, **changes)
    with pytest.raises(CheckpointError, match=message):
        load_checkpoint(folder)


def test_a_missing_size_is_named(tmp_path, tiny_gpt2_dir):
    folder = tmp_path / "missing"
    shutil.copytree(tiny_gpt2_dir, folder)
    document = {key: value for key, value in CONFIG.items() if key != "n_head"}
    (folder / "config.json").write_text(json.dumps({**document, "vocab_size": 300}), encoding="utf-8")
    with pytest.raises(CheckpointError, match=r"config.json: n_head is missing"):
        load_checkpoint(folder)
