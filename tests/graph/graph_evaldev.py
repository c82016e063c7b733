"""The eval-dev reference texts as parsed pages, for the graph tests (plain helpers, no fixtures)."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

import pytest

from casetrack.domain import ExtractionMethod, ParsedPage

EVAL_DEV = Path(os.environ.get("CASETRACK_EVAL_DEV", "/work/shared/eval-dev"))
TEXT_DIR = EVAL_DEV / "text"
COURT_DOCUMENTS = (
    "ca8_rule_28j_letter_us_v_xiang_2023.pdf",
    "ca2_docketing_notice_nfl_2017.pdf",
    "scan_ca10_order_in_re_liebowitz_2021.pdf",
    "scan_ca7_order_fedex_ground_2017.tiff",
)

needs_eval_dev = pytest.mark.skipif(not TEXT_DIR.is_dir(), reason=f"eval-dev texts not found at {TEXT_DIR}")


@cache
def pages_of(doc: str) -> tuple[ParsedPage, ...]:
    """`doc` as queries.jsonl names it; pages split on \\f (TXT/DOCX references are one page)."""
    text = (TEXT_DIR / f"{doc}.txt").read_text(encoding="utf-8")
    return tuple(ParsedPage(i + 1, t, ExtractionMethod.NATIVE) for i, t in enumerate(text.split("\f")))


def all_docs() -> list[str]:
    return sorted(p.name.removesuffix(".txt") for p in TEXT_DIR.glob("*.txt")) if TEXT_DIR.is_dir() else []


def jsonl(name: str) -> list[dict[str, object]]:
    path = EVAL_DEV / name
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
