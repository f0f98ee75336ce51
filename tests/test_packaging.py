"""A real (non-editable) install finds its resources; the README's commands are the ones CI runs."""

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import attention_explorer

REPO = Path(attention_explorer.__file__).resolve().parents[1]
IN_SOURCE_CHECKOUT = (REPO / "pyproject.toml").is_file() and (REPO / "README.md").is_file()
TEST_COMMAND = 'python3 -m venv .venv && .venv/bin/pip install -e ".[test]" && .venv/bin/python -m pytest'
needs_checkout = pytest.mark.skipif(not IN_SOURCE_CHECKOUT, reason="runs from a source checkout only")


def readme_commands() -> list[str]:
    """The one-line shell commands in the README's ```sh blocks."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return [line.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S) for line in block.splitlines()
            if line.strip()]


@needs_checkout
def test_ci_runs_exactly_the_readme_test_command():
    """The README promises a test command; .ci/run must run that very text, not a cousin of it."""
    test_commands = [c for c in readme_commands() if "pytest" in c]
    assert test_commands == [TEST_COMMAND]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert any(line.strip() == test_commands[0] for line in ci.splitlines()), "not in .ci/run verbatim"
    assert ci.startswith("#!/usr/bin/env bash\n") and "set -euo pipefail" in ci
    assert "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/attention-explorer" in readme_commands()


def _copy_sources(target: Path) -> None:
    """What a source distribution holds: pyproject, README and the package (no caches, no egg-info)."""
    target.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, target / name)
    for folder in ("attention_explorer", "resources"):
        shutil.copytree(REPO / folder, target / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def files_under(folder: Path) -> list[str]:
    """Every file under a folder, as a path relative to it (caches left out)."""
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*")
                  if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc")


PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]


@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory) -> tuple[Path, Path]:
    """A wheel built offline from a copy of the sources, and the folder it is installed into (not editable)."""
    if not IN_SOURCE_CHECKOUT:
        pytest.skip("runs from a source checkout only")
    root = tmp_path_factory.mktemp("packaging")
    source, wheels, target = (root / name for name in ("src", "wheels", "site"))
    _copy_sources(source)  # building in a copy keeps build/ and egg-info out of the repository
    built = subprocess.run([*PIP, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(wheels),
                            str(source)], capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (wheel,) = wheels.glob("attention_explorer-*.whl")
    installed = subprocess.run([*PIP, "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
                               capture_output=True, text=True, timeout=120)
    assert installed.returncode == 0, installed.stderr[-2000:]
    return wheel, target


@needs_checkout
def test_the_wheel_holds_every_module_and_every_resource(installed_wheel):
    """pyproject lists no packages: a new subpackage, module or resource folder ships without touching it."""
    wheel, _ = installed_wheel
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = [f"attention_explorer/{name}" for name in files_under(REPO / "attention_explorer")]
    data = [f"attention_explorer/resources/{name}" for name in files_under(REPO / "resources")]
    assert "attention_explorer/ui/window/__init__.py" in modules and "attention_explorer/resources/__init__.py" in data
    assert any(name.startswith("attention_explorer/resources/presets/") for name in data)
    assert not (missing := sorted(set(modules) - names)), f"left out of the wheel: {missing}"
    assert not (missing := sorted(set(data) - names)), f"left out of the wheel (package-data?): {missing}"
    assert not any("__pycache__" in name or name.startswith(("tests/", "resources/", "docs/")) for name in names)


@needs_checkout
def test_a_built_and_installed_wheel_finds_its_presets(installed_wheel, tmp_path):
    """Install the wheel (not editable) into a folder, and run the command from elsewhere."""
    _, target = installed_wheel
    presets = sorted(path.name for path in (REPO / "resources" / "presets").glob("*.json"))
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "PYTHONPATH")}
    environment["PYTHONPATH"] = str(target)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, *args], cwd=tmp_path, env=environment, capture_output=True,
                              text=True, timeout=60)

    where = run("-c", "import attention_explorer.core.files.presets as p; print(p.__file__); print(p.presets_dir())")
    assert where.returncode == 0, where.stderr
    module_file, presets_dir = where.stdout.splitlines()
    assert Path(module_file).is_relative_to(target) and Path(presets_dir).is_relative_to(target)
    shipped = run("-c", "from importlib.resources import files; "
                        "print(sorted(p.name for p in (files('attention_explorer.resources') / 'presets').iterdir()))")
    assert shipped.returncode == 0 and shipped.stdout.strip() == repr(presets), shipped.stderr

    listed = run("-m", "attention_explorer", "presets")
    assert listed.returncode == 0, listed.stderr
    assert [line.split("\t")[0] for line in listed.stdout.splitlines()][:2] == ["drag-2d", "library"]
    assert len(listed.stdout.splitlines()) == len(presets)

    computed = run("-m", "attention_explorer", "compute", "--preset", "library", "--format", "text")
    assert computed.returncode == 0, computed.stderr
    assert "output = [0.492, 0.508]" in computed.stdout


_FROM_THE_CHECKOUT = """
import importlib.util, json, attention_explorer
from PySide6.QtCore import QTranslator
from attention_explorer.core.teaching.lecture import built_in_path
from attention_explorer.core.files.presets import preset_names, resources_dir
from attention_explorer.ui.i18n.switcher import catalogue_path
translator = QTranslator()
print(json.dumps({"package": attention_explorer.__file__, "resources": str(resources_dir()),
                  "mapped": importlib.util.find_spec("attention_explorer.resources") is not None,
                  "presets": len(preset_names()), "lecture": built_in_path().is_file(),
                  "zh_CN": translator.load(str(catalogue_path("zh_CN"))) and translator.language()}))
"""


@needs_checkout
def test_a_checkout_runs_from_its_own_folder_beside_a_non_editable_install(installed_wheel, tmp_path):
    """The checkout first on the path, a regular install behind it: the code finds the checkout's resources/.

    Then attention_explorer is the checkout's own, which has no attention_explorer/resources folder, and no install
    maps one onto it (`-S`: no site processing, so not even the test venv's editable install can). Before, the
    suite and tests/benchmarks/limit_window.py run that way stopped at `No module named
    'attention_explorer.resources'`.
    """
    _, target = installed_wheel
    libraries = [path for path in sys.path if path.endswith(("site-packages", "dist-packages"))]  # numpy, Qt, pytest
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "PYTHONPATH")}
    environment["PYTHONPATH"] = os.pathsep.join([str(REPO), str(target), *libraries])

    def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-S", *args], cwd=REPO, env=environment, capture_output=True,
                              text=True, timeout=timeout)

    found = run("-c", _FROM_THE_CHECKOUT)
    assert found.returncode == 0, found.stderr[-2000:]
    facts = json.loads(found.stdout.splitlines()[-1])
    assert Path(facts["package"]).parent == REPO / "attention_explorer" and not facts["mapped"]
    assert Path(facts["resources"]) == REPO / "resources"
    assert facts["presets"] == len(list((REPO / "resources" / "presets").glob("*.json"))) and facts["lecture"]
    assert facts["zh_CN"] == "zh_CN"

    picture = tmp_path / "window.png"
    shot = run("-m", "attention_explorer", "--preset", "library", "--lang", "zh_CN", "--theme", "contrast",
               "--screenshot", str(picture), "--size", "800x500")
    assert shot.returncode == 0 and picture.stat().st_size > 10_000, shot.stderr[-2000:]

    suite = run("-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", "tests/test_layout.py",
                "-k", "reachable or own_resources", timeout=240)
    assert suite.returncode == 0, suite.stdout[-3000:] + suite.stderr[-2000:]
