"""The benchmark's measures of the machine itself: a fixed numpy + pure-Python calibration and interleaved start-ups.

Every figure of the benchmark is also given as a ratio to one of these, measured in the same run, so that a slower
or busier machine does not turn a pass into a fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np


def _numpy_work() -> float:
    """A fixed numpy workload of the kinds the program uses: a matrix product, exponentials, a sort."""
    rng = np.random.default_rng(15)
    a = rng.standard_normal((256, 256))
    total = float((a @ a).sum())
    total += float(np.exp(rng.standard_normal(200_000) * 0.1).sum())
    total += float(np.sort(rng.standard_normal(100_000))[0])
    return total


def _python_work() -> float:
    """A fixed pure-Python workload: attribute look-ups, calls, float arithmetic and a dict, as a drag does."""
    table: dict[int, float] = {}
    total = 0.0
    for i in range(60_000):
        value = (i % 97) * 0.5 + 1.0
        table[i % 512] = value
        total += value / (1.0 + table.get((i * 7) % 512, 0.0))
    return total


def _best_ms(work, repetitions: int) -> float:
    """The median time of `repetitions` runs of `work` in milliseconds, after one unmeasured run."""
    work()
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000.0)
    return float(np.median(times))


def calibrate(repetitions: int = 9) -> dict[str, float]:
    """The machine's calibration: milliseconds of the fixed numpy and pure-Python work, and their sum."""
    numpy_ms = _best_ms(_numpy_work, repetitions)
    python_ms = _best_ms(_python_work, repetitions)
    return {"calibration_numpy_ms": numpy_ms, "calibration_python_ms": python_ms,
            "calibration_ms": numpy_ms + python_ms}


def timed_run(command: list[str], folder: str, environment: dict[str, str]) -> float:
    """Wall time of one process in seconds (it must succeed)."""
    start = time.perf_counter()
    subprocess.run(command, check=True, env=environment, cwd=folder, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    return time.perf_counter() - start


def interleaved(ours: list[str], floor: list[str], runs: int, folder: str) -> tuple[list[float], list[float]]:
    """Our command and its floor run alternately, `runs` pairs, the order flipped every pair.

    Each pair runs under the same load, so the median of the pairs' ratios holds on a busy machine where either
    list alone moves by half.
    """
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    environment["QT_QPA_PLATFORM"] = "offscreen"
    mine, theirs = [], []
    for run in range(runs):
        if run % 2:
            theirs.append(timed_run(floor, folder, environment))
            mine.append(timed_run(ours, folder, environment))
        else:
            mine.append(timed_run(ours, folder, environment))
            theirs.append(timed_run(floor, folder, environment))
    return mine, theirs


def pair_ratio(mine: list[float], theirs: list[float]) -> float | None:
    """The median of the per-pair ratios (each pair shared the machine's load)."""
    if not mine or not theirs:
        return None
    return float(np.median(np.asarray(mine) / np.asarray(theirs)))


def python_command() -> list[str]:
    """The interpreter that runs the benchmark, with no site customisation beyond the venv's."""
    return [sys.executable]
