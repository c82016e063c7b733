"""The per-document tables behind the context graph's floor tests, printed for a person to read.

    uv run python benchmarks/graph_tables.py [--set unseen-contracts|unseen-opinions|heldout-opinions]

The tests in tests/graph/ assert the totals against floors (and show the same table when a floor fails);
this prints the tables of all three labelled sets, or one, without running pytest:

  unseen-contracts   33 CUAD contract openings (tests/graph/test_graph_unseen_contracts.py)
  unseen-opinions    seven US legal texts (tests/graph/test_graph_unseen_opinions.py)
  heldout-opinions   eight court documents (tests/graph/test_graph_heldout_opinions.py)
"""

from __future__ import annotations

import argparse
import sys
import types
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# fast-diff-match-patch installs a top-level `tests` package of its own: the name means this repository's here.
sys.modules["tests"] = types.ModuleType("tests")
sys.modules["tests"].__path__ = [str(ROOT / "tests")]


def unseen_contracts() -> Iterable[str]:
    from tests.graph.test_graph_unseen_contracts import scores, table

    return table(scores())


def unseen_opinions() -> Iterable[str]:
    from tests.graph.test_graph_unseen_opinions import tables

    return tables()


def heldout_opinions() -> Iterable[str]:
    from tests.graph.test_graph_heldout_opinions import tables

    return tables()


SETS: dict[str, Callable[[], Iterable[str]]] = {
    "unseen-contracts": unseen_contracts,
    "unseen-opinions": unseen_opinions,
    "heldout-opinions": heldout_opinions,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=sorted(SETS), action="append", help="one set (default: all three)")
    args = parser.parse_args()
    for name in args.set or list(SETS):
        print(f"== {name}")
        print("\n".join(SETS[name]()))
        print()


if __name__ == "__main__":
    main()
