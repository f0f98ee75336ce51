"""One training run (scaled or unscaled), the two side by side, what each reached, and a sweep over d_k.

Both runs of a seed share the training set, the probe and the initial W_Q and W_K; only the factor c differs. Every
step records the loss, the attention entropy (bits, mean over the examples), the softmax Jacobian norm (mean), the
norms of the gradients reaching W_Q and W_K, and the probe query's weights over its keys, all from the forward and
backward pass that step's update uses. The same seed gives the same numbers, bit for bit. Pure numpy, no Qt.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.attention import entropy_bits, inv_sqrt_scale, softmax_jacobian_norm
from attention_explorer.core.training.model import (
    Adam,
    Task,
    attention_weights,
    initial_weights,
    loss_and_gradients,
    make_task,
)

MIN_D_K, MAX_D_K = 16, 512
MIN_STEPS, MAX_STEPS = 1, 2000
MIN_LR, MAX_LR = 1e-5, 0.1
MAX_SEED = 2**31 - 1
DEFAULT_D_K, DEFAULT_STEPS, DEFAULT_LR, DEFAULT_SEED = 256, 300, 0.001, 0
SWEEP_D_KS = (16, 32, 64, 128, 256, 512)
THRESHOLD_SHARE = 0.25  # "learned": the loss below a quarter of the loss of attending to every key equally
# "Clearly slower": the unscaled run needed at least this many times the scaled run's steps, and CLEAR_STEPS more.
CLEAR_RATIO, CLEAR_STEPS = 1.25, 3


def _whole(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def check_d_k(d_k: Any) -> int:
    """d_k as an int, or ScenarioError unless it is a whole number from 16 to 512."""
    if not _whole(d_k) or not MIN_D_K <= d_k <= MAX_D_K:
        raise ScenarioError("d_k: expected a whole number from {0} to {1}, got {2!r}", MIN_D_K, MAX_D_K, d_k)
    return int(d_k)


def check_steps(steps: Any) -> int:
    """steps as an int, or ScenarioError unless it is a whole number from 1 to 2000."""
    if not _whole(steps) or not MIN_STEPS <= steps <= MAX_STEPS:
        raise ScenarioError("steps: expected a whole number from {0} to {1}, got {2!r}", MIN_STEPS, MAX_STEPS, steps)
    return int(steps)


def check_lr(lr: Any) -> float:
    """The learning rate as a float, or ScenarioError unless it is a number from 0.00001 to 0.1."""
    if isinstance(lr, bool) or not isinstance(lr, (int, float, np.integer, np.floating)) \
            or not math.isfinite(lr) or not MIN_LR <= lr <= MAX_LR:
        raise ScenarioError("learning rate: expected a number from {0} to {1}, got {2!r}", "0.00001", MAX_LR, lr)
    return float(lr)


def check_seed(seed: Any) -> int:
    """The seed as an int, or ScenarioError unless it is a whole number from 0 to 2³¹ − 1."""
    if not _whole(seed) or not 0 <= seed <= MAX_SEED:
        raise ScenarioError("seed: expected a whole number from 0 to {0}, got {1!r}", MAX_SEED, seed)
    return int(seed)


@dataclass(frozen=True)
class StepRecord:
    """What one step measured (before its update)."""

    step: int  # from 1
    loss: float
    entropy: float  # bits, mean over the training examples
    jacobian_norm: float  # mean over the training examples
    grad_norm_q: float  # Frobenius norm of ∂loss/∂W_Q
    grad_norm_k: float
    probe: tuple[float, ...]  # the probe query's weights over its N keys

    def as_json(self) -> dict[str, Any]:
        """What `train` prints for the step."""
        return {"step": self.step, "loss": self.loss, "entropy": self.entropy, "jacobian_norm": self.jacobian_norm,
                "grad_norm_q": self.grad_norm_q, "grad_norm_k": self.grad_norm_k}


def _norm(matrix: np.ndarray) -> float:
    """The Frobenius norm (the gradients stay far from float64's overflow and underflow of squares)."""
    return float(np.sqrt(np.sum(matrix * matrix)))


class Run:
    """One run: W_Q, W_K and Adam's moments, advanced one step at a time."""

    def __init__(self, d_k: int, lr: float, seed: int, scaled: bool, task: Task | None = None) -> None:
        self.d_k, self.lr, self.seed, self.scaled = check_d_k(d_k), check_lr(lr), check_seed(seed), bool(scaled)
        self.task = task if task is not None else make_task(self.seed)
        self.scale = inv_sqrt_scale(self.d_k) if scaled else 1.0
        self.w_q, self.w_k = initial_weights(self.seed, self.d_k)
        self.optimizer = Adam([self.w_q.shape, self.w_k.shape], self.lr)
        self.records: list[StepRecord] = []

    def step(self) -> StepRecord:
        """Measure, then update W_Q and W_K once on the whole training set."""
        task = self.task
        back = loss_and_gradients(self.w_q, self.w_k, task.keys, task.values, task.targets, task.queries, self.scale)
        probe = attention_weights(self.w_q, self.w_k, task.probe_keys, task.probe_query, self.scale)[0]
        record = StepRecord(
            step=len(self.records) + 1, loss=back.loss, entropy=float(np.mean(entropy_bits(back.weights))),
            jacobian_norm=float(np.mean(softmax_jacobian_norm(back.weights))),
            grad_norm_q=_norm(back.grad_w_q), grad_norm_k=_norm(back.grad_w_k),
            probe=tuple(float(w) for w in probe))
        self.optimizer.update([self.w_q, self.w_k], [back.grad_w_q, back.grad_w_k])
        self.records.append(record)
        return record


def threshold(task: Task) -> float:
    """The loss a run must get below to count as having learned: a quarter of attending to every key equally."""
    return THRESHOLD_SHARE * task.uniform_loss


def first_below(losses: Sequence[float], limit: float) -> int | None:
    """The first step (from 1) whose loss is below `limit`, or None."""
    for index, loss in enumerate(losses):
        if loss < limit:
            return index + 1
    return None


@dataclass(frozen=True)
class RunSummary:
    """What a run reached: `train`'s last line."""

    scaled: bool
    d_k: int
    steps: int  # steps done
    lr: float
    seed: int
    threshold: float
    reached_at: int | None  # the first step below the threshold
    first_loss: float
    final_loss: float
    first_entropy: float
    first_grad_norm_q: float
    final_grad_norm_q: float

    def as_json(self) -> dict[str, Any]:
        """`train`'s summary line."""
        return {"summary": True, "scaled": self.scaled, "d_k": self.d_k, "steps": self.steps, "lr": self.lr,
                "seed": self.seed, "threshold": self.threshold, "reached_threshold_at": self.reached_at,
                "first_loss": self.first_loss, "final_loss": self.final_loss, "first_entropy": self.first_entropy,
                "first_grad_norm_q": self.first_grad_norm_q, "final_grad_norm_q": self.final_grad_norm_q}


def summarize(run: Run) -> RunSummary:
    """The summary of the steps a run has done (at least one)."""
    records = run.records
    limit = threshold(run.task)
    return RunSummary(run.scaled, run.d_k, len(records), run.lr, run.seed, limit,
                      first_below([r.loss for r in records], limit), records[0].loss, records[-1].loss,
                      records[0].entropy, records[0].grad_norm_q, records[-1].grad_norm_q)


# What a comparison found, for the lab to say in words.
SCALED_FASTER = "scaled-faster"  # scaled reached the threshold clearly first (or alone): the claim holds here
UNSCALED_FASTER = "unscaled-faster"  # the unscaled run reached it clearly first: the claim does not hold here
ABOUT_SAME = "about-same"  # both reached it within a few steps of each other
NEITHER = "neither"  # neither reached it (yet)


def compare(scaled_at: int | None, unscaled_at: int | None) -> str:
    """Which run learned faster, from the steps at which each got below the threshold (None: never)."""
    if scaled_at is None and unscaled_at is None:
        return NEITHER
    if unscaled_at is None:
        return SCALED_FASTER
    if scaled_at is None:
        return UNSCALED_FASTER
    if unscaled_at >= CLEAR_RATIO * scaled_at and unscaled_at - scaled_at >= CLEAR_STEPS:
        return SCALED_FASTER
    if scaled_at >= CLEAR_RATIO * unscaled_at and scaled_at - unscaled_at >= CLEAR_STEPS:
        return UNSCALED_FASTER
    return ABOUT_SAME


@dataclass(frozen=True)
class SweepRow:
    """Both runs at one d_k of the sweep: the step each reached the threshold (None: not within the steps)."""

    d_k: int
    scaled_at: int | None
    unscaled_at: int | None

    @property
    def verdict(self) -> str:
        return compare(self.scaled_at, self.unscaled_at)


class Stopped(Exception):
    """A sweep was asked to stop."""


def run_to_end(d_k: int, steps: int, lr: float, seed: int, scaled: bool, task: Task | None = None,
               stop: Callable[[], bool] = lambda: False) -> Run:
    """A whole run of `steps` steps (Stopped when `stop()` says so between steps)."""
    run = Run(d_k, lr, seed, scaled, task)
    for _ in range(steps):
        if stop():
            raise Stopped
        run.step()
    return run


def sweep(steps: int, lr: float, seed: int, d_ks: Sequence[int] = SWEEP_D_KS,
          known: dict[int, tuple[int | None, int | None]] | None = None,
          progress: Callable[[int, int], None] = lambda done, total: None,
          stop: Callable[[], bool] = lambda: False) -> tuple[SweepRow, ...]:
    """Both runs at each d_k of `d_ks` with these steps, lr and seed (`known`: rows already run, by d_k)."""
    task = make_task(seed)
    limit = threshold(task)
    rows = []
    for done, d_k in enumerate(d_ks):
        progress(done, len(d_ks))
        if known and d_k in known:
            rows.append(SweepRow(d_k, *known[d_k]))
            continue
        reached = [first_below([r.loss for r in run_to_end(d_k, steps, lr, seed, scaled, task, stop).records], limit)
                   for scaled in (True, False)]
        rows.append(SweepRow(d_k, *reached))
    progress(len(d_ks), len(d_ks))
    return tuple(rows)


def clear_from(rows: Sequence[SweepRow]) -> int | None:
    """The smallest d_k of the sweep from which on (every larger d_k too) the scaled run was clearly faster."""
    found = None
    for row in reversed(rows):
        if row.verdict != SCALED_FASTER:
            break
        found = row.d_k
    return found
