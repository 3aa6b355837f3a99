"""Which way imports go: no module of net/ imports tui/, and no import circle in the package.

Every import a module makes at run time counts, at the top or inside a function (those under
``if TYPE_CHECKING:`` do not run). docs/architecture.md draws the graph this test keeps.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "briscola_lan"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _runtime_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def imports_of(name: str) -> set[str]:
    """The package's modules that ``name`` imports (``from pkg import mod`` names ``pkg.mod``)."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
            continue
        base = node.module or ""
        if node.level:
            prefix = package[: len(package) - node.level + 1]
            base = ".".join([*prefix, base] if base else prefix)
        for alias in node.names:
            full = f"{base}.{alias.name}"
            out.add(full if full in MODULES else base)
    return {m for m in out if m in MODULES and m != name}


GRAPH = {name: imports_of(name) for name in MODULES}


def test_the_graph_is_read() -> None:
    assert "briscola_lan.net.client" in GRAPH["briscola_lan.net.connect"]
    assert "briscola_lan.tui.command" in GRAPH["briscola_lan.commands.join"]  # a lazy import


def test_net_never_imports_tui() -> None:
    bad = [
        f"{name} -> {target}"
        for name, targets in GRAPH.items()
        if name.startswith("briscola_lan.net")
        for target in sorted(targets)
        if target.startswith("briscola_lan.tui")
    ]
    assert not bad, "net/ imports tui/: " + ", ".join(bad)


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root, targets in GRAPH.items():
        if root in index:
            continue
        work = [(root, iter(sorted(targets)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(GRAPH[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_circle() -> None:
    assert _cycles() == []


def test_a_circle_would_be_found() -> None:
    GRAPH["briscola_lan.rules.cards"].add("briscola_lan.sim")
    try:
        assert any("briscola_lan.sim" in c for c in _cycles())
    finally:
        GRAPH["briscola_lan.rules.cards"].discard("briscola_lan.sim")


def _type_graph() -> dict[str, set[str]]:
    """The graph with the imports made only for type annotations too (``if TYPE_CHECKING:``)."""
    saved = {name: set(targets) for name, targets in GRAPH.items()}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                base = node.module
                if node.level:
                    base = ".".join([*package[: len(package) - node.level + 1], base])
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    target = full if full in MODULES else base
                    if target in MODULES and target != name:
                        GRAPH[name].add(target)
    return saved


# Circles that only annotations close (each side needs the other's types, not its code). None may
# be added; these are left to take apart.
KNOWN_TYPE_CIRCLES = {
    ("briscola_lan.table.deal", "briscola_lan.table.seeds"),
    ("briscola_lan.table.core", "briscola_lan.table.signals"),
    ("briscola_lan.table.host", "briscola_lan.table.host_snapshot"),
    ("briscola_lan.tui.app", "briscola_lan.tui.keys"),  # layout left it: it reads tui/config.py
    ("briscola_lan.net.host_saves", "briscola_lan.net.next_match", "briscola_lan.net.serving"),
}


def test_no_new_circle_through_type_annotations() -> None:
    saved = _type_graph()
    try:
        found = {tuple(c) for c in _cycles()}
        assert "briscola_lan.tui.follow" in GRAPH["briscola_lan.tui.state"]
        assert "briscola_lan.tui.state" not in GRAPH["briscola_lan.tui.follow"]
    finally:
        GRAPH.clear()
        GRAPH.update(saved)
    assert found <= KNOWN_TYPE_CIRCLES, found - KNOWN_TYPE_CIRCLES
