"""The pure layers never import I/O: sockets, asyncio, zeroconf or prompt_toolkit."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "briscola_lan"
PURE = ["rules", "fairness", "wire", "table", "ai"]
PURE_MODULES = ["net/admission.py"]  # pure modules of the I/O layers
FORBIDDEN = {"asyncio", "socket", "ssl", "zeroconf", "prompt_toolkit", "selectors"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("layer", PURE)
def test_pure_layer_has_no_io_imports(layer: str) -> None:
    files = sorted((PACKAGE / layer).rglob("*.py"))
    for path in files:
        bad = _imports(path) & FORBIDDEN
        assert not bad, f"{path.relative_to(PACKAGE)} imports {sorted(bad)}"


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_module_of_an_io_layer_has_no_io_imports(module: str) -> None:
    bad = _imports(PACKAGE / module) & FORBIDDEN
    assert not bad, f"{module} imports {sorted(bad)}"


def test_rules_imports_nothing_else_of_the_project() -> None:
    for path in sorted((PACKAGE / "rules").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("briscola_lan.") or node.module.startswith(
                    "briscola_lan.rules"
                ), f"{path.name} imports {node.module}"
