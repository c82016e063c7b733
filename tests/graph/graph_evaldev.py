"""The eval-dev reference texts as parsed pages, for the graph tests (plain helpers, no fixtures)."""

from __future__ import annotations

import json
from functools import cache

from casetrack.domain import ExtractionMethod, ParsedPage
from tests.datasets import EVAL_DEV

TEXT_DIR = EVAL_DEV / "text"
COURT_DOCUMENTS = (
    "ca8_rule_28j_letter_us_v_xiang_2023.pdf",
    "ca2_docketing_notice_nfl_2017.pdf",
    "scan_ca10_order_in_re_liebowitz_2021.pdf",
    "scan_ca7_order_fedex_ground_2017.tiff",
)


@cache
def pages_of(doc: str) -> tuple[ParsedPage, ...]:
    """`doc` as queries.jsonl names it; pages split on \\f (TXT/DOCX references are one page)."""
    text = (TEXT_DIR / f"{doc}.txt").read_text(encoding="utf-8")
    return tuple(ParsedPage(i + 1, t, ExtractionMethod.NATIVE) for i, t in enumerate(text.split("\f")))


def all_docs() -> list[str]:
    return sorted(p.name.removesuffix(".txt") for p in TEXT_DIR.glob("*.txt"))


def jsonl(name: str) -> list[dict[str, object]]:
    path = EVAL_DEV / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
