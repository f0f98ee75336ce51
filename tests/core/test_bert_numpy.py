"""The numpy BERT forward pass against a plain-loop reference written here, and the folder loader's checks."""

from __future__ import annotations

import json
import math
import re
import shutil

import numpy as np
import pytest

from attention_explorer.core.pretrained import bert
from attention_explorer.core.pretrained.checkpoint import (
    Analysis,
    CheckpointError,
    check_folder,
    config_from_dict,
    find_cached_checkpoints,
    load_checkpoint,
    missing_packages,
    read_config,
    weights_from_tensors,
)
from tests.helpers.tiny_bert import (
    CONFIG,
    HEADS,
    HIDDEN,
    LAYERS,
    MALFORMED_CONFIGS,
    VOCAB,
    random_tensors,
    tiny_bert_dir,
    write_model,
)

assert tiny_bert_dir  # a fixture: pytest finds it through this import


# ---------------------------------------------------------------- an independent reference, in plain Python


def _vec(array) -> list[float]:
    return [float(x) for x in np.asarray(array).ravel()]


def _mat(array) -> list[list[float]]:
    return [[float(x) for x in row] for row in np.asarray(array)]


def _linear(x: list[float], weight: list[list[float]], bias: list[float]) -> list[float]:
    return [sum(w * xi for w, xi in zip(row, x)) + b for row, b in zip(weight, bias)]


def _norm(x: list[float], gamma: list[float], beta: list[float], eps: float = 1e-12) -> list[float]:
    mean = sum(x) / len(x)
    variance = sum((xi - mean) ** 2 for xi in x) / len(x)
    return [(xi - mean) / math.sqrt(variance + eps) * g + b for xi, g, b in zip(x, gamma, beta)]


def reference_bert(tensors: dict[str, np.ndarray], ids: list[int]) -> list[dict[str, list]]:
    """Every layer's per-head q, k, v and attention, token by token and number by number (no numpy maths)."""
    t = {name: array for name, array in tensors.items()}
    word, position = _mat(t["embeddings.word_embeddings.weight"]), _mat(t["embeddings.position_embeddings.weight"])
    token_type = _mat(t["embeddings.token_type_embeddings.weight"])[0]
    states = [_norm([w + p + tt for w, p, tt in zip(word[i], position[pos], token_type)],
                    _vec(t["embeddings.LayerNorm.weight"]), _vec(t["embeddings.LayerNorm.bias"]))
              for pos, i in enumerate(ids)]
    size = HIDDEN // HEADS
    layers = []
    for layer in range(LAYERS):
        p = f"encoder.layer.{layer}."

        def w(name: str, prefix: str = p) -> list[list[float]]:
            return _mat(t[prefix + name + ".weight"])

        def b(name: str, prefix: str = p) -> list[float]:
            return _vec(t[prefix + name + ".bias"])

        q = [_linear(x, w("attention.self.query"), b("attention.self.query")) for x in states]
        k = [_linear(x, w("attention.self.key"), b("attention.self.key")) for x in states]
        v = [_linear(x, w("attention.self.value"), b("attention.self.value")) for x in states]
        heads = []
        context = [[0.0] * HIDDEN for _ in states]
        for h in range(HEADS):
            cols = range(h * size, (h + 1) * size)
            qh = [[row[c] for c in cols] for row in q]
            kh = [[row[c] for c in cols] for row in k]
            vh = [[row[c] for c in cols] for row in v]
            weights = []
            for i in range(len(states)):
                scores = [sum(a * c for a, c in zip(qh[i], kh[j])) / math.sqrt(size) for j in range(len(states))]
                top = max(scores)
                exps = [math.exp(s - top) for s in scores]
                weights.append([e / sum(exps) for e in exps])
                for d, c in enumerate(cols):
                    context[i][c] = sum(weights[i][j] * vh[j][d] for j in range(len(states)))
            heads.append({"q": qh, "k": kh, "v": vh, "weights": weights})
        layers.append(heads)
        attended = [_linear(c, w("attention.output.dense"), b("attention.output.dense")) for c in context]
        states = [_norm([a + x for a, x in zip(att, state)], _vec(t[p + "attention.output.LayerNorm.weight"]),
                        _vec(t[p + "attention.output.LayerNorm.bias"])) for att, state in zip(attended, states)]
        inner = [[0.5 * z * (1.0 + math.erf(z / math.sqrt(2.0)))
                  for z in _linear(x, w("intermediate.dense"), b("intermediate.dense"))] for x in states]
        out = [_linear(z, w("output.dense"), b("output.dense")) for z in inner]
        states = [_norm([o + x for o, x in zip(o_row, state)], _vec(t[p + "output.LayerNorm.weight"]),
                        _vec(t[p + "output.LayerNorm.bias"])) for o_row, state in zip(out, states)]
    return layers


