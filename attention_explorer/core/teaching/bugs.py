"""Spot the bug: real, publicly reported mistakes in attention code, each as a named variant of the maths.

Every bug here was seen in a public issue or pull request (`Bug.seen`); each has a small scene that shows it
(`scene_for`), the right weights (`right`, the app's own masked softmax) and the weights the buggy code computes
(`run`). `diagnose` measures the symptom from the two results alone (rows not summing to 1, NaN, an overflowing
e^x, weight on masked keys, a changed temperature…), so what the page states is what the numbers show. One variant
is a decoy: scaling q before the dot product was reported as a bug but gives the same weights.

A question asks "which bug is this?" with four choices. Pure numpy, no Qt: ids and numbers here, words in the window.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.attention import entropy_bits, frozen
from attention_explorer.core.maths.masks import masked_attention
from attention_explorer.core.scenes.multihead.scene import build_multihead, compute_multihead
from attention_explorer.core.scenes.sequence.scene import build_sequence, compute_sequence

WRONG_AXIS = "wrong_axis"  # softmax over the queries (columns) instead of the keys (rows)
SCALE_D_MODEL = "scale_d_model"  # 1/√d_model instead of 1/√d_k in a head
MASK_AFTER_SOFTMAX = "mask_after_softmax"  # weights zeroed after the softmax: rows sum to less than 1
MASK_WITH_ZERO = "mask_with_zero"  # masked scores set to 0 (or 1e-9), not −∞: masked keys keep weight
ALL_MASKED_NAN = "all_masked_nan"  # a query with every key masked: softmax of all −∞ is 0/0 = NaN
NO_MAX_SHIFT = "no_max_shift"  # e^x without subtracting the maximum: scores near 1000 overflow
K_NOT_TRANSPOSED = "k_not_transposed"  # Q·K instead of Q·Kᵀ: a shape error, or silently wrong when N = d_k
SCALE_Q_FIRST = "scale_q_first"  # the decoy: (q/√d_k)·Kᵀ equals (q·Kᵀ)/√d_k
BUGS = (WRONG_AXIS, SCALE_D_MODEL, MASK_AFTER_SOFTMAX, MASK_WITH_ZERO, ALL_MASKED_NAN, NO_MAX_SHIFT,
        K_NOT_TRANSPOSED, SCALE_Q_FIRST)
CHOICES = 4

# What `diagnose` finds, the most telling first.
OVERFLOW = "overflow"  # e^x was inf somewhere, and NaN came out
NAN = "nan"  # NaN weights without any overflow (0/0)
MASKED_WEIGHT = "masked_weight"  # a masked key got weight
ROW_SUMS = "row_sums"  # a query's weights do not add up to 1
TEMPERATURE = "temperature"  # the same scores at another temperature: flatter (factor < 1) or sharper
DIFFERENT = "different"  # rows sum to 1, nothing masked leaks, no NaN: just different weights
NONE = "none"  # the same weights as the right computation (to rounding)
SYMPTOMS = (OVERFLOW, NAN, MASKED_WEIGHT, ROW_SUMS, TEMPERATURE, DIFFERENT, NONE)

EXP_OVERFLOW = math.log(np.finfo(np.float64).max)  # 709.78: e^x is inf beyond it
SAME = 1e-12  # weights this close are the same weights (the decoy differs by rounding only)
TOKENS = ("我", "爱", "北京", "天安门")
PADDED = ("我", "爱", "北京", "[PAD]")


@dataclass(frozen=True)
class Sighting:
    """Where a bug was seen: a GitHub issue or pull request."""

    repo: str  # owner/name
    number: int
    pull: bool = False

    @property
    def url(self) -> str:
        """Its address on GitHub."""
        return f"https://github.com/{self.repo}/{'pull' if self.pull else 'issues'}/{self.number}"

    @property
    def label(self) -> str:
        """"owner/name #5" or "owner/name PR #6"."""
        return f"{self.repo} {'PR ' if self.pull else ''}#{self.number}"


@dataclass(frozen=True)
class Bug:
    """One variant: its id, whether it is really a bug, and where it was seen (empty: no single public report)."""

    id: str
    is_bug: bool
    seen: tuple[Sighting, ...]


BUG_INFO: dict[str, Bug] = {bug.id: bug for bug in (
    Bug(WRONG_AXIS, True, (Sighting("PetrochukM/PyTorch-NLP", 2), Sighting("fastnlp/fastNLP", 254),
                           Sighting("jadore801120/attention-is-all-you-need-pytorch", 52))),
    Bug(SCALE_D_MODEL, True, (Sighting("karpathy/ng-video-lecture", 6, pull=True),
                              Sighting("Graylab/DL4Proteins-notebooks", 12))),
    Bug(MASK_AFTER_SOFTMAX, True, (Sighting("huggingface/pytorch-image-models", 2236, pull=True),)),
    Bug(MASK_WITH_ZERO, True, (Sighting("awslabs/gluonts", 1401, pull=True),)),
    Bug(ALL_MASKED_NAN, True, (Sighting("jadore801120/attention-is-all-you-need-pytorch", 5),
                               Sighting("pytorch/pytorch", 41508))),
    Bug(NO_MAX_SHIFT, True, ()),
    Bug(K_NOT_TRANSPOSED, True, ()),
    Bug(SCALE_Q_FIRST, False, (Sighting("facebookresearch/XLM", 357, pull=True),)),
)}


def bug(bug_id: str) -> Bug:
    """The variant called `bug_id` (ScenarioError for an unknown one)."""
    if bug_id not in BUG_INFO:
        raise ScenarioError("unknown bug {0!r} (known: {1})", bug_id, ", ".join(BUGS))
    return BUG_INFO[bug_id]


@dataclass(frozen=True, eq=False)
class BugScene:
    """Queries, keys and values of one head, which cells are masked, and the sizes the scale is made from."""

    tokens: tuple[str, ...]
    queries: np.ndarray  # N × d_k
    keys: np.ndarray  # N × d_k
    values: np.ndarray  # N × d_v
    blocked: np.ndarray  # N × N, True where a query may not look
    heads: int = 1  # d_model = heads · d_k

    @property
    def n(self) -> int:
        """Number of tokens."""
        return int(self.queries.shape[0])

    @property
    def d_k(self) -> int:
        """Width of one head's queries and keys."""
        return int(self.queries.shape[1])

    @property
    def d_model(self) -> int:
        """Width of the model: every head's d_k together."""
        return self.d_k * self.heads

    @property
    def scale(self) -> float:
        """The right factor, 1/√d_k."""
        return 1.0 / math.sqrt(self.d_k)

    @property
    def empty_rows(self) -> np.ndarray:
        """True for a query with no key it may look at."""
        return np.all(self.blocked, axis=1)


