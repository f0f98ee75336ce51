"""The command line's layout: cli/ imports nothing back from app.py, and both entry points still work."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import attention_explorer.cli
from tests.helpers.sources import parsed

ROOT = Path(__file__).resolve().parents[2]
CLI_DIR = Path(attention_explorer.cli.__file__).parent


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    names = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_no_cli_module_imports_app_back():
    back = {path.name: sorted(_imports(path) & {"attention_explorer.app", "attention_explorer"})
            for path in CLI_DIR.glob("*.py")}
    assert {name: found for name, found in back.items() if found} == {}


def test_the_ui_never_imports_the_command_line():
    package = CLI_DIR.parent
    offences = [str(path.relative_to(package)) for path in (package / "ui").rglob("*.py")
                if any(name.startswith(("attention_explorer.cli", "attention_explorer.app"))
                       for name in _imports(path))]
    assert offences == []


def test_app_still_offers_create_window_and_main():
    from attention_explorer import app

    assert app.main is attention_explorer.cli.main
    assert app.create_window.__doc__.startswith("The main window")


def test_the_installed_command_is_cli_main():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # no tomllib: Python 3.10 is supported
    assert re.findall(r'(?m)^attention-explorer = "(.*)"$', text) == ["attention_explorer.cli:main"]


def test_python_dash_m_and_app_main_print_the_same_presets():
    by_module = subprocess.run([sys.executable, "-m", "attention_explorer", "presets"], capture_output=True,
                               text=True, timeout=60, cwd=ROOT)
    by_app = subprocess.run([sys.executable, "-c", "import sys; from attention_explorer.app import main; "
                             "sys.exit(main(['presets']))"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert by_module.returncode == by_app.returncode == 0, by_module.stderr + by_app.stderr
    assert by_module.stdout == by_app.stdout and "library\tLibrary lookup" in by_module.stdout
