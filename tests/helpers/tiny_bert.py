"""A tiny BERT built on the spot (CI cannot download a model): random weights, a small WordPiece tokenizer.

Import the `tiny_bert_dir` fixture into a test module (`from tests.helpers.tiny_bert import tiny_bert_dir`); the
folder is written once per session. hidden 32, 2 layers, 4 heads of 8, intermediate 64, absolute positions.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

HIDDEN = 32
LAYERS = 2
HEADS = 4
INTERMEDIATE = 64
MAX_POSITIONS = 40
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = ["i", "love", "beijing", "the", "cat", "sat", "on", "mat", "a", "dog", "##s", "bei", "##jing", ".", ",",
         "我", "爱", "北", "京", "天", "安", "门"]
VOCAB = {token: index for index, token in enumerate(SPECIAL + WORDS)}
CONFIG = {
    "architectures": ["BertModel"],
    "model_type": "bert",
    "hidden_size": HIDDEN,
    "num_hidden_layers": LAYERS,
    "num_attention_heads": HEADS,
    "intermediate_size": INTERMEDIATE,
    "hidden_act": "gelu",
    "max_position_embeddings": MAX_POSITIONS,
    "type_vocab_size": 2,
    "vocab_size": len(VOCAB),
    "layer_norm_eps": 1e-12,
    "pad_token_id": 0,
    "position_embedding_type": "absolute",
    "hidden_dropout_prob": 0.1,
    "attention_probs_dropout_prob": 0.1,
    "initializer_range": 0.02,
}


def random_tensors(seed: int = 7) -> dict[str, np.ndarray]:
    """Every BertModel tensor under its Hugging Face name, float32; large enough that attention is not uniform."""
    rng = np.random.default_rng(seed)

    def normal(*shape: int, scale: float = 0.4) -> np.ndarray:
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    def norm_weight() -> np.ndarray:
        return (1.0 + rng.standard_normal(HIDDEN) * 0.1).astype(np.float32)

    tensors = {
        "embeddings.word_embeddings.weight": normal(len(VOCAB), HIDDEN, scale=1.0),
        "embeddings.position_embeddings.weight": normal(MAX_POSITIONS, HIDDEN, scale=0.5),
        "embeddings.token_type_embeddings.weight": normal(2, HIDDEN, scale=0.5),
        "embeddings.LayerNorm.weight": norm_weight(),
        "embeddings.LayerNorm.bias": normal(HIDDEN, scale=0.1),
        "pooler.dense.weight": normal(HIDDEN, HIDDEN, scale=0.1),
        "pooler.dense.bias": normal(HIDDEN, scale=0.1),
    }
    for layer in range(LAYERS):
        prefix = f"encoder.layer.{layer}."
        for name in ("query", "key", "value"):
            tensors[f"{prefix}attention.self.{name}.weight"] = normal(HIDDEN, HIDDEN, scale=0.25)
            tensors[f"{prefix}attention.self.{name}.bias"] = normal(HIDDEN, scale=0.2)
        tensors[f"{prefix}attention.output.dense.weight"] = normal(HIDDEN, HIDDEN, scale=0.2)
        tensors[f"{prefix}attention.output.dense.bias"] = normal(HIDDEN, scale=0.1)
        tensors[f"{prefix}attention.output.LayerNorm.weight"] = norm_weight()
        tensors[f"{prefix}attention.output.LayerNorm.bias"] = normal(HIDDEN, scale=0.1)
        tensors[f"{prefix}intermediate.dense.weight"] = normal(INTERMEDIATE, HIDDEN, scale=0.3)
        tensors[f"{prefix}intermediate.dense.bias"] = normal(INTERMEDIATE, scale=0.1)
        tensors[f"{prefix}output.dense.weight"] = normal(HIDDEN, INTERMEDIATE, scale=0.2)
        tensors[f"{prefix}output.dense.bias"] = normal(HIDDEN, scale=0.1)
        tensors[f"{prefix}output.LayerNorm.weight"] = norm_weight()
        tensors[f"{prefix}output.LayerNorm.bias"] = normal(HIDDEN, scale=0.1)
    return tensors


def build_tokenizer():
    """WordPiece with BERT's normaliser (lower case, CJK characters split) and [CLS] $A [SEP] added."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    tokenizer = Tokenizer(models.WordPiece(VOCAB, unk_token="[UNK]", continuing_subword_prefix="##"))
    tokenizer.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True,
                                                      strip_accents=None, lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", VOCAB["[CLS]"]), ("[SEP]", VOCAB["[SEP]"])])
    tokenizer.add_special_tokens(SPECIAL)
    # Like MiniLM's tokenizer.json: padding to a fixed length is on, so the loader must switch it off.
    tokenizer.enable_padding(length=24, pad_id=VOCAB["[PAD]"], pad_token="[PAD]")
    return tokenizer


def write_model(folder: Path, tensors: dict[str, np.ndarray] | None = None, config: dict | None = None) -> Path:
    """A Hugging Face style folder: config.json, model.safetensors, tokenizer.json."""
    from safetensors.numpy import save_file

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config or CONFIG, indent=2), encoding="utf-8")
    save_file(tensors if tensors is not None else random_tensors(), str(folder / "model.safetensors"))
    build_tokenizer().save(str(folder / "tokenizer.json"))
    return folder