@dataclass(frozen=True, eq=False)
class Run:
    """What one variant computed: the scores it took the softmax of, its exponentials and its weights."""

    scores: np.ndarray  # N × N, scaled (and masked, if the variant masks before the softmax)
    exponentials: np.ndarray  # N × N, e^x as the variant computed it (shifted by the row's max when it shifts)
    weights: np.ndarray  # N × N; may hold NaN


def _scene(tokens: tuple[str, ...], queries: np.ndarray, keys: np.ndarray, values: np.ndarray,
           blocked: np.ndarray | None = None, heads: int = 1) -> BugScene:
    n = len(tokens)
    return BugScene(tokens, frozen(queries), frozen(keys), frozen(values),
                    np.zeros((n, n), dtype=bool) if blocked is None else np.array(blocked, dtype=bool), heads)


def _from_sequence(causal: bool = False, d_k: int = 4, seed: int = 0, tokens: tuple[str, ...] = TOKENS) -> BugScene:
    """The app's own sequence scene (seeded embeddings and projections) as one head's Q, K, V."""
    sequence = build_sequence(tokens, d_model=8, d_k=d_k, d_v=4, seed=seed, causal=causal)
    result = compute_sequence(sequence)
    return _scene(tokens, result.queries, result.keys, result.values, result.mask)


