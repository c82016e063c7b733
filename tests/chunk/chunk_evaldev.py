"""The eval-dev reference texts as parsed pages, for the chunk tests (no fixtures, plain helpers)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from casetrack.domain import ExtractionMethod, ParsedPage
from tests.datasets import EVAL_DEV

TEXT_DIR = EVAL_DEV / "text"


@dataclass(frozen=True, slots=True)
class EvalDoc:
    name: str  # the document's file name, as queries.jsonl names it
    text: str  # the whole reference text, pages joined by \f
    pages: tuple[ParsedPage, ...]

    def page_offset(self, number: int) -> int:
        """Offset of page `number` in the whole reference text."""
        return sum(len(p.text) + 1 for p in self.pages[: number - 1])


def load_doc(path: Path) -> EvalDoc:
    text = path.read_text(encoding="utf-8")
    # TXT/DOCX references have no \f: they come out as one page.
    pages = tuple(ParsedPage(i + 1, t, ExtractionMethod.NATIVE) for i, t in enumerate(text.split("\f")))
    return EvalDoc(path.name.removesuffix(".txt"), text, pages)


def eval_paths() -> list[Path]:
    return sorted(TEXT_DIR.glob("*.txt"))


def eval_queries() -> list[dict[str, object]]:
    path = EVAL_DEV / "queries.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

