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
)
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
    # The readable table comes first and names every figure.
    table = "\n".join(lines[:-1])
    for name in FIGURES:
        assert name in table
