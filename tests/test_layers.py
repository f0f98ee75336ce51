"""The package's layers: every import points down the chain, lazy and type-checking imports included.

    cli, app, api  →  ui/window  →  ui/lessons  →  ui/labs  →  ui/panels, ui/canvas  →  ui/widgets
              →  ui/style, ui/i18n  →  state  →  core

A module may import its own layer's package (a lab its own folder, a panel a panel helper of the same folder) and
anything below it, never anything above it nor a sibling layer beside it (panels and canvas know nothing of each
other; style and i18n neither). Type-level imports (`if TYPE_CHECKING:`) count too: a type that points upward
is a dependency that points upward, and a cycle through one is still a cycle for whoever reads the code.
"""

from __future__ import annotations

import functools
from pathlib import Path

import attention_explorer
from tests.test_architecture import cycles, imported_modules, module_names

PACKAGE_DIR = Path(attention_explorer.__file__).parent
ROOT = "attention_explorer"

# Higher numbers sit higher; two different layers with one number are siblings and may not import each other.
LAYERS: dict[str, int] = {
    "attention_explorer.__main__": 10,
    "attention_explorer.app": 10,
    "attention_explorer.api": 10,  # the Python API (ae.show, ae.attend): beside app, above cli, whose window it opens
    "attention_explorer.cli": 9,
    "attention_explorer.ui.window": 8,
    "attention_explorer.ui.application": 7.5,
    "attention_explorer.ui.lessons": 7,
    "attention_explorer.ui.labs": 6,
    "attention_explorer.ui.panels": 5,
    "attention_explorer.ui.canvas": 5,
    "attention_explorer.ui.widgets": 4,
    "attention_explorer.ui.style": 3,
    "attention_explorer.ui.i18n": 3,
    "attention_explorer.ui": 2.5,  # the ui package's own __init__: nothing but a docstring
    "attention_explorer.state": 2,
    "attention_explorer.core": 1,
    "attention_explorer.resources": 0,
    "attention_explorer": 0,  # the package's __init__: the public names, imported lazily
}


def layer_of(module: str) -> str:
    """The longest layer prefix that names this module."""
    best = ""
    for layer in LAYERS:
        if (module == layer or module.startswith(layer + ".")) and len(layer) > len(best):
            best = layer
    assert best, f"{module} belongs to no layer: add its folder to LAYERS"
    return best


def all_imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that `name` imports anywhere: module level, functions, classes, TYPE_CHECKING."""
    return imported_modules(name, path, modules, type_checking=True)


@functools.cache  # two tests read it; neither changes it
def full_graph() -> dict[str, set[str]]:
    modules = module_names(PACKAGE_DIR, ROOT)
    return {name: all_imports(name, path, modules) for name, path in modules.items()}


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every edge that points up the chain or sideways to a sibling layer, as 'a → b'."""
    wrong = []
    for source, targets in sorted(graph.items()):
        source_layer = layer_of(source)
        for target in sorted(targets):
            target_layer = layer_of(target)
            if target_layer == source_layer or source_layer == ROOT:
                continue
            if LAYERS[target_layer] >= LAYERS[source_layer] and target_layer != ROOT:
                wrong.append(f"{source} → {target}")
    return wrong


def test_the_check_sees_an_upward_lazy_import_and_a_sibling_import(tmp_path, monkeypatch):
    """A widget that imports a panel inside a function, and a panel that imports the canvas, are both reported."""
    graph = {
        "attention_explorer.ui.widgets.w": {"attention_explorer.ui.panels.p"},
        "attention_explorer.ui.panels.p": {"attention_explorer.ui.canvas.c", "attention_explorer.core.x"},
        "attention_explorer.ui.canvas.c": {"attention_explorer.ui.widgets.w"},
        "attention_explorer.core.x": set(),
    }
    assert upward_imports(graph) == [
        "attention_explorer.ui.panels.p → attention_explorer.ui.canvas.c",
        "attention_explorer.ui.widgets.w → attention_explorer.ui.panels.p",
    ]
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def later():\n    from pkg import b\n")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import A\n")
    modules = module_names(package, "pkg")
    graph = {name: all_imports(name, path, modules) for name, path in modules.items()}
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg.a"}
    assert [set(cycle) for cycle in cycles(graph)] == [{"pkg.a", "pkg.b"}]


def test_every_module_belongs_to_a_layer():
    for name in module_names(PACKAGE_DIR, ROOT):
        layer_of(name)


def test_every_import_points_down_the_layers():
    wrong = upward_imports(full_graph())
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_no_cycle_even_through_type_checking_imports():
    found = cycles(full_graph())
    assert not found, "import cycles: " + "; ".join(" → ".join(cycle) for cycle in found)
