"""The `"kind": "positions"` file: the positions lab's scene (d, the frequency pair shown, m, n and the seed) and back.

The lab draws everything from these five numbers (its q and k are seeded from d and the seed), so they are the
whole scene. core/scenes/query/file.py dispatches to it by kind and writes it atomically. Pure Python and numpy, no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from attention_explorer.core.files.fields import FORMAT_ID, check_format, text_fields
from attention_explorer.core.maths.positional import METHODS, check_d, check_position, frequencies, scores, seeded_pair
from attention_explorer.core.messages import field_name_text, value_kind
from attention_explorer.core.scenes.kinds import POSITIONS_KIND
from attention_explorer.core.scenes.query.scene import ScenarioError

POSITIONS_FIELDS = ("format", "kind", "title", "description", "d", "pair", "m", "n", "seed")


def _whole(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def check_pair(pair: Any, d: int) -> None:
    """Raise ScenarioError unless `pair` is one of the d/2 frequency pairs (0 fastest)."""
    if not _whole(pair) or not 0 <= pair < d // 2:
        raise ScenarioError("pair: expected 0 to {0}, got {1!r}", d // 2 - 1, pair)


def check_seed(seed: Any) -> None:
    """Raise ScenarioError unless `seed` is a whole number ≥ 0."""
    if not _whole(seed) or seed < 0:
        raise ScenarioError("seed: expected a whole number ≥ 0, got {0!r}", seed)


@dataclass(frozen=True)
class PositionalScene:
    """What the positions lab shows: q, k of width d (seeded), frequency pair `pair` in the plane, q at m, k at n."""

    d: int = 8
    pair: int = 0
    m: int = 5
    n: int = 2
    seed: int = 0
    title: str = ""
    description: str = ""

    def __post_init__(self) -> None:
        check_d(self.d)
        check_pair(self.pair, self.d)
        check_position(self.m, "m")
        check_position(self.n, "n")
        check_seed(self.seed)
        for name in ("d", "pair", "m", "n", "seed"):
            object.__setattr__(self, name, int(getattr(self, name)))

    def compute(self) -> PositionalResult:
        """The seeded q and k and both encodings' q·k at m and n."""
        q, k = seeded_pair(self.d, self.seed)
        return PositionalResult(q=q, k=k, scores={method: float(scores(method, q, k, self.m, self.n))
                                                  for method in METHODS})


@dataclass(frozen=True)
class PositionalResult:
    """The scene's fixed pair q, k and q·k with sinusoidal encodings added and with RoPE."""

    q: np.ndarray
    k: np.ndarray
    scores: dict[str, float]


def positions_from_dict(document: dict[str, Any]) -> PositionalScene:
    """Validate a parsed `"kind": "positions"` document and build the scene (the first problem raises)."""
    for name in document:
        if name not in POSITIONS_FIELDS:
            raise ScenarioError('"{0}": unknown field (allowed in a positions file: {1})',
                                field_name_text(name), ", ".join(POSITIONS_FIELDS))
    check_format(document)
    if document.get("kind") != POSITIONS_KIND:
        raise ScenarioError('kind: expected "{0}"', POSITIONS_KIND)
    for required in ("d", "m", "n"):
        if required not in document:
            raise ScenarioError('"{0}": missing', required)
    for name in ("d", "pair", "m", "n", "seed"):
        if name in document and not _whole(document[name]):
            raise ScenarioError("{0}: expected a whole number, got {1}", name, value_kind(document[name]))
    title, description = text_fields(document)
    return PositionalScene(d=document["d"], pair=document.get("pair", 0), m=document["m"], n=document["n"],
                           seed=document.get("seed", 0), title=title, description=description)


def positions_to_dict(scene: PositionalScene) -> dict[str, Any]:
    """The JSON document of a positions scene."""
    document: dict[str, Any] = {"format": FORMAT_ID, "kind": POSITIONS_KIND}
    if scene.title:
        document["title"] = scene.title
    if scene.description:
        document["description"] = scene.description
    document.update(d=scene.d, pair=scene.pair, m=scene.m, n=scene.n, seed=scene.seed)
    return document


def positions_report_json(scene: PositionalScene, result: PositionalResult) -> str:
    """What `compute` prints for a positions file, as JSON."""
    from attention_explorer.core.scenes.query.report import terminal_json  # only the command line prints

    return terminal_json({
        "kind": POSITIONS_KIND, "title": scene.title, "d": scene.d, "pair": scene.pair, "m": scene.m, "n": scene.n,
        "offset": scene.m - scene.n, "seed": scene.seed, "theta": float(frequencies(scene.d)[scene.pair]),
        "q": result.q.tolist(), "k": result.k.tolist(), "scores": result.scores,
    })


def positions_report_text(scene: PositionalScene, result: PositionalResult) -> str:
    """What `compute --format text` prints for a positions file."""
    from attention_explorer.core.scenes.query.report import terminal_text  # only the command line prints

    lines = [terminal_text(scene.title)] if scene.title else []
    lines += [
        f"d = {scene.d}, seed = {scene.seed}: q at m = {scene.m}, k at n = {scene.n} (m - n = {scene.m - scene.n})",
        "q = [" + ", ".join(f"{value:.4f}" for value in result.q) + "]",
        "k = [" + ", ".join(f"{value:.4f}" for value in result.k) + "]",
        f"sinusoidal (q + p_m).(k + p_n) = {result.scores['sinusoidal']:.6f}",
        f"RoPE R(m)q.R(n)k = {result.scores['rope']:.6f}",
    ]
    return "\n".join(lines) + "\n"