# ---------------------------------------------------------------- the maths


def test_gelu_is_the_exact_erf_form():
    """GELU(x) = x·Φ(x): Φ(1) = 0.8413447460685429, and the erf is math.erf's to the last bit."""
    grid = np.linspace(-9.0, 9.0, 721)
    assert np.array_equal(bert.erf(grid), np.array([math.erf(x) for x in grid]))
    assert bert.gelu(np.array([1.0]))[0] == pytest.approx(0.8413447460685429, abs=1e-15)
    assert bert.gelu(np.array([-1.0]))[0] == pytest.approx(-0.15865525393145707, abs=1e-15)
    assert bert.gelu(np.array([0.0, -40.0, 40.0])).tolist() == [0.0, -0.0, 40.0]


def test_layer_norm_gives_mean_zero_variance_one_before_the_affine_part():
    x = np.array([[1.0, 2.0, 3.0, 6.0]])
    normed = bert.layer_norm(x, np.ones(4), np.zeros(4), 1e-12)
    assert normed.mean() == pytest.approx(0.0, abs=1e-15)
    assert np.mean(normed**2) == pytest.approx(1.0, abs=1e-12)
    # by hand: mean 3, variance (4 + 1 + 0 + 9)/4 = 3.5
    assert normed[0, 3] == pytest.approx(3.0 / math.sqrt(3.5), abs=1e-12)


