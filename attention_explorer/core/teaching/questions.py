"""Predict, then reveal: questions generated from the current scene, and the check of an answer against the core.

A question names what the learner is asked (its kind and numbers); the window words it. Pure numpy, no Qt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attention_explorer.core.limits import MAX_DIM, ScenarioError
from attention_explorer.core.maths.attention import entropy_bits
from attention_explorer.core.scenes.query.scene import Scenario, with_d_k, with_scale
from attention_explorer.core.scenes.sequence.scene import SequenceScenario

LARGEST_WEIGHT = "largest_weight"  # which key gets the largest weight? (click a key)
WEIGHT_HALF = "weight_half"  # drag a key until its weight is about the target (checked on demand)
FLATTER_SHARPER = "flatter_sharper"  # d_k grows: do the weights get flatter or sharper? (two buttons)
OUTPUT_PLACE = "output_place"  # where will the output land? (click on the output view)
ATTEND_MOST = "attend_most"  # self-attention: which position does token i attend to most? (click a cell)
# In the order the four steps meet them; the explorer's kinds first, the self-attention lab's last.
KINDS = (FLATTER_SHARPER, LARGEST_WEIGHT, WEIGHT_HALF, OUTPUT_PLACE, ATTEND_MOST)
EXPLORER_KINDS = KINDS[:4]
# The hidden step each explorer question comes before (the weights at step 3, the output at step 4).
STEP_OF_KIND = {FLATTER_SHARPER: 2, LARGEST_WEIGHT: 3, WEIGHT_HALF: 3, OUTPUT_PLACE: 4}
FLATTER, SHARPER = "flatter", "sharper"
WEIGHT_TARGET = 0.5
WEIGHT_TOLERANCE = 0.05
GROWTH = 4  # d_k is multiplied (or, at the limit, divided) by this
# The output counts as found within this share of the spread of the values (at least an absolute floor).
OUTPUT_TOLERANCE_SHARE = 0.1
OUTPUT_TOLERANCE_FLOOR = 0.02
_TIE = 1e-12


@dataclass(frozen=True)
class Question:
    """One question about a scene: `kind` and the numbers its wording needs (unused ones keep their defaults)."""

    kind: str
    key: int = -1  # WEIGHT_HALF: the key to drag
    token: int = -1  # ATTEND_MOST: the query token (row)
    target: float = math.nan  # WEIGHT_HALF: the weight to reach
    tolerance: float = math.nan  # WEIGHT_HALF, OUTPUT_PLACE: how far off still counts
    d_from: int = 0  # FLATTER_SHARPER: d_k before and after
    d_to: int = 0
    scaled: bool = False  # FLATTER_SHARPER: True with 1/√d_k, False with a fixed factor (1: the scale off)
    factor: float = 1.0  # FLATTER_SHARPER without 1/√d_k: the factor the scene has, kept as d_k grows

    @property
    def step(self) -> int:
        """The explorer step this question comes before (0 for the self-attention lab's)."""
        return STEP_OF_KIND.get(self.kind, 0)


@dataclass(frozen=True)
class Verdict:
    """The truth next to the guess: whether it counts, and the numbers the reveal shows."""

    correct: bool
    truth: tuple[float, ...]  # the key/column index, the weight reached, the entropies, the output…
    guess: tuple[float, ...]
    distance: float = math.nan  # OUTPUT_PLACE: from the guess to the true output; WEIGHT_HALF: from the target


def _explorer_scene(scene: Scenario | SequenceScenario, kind: str) -> Scenario:
    if not isinstance(scene, Scenario):
        raise ScenarioError("question {0}: needs a single-query scenario", kind)
    return scene


def applies(kind: str, scene: Scenario | SequenceScenario) -> bool:
    """True when a question of `kind` can be asked about `scene` (and has an answer worth asking for)."""
    if kind == ATTEND_MOST:
        return isinstance(scene, SequenceScenario) and scene.n >= 2
    if not isinstance(scene, Scenario) or scene.n < 2:
        return False
    if kind == OUTPUT_PLACE:
        return scene.d_v == 2
    if kind == FLATTER_SHARPER:
        return bool(np.any(scene.query != 0))
    return kind in (LARGEST_WEIGHT, WEIGHT_HALF)


def kinds_for(scene: Scenario | SequenceScenario) -> tuple[str, ...]:
    """Every kind of question `scene` allows, in KINDS order."""
    return tuple(kind for kind in KINDS if applies(kind, scene))


def generate(kind: str, scene: Scenario | SequenceScenario, selected: int = 0, variant: int = 0) -> Question:
    """A question of `kind` about `scene`; `selected` is the highlighted key, `variant` varies the numbers asked."""
    if kind not in KINDS:
        raise ScenarioError("unknown question {0!r} (known: {1})", kind, ", ".join(KINDS))
    if not applies(kind, scene):
        raise ScenarioError("question {0}: does not apply to this scene", kind)
    if kind == ATTEND_MOST:
        return Question(kind, token=variant % scene.n)
    scenario = _explorer_scene(scene, kind)
    if kind == WEIGHT_HALF:
        return Question(kind, key=_key_to_drag(scenario, selected), target=WEIGHT_TARGET, tolerance=WEIGHT_TOLERANCE)
    if kind == OUTPUT_PLACE:
        return Question(kind, tolerance=output_tolerance(scenario))
    if kind == FLATTER_SHARPER:
        d_from = scenario.d_k
        d_to = d_from * GROWTH if d_from * GROWTH <= MAX_DIM else max(1, d_from // GROWTH)
        # The scale the scene has now, as the window shows it: the question speaks of the state the learner sees.
        scaled = scenario.scale is None
        return Question(kind, d_from=d_from, d_to=d_to, scaled=scaled, factor=1.0 if scaled else scenario.scale)
    return Question(kind)


def _key_to_drag(scenario: Scenario, selected: int) -> int:
    """The selected key, or the next one whose weight is not already at the target."""
    weights = scenario.compute().weights
    for offset in range(scenario.n):
        index = (selected + offset) % scenario.n
        if abs(weights[index] - WEIGHT_TARGET) > WEIGHT_TOLERANCE:
            return index
    return selected % scenario.n


def output_tolerance(scenario: Scenario) -> float:
    """How near the true output a click on the output view counts as right: a tenth of the values' spread."""
    values = scenario.values
    spread = float(np.max(np.linalg.norm(values[:, None, :] - values[None, :, :], axis=-1)))
    return max(OUTPUT_TOLERANCE_SHARE * spread, OUTPUT_TOLERANCE_FLOOR)


def largest_keys(weights: np.ndarray) -> tuple[int, ...]:
    """Every index whose weight is the largest (ties all count)."""
    weights = np.asarray(weights, dtype=np.float64)
    return tuple(int(i) for i in np.flatnonzero(weights >= np.max(weights) - _TIE))


def grown_pair(scenario: Scenario, question: Question) -> tuple[Scenario, Scenario]:
    """The scene at d_from and at d_to, with 1/√d_k or the question's fixed factor; new components as the explorer's
    d_k slider makes them (seeded N(0, 1), seed 0), so moving the slider afterwards shows the same numbers."""
    scale = None if question.scaled else question.factor
    before = with_scale(with_d_k(scenario, question.d_from, "random", 0), scale)
    after = with_scale(with_d_k(scenario, question.d_to, "random", 0), scale)
    return before, after


def flatter_or_sharper(scenario: Scenario, question: Question) -> tuple[str, float, float]:
    """The true answer, with the entropies (bits) of the weights before and after the change of d_k."""
    before, after = grown_pair(scenario, question)
    entropy_before = float(entropy_bits(before.compute().weights))
    entropy_after = float(entropy_bits(after.compute().weights))
    return (SHARPER if entropy_after < entropy_before else FLATTER), entropy_before, entropy_after


def check_key(question: Question, scene: Scenario | SequenceScenario, clicked: int) -> Verdict:
    """LARGEST_WEIGHT (a key) or ATTEND_MOST (a column of the question's row): is `clicked` the largest weight?"""
    if question.kind == ATTEND_MOST:
        if not isinstance(scene, SequenceScenario):
            raise ScenarioError("question {0}: needs a self-attention scene", question.kind)
        weights = scene.compute().weights[question.token]
    elif question.kind == LARGEST_WEIGHT:
        weights = _explorer_scene(scene, question.kind).compute().weights
    else:
        raise ScenarioError("question {0}: is not answered by clicking a key", question.kind)
    best = largest_keys(weights)
    return Verdict(clicked in best, truth=(best[0], float(weights[best[0]])), guess=(clicked, float(weights[clicked])))


def check_weight(question: Question, scene: Scenario) -> Verdict:
    """WEIGHT_HALF: is the question's key within the tolerance of the target now (after the learner's drag)?"""
    weight = float(_explorer_scene(scene, question.kind).compute().weights[question.key])
    distance = abs(weight - question.target)
    return Verdict(distance <= question.tolerance, truth=(question.target,), guess=(weight,), distance=distance)


def check_choice(question: Question, scene: Scenario, choice: str) -> Verdict:
    """FLATTER_SHARPER: `choice` is FLATTER or SHARPER; truth holds the two entropies, before and after."""
    if choice not in (FLATTER, SHARPER):
        raise ScenarioError("answer {0!r}: expected {1} or {2}", choice, FLATTER, SHARPER)
    answer, entropy_before, entropy_after = flatter_or_sharper(_explorer_scene(scene, question.kind), question)
    guess = 1.0 if choice == SHARPER else 0.0
    return Verdict(choice == answer, truth=(1.0 if answer == SHARPER else 0.0, entropy_before, entropy_after),
                   guess=(guess,))


def check_point(question: Question, scene: Scenario, x: float, y: float) -> Verdict:
    """OUTPUT_PLACE: how far the clicked point (x, y) is from the true output, and whether that is near enough."""
    output = _explorer_scene(scene, question.kind).compute().output
    distance = math.hypot(x - float(output[0]), y - float(output[1]))
    return Verdict(distance <= question.tolerance, truth=(float(output[0]), float(output[1])), guess=(x, y),
                   distance=distance)


@dataclass
class Score:
    """Right answers out of questions answered, for as long as the window is open (nothing else is kept)."""

    right: int = 0
    asked: int = 0

    def add(self, verdict: Verdict) -> None:
        """Count one answered question."""
        self.asked += 1
        self.right += int(verdict.correct)

    def reset(self) -> None:
        """Back to 0 of 0."""
        self.right = self.asked = 0
