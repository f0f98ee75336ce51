"""A smoke test of the interaction benchmark: `--quick` still runs and prints every figure (CI never runs the full
benchmark). It checks that each figure is there, finite and plausible, not how fast anything is."""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "benchmarks" / "bench_interaction.py"
FIGURES = (
    "update_ms_median", "update_ms_p95", "update64_ms_median", "update64_ms_p95", "frame_ms_median", "frame_ms_p95",
    "baseline_frame_ms_median", "frame_ratio", "startup_s_median", "startup_ratio", "rss_growth_mb",
    "heatmap512_ms_median", "variance_ms_median", "steps_text_ms_median", "steps_text64_ms_median",
    "calibration_ms", "calibration_numpy_ms", "calibration_python_ms", "baseline_startup_s_median",
    "feel_ms_median", "feel_ms_p95", "feel_present_ms_median", "feel_present_ms_p95", "feel_ms_p95_ratio",
    "update_ms_p95_ratio", "mixed_actions_rss_mb", "mixed_actions_rss_growth_mb", "undo_at_limit_rss_growth_mb",
)
# The limit cases of tests/benchmarks/cases_limits.py (collected like any other cases_*.py module).
LIMIT_CASES = 8
# Only the labs' figures may be null, and only while a lab's module is missing.
MAY_BE_NULL = {
    "heatmap512_ms_median": ROOT / "attention_explorer" / "ui" / "labs" / "self_attention.py",
    "variance_ms_median": ROOT / "attention_explorer" / "ui" / "labs" / "variance.py",
}


def test_smoke_quick_benchmark_runs_and_prints_every_figure_as_json_on_its_last_line():
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    process = subprocess.run([sys.executable, str(SCRIPT), "--quick"], cwd=ROOT, env=environment,
                             capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=240)
    assert process.returncode == 0, process.stderr[-3000:]
    lines = process.stdout.strip().splitlines()
    figures = json.loads(lines[-1])
    assert set(FIGURES) <= set(figures), f"missing: {set(FIGURES) - set(figures)}"
    for name in FIGURES:
        value = figures[name]
        if value is None:
            assert name in MAY_BE_NULL and not MAY_BE_NULL[name].exists(), f"{name} is null"
            continue
        assert isinstance(value, (int, float)) and math.isfinite(value), (name, value)
        assert value >= 0 or name == "rss_growth_mb", (name, value)
    # Each figure measured something: a drag move takes time, a frame takes longer than its update.
    assert figures["update_ms_median"] > 0 and figures["frame_ms_median"] > figures["update_ms_median"]
    assert figures["startup_s_median"] > 0 and figures["frame_ratio"] > 0
    # Every time is also a ratio to the machine's own measure, taken in the same run: the labs' directly, the
    # drag's block by block (interleaved with the baseline frame, so it differs from the plain quotient).
    heatmap = figures["heatmap512_ms_median"]
    assert figures["heatmap512_ms_median_ratio"] == heatmap / figures["baseline_frame_ms_median"]
    # The p95 ratio is a median over blocks of each block's p95, the median ratio one over every sample: on a busy
    # machine two blocks at different speeds can order them either way, so only the raw times are ordered.
    assert figures["update_ms_p95"] >= figures["update_ms_median"] > 0
    assert 0 < figures["frame_ratio"] and figures["update_ms_p95_ratio"] > 0 and figures["update_ms_median_ratio"] > 0
    assert figures["feel_ms_p95"] > 0 and figures["calibration_ms"] > 0
    cases = {name: value for name, value in figures.items() if name.startswith("case:cases_limits:")}
    assert len(cases) == LIMIT_CASES and all(isinstance(v, float) and v > 0 for v in cases.values()), cases
    assert isinstance(figures["all_targets_met"], bool)
    # The readable table comes first and names every figure; each figure with a target shows it.
    table = "\n".join(lines[:-1])
    for name in FIGURES:
        if not name.endswith("_ratio"):
            assert name in table
    assert "update_ms_p95 " in table and "≤ 0.19×" in table and "machine: calibration" in table
    assert "interleaved" in table
    for name in cases:
        assert name.removeprefix("case:").replace(":", ": ", 1) in table
