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
import attention_explorer.cli
import attention_explorer.ui.window.main_window
print(json.dumps(sorted(name for name in sys.modules
                        if name.startswith(("attention_explorer.ui.labs.", "attention_explorer.core.pretrained"))
                        or name in ("attention_explorer.cli.model", "hashlib", "secrets", "html", "uuid"))))
"""


def test_the_window_module_and_the_command_line_import_no_lab_no_model_reader_and_no_slow_stdlib_module():
    process = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120,
                             env={"PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen", "PATH": ""})
    assert process.returncode == 0, process.stderr[-2000:]
    assert json.loads(process.stdout.strip().splitlines()[-1]) == []

