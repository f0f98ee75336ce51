"""docs/python.md's short example runs as it stands: a plain script in a fresh process, offscreen, writing its
screenshot (and `ae.run()` returns there, since offscreen nobody can close the window). Also: a bare
`import attention_explorer` stays light, and `ae.attend` needs no Qt."""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "python.md"
pytestmark = pytest.mark.skipif(not PAGE.is_file(), reason="runs from a source checkout only")


def example() -> str:
    """The first Python block of the page's "A short example" section."""
    section = PAGE.read_text(encoding="utf-8").split("\n## A short example\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)[0]


def _softmax(x: np.ndarray) -> np.ndarray:
    exps = np.exp(x - x.max())
    return exps / exps.sum()


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header (its signature and IHDR chunk checked)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _environment(home: Path) -> dict[str, str]:
    """Offscreen, with settings and recovery files under `home` (never the user's)."""
    return dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen", HOME=str(home),
                **{name: str(home / name) for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
                                                      "XDG_STATE_HOME")})


def test_the_short_example_runs_as_a_plain_script_and_writes_its_screenshot(tmp_path):
    script = tmp_path / "example.py"
    script.write_text(example(), encoding="utf-8")
    process = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=_environment(tmp_path / "home"),
                             capture_output=True, text=True, timeout=120)
    assert process.returncode == 0, process.stderr[-2000:]
    assert png_size(tmp_path / "fig.png") == (1280, 720)
    # The numbers it prints, from the definition: softmax(K·q / √2) · V, then with the keys three times as long.
    query, keys, values = np.array([1.0, 0.0]), np.array([[1.0, 0.0], [0.0, 1.0], [0.7, 0.7]]), np.array(
        [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    weights, longer = _softmax(keys @ query / np.sqrt(2)), _softmax(3 * keys @ query / np.sqrt(2))
    assert process.stdout.splitlines() == [f"weights {weights.round(3)} output {(weights @ values).round(3)}",
                                           f"now {longer.round(3)}"]
    assert not list((tmp_path / "home").rglob("recovery-*"))  # a script that ended is not work to recover
    assert "propagateSizeHints" not in process.stderr  # the offscreen platform's notice is not the user's concern


_PROBE = """\
import json, sys
import attention_explorer as ae
bare = sorted(name for name in sys.modules if name.split(".")[0] in ("numpy", "PySide6", "pyqtgraph")
              or name.startswith("attention_explorer."))
ae.attend([1, 0], [[1, 0], [0, 1]], [[1], [2]])
after = sorted(name for name in sys.modules if name.split(".")[0] in ("PySide6", "pyqtgraph")
               or name.startswith(("attention_explorer.ui", "attention_explorer.state", "attention_explorer.cli")))
print(json.dumps([bare, after, "show" in dir(ae)]))
"""


def test_a_bare_import_loads_neither_qt_nor_numpy_and_attend_needs_no_qt(tmp_path):
    process = subprocess.run([sys.executable, "-c", _PROBE], cwd=tmp_path, env=_environment(tmp_path / "home"),
                             capture_output=True, text=True, timeout=120)
    assert process.returncode == 0, process.stderr[-2000:]
    bare, after, listed = json.loads(process.stdout.strip().splitlines()[-1])
    assert bare == ["attention_explorer.version"]
    assert after == [] and listed
