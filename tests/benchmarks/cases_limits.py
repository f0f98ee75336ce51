"""Benchmark cases at the file format's limits (512 keys × 4096 dimensions; self-attention N = 512, d = 4096).

Every ratio is to a floor measured in the same run on the same machine: the naive path (a bare interpreter's
`json.load` + `np.asarray` + the attention + `json.dumps`), an empty pyqtgraph window's first frame, the bare
baseline window's full frame. The naive and our runs alternate, and the median of the pairs' ratios is taken.
In a quick run (AE_BENCH_QUICK=1) the same cases run on small files, only to show they still work.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from machine import pair_ratio  # noqa: E402


def _quick() -> bool:
    return os.environ.get("AE_BENCH_QUICK") == "1"


def _sizes() -> dict[str, int]:
    if _quick():
        return {"n": 16, "d": 64, "seq_n": 16, "seq_model": 8, "seq_d": 64, "pairs": 1, "moves": 3, "edits": 3}
    return {"n": 512, "d": 4096, "seq_n": 512, "seq_model": 64, "seq_d": 4096, "pairs": 5, "moves": 30, "edits": 15}


_NAIVE_COMPUTE = """\
import json, sys
import numpy as np
with open(sys.argv[1], encoding="utf-8") as handle:
    document = json.load(handle)
q, k, v = (np.asarray(document[name], dtype=float) for name in ("query", "keys", "values"))
scores = k @ q
scaled = scores / np.sqrt(q.shape[0])
e = np.exp(scaled - scaled.max())
weights = e / e.sum()
output = weights @ v
sys.stdout.write(json.dumps({"scores": scores.tolist(), "scaled_scores": scaled.tolist(),
                             "weights": weights.tolist(), "output": output.tolist()}))
"""

_NAIVE_SEQUENCE = """\
import json, sys
import numpy as np
with open(sys.argv[1], encoding="utf-8") as handle:
    document = json.load(handle)
x, wq, wk, wv = (np.asarray(document[name], dtype=float) for name in ("embeddings", "w_q", "w_k", "w_v"))
q, k, v = x @ wq, x @ wk, x @ wv
scores = q @ k.T
scaled = scores / np.sqrt(q.shape[1])
e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
weights = e / e.sum(axis=1, keepdims=True)
output = weights @ v
sys.stdout.write(json.dumps({"queries": q.tolist(), "keys": k.tolist(), "values": v.tolist(),
                             "scores": scores.tolist(), "scaled_scores": scaled.tolist(),
                             "weights": weights.tolist(), "output": output.tolist()}))
"""

_EMPTY_WINDOW = """\
import os, sys
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
import pyqtgraph as pg
from PySide6.QtWidgets import QApplication
app = QApplication([sys.argv[0]])
plot = pg.PlotWidget()
plot.resize(1280, 720)
plot.show()
for _ in range(3):
    app.processEvents()
sys.exit(0 if plot.grab().save(sys.argv[1], "PNG") else 1)
"""


def _rounded(rng: np.random.Generator, *shape: int) -> np.ndarray:
    # Three decimals: a 512 × 4096 file is then 31 MB, legal (the format allows 64 MiB), as a user would write it.
    return np.round(rng.standard_normal(shape), 3)


@functools.cache
def _files() -> dict[str, str]:
    """The limit files, written once per run with the program's own writer."""
    from attention_explorer.core.files import anykind as fileformat
    from attention_explorer.core.scenes.query.scene import Scenario
    from attention_explorer.core.scenes.sequence.scene import SequenceScenario

    sizes = _sizes()
    folder = tempfile.mkdtemp(prefix="ae-limits-")
    atexit.register(shutil.rmtree, folder, True)  # 36 MB of files: a run left them in /tmp
    rng = np.random.default_rng(512)
    single = Scenario(query=_rounded(rng, sizes["d"]), keys=_rounded(rng, sizes["n"], sizes["d"]),
                      values=_rounded(rng, sizes["n"], sizes["d"]), title="512 × 4096")
    sequence = SequenceScenario(
        tokens=tuple(f"t{i}" for i in range(sizes["seq_n"])),
        embeddings=_rounded(rng, sizes["seq_n"], sizes["seq_model"]),
        w_q=_rounded(rng, sizes["seq_model"], sizes["seq_d"]), w_k=_rounded(rng, sizes["seq_model"], sizes["seq_d"]),
        w_v=_rounded(rng, sizes["seq_model"], sizes["seq_d"]), title="N = 512, d = 4096")
    paths = {"single": os.path.join(folder, "limit.json"), "sequence": os.path.join(folder, "sequence.json"),
             "folder": folder}
    fileformat.save(single, paths["single"])
    fileformat.save(sequence, paths["sequence"])
    return paths