def scene_for(bug_id: str) -> BugScene:
    """The scene that shows `bug_id`'s symptom: four tokens, seeded (the same numbers every time)."""
    bug(bug_id)
    if bug_id in (MASK_AFTER_SOFTMAX, MASK_WITH_ZERO):
        return _from_sequence(causal=True, seed=1)
    if bug_id == SCALE_D_MODEL:
        return multihead_scene()
    if bug_id == ALL_MASKED_NAN:
        base = _from_sequence(seed=2, tokens=PADDED)
        blocked = np.zeros((4, 4), dtype=bool)
        blocked[:, 3] = True  # nobody looks at [PAD]…
        blocked[3, :] = True  # …and [PAD]'s own row masked too (a query-and-key padding mask): no key left
        return _scene(PADDED, base.queries, base.keys, base.values, blocked)
    if bug_id == NO_MAX_SHIFT:
        return large_scores_scene()
    if bug_id == WRONG_AXIS:
        return _from_sequence(seed=3)
    return _from_sequence(seed=0)  # N = d_k = 4: K not transposed still multiplies; the decoy


MULTIHEAD_D_MODEL, MULTIHEAD_HEADS, MULTIHEAD_HEAD = 32, 8, 0


def multihead_scene() -> BugScene:
    """One head of the app's multi-head scene (d_model 32, 8 heads of d_k 4)."""
    scenario = build_multihead(TOKENS, MULTIHEAD_D_MODEL, MULTIHEAD_HEADS, seed=0)
    result = compute_multihead(scenario)
    columns = scenario.head_columns(MULTIHEAD_HEAD)
    return _scene(TOKENS, result.queries[:, columns], result.keys[:, columns], result.values[:, columns],
                  heads=MULTIHEAD_HEADS)


LARGE_SCORE = 1000.0


def large_scores_scene() -> BugScene:
    """Scaled scores 1000 + a few units: q and k share one long component, the rest of them is a small scene's."""
    small = _from_sequence(seed=4)
    d_k = small.d_k + 1
    length = math.sqrt(LARGE_SCORE * math.sqrt(d_k))  # q·k/√d_k gets LARGE_SCORE from the shared component
    queries = np.hstack([np.full((small.n, 1), length), small.queries * 2.0])
    keys = np.hstack([np.full((small.n, 1), length), small.keys * 2.0])
    return _scene(small.tokens, queries, keys, small.values)


# ---------------------------------------------------------------- the right computation and the variants


def right(scene: BugScene) -> np.ndarray:
    """softmax(Q·Kᵀ/√d_k + M)·V's weights, as the app computes them; a query with no key left gets zeros."""
    empty = scene.empty_rows
    weights = np.zeros((scene.n, scene.n))
    if not np.all(empty):
        keep = ~empty
        blocked = scene.blocked[keep]
        weights[keep] = masked_attention(scene.queries[keep], scene.keys, scene.values, scene.scale, blocked).weights
    return weights