def test_forward_pass_matches_the_plain_loop_reference_in_every_head():
    tensors = random_tensors(seed=11)
    config = config_from_dict(CONFIG)
    weights = weights_from_tensors(config, tensors)
    ids = [VOCAB[t] for t in ("[CLS]", "i", "love", "beijing", ".", "[SEP]")]
    output = bert.encode(weights, ids)
    expected = reference_bert(tensors, ids)
    assert len(output.layers) == LAYERS
    for layer, heads in enumerate(expected):
        got = output.layers[layer]
        assert got.weights.shape == (HEADS, len(ids), len(ids))
        assert got.queries.shape == (HEADS, len(ids), HIDDEN // HEADS)
        for h, head in enumerate(heads):
            for name, array in (("q", got.queries), ("k", got.keys), ("v", got.values), ("weights", got.weights)):
                np.testing.assert_allclose(array[h], np.array(head[name]), rtol=0, atol=1e-9, err_msg=f"{layer}/{h}")
    # the attention is not trivially uniform or one-hot, so the comparison means something
    first = output.layers[0].weights
    assert 0.05 < first.max(axis=-1).min() and first.max() < 0.999 and first.min() < 0.2
    np.testing.assert_allclose(first.sum(axis=-1), 1.0, atol=1e-12)


def test_scaled_scores_are_q_dot_k_over_root_head_size():
    weights = weights_from_tensors(config_from_dict(CONFIG), random_tensors())
    layer = bert.encode(weights, [2, 5, 6, 3]).layers[1]
    q, k = layer.queries[3], layer.keys[3]
    assert layer.scaled_scores[3][1, 2] == pytest.approx(float(q[1] @ k[2]) / math.sqrt(8), abs=1e-12)


def test_padding_masked_out_changes_nothing_for_the_real_tokens():
    """Padding keys get weight exactly 0, and the real tokens' numbers equal those of the unpadded sentence."""
    weights = weights_from_tensors(config_from_dict(CONFIG), random_tensors())
    ids = [2, 5, 6, 7, 3]
    plain = bert.encode(weights, ids)
    padded = bert.encode(weights, [*ids, 0, 0], attention_mask=[1, 1, 1, 1, 1, 0, 0])
    for a, b in zip(plain.layers, padded.layers):
        assert np.all(b.weights[:, :, 5:] == 0.0)
        np.testing.assert_allclose(b.weights[:, :5, :5], a.weights, atol=1e-12)
        np.testing.assert_allclose(b.queries[:, :5], a.queries, atol=1e-12)
    np.testing.assert_allclose(padded.last_hidden_state[:5], plain.last_hidden_state, atol=1e-12)


def test_encode_refuses_bad_ids():
    weights = weights_from_tensors(config_from_dict(CONFIG), random_tensors())
    with pytest.raises(ValueError, match="ids must lie in"):
        bert.encode(weights, [2, len(VOCAB), 3])
    with pytest.raises(ValueError, match="at most 40"):
        bert.encode(weights, [5] * 41)
    with pytest.raises(ValueError, match="at least one of them 1"):
        bert.encode(weights, [2, 3], attention_mask=[0, 0])


# ---------------------------------------------------------------- the folder


def test_loaded_tiny_model_tokenizes_with_cls_and_sep_and_without_padding(tiny_bert_dir):
    model = load_checkpoint(tiny_bert_dir)
    assert (model.config.num_layers, model.config.num_heads, model.config.head_size) == (2, 4, 8)
    analysis = model.analyse("I love Beijing")
    assert isinstance(analysis, Analysis)
    assert analysis.tokens == ("[CLS]", "i", "love", "beijing", "[SEP]")  # tokenizer.json pads to 24: switched off
    assert analysis.ids == (2, 5, 6, 7, 3)
    assert analysis.output.attentions.shape == (2, 4, 5, 5)


def test_chinese_text_is_split_into_characters(tiny_bert_dir):
    analysis = load_checkpoint(tiny_bert_dir).analyse("我爱北京天安门")
    assert analysis.tokens == ("[CLS]", "我", "爱", "北", "京", "天", "安", "门", "[SEP]")
    head = analysis.head(1, 3)
    assert head.weights.shape == (9, 9) and head.queries.shape == (9, 8)
    np.testing.assert_allclose(head.weights.sum(axis=1), 1.0, atol=1e-12)


def test_loader_reads_bert_prefixed_and_gamma_beta_checkpoints(tmp_path):
    """BertForMaskedLM checkpoints prefix "bert."; TensorFlow conversions name LayerNorm's weights gamma/beta."""
    tensors = random_tensors()
    renamed = {}
    for name, array in tensors.items():
        name = name.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias", "LayerNorm.beta")
        renamed["bert." + name] = array
    renamed["cls.predictions.bias"] = np.zeros(len(VOCAB), np.float32)
    folder = write_model(tmp_path / "mlm", renamed)
    same = load_checkpoint(folder).analyse("the cat").output.attentions
    expected = bert.encode(weights_from_tensors(config_from_dict(CONFIG), tensors), [2, 8, 9, 3]).attentions
    np.testing.assert_array_equal(same, expected)


def _with_config(folder, **changes):
    """The tiny model with config.json changed (a value of None removes the field)."""
    config = {key: value for key, value in {**CONFIG, **changes}.items() if value is not None}
    return write_model(folder, config=config)


@pytest.mark.parametrize(("changes", "message"), [
    ({"model_type": "roberta", "architectures": ["RobertaModel"]},
     r'model_type "roberta" \(RobertaModel\) is not supported; supported: "bert" .*; "gpt2"'),
    ({"model_type": "roberta", "architectures": ["RobertaModel"]},
     r'model_type "roberta" \(RobertaModel\) is not supported; supported: "bert" \(BERT and BERT-architecture'),
    ({"model_type": None, "architectures": ["DistilBertModel"]}, r"no model_type \(DistilBertModel\); supported:"),
    ({"model_type": None, "architectures": None}, r"no model_type; supported:"),
    ({"position_embedding_type": "relative_key"}, r'position_embedding_type "relative_key" is not supported'),
    ({"is_decoder": True}, r"decoder is not supported"),
    ({"hidden_act": "swish"}, r"hidden_act 'swish' is not supported"),
    ({"num_attention_heads": 5}, r"hidden_size 32 is not a multiple of num_attention_heads 5"),
    ({"num_hidden_layers": None}, r"num_hidden_layers is missing"),
    ({"hidden_size": 48}, rf"expected shape \({len(VOCAB)}, 48\), got \({len(VOCAB)}, 32\).*belong to these weights"),
    ({"num_hidden_layers": 3}, r"tensor encoder\.layer\.2\.attention\.self\.query\.weight is missing"),
    ({"vocab_size": 20}, rf"expected shape \(20, 32\), got \({len(VOCAB)}, 32\)"),
])
def test_unusable_configs_are_one_clear_model_error(tmp_path, changes, message):
    folder = _with_config(tmp_path / "broken", **changes)
    with pytest.raises(CheckpointError, match=message) as caught:
        load_checkpoint(folder)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("case", MALFORMED_CONFIGS)
def test_every_malformed_config_field_is_one_model_error_naming_it(tmp_path, case):
    """A wrong type, a hostile number or nesting in config.json: one CheckpointError line, never another exception."""
    text, expected = MALFORMED_CONFIGS[case]
    path = tmp_path / "config.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CheckpointError) as caught:
        read_config(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {expected}"), message
    assert "\n" not in message and len(message) < 400 and "int_max_str_digits" not in message


def test_config_numbers_are_kept_as_given(tmp_path):
    """The checks refuse only what is wrong: optional fields keep their defaults, eps its exact value."""
    config = config_from_dict({**CONFIG, "layer_norm_eps": 1e-7, "type_vocab_size": 1})
    assert (config.layer_norm_eps, config.type_vocab_size, config.num_layers) == (1e-7, 1, LAYERS)
    minimal = {key: CONFIG[key] for key in ("model_type", "vocab_size", "hidden_size", "num_hidden_layers",
                                            "num_attention_heads", "intermediate_size")}
    config = config_from_dict({**minimal, "architectures": None, "is_decoder": False})
    assert (config.max_position_embeddings, config.hidden_act, config.layer_norm_eps) == (512, "gelu", 1e-12)


def test_missing_and_unreadable_files_are_named(tmp_path, tiny_bert_dir):
    with pytest.raises(CheckpointError, match="no such folder"):
        load_checkpoint(tmp_path / "nowhere")
    with pytest.raises(CheckpointError, match="not a folder"):
        load_checkpoint(tiny_bert_dir / "config.json")
    for name in ("config.json", "model.safetensors", "tokenizer.json"):
        folder = tmp_path / f"without-{name}"
        shutil.copytree(tiny_bert_dir, folder)
        (folder / name).unlink()
        with pytest.raises(CheckpointError, match=re.escape(f"{name} is missing")):
            check_folder(folder)
    folder = tmp_path / "torch-only"
    shutil.copytree(tiny_bert_dir, folder)
    (folder / "model.safetensors").rename(folder / "pytorch_model.bin")
    with pytest.raises(CheckpointError, match=r"only pytorch_model\.bin is there"):
        load_checkpoint(folder)

    folder = tmp_path / "garbage"
    shutil.copytree(tiny_bert_dir, folder)
    (folder / "model.safetensors").write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00not json")
    with pytest.raises(CheckpointError, match=r"model\.safetensors: the header is not valid JSON"):
        load_checkpoint(folder)
    (folder / "model.safetensors").unlink()
    shutil.copy(tiny_bert_dir / "model.safetensors", folder)
    (folder / "tokenizer.json").write_text("{}", encoding="utf-8")
    with pytest.raises(CheckpointError, match=r"not a tokenizers tokenizer\.json"):
        load_checkpoint(folder)
    (folder / "config.json").write_text("{ nope", encoding="utf-8")
    with pytest.raises(CheckpointError, match="not valid JSON"):
        read_config(folder / "config.json")


def test_nan_weights_are_refused(tmp_path):
    tensors = random_tensors()
    tensors["encoder.layer.1.output.dense.weight"][3, 4] = np.nan
    with pytest.raises(CheckpointError, match="encoder layer 1 holds NaN"):
        load_checkpoint(write_model(tmp_path / "nan", tensors))


def test_a_too_long_sentence_is_refused_not_cut(tiny_bert_dir):
    model = load_checkpoint(tiny_bert_dir)
    with pytest.raises(CheckpointError, match="the text is 42 tokens long; this model takes at most 40"):
        model.analyse("cat " * 40)
    assert model.analyse("cat " * 38).n == 40


def test_out_of_range_layer_and_head(tiny_bert_dir):
    analysis = load_checkpoint(tiny_bert_dir).analyse("a dog")
    with pytest.raises(CheckpointError, match=r"layer 2 is out of range: the model has 2 layers \(0–1\)"):
        analysis.head(2, 0)
    with pytest.raises(CheckpointError, match=r"head 4 is out of range: each layer has 4 heads \(0–3\)"):
        analysis.head(0, 4)


def test_cached_models_are_found_in_the_hub_layout_only_when_usable(tmp_path, tiny_bert_dir, monkeypatch):
    hub = tmp_path / "hf" / "hub"
    good = hub / "models--sentence-transformers--all-MiniLM-L6-v2"
    shutil.copytree(tiny_bert_dir, good / "snapshots" / "abc123")
    (good / "refs").mkdir()
    (good / "refs" / "main").write_text("abc123", encoding="utf-8")
    shutil.copytree(tiny_bert_dir, hub / "models--FacebookAI--roberta-base" / "snapshots" / "def")
    roberta_config = hub / "models--FacebookAI--roberta-base" / "snapshots" / "def" / "config.json"
    roberta_config.write_text(json.dumps({**CONFIG, "model_type": "roberta"}), encoding="utf-8")
    (hub / "models--someone--incomplete" / "snapshots" / "1").mkdir(parents=True)
    (hub / "datasets--x--y").mkdir()
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    found = find_cached_checkpoints()
    assert [(m.name, m.path) for m in found] == [
        ("sentence-transformers/all-MiniLM-L6-v2", good / "snapshots" / "abc123")]
    assert load_checkpoint(found[0].path).name == "sentence-transformers/all-MiniLM-L6-v2"
    assert find_cached_checkpoints(tmp_path / "no-such-cache") == []


def test_a_malformed_config_in_the_cache_is_listed_and_breaks_nothing(tmp_path, tiny_bert_dir):
    """The list never raises: a broken BERT is offered (choosing it says why it fails), another architecture not."""
    hub = tmp_path / "hub"
    for number, case in enumerate(MALFORMED_CONFIGS):
        snapshot = hub / f"models--broken--m{number:02d}" / "snapshots" / "1"
        snapshot.mkdir(parents=True)
        for name in ("model.safetensors", "tokenizer.json"):  # a finished download: whole weights
            shutil.copyfile(tiny_bert_dir / name, snapshot / name)
        (snapshot / "config.json").write_text(MALFORMED_CONFIGS[case][0], encoding="utf-8")
    shutil.copytree(tiny_bert_dir, hub / "models--good--bert" / "snapshots" / "1")
    other = hub / "models--FacebookAI--roberta-base" / "snapshots" / "1"
    shutil.copytree(tiny_bert_dir, other)
    (other / "config.json").write_text(json.dumps({**CONFIG, "model_type": "roberta"}), encoding="utf-8")
    names = [model.name for model in find_cached_checkpoints(hub)]
    assert names == [f"broken/m{number:02d}" for number in range(len(MALFORMED_CONFIGS))] + ["good/bert"]


def test_missing_optional_packages_are_reported_with_the_install_command(monkeypatch, tiny_bert_dir):
    monkeypatch.setitem(__import__("sys").modules, "tokenizers", None)
    assert missing_packages() == ["tokenizers"]
    hint = r'needs the package tokenizers: pip install "attention-explorer\[model\]"'
    with pytest.raises(CheckpointError, match=hint):
        load_checkpoint(tiny_bert_dir)
