"""Building a labelled set in the eval-dev layout from plain texts, shared by benchmarks/heldout*/make_set.py:
a PDF with a text layer made by LibreOffice, its pages as PDFium reads them (the reference text), a DOCX."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import docx
import pypdfium2 as pdfium

from casetrack.search.evaluation import squeeze

ELLIPSIS = " … "  # an answer written "first words … last words"


def pdf_from_text(text: str, out: Path) -> None:
    """`out`, a PDF LibreOffice makes from `text` (UTF-8, one paragraph a line)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / (out.stem + ".txt")
        src.write_text(text, encoding="utf-8")
        subprocess.run(["soffice", "--headless", "--infilter=Text (encoded):UTF8,LF,,,", "--convert-to", "pdf",
                        "--outdir", tmp, str(src)], check=True, capture_output=True, timeout=300)
        shutil.move(str(Path(tmp) / (out.stem + ".pdf")), out)


def page_texts(path: Path) -> list[str]:
    """Each page's text as PDFium gives it, "\\n" line breaks, no trailing spaces."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = []
        for i in range(len(pdf)):
            raw = pdf[i].get_textpage().get_text_range()
            lines = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            pages.append("\n".join(line.rstrip() for line in lines))
        return pages
    finally:
        pdf.close()


def docx_from_text(text: str, out: Path) -> str:
    """`out`, a DOCX of `text`'s blank-line-separated blocks as paragraphs; returns its paragraphs' text."""
    document = docx.Document()
    for block in re.split(r"\n\s*\n", text):
        if block.strip():
            document.add_paragraph(block.strip())
    document.save(str(out))
    return "\n".join(p.text for p in docx.Document(str(out)).paragraphs)


def answer_span(ref: str, answer: str) -> tuple[int, int]:
    """The reference span of one answer, whitespace ignored ("a … b" runs from a to b); it must be unique."""
    hay, offsets = squeeze(ref)
    first, _, last = answer.partition(ELLIPSIS)
    head, _ = squeeze(first)
    start = hay.find(head)
    if start < 0:
        raise ValueError(f"not found: {first[:60]!r}")
    if not last and hay.find(head, start + 1) >= 0:
        raise ValueError(f"not unique: {first[:60]!r}")
    end = start + len(head)
    if last:
        tail, _ = squeeze(last)
        found = hay.find(tail, end)
        if found < 0:
            raise ValueError(f"end not found: {last[:60]!r}")
        end = found + len(tail)
    return offsets[start], offsets[end - 1] + 1


def answer_fields(ref: str, spans: list[tuple[int, int]]) -> dict[str, object]:
    """A query row's spans and answer texts, in the eval-dev layout's order."""
    texts = [ref[s:e] for s, e in spans]
    row: dict[str, object] = {"spans": [list(s) for s in spans], "answer_text": texts[0]}
    if len(texts) > 1:
        row["all_answer_texts"] = texts
    return row


def page_and_line(ref: str, start: int, paginated: bool) -> dict[str, object]:
    """The eval-dev `page` and `text_line` of offset `start` in a reference text whose pages are split by form
    feeds (both None for a format without pages)."""
    if not paginated:
        return {"page": None, "text_line": None}
    page_start = ref.rfind("\f", 0, start) + 1
    return {"page": ref.count("\f", 0, start) + 1, "text_line": ref.count("\n", page_start, start) + 1}


def write_queries(root: Path, rows: Sequence[dict[str, object]], documents: int) -> None:
    """queries.jsonl, one row a line, and a one-line summary of the set."""
    lines = [json.dumps(row, ensure_ascii=False) for row in rows]
    (root / "queries.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    kinds = dict(Counter(str(row["kind"]) for row in rows))
    print(f"{documents} documents, {len(rows)} queries: {kinds}")


def converted(fmt: str, text: str, out: Path, source: str, plain_note: str) -> tuple[str, dict[str, object]] | None:
    """A document made from `text` as a PDF, a DOCX or the text itself: its reference text and manifest fields
    (None for another format). `source` says what the text is ("the source text") in the conversion notes."""
    if fmt == "pdf":
        pdf_from_text(text, out)
        ref = "\f".join(page_texts(out))
        return ref, {"pages": ref.count("\f") + 1, "scanned": False, "text_layer": "native", "converted": True,
                     "note": f"PDF made by LibreOffice from {source} (wording unchanged)"}
    if fmt == "docx":
        return docx_from_text(text, out), {
            "pages": None, "scanned": False, "converted": True,
            "note": f"Word file made from {source}, one paragraph per text block (wording unchanged)"}
    if fmt == "txt":
        out.write_text(text, encoding="utf-8")
        return text, {"pages": None, "scanned": False, "note": plain_note}
    return None


def finish_entry(root: Path, file: str, title: str, out: Path, ref: str, entry: dict[str, object]) -> None:
    """Write the reference text and add the file's size, hash and title to its manifest entry."""
    (root / "text" / f"{file}.txt").write_text(ref, encoding="utf-8")
    data = out.read_bytes()
    entry |= {"text": f"text/{file}.txt", "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
              "title": title}
