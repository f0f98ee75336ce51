"""The training lab's scene: d_k, the number of steps, the learning rate and the seed; what it computes from them.

Both runs (scaled by 1/√d_k and unscaled) follow from these four numbers (core/training), so they are the whole
scene; its file is file.py's job, what `compute` prints report.py's. Pure Python and numpy, no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

from attention_explorer.core.training import run as training


@dataclass(frozen=True)
class TrainingScene:
    """Two runs of the tiny attention model from one seed: d_k, steps, Adam's learning rate, the seed."""

    d_k: int = training.DEFAULT_D_K
    steps: int = training.DEFAULT_STEPS
    lr: float = training.DEFAULT_LR
    seed: int = training.DEFAULT_SEED
    title: str = ""
    description: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "d_k", training.check_d_k(self.d_k))
        object.__setattr__(self, "steps", training.check_steps(self.steps))
        object.__setattr__(self, "lr", training.check_lr(self.lr))
        object.__setattr__(self, "seed", training.check_seed(self.seed))

    def compute(self) -> TrainingResult:
        """Both runs to the end."""
        runs = [training.run_to_end(self.d_k, self.steps, self.lr, self.seed, scaled) for scaled in (True, False)]
        return TrainingResult(training.summarize(runs[0]), training.summarize(runs[1]))


@dataclass(frozen=True)
class TrainingResult:
    """What each run reached."""

    scaled: training.RunSummary
    unscaled: training.RunSummary

    @property
    def verdict(self) -> str:
        """Which learned faster (core/training/run.py compare)."""
        return training.compare(self.scaled.reached_at, self.unscaled.reached_at)
