"""Time bounds in the suite, scaled by the machine's calibration measured in the same run.

A bound like "a hostile file is refused in under 2 s" is written for the reference machine (docs/performance.md).
On a machine 2.5× slower (a calibration of 36 ms instead of 14.5) the same code took 2.05 s and the suite failed,
though nothing had changed. So each bound is multiplied by how much slower this machine is, now, than the
reference; it is never made tighter than the reference's figure on a faster machine. Speed itself is judged by
tests/benchmarks/.
"""

from __future__ import annotations

from functools import lru_cache

from tests.benchmarks.machine import calibrate

# The reference machine: tests/benchmarks/machine.py's calibration there (docs/performance.md, Method).
REFERENCE_CALIBRATION_MS = 14.5


@lru_cache(maxsize=1)
def slowdown() -> float:
    """How many times slower than the reference machine this one runs, measured once per test process (≥ 1)."""
    return max(1.0, calibrate(repetitions=5)["calibration_ms"] / REFERENCE_CALIBRATION_MS)


def seconds(reference_seconds: float) -> float:
    """A bound of `reference_seconds` on the reference machine, as it stands on this machine."""
    return reference_seconds * slowdown()
