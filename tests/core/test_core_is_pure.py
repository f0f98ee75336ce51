"""attention_explorer/core imports no Qt: it must work in a notebook, a test and a display-less server."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import attention_explorer.core
from tests.helpers.sources import parsed

CORE_DIR = Path(attention_explorer.core.__file__).parent
CORE_MODULES = sorted(
    ".".join(path.relative_to(CORE_DIR).with_suffix("").parts) for path in CORE_DIR.rglob("*.py")
    if path.stem != "__init__"
)
# Anything GUI: the bindings, pyqtgraph (which imports them), and our own Qt-side modules.
FORBIDDEN_ROOTS = {"PySide6", "PySide2", "PyQt5", "PyQt6", "shiboken6", "shiboken2", "pyqtgraph", "qtpy"}
FORBIDDEN_OWN = {
    "attention_explorer.state", "attention_explorer.ui", "attention_explorer.cli", "attention_explorer.app",
}


def imported_names(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a core file, relative imports resolved."""
    found = []
    package = "attention_explorer.core"
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
            "import_module", "__import__"
        ):
            for argument in node.args[:1]:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    found.append((node.lineno, argument.value))
    return found


def test_there_are_core_modules_to_check():
    """The scan below is not vacuous."""
    assert {"maths.attention", "scenes.query.scene", "files.presets", "scenes.query.report"} <= set(CORE_MODULES)


def test_no_core_file_imports_qt():
    """AST scan: no import of a Qt binding, pyqtgraph, or our model/ui/app, anywhere in a core file."""
    offences = []
    for path in sorted(CORE_DIR.rglob("*.py")):
        for line, name in imported_names(path):
            if name.split(".")[0] in FORBIDDEN_ROOTS or any(
                name == own or name.startswith(own + ".") for own in FORBIDDEN_OWN
            ):
                offences.append(f"{path.name}:{line}: {name}")
    assert offences == []


def test_the_scan_would_catch_a_qt_import(tmp_path):
    """The scanner sees plain, from-, relative and dynamic imports."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import PySide6.QtCore\nfrom pyqtgraph import PlotWidget\nfrom ..ui import theme\n"
        "from ..state import explorer\n"
        "import importlib\nimportlib.import_module('shiboken6')\n"
    )
    names = [name for _, name in imported_names(sample)]
    assert "PySide6.QtCore" in names and "pyqtgraph" in names
    assert "attention_explorer.ui" in names and "attention_explorer.state.explorer" in names and "shiboken6" in names


def test_importing_all_of_core_loads_no_qt():
    """In a fresh interpreter: import every core module, then no Qt module is in sys.modules."""
    script = (
        "import importlib, json, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    importlib.import_module('attention_explorer.core.' + name)\n"
        "from attention_explorer.core.files import presets\n"
        "from attention_explorer.core.scenes.query import report\n"
        "scenario = presets.load_preset('library')\n"
        "report.to_text(scenario, scenario.compute())\n"
        "print(json.dumps(sorted(m for m in sys.modules)))\n"
    )
    process = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert process.returncode == 0, process.stderr
    loaded = json.loads(process.stdout)
    assert "attention_explorer.core.maths.attention" in loaded
    gui = [name for name in loaded if name.split(".")[0] in FORBIDDEN_ROOTS or
           any(name == own or name.startswith(own + ".") for own in FORBIDDEN_OWN)]
    assert gui == []


def test_compute_command_loads_no_qt():
    """`attention-explorer compute` and `presets` work with no Qt at all (e.g. on a server)."""
    script = (
        "import sys, io, contextlib\n"
        "from attention_explorer.app import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['compute', '--preset', 'library', '--format', 'text']) == 0\n"
        "    assert main(['presets']) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph')))\n"
    )
    process = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert process.returncode == 0, process.stderr
    assert process.stdout.strip() == "[]"
