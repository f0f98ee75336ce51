"""Attention sinks: which key tokens soak up attention by habit, and the weights with those columns taken out.

Trained models park much of their attention on the first token, on [CLS] / [SEP] and on punctuation: a head
that has nothing useful to look at must still put its softmax mass somewhere, and these always-present tokens
work as a "no-op". Hiding them and renormalising each row shows how the rest of the mass is shared.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# Special tokens of the BERT and GPT-2 families, and sentence punctuation, compared after the word-piece marks
# are stripped ("Ġ." is GPT-2's " .", "▁." SentencePiece's).
SINK_TOKENS = frozenset({"[CLS]", "[SEP]", "<s>", "</s>", "<|endoftext|>", ".", "。", "!", "?", "！", "？"})
_PIECE_MARKS = "Ġ▁"


def is_sink_token(token: str) -> bool:
    """True for a special or sentence-ending token that models use as a place to park attention."""
    return token.lstrip(_PIECE_MARKS) in SINK_TOKENS


def sink_columns(tokens: Sequence[str]) -> np.ndarray:
    """A boolean mask over the key tokens: the first token and every special or full-stop token."""
    mask = np.array([is_sink_token(token) for token in tokens], dtype=bool)
    if mask.size:
        mask[0] = True
    return mask


def without_sinks(weights: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    """The weights (… × N × N) with the hidden key columns set to 0 and each row renormalised to add up to 1.

    A row that gave all its weight to hidden keys (GPT-2's first token can only see itself) stays all zeros:
    nothing is left to share out.
    """
    weights = np.asarray(weights, dtype=np.float64)
    kept = np.where(np.asarray(hidden, dtype=bool), 0.0, weights)
    totals = kept.sum(axis=-1, keepdims=True)
    return np.divide(kept, totals, out=np.zeros_like(kept), where=totals > 0)


def sink_share(weights: np.ndarray, hidden: np.ndarray) -> float:
    """The mean fraction of each query row's attention that goes to the hidden columns (0 … 1)."""
    weights = np.asarray(weights, dtype=np.float64)
    if weights.size == 0:
        return 0.0
    return float(weights[..., np.asarray(hidden, dtype=bool)].sum(axis=-1).mean())