def cleanup() -> None:
    """Remove the limit files once the cases have run (the runner calls this; atexit stays the fallback)."""
    if _files.cache_info().currsize:
        shutil.rmtree(_files()["folder"], ignore_errors=True)
    for cached in (_files, _compute_single, _compute_sequence):
        cached.cache_clear()


def _environment() -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    environment["QT_QPA_PLATFORM"] = "offscreen"
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), environment.get("PYTHONPATH"))))
    return environment


def _run(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak resident MiB (VmHWM, see peak.py) and standard output of one process (it must succeed)."""
    import time

    environment = _environment()
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r", suffix=".peak") as peak:
        environment["AE_PEAK_FILE"] = peak.name
        start = time.perf_counter()
        subprocess.run([sys.executable, str(HERE / "peak.py"), *command], stdout=out, stderr=subprocess.DEVNULL,
                       stdin=subprocess.DEVNULL, env=environment, cwd=_files()["folder"], check=True, timeout=600)
        seconds = time.perf_counter() - start
        out.seek(0)
        text = out.read(1 << 16).decode("utf-8", "replace")
        peak_kb = float(open(peak.name).read() or "nan")
    return seconds, peak_kb / 1024, text


def _script(name: str, text: str) -> str:
    """A naive floor's script as a file (peak.py runs scripts by path)."""
    path = os.path.join(_files()["folder"], name)
    if not os.path.exists(path):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    return path


def _ours(*arguments: str) -> list[str]:
    return ["-m", "attention_explorer", *arguments]


def _pairs(ours: list[str], floor: list[str]) -> dict[str, list[float]]:
    """Our command and the floor, alternating; seconds and peak memory of each."""
    runs: dict[str, list[float]] = {"ours_s": [], "floor_s": [], "ours_mb": [], "floor_mb": []}
    for pair in range(_sizes()["pairs"]):
        order = (("ours", ours), ("floor", floor)) if pair % 2 == 0 else (("floor", floor), ("ours", ours))
        for name, command in order:
            seconds, peak, _ = _run(command)
            runs[f"{name}_s"].append(seconds)
            runs[f"{name}_mb"].append(peak)
    return runs


@functools.cache
def _compute_single() -> dict[str, list[float]]:
    path = _files()["single"]
    return _pairs(_ours("compute", path), [_script("naive_compute.py", _NAIVE_COMPUTE), path])


@functools.cache
def _compute_sequence() -> dict[str, list[float]]:
    path = _files()["sequence"]
    return _pairs(_ours("compute", path), [_script("naive_sequence.py", _NAIVE_SEQUENCE), path])


def _median(values: list[float]) -> float:
    return float(np.median(values))


def compute_time() -> tuple[float, str]:
    runs = _compute_single()
    return pair_ratio(runs["ours_s"], runs["floor_s"]), (
        f"{_median(runs['ours_s']):.2f} s against the naive path's {_median(runs['floor_s']):.2f} s")


def compute_memory() -> tuple[float, str]:
    runs = _compute_single()
    return _median(runs["ours_mb"]) / _median(runs["floor_mb"]), (
        f"peak {_median(runs['ours_mb']):.0f} MB against the naive path's {_median(runs['floor_mb']):.0f} MB")


def sequence_time() -> tuple[float, str]:
    runs = _compute_sequence()
    return pair_ratio(runs["ours_s"], runs["floor_s"]), (
        f"{_median(runs['ours_s']):.2f} s against the naive path's {_median(runs['floor_s']):.2f} s")


SEQUENCE_MEMORY_MB = 500.0


def sequence_memory() -> tuple[float, str]:
    runs = _compute_sequence()
    peak = _median(runs["ours_mb"])
    return peak / SEQUENCE_MEMORY_MB, f"peak {peak:.0f} MB, as a ratio to {SEQUENCE_MEMORY_MB:.0f} MB"


def open_time() -> tuple[float, str]:
    """Opening the file to a first painted frame, against the naive compute + 1.5 × an empty window's first frame."""
    path = _files()["single"]
    shot = os.path.join(_files()["folder"], "shot.png")
    ours, naive, empty = [], [], []
    for pair in range(_sizes()["pairs"]):
        commands = [(ours, _ours(path, "--screenshot", shot, "--size", "1280x720")),
                    (naive, [_script("naive_compute.py", _NAIVE_COMPUTE), path]),
                    (empty, [_script("empty_window.py", _EMPTY_WINDOW), shot])]
        if _quick():  # a few processes fewer: the compute case's naive run of the same file stands in
            naive.append(_compute_single()["floor_s"][pair])
            commands.pop(1)
        for times, command in commands if pair % 2 == 0 else commands[::-1]:
            times.append(_run(command)[0])
    floors = np.asarray(naive) + 1.5 * np.asarray(empty)
    return float(np.median(np.asarray(ours) / floors)), (
        f"{_median(ours):.2f} s against {_median(naive):.2f} s naive + 1.5 × {_median(empty):.2f} s empty window")


@functools.cache
def _window() -> dict:
    sizes = _sizes()
    command = [str(HERE / "limit_window.py"), _files()["single"], str(sizes["moves"]),
               str(sizes["edits"])]
    _, _, text = _run(command)
    return json.loads(text.strip().splitlines()[-1])


def drag_move() -> tuple[float, str]:
    figures = _window()
    drag, base = _median(figures["drag_ms"]), _median(figures["baseline_frame_ms"])
    return drag / base, f"{drag:.1f} ms (p95 {np.percentile(figures['drag_ms'], 95):.1f}) against {base:.1f} ms"


def typed_edit() -> tuple[float, str]:
    figures = _window()
    edit, base = _median(figures["edit_ms"]), _median(figures["baseline_frame_ms"])
    return edit / base, f"{edit:.1f} ms (p95 {np.percentile(figures['edit_ms'], 95):.1f}) against {base:.1f} ms"


WINDOW_MEMORY_MB = 400.0


def window_memory() -> tuple[float, str]:
    figures = _window()
    peak = max(figures["rss_open_mb"], figures["rss_after_mb"])
    return peak / WINDOW_MEMORY_MB, (
        f"{figures['rss_open_mb']:.0f} MB open, {figures['rss_after_mb']:.0f} MB after the drags and edits, "
        f"as a ratio to {WINDOW_MEMORY_MB:.0f} MB")


CASES = [
    ("compute 512x4096: time / naive path", compute_time, "≤ 1.0×"),
    ("compute 512x4096: peak memory / naive path", compute_memory, "≤ 1.5×"),
    ("open 512x4096 to first frame / (naive + 1.5 × empty window)", open_time, "≤ 1.0×"),
    ("drag move 512x4096 with paint / baseline frame", drag_move, "≤ 3.0×"),
    ("typed edit 512x4096 with paint / baseline frame", typed_edit, "≤ 6.0×"),
    ("window memory 512x4096 open / 400 MB", window_memory, "≤ 1.0×"),
    ("compute self-attention N=512 d=4096: time / naive path", sequence_time, "≤ 3.0×"),
    ("compute self-attention N=512 d=4096: peak memory / 500 MB", sequence_memory, "≤ 1.0×"),
]
