"""The project's own import graph has no cycles, and ``domain/`` imports only the standard library.

The graph is read from the source with :mod:`ast`, not by importing it: every ``import`` and ``from ...
import`` in ``app.py`` and under ``api/``, ``domain/``, ``events/`` and ``workers/`` is an edge, wherever it
stands. An import inside a function is an edge: it only moves the dependency from import time to call time.
An import under ``if TYPE_CHECKING:`` is an edge too: the module's annotations name the other module's types,
so it still depends on it for its meaning, and the guard is the usual way to hide a cycle rather than
remove it. A lower module that must name a higher one's type says what it needs with a ``Protocol``.
Dynamic imports (``importlib.import_module("...")``) are not read.

``from package import name`` is an edge to ``package.name`` when that is a module, else to ``package``.
Importing ``a.b`` also runs ``a/__init__.py``, but that is not counted as an edge: a package whose
``__init__`` gathers its submodules (as ``api`` does) would otherwise be in a cycle with each of them.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("api", "domain", "events", "service", "workers")
MODULES = ("app.py",)


class Site(enum.Enum):
    """Where an import stands in its module."""

    TOP = "at module level"
    FUNCTION = "inside a function"
    TYPE_CHECKING = "under TYPE_CHECKING"


@dataclasses.dataclass(frozen=True, slots=True)
class Edge:
    """One import of ``target`` by ``source``, at ``line`` of ``source``'s file."""

    source: str
    target: str
    line: int
    site: Site

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} (line {self.line}, {self.site.value})"


def module_name(path: Path) -> str:
    """``api/health.py`` is ``api.health``; ``api/__init__.py`` is ``api``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_files() -> dict[str, Path]:
    """Every module of the graph by name."""
    paths = [p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))]
    paths += [ROOT / m for m in MODULES]
    return {module_name(p): p for p in paths}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(tree: ast.Module) -> Iterable[tuple[ast.Import | ast.ImportFrom, Site]]:
    """Every import statement of ``tree``, anywhere in it, with where it stands."""

    def walk(node: ast.AST, site: Site) -> Iterable[tuple[ast.Import | ast.ImportFrom, Site]]:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, site
            return
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for statement in node.body:
                yield from walk(statement, Site.TYPE_CHECKING)
            for statement in node.orelse:
                yield from walk(statement, site)
            return
        in_function = site is Site.TOP and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        inner = Site.FUNCTION if in_function else site
        for child in ast.iter_child_nodes(node):
            yield from walk(child, inner)

    return walk(tree, Site.TOP)


def imported_names(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The absolute dotted names ``node`` imports (for ``from m import x``: ``m.x``, which may not be a module)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        anchor = package[: len(package) - (node.level - 1)]
        base = ".".join([*anchor, *([node.module] if node.module else [])])
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def _within(name: str, known: Mapping[str, Path]) -> str | None:
    """The longest prefix of ``name`` that is a module of the graph."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def edges_of(module: str, path: Path, known: Mapping[str, Path]) -> list[Edge]:
    """The edges from ``module`` to the other modules of the graph."""
    found: dict[str, Edge] = {}
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node, site in imports(tree):
        names = imported_names(node, module, path.name == "__init__.py")
        if isinstance(node, ast.ImportFrom):
            base, members = names[0], names[1:]
            targets = [m if m in known else _within(base, known) for m in members]
        else:
            targets = [_within(n, known) for n in names]
        for target in targets:
            if target is not None and target != module and target not in found:
                found[target] = Edge(module, target, node.lineno, site)
    return list(found.values())


def project_graph() -> dict[str, list[Edge]]:
    """The graph: each module's edges to the others."""
    known = project_files()
    return {module: edges_of(module, path, known) for module, path in known.items()}


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components of ``graph``; a cycle is a component of two or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def cycles(graph: Mapping[str, list[Edge]]) -> list[set[str]]:
    """The components of ``graph`` with more than one module, smallest name first."""
    simple = {module: [e.target for e in edges] for module, edges in graph.items()}
    found = [c for c in strongly_connected(simple) if len(c) > 1]
    return sorted(found, key=min)


