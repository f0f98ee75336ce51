"""The package's shape: no import cycle among attention_explorer's modules, lazy imports inside functions included.

That core imports no Qt is tests/core/test_core_is_pure.py's job.
"""

from __future__ import annotations

import ast
from pathlib import Path

import attention_explorer
from tests.helpers.sources import parsed

PACKAGE_DIR = Path(attention_explorer.__file__).parent
# Cycles that another change removes; the lead drops an entry once it is merged (its xfail test then passes).
def module_names(package_dir: Path, root: str) -> dict[str, Path]:
    """Every module of a package by its dotted name (a package by its own name, for its __init__.py)."""
    names = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = path.relative_to(package_dir).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join((root, *parts))] = path
    return names


def _is_type_checking_block(node: ast.AST) -> bool:
    """`if TYPE_CHECKING:` runs only under a type checker, never at import time: not an edge."""
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def _import_nodes(tree: ast.AST, type_checking: bool = False) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, at module level or inside any function or class; those in TYPE_CHECKING blocks only
    when `type_checking` (a type-level dependency: the layer test counts it, the run-time cycle test does not)."""
    found, pending = [], [tree]
    while pending:
        node = pending.pop()
        if not type_checking and _is_type_checking_block(node):
            pending.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return found


def imported_modules(name: str, path: Path, modules: dict[str, Path], type_checking: bool = False) -> set[str]:
    """The package's own modules that `name` imports (relative imports resolved, `from pkg import module` too)."""
    is_package = path.name == "__init__.py"
    targets = set()
    for node in _import_nodes(parsed(path), type_checking):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = name.split(".") if is_package else name.split(".")[:-1]
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            targets.add(submodule if submodule in modules else base)
    return {target for target in targets if target in modules and target != name}


def import_graph(package_dir: Path, root: str) -> dict[str, set[str]]:
    """Module → the package's modules it imports anywhere in its file."""
    modules = module_names(package_dir, root)
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One closed path (first module repeated at the end) through each group of modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_closed_path(graph, group) for group in groups]


def _closed_path(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest way from the group's first module back to itself, staying inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & group):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"no cycle through {start}")  # a strongly connected group always has one


def test_the_graph_counts_lazy_and_relative_imports(tmp_path):
    """A cycle made only of an import inside a function, and one through a relative import, are both found."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("import pkg.b\n")
    (package / "b.py").write_text("def later():\n    from pkg import a\n")
    (package / "sub" / "c.py").write_text("from ..sub import d\n")
    (package / "sub" / "d.py").write_text("from . import c\n")
    (package / "e.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n")
    found = {frozenset(cycle) for cycle in cycles(import_graph(package, "pkg"))}
    assert found == {frozenset({"pkg.a", "pkg.b"}), frozenset({"pkg.sub.c", "pkg.sub.d"})}


def test_no_import_cycle_among_the_package_modules():
    found = cycles(import_graph(PACKAGE_DIR, "attention_explorer"))
    assert not found, "import cycles: " + "; ".join(" → ".join(cycle) for cycle in found)
