"""A tiny GPT-2 built on the spot (CI cannot download a model): random weights, a small byte-level BPE tokenizer.

Import the `tiny_gpt2_dir` fixture into a test module (`from tests.helpers.tiny_gpt2 import tiny_gpt2_dir`); the folder
is written once per session. n_embd 32, 2 layers, 4 heads of 8, n_inner 4·32, 24 positions, gelu_new.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

HIDDEN = 32
LAYERS = 2
HEADS = 4
POSITIONS = 24
CORPUS = ["I love Beijing", "the cat sat on the mat.", "a dog sat on a cat", "我爱北京天安门", "hello world",
          "attention is all you need", "the cat loves the dog"] * 4
CONFIG = {
    "architectures": ["GPT2LMHeadModel"],
    "model_type": "gpt2",
    "n_embd": HIDDEN,
    "n_layer": LAYERS,
    "n_head": HEADS,
    "n_positions": POSITIONS,
    "n_ctx": POSITIONS,
    "n_inner": None,
    "activation_function": "gelu_new",
    "layer_norm_epsilon": 1e-5,
    "resid_pdrop": 0.1, "embd_pdrop": 0.1, "attn_pdrop": 0.1,
    "scale_attn_weights": True,
    "bos_token_id": 0, "eos_token_id": 0,
    "tie_word_embeddings": True,
}


def build_tokenizer():
    """Byte-level BPE as GPT-2's (spaces carried as "Ġ"), trained on a few sentences: deterministic and tiny."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["<|endoftext|>"], show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(CORPUS, trainer=trainer)
    return tokenizer


def random_tensors(vocab_size: int, seed: int = 11, layers: int = LAYERS, hidden: int = HIDDEN,
                   positions: int = POSITIONS) -> dict[str, np.ndarray]:
    """Every GPT2Model tensor under its Hugging Face name, float32; large enough that attention is not uniform.

    Token embeddings smaller than the positions' and a strong feed-forward: with a tied head a random model would
    otherwise predict its last token again and again, and greedy generation would compare nothing.
    """
    rng = np.random.default_rng(seed)

    def normal(*shape: int, scale: float = 0.3) -> np.ndarray:
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    def norm_weight() -> np.ndarray:
        return (1.0 + rng.standard_normal(hidden) * 0.1).astype(np.float32)

    inner = 4 * hidden
    tensors = {"wte.weight": normal(vocab_size, hidden, scale=0.5), "wpe.weight": normal(positions, hidden, scale=1.0),
               "ln_f.weight": norm_weight(), "ln_f.bias": normal(hidden, scale=0.1)}
    for layer in range(layers):
        prefix = f"h.{layer}."
        tensors |= {
            prefix + "ln_1.weight": norm_weight(), prefix + "ln_1.bias": normal(hidden, scale=0.1),
            prefix + "attn.c_attn.weight": normal(hidden, 3 * hidden, scale=0.35),
            prefix + "attn.c_attn.bias": normal(3 * hidden, scale=0.2),
            prefix + "attn.c_proj.weight": normal(hidden, hidden, scale=0.2),
            prefix + "attn.c_proj.bias": normal(hidden, scale=0.1),
            prefix + "ln_2.weight": norm_weight(), prefix + "ln_2.bias": normal(hidden, scale=0.1),
            prefix + "mlp.c_fc.weight": normal(hidden, inner, scale=0.3),
            prefix + "mlp.c_fc.bias": normal(inner, scale=0.1),
            prefix + "mlp.c_proj.weight": normal(inner, hidden, scale=0.3),
            prefix + "mlp.c_proj.bias": normal(hidden, scale=0.1),
        }
    return tensors


def write_model(folder: Path, config: dict | None = None, tensors: dict[str, np.ndarray] | None = None,
                **sizes: int) -> Path:
    """A Hugging Face style GPT-2 folder: config.json, model.safetensors, tokenizer.json."""
    from safetensors.numpy import save_file

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    tokenizer.save(str(folder / "tokenizer.json"))
    vocab = tokenizer.get_vocab_size(with_added_tokens=True)
    layers, hidden, positions = sizes.get("layers", LAYERS), sizes.get("hidden", HIDDEN), sizes.get("positions",
                                                                                                      POSITIONS)
    document = config or {**CONFIG, "vocab_size": vocab, "n_layer": layers, "n_embd": hidden,
                          "n_positions": positions, "n_ctx": positions}
    (folder / "config.json").write_text(json.dumps(document, indent=2), encoding="utf-8")
    save_file(tensors if tensors is not None else random_tensors(vocab, layers=layers, hidden=hidden,
                                                                 positions=positions),
              str(folder / "model.safetensors"))
    return folder


_built: list[Path] = []


@pytest.fixture(scope="session")
def tiny_gpt2_dir(tmp_path_factory) -> Path:
    """The tiny GPT-2's folder (built once per session, shared by every module that imports this fixture)."""
    pytest.importorskip("safetensors", reason="the tiny test model needs safetensors (the 'model' extra)")
    pytest.importorskip("tokenizers", reason="the tiny test model needs tokenizers (the 'model' extra)")
    if not _built:
        _built.append(write_model(tmp_path_factory.mktemp("tiny-gpt2")))
    return _built[0]
