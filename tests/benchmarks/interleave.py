"""Our measurements taken in blocks between short runs of a reference, each block divided by the reference beside it.

A shared 2-core machine changes speed from second to second (the same pure-Python loop was seen to take 10 ms in one
half-second and 16 ms in the next). A reference measured once, minutes away from the figure, then turns noise into
a pass or a fail. Measured just before and just after each block, it was run at that block's speed.

A tail figure (p95) is taken in each block and the median over blocks reported: a slow move of our own comes back in
every block (a gesture's first move, a relayout), a second in which the machine was busy lands in a few blocks only.
Over all samples at once, those few blocks made the same commit's p95 ratio move between 0.18 and 0.22.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Interleaved:
    """Our samples (milliseconds), each divided by the reference measured beside its block, and the blocks."""

    times: list[float] = field(default_factory=list)
    relative: list[float] = field(default_factory=list)
    blocks: list[tuple[int, float]] = field(default_factory=list)  # (samples in it, its reference)

    def extend(self, other: Interleaved) -> None:
        """Add another measurement's samples (the same figure measured in two phases)."""
        self.times += other.times
        self.relative += other.relative
        self.blocks += other.blocks

    def median_ratio(self) -> float:
        """The median of every sample divided by its block's reference."""
        return float(np.median(self.relative))

    def p95_ratio(self) -> float:
        """The median over blocks of a block's p95 divided by its reference."""
        tails, start = [], 0
        for size, speed in self.blocks:
            tails.append(float(np.percentile(self.times[start:start + size], 95)) / speed)
            start += size
        return float(np.median(tails))


def interleave(measure_block: Callable[[int], list[float]], reference: Callable[[], float], total: int,
               block: int) -> Interleaved:
    """`total` samples in blocks of `block`; each block's samples divided by the mean reference before and after it."""
    if total <= 0 or block <= 0:
        raise ValueError("interleave needs a positive number of samples and a positive block size")
    result = Interleaved()
    before = reference()
    done = 0
    while done < total:
        size = min(block, total - done)
        samples = measure_block(size)
        after = reference()
        speed = (before + after) / 2.0
        if speed <= 0:
            raise ValueError(f"the reference measured {speed} ms: it must take time")
        result.times += samples
        result.relative += [sample / speed for sample in samples]
        result.blocks.append((len(samples), speed))
        done += size
        before = after
    return result
