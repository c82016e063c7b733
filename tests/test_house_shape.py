"""The shape of src/ (issue 38, item 4): rooms small enough to hold in mind, and no import circles.

Both are read from the source with the standard library's `ast`, without importing anything, so they
run in a fraction of a second. Every import counts, wherever it stands: at the top of a module, inside
a function (a circle broken only by a late import is still a circle) or under `if TYPE_CHECKING:`.

`from casetrack.parse.pdf import parse_pdf` points at `parse/pdf.py`; `from casetrack.parse import pdf`
points at `parse/pdf.py` and at `parse/__init__.py`, which Python runs first: a module inside a package
that imports from its own package's face is in a circle with it when the face imports that module."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "casetrack"
MAX_MODULES_A_FOLDER = 15


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


def imported_modules(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """The src modules `path` imports. `from x import y` names x (its `__init__` runs first) and x.y
    when y is a module; `import x.y` names x.y."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {m for m in found if m in modules and m != name}


def import_graph() -> dict[str, set[str]]:
    """Module -> the src modules it imports."""
    modules = source_modules()
    return {name: imported_modules(path, name, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def describe(group: list[str], graph: dict[str, set[str]]) -> str:
    members = set(group)
    arrows = [f"    {a} -> {b}" for a in group for b in sorted(graph[a] & members)]
    return "\n".join([f"circle of {len(group)}: {', '.join(group)}", *arrows])


def test_no_import_circle_among_src_modules() -> None:
    graph = import_graph()
    found = circles(graph)
    assert not found, "import circles (imports inside functions count):\n" + "\n".join(
        describe(group, graph) for group in found
    )


def test_no_folder_holds_more_than_fifteen_modules() -> None:
    crowded = {}
    for folder in sorted(p for p in (SRC / PACKAGE).rglob("*") if p.is_dir() and p.name != "__pycache__"):
        modules = [p.name for p in folder.glob("*.py") if p.name != "__init__.py"]
        if len(modules) > MAX_MODULES_A_FOLDER:
            crowded[str(folder.relative_to(SRC))] = len(modules)
    assert not crowded, f"folders with more than {MAX_MODULES_A_FOLDER} modules: {crowded}"


def test_the_circle_check_sees_a_circle_made_by_an_import_inside_a_function() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    late = ast.parse("def f():\n    from casetrack.parse import pdf\n")
    assert any(isinstance(n, ast.ImportFrom) for n in ast.walk(late))
