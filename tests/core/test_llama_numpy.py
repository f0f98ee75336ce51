"""The numpy Llama and Qwen2 against a plain-loop reference; RoPE on a real head; the KV cache against recomputing.

Runs without PyTorch: the tiny models are written with numpy (tests/helpers/tiny_llama.py). The reference below is
written out with Python loops and floats, from the Hugging Face tensors and config.json alone.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from attention_explorer.core.pretrained.checkpoint import load_checkpoint
from attention_explorer.core.pretrained.generation import next_token_id
from attention_explorer.core.pretrained.llama import decode
from attention_explorer.core.pretrained.rope import Rotary
from tests.helpers.tiny_llama import load_tensors, tiny_llama_dir, tiny_llama_variants, tiny_qwen2_dir

assert tiny_llama_dir and tiny_qwen2_dir and tiny_llama_variants  # fixtures: pytest finds them through this import


def _rms(row, weight, eps):
    scale = math.sqrt(sum(x * x for x in row) / len(row) + eps)
    return [x / scale * w for x, w in zip(row, weight)]


def _linear(row, weight, bias=None):
    return [sum(a * b for a, b in zip(row, line)) + (bias[o] if bias else 0.0) for o, line in enumerate(weight)]


def _rope(vector, position, theta):
    """Turn each pair (i, i + d/2) by position·θ^(−2i/d)."""
    d = len(vector)
    half = d // 2
    out = list(vector)
    for i in range(half):
        angle = position * theta ** (-2 * i / d)
        a, b = vector[i], vector[i + half]
        out[i] = a * math.cos(angle) - b * math.sin(angle)
        out[i + half] = a * math.sin(angle) + b * math.cos(angle)
    return out


def _theta(config):
    return config["rope_theta"] if "rope_theta" in config else config["rope_parameters"]["rope_theta"]


def reference_forward(tensors, config, ids):
    """A Llama-family decoder with loops: attentions, rotated q and k per layer, hidden states, final, logits."""
    t = {name: value.astype(np.float64).tolist() for name, value in tensors.items()}
    heads, kv_heads, eps = config["num_attention_heads"], config["num_key_value_heads"], config["rms_norm_eps"]
    d = config["hidden_size"] // heads
    theta, group = _theta(config), heads // kv_heads
    x = [list(t["model.embed_tokens.weight"][token]) for token in ids]
    states, attentions, rotated = [x], [], []
    for layer in range(config["num_hidden_layers"]):
        p = f"model.layers.{layer}."

        def proj(row, name, p=p):
            return _linear(row, t[p + name + ".weight"], t.get(p + name + ".bias"))

        normed = [_rms(row, t[p + "input_layernorm.weight"], eps) for row in x]
        q = [proj(row, "self_attn.q_proj") for row in normed]
        k = [proj(row, "self_attn.k_proj") for row in normed]
        v = [proj(row, "self_attn.v_proj") for row in normed]
        q = [[_rope(row[h * d:(h + 1) * d], pos, theta) for h in range(heads)] for pos, row in enumerate(q)]
        k = [[_rope(row[h * d:(h + 1) * d], pos, theta) for h in range(kv_heads)] for pos, row in enumerate(k)]
        rotated.append((q, k))
        layer_weights, context = [], [[0.0] * (heads * d) for _ in ids]
        for h in range(heads):
            g = h // group  # the K/V head this query head reads
            rows = []
            for i in range(len(ids)):
                scores = [sum(a * b for a, b in zip(q[i][h], k[j][g])) / math.sqrt(d) for j in range(i + 1)]
                top = max(scores)
                exps = [math.exp(s - top) for s in scores]
                weights = [e / sum(exps) for e in exps]
                rows.append(weights + [0.0] * (len(ids) - i - 1))
                for j, w in enumerate(weights):
                    for c in range(d):
                        context[i][h * d + c] += w * v[j][g * d + c]
            layer_weights.append(rows)
        attentions.append(layer_weights)
        x = [[a + b for a, b in zip(row, proj(ctx, "self_attn.o_proj"))] for row, ctx in zip(x, context)]
        normed = [_rms(row, t[p + "post_attention_layernorm.weight"], eps) for row in x]
        inner = [[gate / (1.0 + math.exp(-gate)) * up for gate, up in
                  zip(proj(row, "mlp.gate_proj"), proj(row, "mlp.up_proj"))] for row in normed]
        x = [[a + b for a, b in zip(row, proj(i, "mlp.down_proj"))] for row, i in zip(x, inner)]
        states.append(x)
    final = [_rms(row, t["model.norm.weight"], eps) for row in x]
    head = t["model.embed_tokens.weight"] if config["tie_word_embeddings"] else t["lm_head.weight"]
    logits = [sum(a * b for a, b in zip(line, final[-1])) for line in head]
    return np.array(attentions), rotated, np.array(states), np.array(final), np.array(logits)


KINDS = ["llama", "qwen2", "llama-bf16", "llama-tied", "llama-sharded", "llama-v5-config", "qwen2-bf16-sharded",
         "qwen2-untied"]


@pytest.fixture(scope="module")
def folders(tiny_llama_dir, tiny_qwen2_dir, tiny_llama_variants):
    return {"llama": tiny_llama_dir, "qwen2": tiny_qwen2_dir, **tiny_llama_variants}


@pytest.fixture(scope="module")
def models(folders):
    loaded = {}
    yield loaded
    for model in loaded.values():
        model.tokenizer.close()


def _model(models, folders, kind):
    if kind not in models:
        models[kind] = load_checkpoint(folders[kind])
    return models[kind]


@pytest.mark.parametrize("kind", KINDS)
def test_the_forward_pass_matches_a_plain_loop_reference(models, folders, kind):
    model = _model(models, folders, kind)
    tensors = load_tensors(folders[kind])
    config = json.loads((folders[kind] / "config.json").read_text(encoding="utf-8"))
    analysis = model.analyse("我 爱 北京 the cat")
    attentions, rotated, states, final, logits = reference_forward(tensors, config, list(analysis.ids))
    assert analysis.output.attentions.shape == (2, 4, analysis.n, analysis.n)
    np.testing.assert_allclose(analysis.output.attentions, attentions, rtol=0, atol=1e-12)
    for layer, (q, k) in zip(analysis.output.layers, rotated):
        np.testing.assert_allclose(layer.queries, np.array(q).transpose(1, 0, 2), rtol=0, atol=1e-11)
        np.testing.assert_allclose(layer.cached_keys, np.array(k).transpose(1, 0, 2), rtol=0, atol=1e-11)
    np.testing.assert_allclose(np.array(analysis.output.hidden_states), states, rtol=0, atol=1e-10)
    np.testing.assert_allclose(analysis.output.last_hidden_state, final, rtol=0, atol=1e-10)
    np.testing.assert_allclose(analysis.output.next_logits, logits, rtol=0, atol=1e-9)
    assert np.all(np.triu(analysis.output.attentions[1, 2], 1) == 0.0)  # causal: nothing after the query
    spread = analysis.output.attentions[:, :, 1:, :]
    assert np.mean((spread > 0.05) & (spread < 0.95)) > 0.2  # not one-hot, so the agreement says something


def test_qwen2_has_q_k_v_biases_and_llama_has_none(models, folders):
    qwen = _model(models, folders, "qwen2").weights.blocks[0]
    llama = _model(models, folders, "llama").weights.blocks[0]
    assert qwen.query_bias.shape == (64,) and qwen.key_bias.shape == qwen.value_bias.shape == (32,)
    assert qwen.output_bias is None and qwen.gate_bias is None
    assert llama.query_bias is None and llama.key_bias is None and llama.output_bias is None


def test_query_heads_read_their_group_s_key_value_head(models, folders):
    model = _model(models, folders, "llama")
    analysis = model.analyse("the cat sat")
    assert analysis.kv_heads == (0, 0, 1, 1) and analysis.num_kv_heads == model.num_kv_heads == 2
    layer = analysis.output.layers[1]
    assert layer.cached_keys.shape == layer.cached_values.shape == (2, analysis.n, 16)  # what the cache holds
    assert layer.keys.shape == layer.values.shape == (4, analysis.n, 16)  # what each query head sees
    heads = [analysis.head(1, h) for h in range(4)]
    assert [head.kv_head for head in heads] == [0, 0, 1, 1]
    for head in heads:
        np.testing.assert_array_equal(head.keys, layer.cached_keys[head.kv_head])
        np.testing.assert_array_equal(head.values, layer.cached_values[head.kv_head])
        np.testing.assert_array_equal(head.keys_unrotated, layer.keys_unrotated[head.kv_head])
    assert not np.allclose(heads[0].keys, heads[2].keys)
    assert not np.allclose(heads[0].queries, heads[1].queries)  # two query heads of one group still differ


def test_a_real_head_s_scores_depend_only_on_the_offset_of_the_positions(models, folders):
    """RoPE: q_m·k_n for q and k of the analysed sentence, turned to positions shifted together, stays the same."""
    model = _model(models, folders, "qwen2")
    analysis = model.analyse("我 爱 北京 the cat")
    head = analysis.head(1, 3)
    assert head.rotary == Rotary(1000000.0, 16) and head.queries_unrotated.shape == head.queries.shape
    d = head.head_size
    for token in range(analysis.n):  # the analysed q and k are the unrotated ones turned to their own positions
        np.testing.assert_allclose(head.rotated_query(token, token), head.queries[token], rtol=0, atol=1e-12)
        np.testing.assert_allclose(head.rotated_key(token, token), head.keys[token], rtol=0, atol=1e-12)
    m, n = analysis.n - 1, 2
    at_own_positions = head.rotated_query(m, m) @ head.rotated_key(n, n)
    assert at_own_positions / math.sqrt(d) == pytest.approx(head.scaled_scores[m, n], abs=1e-12)
    for shift in (1, 7, 100, 5000, -2):
        shifted = head.rotated_query(m, m + shift) @ head.rotated_key(n, n + shift)
        assert shifted == pytest.approx(at_own_positions, abs=1e-9)
    other_offset = head.rotated_query(m, m + 3) @ head.rotated_key(n, n)
    assert abs(other_offset - at_own_positions) > 1e-3  # the offset does matter
    unrotated = head.queries_unrotated[m] @ head.keys_unrotated[n]
    assert head.rotated_query(m, 40) @ head.rotated_key(n, 40) == pytest.approx(unrotated, abs=1e-9)  # m = n


def test_a_model_without_rope_has_no_rotated_vectors(tmp_path):
    from attention_explorer.core.pretrained.checkpoint import CheckpointError, HeadAttention

    matrix = np.eye(2)
    head = HeadAttention(0, 1, matrix, matrix, matrix, matrix, matrix)
    assert head.kv_head == 1 and head.rotary is None
    with pytest.raises(CheckpointError, match="has no rotary position embedding"):
        head.rotated_query(0, 3)


def test_rotary_turns_each_pair_of_halves_as_a_rotation_matrix():
    rotary = Rotary(10000.0, 8)
    x = np.arange(1.0, 9.0)
    turned = rotary.rotate(x, 3)
    for i in range(4):
        angle = 3 * 10000.0 ** (-2 * i / 8)
        matrix = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
        np.testing.assert_allclose(turned[[i, i + 4]], matrix @ x[[i, i + 4]], rtol=0, atol=1e-12)
    assert np.linalg.norm(turned) == pytest.approx(np.linalg.norm(x))
    rows = rotary.rotate(np.tile(x, (3, 1)), np.array([0, 1, 3]))
    np.testing.assert_array_equal(rows[0], x)
    np.testing.assert_allclose(rows[2], turned, rtol=0, atol=1e-15)
    with pytest.raises(ValueError, match="even"):
        Rotary(10000.0, 7)


def _assert_same(cached, full):
    np.testing.assert_allclose(cached.next_logits, full.next_logits, atol=1e-9, rtol=0)
    for mine, again in zip(cached.layers, full.layers):
        for name in ("queries", "keys", "values", "scaled_scores", "weights", "queries_unrotated", "keys_unrotated",
                     "cached_keys", "cached_values"):
            np.testing.assert_allclose(getattr(mine, name), getattr(again, name), atol=1e-9, rtol=0)
        assert mine.kv_heads == again.kv_heads
    for mine, again in zip(cached.hidden_states, full.hidden_states):
        np.testing.assert_allclose(mine, again, atol=1e-9, rtol=0)
    np.testing.assert_allclose(cached.last_hidden_state, full.last_hidden_state, atol=1e-9, rtol=0)


@pytest.mark.parametrize("kind", ["llama", "qwen2"])
@pytest.mark.parametrize("top_k", [1, 5])
def test_generating_with_the_cache_equals_recomputing_the_whole_sequence(models, folders, kind, top_k):
    model = _model(models, folders, kind)
    analysis = model.analyse("the cat")
    start = analysis.n
    for step in range(6):
        token = next_token_id(analysis.output.next_logits, top_k, seed=3, position=analysis.n)
        analysis = model.next_token(analysis, token)
        again = decode(model.weights, list(analysis.ids))
        _assert_same(analysis.output, again)
        assert token == next_token_id(decode(model.weights, list(analysis.ids[:-1])).next_logits, top_k, 3,
                                      analysis.n - 1)
        assert analysis.generated == step + 1
    assert analysis.n == start + 6 and len(set(analysis.ids[start:])) > 1


def test_sharded_and_bf16_weights_give_what_one_float32_file_gives(models, folders):
    text = "I love Beijing"
    single = _model(models, folders, "llama").analyse(text).output
    sharded = _model(models, folders, "llama-sharded").analyse(text).output
    np.testing.assert_array_equal(single.attentions, sharded.attentions)
    bf16 = _model(models, folders, "llama-bf16")
    assert bf16.weights.blocks[0].query_weight.dtype == np.float32
    close = np.abs(bf16.analyse(text).output.attentions - single.attentions).max()
    assert 0 < close < 0.05  # bfloat16 keeps 8 bits of mantissa: near, not equal


def test_bf16_bits_are_widened_exactly():
    from attention_explorer.core.pretrained.safetensors_file import bf16_to_float32

    bits = np.array([0x3F80, 0xC000, 0x0000, 0x8000, 0x7F80, 0xFF80, 0x3EAB, 0x0001], dtype=np.uint16)
    widened = bf16_to_float32(bits)
    assert widened.dtype == np.float32
    assert widened[:6].tolist() == [1.0, -2.0, 0.0, -0.0, math.inf, -math.inf]
    assert widened[6] == np.float32(0.333984375) and widened[7] == np.float32(2.0**-133)  # the smallest subnormal


def test_tied_embeddings_are_the_head_and_untied_ones_are_not(models, folders):
    tied, untied = _model(models, folders, "llama-tied"), _model(models, folders, "llama")
    assert tied.weights.lm_head is None and tied.weights.head is tied.weights.token_embeddings
    assert untied.weights.lm_head is not None and untied.weights.head is untied.weights.lm_head


def test_tokens_are_shown_as_text_and_the_family_is_named(models, folders):
    llama, qwen = _model(models, folders, "llama"), _model(models, folders, "qwen2")
    assert (llama.model_type, qwen.model_type, llama.generates, qwen.generates) == ("llama", "qwen2", True, True)
    assert llama.analyse("the cat").tokens == ("<s>", "the", " cat")  # Llama's tokenizer adds <s>
    assert qwen.analyse("the cat").tokens == ("the", " cat")
    assert llama.analyse("the cat").causal


def test_a_sequence_longer_than_the_positions_is_refused_not_cut(models, folders):
    from attention_explorer.core.pretrained.checkpoint import CheckpointError

    model = _model(models, folders, "llama")
    with pytest.raises(CheckpointError, match="tokens long; this model takes at most 64"):
        model.analyse("the cat sat on the mat. " * 12)
    analysis = model.analyse("the cat sat on the mat. " * 4)
    while analysis.n < 64:
        analysis = model.next_token(analysis, 5)
    with pytest.raises(CheckpointError, match="the sequence is 64 tokens long, and this model takes at most 64"):
        model.next_token(analysis, 5)


def test_the_cache_holds_the_key_value_heads_only(models, folders):
    from attention_explorer.core.pretrained.generation import cache_cost

    model = _model(models, folders, "llama")
    cost = cache_cost(model.config, 7)
    analysis = model.analyse("the cat sat on")
    assert cost.shape == (2, 2, 2, 7, 16) and analysis.output.layers[0].cached_keys.shape[0] == 2
    assert (cost.numbers, cost.numbers_without_grouping, cost.grouping_saving) == (896, 1792, 2.0)
    assert cost.bytes == 896 * 8
    assert (cost.step_with_cache, cost.step_without_cache) == (2 * 2 * 8 * 64, 2 * 2 * 64 * 64)  # every query head


def test_sentencepiece_style_tokens_keep_their_word_start_as_a_space(tmp_path, tiny_llama_dir):
    """Llama 2 and TinyLlama mark a word's start with "▁" and fall back to bytes (<0xE7>) for unknown characters;
    decoded alone, "▁love" loses its space, which is put back."""
    import shutil

    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    folder = tmp_path / "sentencepiece"
    shutil.copytree(tiny_llama_dir, folder)
    tokenizer = Tokenizer(models.BPE(byte_fallback=True, unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    tokenizer.decoder = decoders.Sequence([decoders.Metaspace(), decoders.ByteFallback(), decoders.Fuse()])
    specials = ["<unk>", "<s>", "</s>", *(f"<0x{byte:02X}>" for byte in range(256))]
    vocab = json.loads((folder / "config.json").read_text(encoding="utf-8"))["vocab_size"]
    tokenizer.train_from_iterator(["I love you", "love me"] * 5,
                                  trainer=trainers.BpeTrainer(vocab_size=vocab, special_tokens=specials,
                                                              show_progress=False))
    tokenizer.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 1)])
    tokenizer.save(str(folder / "tokenizer.json"))
    model = load_checkpoint(folder)
    try:
        analysis = model.analyse("I love 爱")
        raw = [model.tokenizer.id_to_token(i) for i in analysis.ids]
    finally:
        model.tokenizer.close()
    assert any(token.startswith("▁") and len(token) > 1 for token in raw)
    assert analysis.tokens[0] == "<s>" and analysis.tokens[-3:] == ("<0xE7>", "<0x88>", "<0xB1>")
    assert "".join(analysis.tokens[1:-3]).replace("␣", " ") == " I love "
    assert all("▁" not in token for token in analysis.tokens)