def describe(component: set[str], graph: Mapping[str, list[Edge]]) -> str:
    """One cycle through ``component`` (``a -> b -> a``) and every import between its modules."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    loop: list[str] = []
    while queue and not loop:
        here = queue.pop(0)
        for edge in graph[here]:
            if edge.target == start:
                loop = [*paths[here], start]
                break
            if edge.target in component and edge.target not in paths:
                paths[edge.target] = [*paths[here], edge.target]
                queue.append(edge.target)
    inner = sorted(str(e) for m in component for e in graph[m] if e.target in component)
    return " -> ".join(loop) + "".join(f"\n    {line}" for line in inner)


def report(found: list[set[str]], graph: Mapping[str, list[Edge]]) -> str:
    return "import cycles:\n" + "\n".join(f"  {describe(c, graph)}" for c in found)


def only_events(component: set[str]) -> bool:
    return all(m == "events" or m.startswith("events.") for m in component)


@pytest.fixture(scope="module")
def graph() -> dict[str, list[Edge]]:
    return project_graph()


class TestTheReader:
    """The graph sees what the tests below rely on: without it, an empty graph would pass them."""

    def test_every_kind_of_import_is_an_edge(self) -> None:
        tree = ast.parse(
            "from typing import TYPE_CHECKING\n"
            "import a\n"
            "if TYPE_CHECKING:\n"
            "    from b import X\n"
            "def f():\n"
            "    from .c import y\n"
        )
        found = [(imported_names(n, "pkg.m", False), site) for n, site in imports(tree)]
        assert found == [
            (["typing", "typing.TYPE_CHECKING"], Site.TOP),
            (["a"], Site.TOP),
            (["b", "b.X"], Site.TYPE_CHECKING),
            (["pkg.c", "pkg.c.y"], Site.FUNCTION),
        ]

    def test_a_cycle_is_a_component_of_two_or_more(self) -> None:
        components = strongly_connected({"a": ["b"], "b": ["c", "a"], "c": [], "d": ["a"]})
        assert sorted(map(sorted, components)) == [["a", "b"], ["c"], ["d"]]

    def test_the_graph_holds_the_project(self, graph: dict[str, list[Edge]]) -> None:
        assert {"app", "api.health", "domain.homeworlds.bots", "service.games", "workers.context"} <= set(graph)
        targets = {m: {e.target for e in edges} for m, edges in graph.items()}
        assert "workers.context" in targets["workers.tasks"]
        assert "domain.homeworlds.state" in targets["domain.homeworlds.bots"]
        assert "domain.homeworlds.bots" in targets["domain.homeworlds.game"]


def test_no_import_cycles_outside_events(graph: dict[str, list[Edge]]) -> None:
    found = [c for c in cycles(graph) if not only_events(c)]
    assert not found, report(found, graph)


def test_no_import_cycles_inside_events(graph: dict[str, list[Edge]]) -> None:
    found = [c for c in cycles(graph) if only_events(c)]
    assert not found, report(found, graph)


def test_domain_imports_only_the_standard_library_and_itself() -> None:
    outside: list[str] = []
    for module, path in project_files().items():
        if module != "domain" and not module.startswith("domain."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node, _ in imports(tree):
            name = imported_names(node, module, path.name == "__init__.py")[0]
            top = name.partition(".")[0]
            if top != "domain" and top not in sys.stdlib_module_names:
                outside.append(f"{module} imports {name} (line {node.lineno})")
    assert not outside, "domain/ imports beyond the standard library:\n" + "\n".join(outside)


LAYERS = {"domain": 0, "events": 1, "service": 2, "api": 3, "workers": 3, "app": 4}
"""One meaning per folder, lowest first: the rules and the table (``domain``), the store (``events``), the
service layer (``service``), its two fronts (``api`` over HTTP, ``workers`` over Celery), and the composition
root (``app``). A module imports its own folder and lower layers only; the two fronts never import each other."""

SCRIPTS = frozenset({"api.examples.generate"})
"""Scripts that build the whole app to do their work (recording the API's examples), outside the layers."""


def test_each_folder_imports_only_itself_and_the_layers_below(graph: dict[str, list[Edge]]) -> None:
    upward: list[str] = []
    for module, edges in graph.items():
        if module in SCRIPTS:
            continue
        source = module.partition(".")[0]
        for edge in edges:
            target = edge.target.partition(".")[0]
            if target != source and LAYERS[target] >= LAYERS[source]:
                upward.append(f"{edge} ({source} may not import {target})")
    assert not upward, "imports against the layers:\n" + "\n".join(upward)
