"""Where the tests' data lives: every file a test reads is in this repository, found from here.

The labelled sets in the eval-dev layout are under `benchmarks/` (the benchmarks measure on the same
copies); small fixtures of one test area sit in that area's `data/` folder (`tests/<area>/data/`).
Nothing reads a folder beside the checkout or an absolute path of one machine; tests/README.md says more
and tests/test_self_contained.py checks it.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BENCHMARKS = REPO / "benchmarks"

EVAL_DEV = BENCHMARKS / "eval_dev"  # 11 public court records and contracts, 36 labelled queries
HELDOUT = BENCHMARKS / "heldout"  # 12 CUAD contracts, 65 queries
HELDOUT_COURT = BENCHMARKS / "heldout_court"
HELDOUT_EMAIL = BENCHMARKS / "heldout_email"
HELDOUT_LIT = BENCHMARKS / "heldout_lit"
HELDOUT_MIXED = BENCHMARKS / "heldout_mixed"