# A pre-tokenizer whose pattern backtracks catastrophically on this text: Oniguruma gives up at its retry limit
# with a Rust panic (pyo3's PanicException, a BaseException), after a fraction of a second.
BACKTRACKING_PATTERN = "(a+)+$"
BACKTRACKING_TEXT = "a" * 40 + "!"
# Each run of 22 stays under the retry limit but costs ~0.1 s: 40 of them keep the tokenizer busy for seconds.
SLOW_TEXT = ("a" * 22 + "!") * 40


def with_backtracking_tokenizer(source: Path, target: Path) -> Path:
    """A copy of a model folder whose tokenizer.json splits with BACKTRACKING_PATTERN (else the same tokenizer)."""
    import shutil

    shutil.copytree(source, target)
    document = json.loads((target / "tokenizer.json").read_text(encoding="utf-8"))
    document["pre_tokenizer"] = {"type": "Split", "pattern": {"Regex": BACKTRACKING_PATTERN},
                                 "behavior": "Isolated", "invert": False}
    (target / "tokenizer.json").write_text(json.dumps(document), encoding="utf-8")
    return target


_built: list[Path] = []


@pytest.fixture(scope="session")
def tiny_bert_dir(tmp_path_factory) -> Path:
    """The tiny model's folder (built once per session, shared by every module that imports this fixture)."""
    pytest.importorskip("safetensors", reason="the tiny test model needs safetensors (the 'model' extra)")
    pytest.importorskip("tokenizers", reason="the tiny test model needs tokenizers (the 'model' extra)")
    if not _built:
        _built.append(write_model(tmp_path_factory.mktemp("tiny-bert")))
    return _built[0]


def _config_text(**changes) -> str:
    return json.dumps({**CONFIG, **changes})


# config.json texts the loader must refuse, each with what its one-line message says after "…/config.json: ".
MALFORMED_CONFIGS = {
    "model_type a list": (_config_text(model_type=["bert"]), "model_type: expected a string, got a list"),
    "hidden_act an object": (_config_text(hidden_act={"name": "gelu"}), "hidden_act: expected a string, got an object"),
    "hidden_act a number": (_config_text(hidden_act=1), "hidden_act: expected a string, got int"),
    "a 5000-digit integer": (_config_text().replace('"vocab_size": 27', '"vocab_size": ' + "9" * 5000),
                             "not a usable number: an integer with 5000 digits"),
    "a 400-digit integer": (_config_text().replace('"hidden_size": 32', '"hidden_size": ' + "9" * 400),
                            "hidden_size: 999… (400 digits) is out of range (1 to 65536)"),
    "100k nested brackets": (_config_text().replace('"pad_token_id": 0', '"pad_token_id": ' + "[" * 100_000
                                                    + "]" * 100_000), "JSON is nested too deeply"),
    "a size true": (_config_text(num_hidden_layers=True), "num_hidden_layers: expected a whole number, got true/false"),
    "a size 32.0": (_config_text(hidden_size=32.0), "hidden_size: expected a whole number, got float"),
    "a size a string": (_config_text(vocab_size="27"), "vocab_size: expected a whole number, got a string"),
    "a size null": (_config_text(max_position_embeddings=None),
                    "max_position_embeddings: expected a whole number, got null"),
    "no heads": (_config_text(num_attention_heads=0), "num_attention_heads: 0 is out of range (1 to 4096)"),
    "negative size": (_config_text(intermediate_size=-64), "intermediate_size: -64 is out of range (1 to 1048576)"),
    "too many layers": (_config_text(num_hidden_layers=10**9), "num_hidden_layers: 1000000000 is out of range"),
    "eps NaN": (_config_text(layer_norm_eps=float("nan")), "layer_norm_eps: NaN is not allowed"),
    "eps infinite": (_config_text(layer_norm_eps=float("inf")), "layer_norm_eps: inf is out of range"),
    "eps a string": (_config_text(layer_norm_eps="1e-12"), "layer_norm_eps: expected a number, got a string"),
    "eps 2": (_config_text(layer_norm_eps=2), "layer_norm_eps: 2 is out of range (expected a small positive number"),
    "architectures a string": (_config_text(architectures="BertModel"),
                               "architectures: expected a list of strings, got a string"),
    "architectures of numbers": (_config_text(architectures=[1]), "architectures[0]: expected a string, got int"),
    "position type a list": (_config_text(position_embedding_type=["absolute"]),
                             "position_embedding_type: expected a string, got a list"),
    "is_decoder a string": (_config_text(is_decoder="no"), "is_decoder: expected true or false, got a string"),
    "a key twice": (_config_text()[:-1] + ', "hidden_size": 64}', '"hidden_size": duplicate key'),
    "a list": ("[1, 2]", "expected a JSON object"),
    "not JSON": ("{'model_type': 'bert'}", "not valid JSON: Expecting property name enclosed in double quotes"),
}
# The four the issue found (each a traceback and status 1 before).
ISSUE_CONFIGS = ("model_type a list", "hidden_act an object", "a 5000-digit integer", "100k nested brackets")
