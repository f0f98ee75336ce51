"""The benchmark's interleaving (tests/benchmarks/interleave.py): a block of ours is divided by the reference measured
beside it, so that a machine whose speed changes during the run still gives the same ratios."""

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent / "benchmarks"))
from interleave import interleave


class DriftingMachine:
    """A fake machine: each measurement (reference or block) is one tick, and its slowness changes by `drift` a tick."""

    def __init__(self, drift: float) -> None:
        self.drift = drift
        self.tick = 0

    def _slowness(self) -> float:
        slowness = 1.0 + self.drift * self.tick
        self.tick += 1
        return slowness

    def reference(self) -> float:
        return 20.0 * self._slowness()

    def block(self, size: int) -> list[float]:
        return [3.0 * self._slowness()] * size


def test_a_block_is_divided_by_the_mean_of_the_references_before_and_after_it():
    references = iter([20.0, 60.0, 20.0])
    blocks = iter([[9.0, 9.0], [3.0, 3.0]])
    result = interleave(lambda size: next(blocks), lambda: next(references), 4, 2)
    assert result.times == [9.0, 9.0, 3.0, 3.0]
    assert result.relative == [9.0 / 40.0] * 2 + [3.0 / 40.0] * 2


@given(st.floats(-0.005, 0.5), st.integers(1, 60), st.integers(1, 10))
def test_a_machine_slowing_down_or_speeding_up_steadily_gives_one_ratio(drift, total, block):
    machine = DriftingMachine(drift)
    result = interleave(machine.block, machine.reference, total, block)
    assert len(result.times) == total
    assert result.relative == pytest.approx([3.0 / 20.0] * total)
    if drift > 0.01 and total > block:  # the plain quotient by the first reference would have drifted
        assert result.times[-1] / 20.0 > 1.01 * 3.0 / 20.0


def test_nothing_to_measure_is_refused():
    with pytest.raises(ValueError):
        interleave(lambda size: [1.0] * size, lambda: 1.0, 0, 5)


def test_a_tail_of_our_own_counts_and_a_busy_second_of_the_machine_does_not():
    """Every 10th move of ours is slow (4 ms in 2); in one block of five the machine stalls on 3 moves in 10."""
    blocks = iter(range(5))

    def block(size: int) -> list[float]:
        stalled = next(blocks) == 2
        return [(4.0 if i % 10 == 0 else 2.0) + (30.0 if stalled and i % 10 in (5, 6, 7) else 0.0) for i in range(size)]

    result = interleave(block, lambda: 20.0, 100, 20)
    assert result.p95_ratio() == pytest.approx(4.0 / 20.0)
    assert result.median_ratio() == pytest.approx(2.0 / 20.0)
    # Over all the samples at once, the stalled block's six moves alone would have set the p95 above the tail.
    assert float(np.percentile(result.relative, 95)) > 4.0 / 20.0