def _rows_softmax_naive(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """e^x / Σ e^x along the rows, without subtracting the maximum first."""
    with np.errstate(over="ignore", invalid="ignore"):
        exponentials = np.exp(scores)
        return exponentials, exponentials / np.sum(exponentials, axis=1, keepdims=True)


def _shifted(scores: np.ndarray, axis: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The usual softmax with its exponentials e^(x − max); a slice of −∞ only gives NaN, as the buggy code does."""
    with np.errstate(invalid="ignore"):
        exponentials = np.exp(scores - np.max(scores, axis=axis, keepdims=True))
        return exponentials, exponentials / np.sum(exponentials, axis=axis, keepdims=True)


def run(bug_id: str, scene: BugScene) -> Run:
    """The weights `bug_id`'s code computes for `scene` (K not transposed needs N = d_k: see `transpose_refusal`)."""
    bug(bug_id)
    q, k, blocked = scene.queries, scene.keys, scene.blocked
    raw = q @ k.T
    masked = np.where(blocked, -np.inf, raw * scene.scale)
    if bug_id == WRONG_AXIS:
        exponentials, weights = _shifted(masked, axis=0)
        return Run(frozen(masked), frozen(exponentials), frozen(weights))
    if bug_id == SCALE_D_MODEL:
        scores = np.where(blocked, -np.inf, raw / math.sqrt(scene.d_model))
    elif bug_id == MASK_AFTER_SOFTMAX:
        scores = raw * scene.scale
        exponentials, weights = _shifted(scores)
        return Run(frozen(scores), frozen(exponentials), frozen(np.where(blocked, 0.0, weights)))
    elif bug_id == MASK_WITH_ZERO:
        scores = np.where(blocked, 0.0, raw * scene.scale)
    elif bug_id == NO_MAX_SHIFT:
        exponentials, weights = _rows_softmax_naive(masked)
        return Run(frozen(masked), frozen(exponentials), frozen(weights))
    elif bug_id == K_NOT_TRANSPOSED:
        if transpose_refusal(scene) is not None:
            raise ScenarioError("K not transposed: Q is {0}×{1} and K is {2}×{3}, so Q·K has no product",
                                *q.shape, *k.shape)
        scores = np.where(blocked, -np.inf, (q @ k) * scene.scale)
    elif bug_id == SCALE_Q_FIRST:
        scores = np.where(blocked, -np.inf, (q * scene.scale) @ k.T)
    else:  # ALL_MASKED_NAN: the textbook code, −∞ and the max-shift, run on a row with nothing left
        scores = masked
    exponentials, weights = _shifted(scores)
    return Run(frozen(scores), frozen(exponentials), frozen(weights))


def transpose_refusal(scene: BugScene) -> tuple[int, int, int, int] | None:
    """Q's and K's shapes when Q·K (K not transposed) cannot be multiplied (d_k ≠ N), else None: silently wrong."""
    if scene.d_k == scene.n:
        return None
    return (*scene.queries.shape, *scene.keys.shape)


# ---------------------------------------------------------------- the symptom, measured


@dataclass(frozen=True)
class Symptom:
    """What the buggy weights show next to the right ones; `kind` is the most telling of them (SYMPTOMS order)."""

    kind: str
    row_sums: tuple[float, ...]  # of the buggy weights (NaN for a row with NaN)
    column_sums: tuple[float, ...]  # of the buggy weights: all 1 when the softmax ran down the columns
    nan_cells: int
    inf_exponentials: int  # e^x that overflowed to inf
    largest_score: float  # the largest finite score the variant took e^x of
    masked_weight: float  # the largest weight the variant gave a masked key (0 when none)
    worst_row: int  # the row the kind's number is about
    entropy_right: float  # mean bits over the rows both give finite weights for (and that have keys)
    entropy_wrong: float
    temperature: float  # buggy scores = factor · right scores, when that explains the weights (else NaN)
    max_difference: float  # largest |buggy − right| over finite cells


def _temperature(right_scores: np.ndarray, wrong: np.ndarray, rows: np.ndarray) -> float:
    """The factor t with log w_wrong = t · right score + c per row, when it fits every row (else NaN)."""
    xs, ys = [], []
    for row in np.flatnonzero(rows):
        allowed = np.isfinite(right_scores[row])
        if np.count_nonzero(allowed) < 2 or np.any(wrong[row][allowed] <= 0):
            continue
        x = right_scores[row][allowed]
        y = np.log(wrong[row][allowed])
        xs.append(x - x.mean())
        ys.append(y - y.mean())
    if not xs:
        return math.nan
    x, y = np.concatenate(xs), np.concatenate(ys)
    if float(x @ x) == 0.0:
        return math.nan
    factor = float(x @ y) / float(x @ x)
    return factor if np.max(np.abs(y - factor * x)) < 1e-9 else math.nan


def diagnose(scene: BugScene, wrong: Run) -> Symptom:
    """The symptom of `wrong` measured against the right weights of `scene`."""
    good = right(scene)
    weights = np.asarray(wrong.weights)
    sums = np.sum(weights, axis=1)
    nan_cells = int(np.count_nonzero(np.isnan(weights)))
    inf_exponentials = int(np.count_nonzero(np.isinf(wrong.exponentials)))
    finite_scores = wrong.scores[np.isfinite(wrong.scores)]
    largest = float(np.max(finite_scores)) if finite_scores.size else math.nan
    leaked = np.where(scene.blocked & np.isfinite(weights), np.abs(weights), 0.0)
    rows = ~scene.empty_rows & np.all(np.isfinite(weights), axis=1)
    entropy_right = float(np.mean(entropy_bits(good[rows]))) if np.any(rows) else math.nan
    entropy_wrong = float(np.mean(entropy_bits(np.clip(weights[rows], 0.0, None)))) if np.any(rows) else math.nan
    finite = np.isfinite(weights)
    difference = float(np.max(np.abs(weights - good)[finite])) if np.any(finite) else math.nan
    right_scores = np.where(scene.blocked, -np.inf, scene.queries @ scene.keys.T * scene.scale)
    off = np.where(np.isnan(sums), 0.0, np.abs(sums - 1.0))
    off[scene.empty_rows] = 0.0  # a query with nothing to look at owes no sum of 1
    if nan_cells:
        kind = OVERFLOW if inf_exponentials else NAN
        worst = int(np.flatnonzero(np.any(np.isnan(weights), axis=1))[0])
    elif np.max(leaked) > SAME:
        kind, worst = MASKED_WEIGHT, int(np.argmax(np.max(leaked, axis=1)))
    elif np.max(off) > SAME:
        kind, worst = ROW_SUMS, int(np.argmax(off))
    elif difference <= SAME:
        kind, worst = NONE, 0
    else:
        worst = int(np.argmax(np.max(np.abs(weights - good), axis=1)))
        kind = DIFFERENT
    temperature = _temperature(right_scores, weights, rows) if kind == DIFFERENT else math.nan
    if not math.isnan(temperature) and abs(temperature - 1.0) > 1e-6:
        kind = TEMPERATURE
    return Symptom(kind=kind, row_sums=tuple(float(s) for s in sums),
                   column_sums=tuple(float(s) for s in np.sum(weights, axis=0)), nan_cells=nan_cells,
                   inf_exponentials=inf_exponentials, largest_score=largest, masked_weight=float(np.max(leaked)),
                   worst_row=worst, entropy_right=entropy_right, entropy_wrong=entropy_wrong,
                   temperature=temperature, max_difference=difference)


@dataclass(frozen=True, eq=False)
class Case:
    """One bug on its scene: the right weights, the buggy run and the symptom measured between them."""

    bug: Bug
    scene: BugScene
    right: np.ndarray
    wrong: Run
    symptom: Symptom

    @property
    def right_row_sums(self) -> tuple[float, ...]:
        """Each query's right weights added up (1 on every row): what the page writes under the right map."""
        return tuple(float(total) for total in np.sum(self.right, axis=1))


def case(bug_id: str) -> Case:
    """`bug_id` on the scene that shows it, computed right and wrong, with its symptom."""
    scene = scene_for(bug_id)
    wrong = run(bug_id, scene)
    return Case(bug(bug_id), scene, frozen(right(scene)), wrong, diagnose(scene, wrong))


# ---------------------------------------------------------------- "which bug is this?"


@dataclass(frozen=True)
class BugQuestion:
    """The bug shown and four choices (ids), one of them it."""

    shown: str
    choices: tuple[str, ...]

    @property
    def answer(self) -> int:
        """The index of the right choice."""
        return self.choices.index(self.shown)


def question(shown: str, seed: int) -> BugQuestion:
    """Four choices for `shown`: it and three other variants (the decoy among them sometimes), in seeded order."""
    bug(shown)
    draw = random.Random(f"{shown}/{seed}")
    others = draw.sample([other for other in BUGS if other != shown], CHOICES - 1)
    choices = [shown, *others]
    draw.shuffle(choices)
    return BugQuestion(shown, tuple(choices))


def order(seed: int) -> tuple[str, ...]:
    """Every variant once, in a seeded order (the order question mode asks them in)."""
    ids = list(BUGS)
    random.Random(seed).shuffle(ids)
    return tuple(ids)


def is_right(asked: BugQuestion, chosen: int) -> bool:
    """True when choice `chosen` names the bug shown."""
    if not 0 <= chosen < len(asked.choices):
        raise ScenarioError("choice {0}: expected 0 to {1}", chosen, len(asked.choices) - 1)
    return chosen == asked.answer
