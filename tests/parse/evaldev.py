"""The eval-dev documents, parsed once per test session, and word-level comparison helpers."""

from __future__ import annotations

import functools
import json
import re
from collections import Counter

from casetrack.domain import ParsedDocument
from casetrack.parse import parse_file
from tests.datasets import EVAL_DEV

DOCS = EVAL_DEV / "docs"


@functools.cache
def manifest() -> dict[str, dict]:
    entries = json.loads((DOCS / "manifest.json").read_text())["documents"]
    return {entry["file"]: entry for entry in entries}


@functools.cache
def parsed(name: str) -> ParsedDocument:
    return parse_file(DOCS / name)


def reference_text(name: str) -> str:
    return (EVAL_DEV / manifest()[name]["text"]).read_text(encoding="utf-8")


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def bag_of_words_scores(hypothesis: str, reference: str) -> tuple[float, float]:
    """(recall, precision) of word occurrences, order-insensitive: the share of the reference's
    words (counted with multiplicity) that the hypothesis contains, and the converse."""
    found, expected = Counter(words(hypothesis)), Counter(words(reference))
    shared = sum((found & expected).values())
    return shared / max(sum(expected.values()), 1), shared / max(sum(found.values()), 1)


def queries() -> list[dict]:
    lines = (EVAL_DEV / "queries.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def squash(text: str) -> str:
    return " ".join(text.split())
