"""Start-up imports only what the first frame needs: no lab, no checkpoint reader (`python -X importtime`).

Nor the standard library's slow imports the first frame has no use for: hashlib (via secrets) loads OpenSSL,
~9 ms; html loads its entity table.
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_PROBE = """\
import json, sys
_LATER = ("attention_explorer.cli.model", "hashlib", "secrets", "html", "uuid",
          # built when first used: question mode and lectures, the two docks closed at start
          "attention_explorer.ui.lessons.quiz", "attention_explorer.ui.lessons.lecture_runner",
          "attention_explorer.ui.panels.scoring_view", "attention_explorer.ui.panels.rotation_trace",
          # the other kinds of file: loaded with one (the window starts on a plain scenario)
          *(f"attention_explorer.core.{name}" for name in ("cross", "sequence", "multihead", "lecture", "questions",
                                                            "masks", "report")))
import attention_explorer.cli
import attention_explorer.ui.window.main_window
# and building the window (throwaway settings) imports none of them either
import os, tempfile
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from attention_explorer.cli.gui import create_window
app = QApplication([])
folder = tempfile.TemporaryDirectory()  # removed at exit
window = create_window(None, QSettings(os.path.join(folder.name, "s.ini"), QSettings.Format.IniFormat))
print(json.dumps(sorted(name for name in sys.modules
                        if (name.startswith(("attention_explorer.ui.labs.", "attention_explorer.core.pretrained"))
                            and name != "attention_explorer.ui.labs.registry")  # the pages' list: no lab in it
                        or name in _LATER)))
"""


def test_the_window_module_and_the_command_line_import_no_lab_no_model_reader_and_no_slow_stdlib_module():
    process = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120,
                             env={"PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen", "PATH": ""})
    assert process.returncode == 0, process.stderr[-2000:]
    assert json.loads(process.stdout.strip().splitlines()[-1]) == []


# Each kind's modules (and the reports, claims, pins and masks) load only for a file of that kind or a command
# that prints: the window's own start path, the default example or a plain scenario file, needs none of them.
NOT_ON_THE_START_PATH = tuple(f"attention_explorer.{name}" for name in (
    "cli.compute", "core.teaching.claims", "core.scenes.cross.scene", "core.scenes.cross.file",
    "core.teaching.lecture", "core.maths.masks", "core.scenes.multihead.scene", "core.scenes.multihead.file",
    "core.scenes.multihead.report", "core.scenes.query.pinfile", "core.teaching.questions", "core.scenes.query.report",
    "core.scenes.sequence.scene", "core.scenes.sequence.file", "core.scenes.sequence.report",
    "core.scenes.cross.report", "core.scenes.positions.scene", "core.scenes.positions.file",
    "core.scenes.positions.report",
)) + ("importlib.resources", "tempfile", "zipfile")  # finding the presets' folder needs none of these (~12 ms)
_START_PATH_PROBE = """\
import json, sys
import attention_explorer.cli
from attention_explorer.cli.gui import load_source
load_source(None)
load_source(sys.argv[1])
print(json.dumps(sorted(name for name in sys.modules if name in json.loads(sys.argv[2]))))
"""


def test_the_command_line_opens_the_default_example_and_a_plain_scenario_file_without_any_other_kinds_module(
        tmp_path):
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"title": "Plain", "query": [1, 0], "keys": [[1, 0], [0, 1]], "values": [[1], [2]]}))
    process = subprocess.run([sys.executable, "-c", _START_PATH_PROBE, str(plain), json.dumps(NOT_ON_THE_START_PATH)],
                             cwd=ROOT, capture_output=True, text=True, timeout=120,
                             env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert process.returncode == 0, process.stderr[-2000:]
    assert json.loads(process.stdout.strip().splitlines()[-1]) == []
