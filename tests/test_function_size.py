"""No function in src/ is longer than 80 lines, no module reaches 400 (issue 38; STYLE.md): what a reader can
hold in mind at once. Lines are counted from `def` to the function's last line, docstring and comments included."""

from __future__ import annotations

import ast

from tests.datasets import REPO

MAX_LINES = 80


def long_functions() -> list[str]:
    found = []
    for path in sorted((REPO / "src").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_LINES:
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_function_in_src_is_longer_than_80_lines() -> None:
    assert long_functions() == []


MAX_MODULE_LINES = 399  # a module of 400 lines or more is two modules (issue 38, first step)


def test_no_module_in_src_reaches_400_lines() -> None:
    long = [f"{path.relative_to(REPO)} ({count} lines)" for path in sorted((REPO / "src").rglob("*.py"))
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES]
    assert long == []
