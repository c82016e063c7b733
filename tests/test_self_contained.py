"""A clone stands on its own (issue 35): every file a test reads is in the repository, nothing in src/ or tests/
points at a folder beside the checkout or at one machine's files, and every test checks something.
The rules are written down in tests/README.md; tests/datasets.py says where the data lives."""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path

from tests.datasets import EVAL_DEV, REPO

THIS = Path(__file__).resolve()
# A folder beside the checkout, or a path of a development machine ("/Users/sarah/..." is the fictional user's,
# pasted as an input, and fine). The patterns are split so that `git grep` does not find them here either.
MACHINE_PATHS = re.compile("|".join([
    r"\.\./" + "shared", r"[\"']" + r"shared[\"']\s*/", r"/" + r"work/", r"/" + r"home/\w", r"/" + r"root/",
]).encode())
DATA_SKIP = re.compile(r"skip[^\n]*(eval.?dev|EVAL_DEV|TEXT_DIR|DOCS\.is_dir)")
# What a test may call to check something besides `assert`: pytest's and numpy's checks.
CHECKS = re.compile(r"^(assert|raises|warns|fail|deprecated_call)")


def files_under(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (REPO / folder).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.resolve() != THIS)


def test_nothing_in_src_or_tests_reads_a_folder_beside_the_checkout_or_a_machine_path() -> None:
    found = [f"{path.relative_to(REPO)}: {match.group().decode()}" for path in files_under("src", "tests")
             for match in MACHINE_PATHS.finditer(path.read_bytes())]
    assert found == []


def test_no_test_skips_for_want_of_data() -> None:
    found = [f"{path.relative_to(REPO)}:{n}" for path in files_under("tests") if path.suffix == ".py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if DATA_SKIP.search(line)]
    assert found == []


def test_the_eval_dev_copy_is_whole() -> None:
    """Every document the manifest lists, its reference text and the 36 labelled queries, as real files (not
    placeholders of a large-file store)."""
    documents = json.loads((EVAL_DEV / "docs" / "manifest.json").read_text(encoding="utf-8"))["documents"]
    assert len(documents) == 11
    for entry in documents:
        assert (EVAL_DEV / "docs" / entry["file"]).stat().st_size > 5_000, entry["file"]
        assert (EVAL_DEV / entry["text"]).read_text(encoding="utf-8").strip(), entry["text"]
    queries = [json.loads(line) for line in (EVAL_DEV / "queries.jsonl").read_text().splitlines() if line.strip()]
    assert len(queries) == 36 and {q["doc"] for q in queries} <= {e["file"] for e in documents}
    assert "## Sources and licences" in (EVAL_DEV / "README.md").read_text(encoding="utf-8")


# --- every test checks something ----------------------------------------------------------------------------


@cache
def functions_of(path: Path) -> dict[str, ast.AST]:
    """The functions a test module can call by name: its own, and those it imports from other test modules."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and (node.level or node.module.startswith("tests.")):
            base = path.parent if node.level else REPO
            source = base.joinpath(*node.module.split(".")).with_suffix(".py")
            if source.is_file():
                imported = functions_of(source)
                found |= {a.asname or a.name: imported[a.name] for a in node.names if a.name in imported}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found[node.name] = node
    return found


def checks(node: ast.AST, known: dict[str, ast.AST], seen: set[int]) -> bool:
    """Whether `node` asserts, raises, calls a pytest/numpy check, or calls a helper that does."""
    seen.add(id(node))
    for inner in ast.walk(node):
        if isinstance(inner, ast.Assert | ast.Raise):
            return True
        if isinstance(inner, ast.Call):
            func = inner.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if CHECKS.match(name):
                return True
            helper = known.get(name)
            if helper is not None and id(helper) not in seen and checks(helper, known, seen):
                return True
    return False


def test_every_test_asserts_or_expects_an_error() -> None:
    """A test that only prints passes whatever the code does: its numbers belong in benchmarks/."""
    idle = []
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        known = functions_of(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
                    and not checks(node, known, set())):
                idle.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name}")
    assert idle == []


def test_the_checker_tells_a_test_that_only_prints_from_one_that_checks(tmp_path: Path) -> None:
    module = tmp_path / "test_sample.py"
    module.write_text("def helper(x):\n    assert x\n\n"
                      "def test_prints():\n    print(1)\n\n"
                      "def test_asserts():\n    assert 1\n\n"
                      "def test_calls_a_checking_helper():\n    helper(1)\n\n"
                      "def test_expects():\n    with pytest.raises(ValueError):\n        int('x')\n")
    known = functions_of(module)
    verdicts = {name: checks(known[name], known, set()) for name in known if name.startswith("test")}
    assert verdicts == {"test_prints": False, "test_asserts": True, "test_calls_a_checking_helper": True,
                        "test_expects": True}
