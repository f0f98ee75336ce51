"""The `kind` each file names, as plain strings, and the check of one.

Telling a file's kind this way imports none of the kinds' modules; their registry, which does import them when
asked, is core/scenes/registry.py. Pure Python, no Qt.
"""

from __future__ import annotations

import json
from typing import Any

from attention_explorer.core.limits import ScenarioError

SEQUENCE_KIND = "sequence"  # a self-attention file (tokens and W_Q, W_K, W_V)
# Files written before the kind was called "sequence" say "self"; they are read as the same kind.
SEQUENCE_KINDS = (SEQUENCE_KIND, "self")
MULTIHEAD_KIND = "multihead"
CROSS_KIND = "cross"
POSITIONS_KIND = "positions"  # the positions lab's scene: d, the pair shown, m, n and the seed
TRAINING_KIND = "training"  # the training lab's settings: d_k, steps, learning rate and seed
LECTURE_KIND = "lecture"  # a lecture script (core/teaching/lecture.py), not a scene


def check_kind(name: Any) -> str:
    """The `kind` a file names, when it is one of the kinds; anything else raises ScenarioError listing them."""
    if not isinstance(name, str) or name not in (*SEQUENCE_KINDS, MULTIHEAD_KIND, CROSS_KIND, POSITIONS_KIND,
                                                 TRAINING_KIND):
        raise ScenarioError(
            'kind: expected "{0}" (a self-attention file), "{1}" (a multi-head file), "{2}" (a cross-attention '
            'file), "{3}" (a positions file), "{4}" (a training file) or no "kind" at all (a single query), got {5}',
            SEQUENCE_KIND, MULTIHEAD_KIND, CROSS_KIND, POSITIONS_KIND, TRAINING_KIND,
            json.dumps(name, ensure_ascii=False)[:40],
        )
    return name
