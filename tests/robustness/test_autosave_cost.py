"""Autosave at the format's limits: a copy that cost a second of CPU is not followed by another a second later.

At 512 keys × 4096 a recovery copy is 31 MB and formatting it holds the interpreter for about a second; written
after every pause of 250 ms it would make every typed edit wait behind it (issue 15). Small scenarios keep their
copy about once a second (test_recovery.py).
"""

from __future__ import annotations

import time

from attention_explorer.state.document import _numbers


def test_after_an_expensive_copy_the_next_edit_is_copied_only_after_ten_times_its_cost(window, qtbot):
    recovery = window.document.recovery_path
    window.model.set_vector("query", 0, [1.25, 0.5])
    qtbot.waitUntil(lambda: recovery.exists() and window.document._writer is None, timeout=2000)
    written = recovery.stat().st_mtime_ns
    # A copy of this scenario now costs 0.3 s of CPU, as one at 512 × 4096 does on a fast machine.
    window.document.write_seconds_per_number = 0.3 / _numbers(window.model.scenario)
    started = time.monotonic()  # before the edit: the spacing counts from the edit, and its redraw takes time
    window.model.set_vector("query", 0, [1.5, 0.5])
    qtbot.wait(1200)  # a small scenario's copy would have been written by now (250 ms quiet, 900 ms at most)
    assert recovery.stat().st_mtime_ns == written
    qtbot.waitUntil(lambda: recovery.stat().st_mtime_ns != written, timeout=5000)
    assert time.monotonic() - started >= 2.9  # 10 × 0.3 s


def test_the_first_copy_of_a_large_scenario_is_paced_by_an_estimate_before_any_was_measured(window, qtbot):
    """Opened at the limits, the first edits of a drag must not wait behind the first recovery copy: until a costly
    copy has been measured, its cost is estimated from the scenario's size."""
    import numpy as np

    from attention_explorer.core.scenes.query.scene import Scenario
    from attention_explorer.state.document import AUTOSAVE_COST_FACTOR, ESTIMATED_SECONDS_PER_NUMBER

    rows = np.random.default_rng(2).standard_normal((300, 1000))
    window.model.load_scenario(Scenario(query=rows[0], keys=rows, values=rows, title="large"))
    recovery = window.document.recovery_path
    qtbot.waitUntil(lambda: window.document._writer is None, timeout=5000)
    before = recovery.stat().st_mtime_ns if recovery.exists() else None
    spacing = AUTOSAVE_COST_FACTOR * ESTIMATED_SECONDS_PER_NUMBER * _numbers(window.model.scenario)
    assert 1.2 < spacing < 2.0  # 600,000 numbers: about 1.5 s, where a small scenario's copy comes within 0.9 s
    started = time.monotonic()
    window.model.set_vector("key", 3, rows[3] + 0.5)
    qtbot.waitUntil(lambda: recovery.exists() and recovery.stat().st_mtime_ns != before, timeout=6000)
    assert time.monotonic() - started >= spacing - 0.05
