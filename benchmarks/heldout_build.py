"""Building a labelled set in the eval-dev layout from plain texts, shared by benchmarks/heldout*/make_set.py:
a PDF with a text layer made by LibreOffice, its pages as PDFium reads them (the reference text), a DOCX."""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import docx
import pypdfium2 as pdfium
from PIL import Image, ImageFilter

from casetrack.search.evaluation import squeeze

ELLIPSIS = " … "  # "first words … last words": a hand-labelled answer's span runs from the first to the last
# The public record of Giuffre v. Maxwell, No. 15-cv-07433 (S.D.N.Y.), and the repository (at the commit) its filings
# were read from: heldout_lit and heldout_transcripts both take documents from it.
GIUFFRE_PUBLIC = ("Court filing in Giuffre v. Maxwell, No. 15-cv-07433 (S.D.N.Y.): a public court record (the exhibits "
                  "unsealed by the court's order of December 18, 2023). Repository code is not used.")
EFILES = "unclebulgaria9001/efiles"
EFILES_AT = "7abbbb63df629cfd2c184fa3ee3aeb77d4e84d2a"


class SourcedDoc(NamedTuple):
    """A hand-labelled set's document: source/<key>.txt made into docs/<file>."""

    key: str
    file: str
    doc_type: str
    title: str
    repo: str
    commit: str
    path: str
    license: str


class HandQuery(NamedTuple):
    doc: str  # SourcedDoc.key
    kind: str
    query: str
    answers: tuple[str, ...]


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


def sourced_entry(doc: SourcedDoc, split: str) -> dict[str, object]:
    """The manifest entry's opening fields for a document made from a public source."""
    return {"file": doc.file, "doc_type": doc.doc_type, "split": split,
            "source": {"repo": doc.repo, "commit": doc.commit, "license": doc.license, "path": doc.path},
            "format": doc.file.rsplit(".", 1)[1]}


def docx_from_lines(text: str, out: Path) -> str:
    """`out`, a DOCX with one paragraph per non-empty line of `text`; returns its paragraphs' text."""
    document = docx.Document()
    for line in text.splitlines():
        if line.strip():
            document.add_paragraph(line.strip())
    document.save(str(out))
    return "\n".join(p.text for p in docx.Document(str(out)).paragraphs)


def scanned_pdf(text: str, out: Path, dpi: int, angle: float, seed: int) -> tuple[str, dict[str, object]]:
    """`out`, an image-only PDF of page 1 of the PDF LibreOffice makes from `text` (turned `angle` degrees, blur
    0.6 px, 0.2 % speckle); returns that page's text (the ground truth) and the manifest fields saying so."""
    image, truth = scanned_first_page(text, dpi, angle, 0.6, 500, seed)
    image.save(out, "PDF", resolution=dpi)
    return truth, {"pages": 1, "scanned": True, "text_layer": None,
                   "scan_made_by": f"page 1 of a LibreOffice PDF of the source text, rasterized at {dpi} dpi with "
                                   f"{abs(angle)} degree skew, Gaussian blur 0.6 px and speckle, saved as an "
                                   "image-only PDF",
                   "ground_truth_text": f"text/{out.name}.txt"}


Made = tuple[str, dict[str, object]]  # a document's reference text and its manifest fields


def build_sourced_doc(root: Path, split: str, doc: SourcedDoc, scan: tuple[int, float, int],
                      other: Callable[[str, str, Path], Made | None] | None = None) -> Made:
    """docs/<file> of one document made from source/<key>.txt: "... scan.pdf" a scanned page (`scan`: dpi, angle,
    seed, see `scanned_pdf`), DOCX one paragraph per line, the rest as `converted` makes them, or first as
    `other(format, text, out)` makes them when it does (an e-mail). Returns its reference text and manifest
    entry, written to text/."""
    text = (root / "source" / f"{doc.key}.txt").read_text(encoding="utf-8")
    out = root / "docs" / doc.file
    entry = sourced_entry(doc, split)
    fmt = str(entry["format"])
    made = other(fmt, text, out) if other is not None else None
    if made is None and doc.file.endswith("scan.pdf"):
        made = scanned_pdf(text, out, *scan)
    elif made is None and fmt == "docx":
        made = docx_from_lines(text, out), {
            "pages": None, "scanned": False, "converted": True,
            "note": "Word file made from the source text, one paragraph per line (wording unchanged)"}
    elif made is None:
        made = converted(fmt, text, out, "the source text", "the source text unchanged")
    assert made is not None, f"{doc.file}: no way to make a {fmt} file"
    ref, fields = made
    entry |= fields
    finish_entry(root, doc.file, doc.title, out, ref, entry)
    return ref, entry


def docx_from_text(text: str, out: Path) -> str:
    """`out`, a DOCX of `text`'s blank-line-separated blocks as paragraphs; returns its paragraphs' text."""
    document = docx.Document()
    for block in re.split(r"\n\s*\n", text):
        if block.strip():
            document.add_paragraph(block.strip())
    document.save(str(out))
    return "\n".join(p.text for p in docx.Document(str(out)).paragraphs)


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


def locate_answer(ref: str, answer: str) -> tuple[int, int]:
    """The reference span of one hand-labelled answer, whitespace ignored ("a … b" runs from a to b); it must be
    unique. PDFium's mark for a hyphen that ended a line (U+FFFE, the lines joined) matches "-"."""
    hay, offsets = squeeze(ref)
    hay = hay.replace("\ufffe", "-")  # one character for one: the offsets hold
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


def hand_labelled_rows(queries: Sequence[HandQuery], refs: Mapping[str, tuple[SourcedDoc, str, bool]], prefix: str,
                       labels: str) -> list[dict[str, object]]:
    """queries.jsonl rows: each query's answers located in its document's reference text (`refs`: key -> the
    document, its reference text, whether it is paginated). Exits naming the query whose answer is not found."""
    rows: list[dict[str, object]] = []
    for n, q in enumerate(queries, start=1):
        doc, ref, paginated = refs[q.doc]
        try:
            spans = [locate_answer(ref, answer) for answer in q.answers]
        except ValueError as exc:
            raise SystemExit(f"{prefix}{n:03d} ({q.doc}): {exc}") from None
        rows.append({"id": f"{prefix}{n:03d}", "query": q.query, "kind": q.kind, "doc": doc.file,
                     **answer_fields(ref, spans), "source": "hand-labeled", "labels": labels,
                     **page_and_line(ref, spans[0][0], paginated)})
    return rows


def build_set(root: Path, split: str, docs: Sequence[SourcedDoc], queries: Sequence[HandQuery], prefix: str,
              labels: str, build_doc: Callable[[SourcedDoc], tuple[str, dict[str, object]]],
              paginated: Sequence[str]) -> None:
    """A hand-labelled set from scratch: docs/ and text/ emptied, each document built (`build_doc` returns its
    reference text and manifest entry), docs/manifest.json, queries.jsonl. `paginated`: the formats with pages."""
    for sub in ("docs", "text"):
        shutil.rmtree(root / sub, ignore_errors=True)
        (root / sub).mkdir()
    refs: dict[str, tuple[SourcedDoc, str, bool]] = {}
    manifest = []
    for doc in docs:
        ref, entry = build_doc(doc)
        refs[doc.key] = (doc, ref, entry["format"] in paginated)
        manifest.append(entry)
    (root / "docs" / "manifest.json").write_text(json.dumps({"split": split, "documents": manifest}, indent=1,
                                                            ensure_ascii=False) + "\n", encoding="utf-8")
    write_queries(root, hand_labelled_rows(queries, refs, prefix, labels), len(docs))


def scanned_first_page(text: str, dpi: int, angle: float, blur: float, speckle_every: int,
                       seed: int) -> tuple[Image.Image, str]:
    """Page 1 of the PDF LibreOffice makes from `text`, rendered at `dpi` as a greyscale "scan": turned `angle`
    degrees, blurred `blur` px, one pixel in `speckle_every` flipped dark or light (fixed `seed`). Returns the
    image and that page's text (the scan's ground truth)."""
    with tempfile.TemporaryDirectory() as tmp:
        pdf_path = Path(tmp) / "page.pdf"
        pdf_from_text(text, pdf_path)
        truth = page_texts(pdf_path)[0]
        pdf = pdfium.PdfDocument(str(pdf_path))
        try:
            image = pdf[0].render(scale=dpi / 72).to_pil().convert("L")
        finally:
            pdf.close()
    image = image.rotate(angle, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=255)
    image = image.filter(ImageFilter.GaussianBlur(blur))
    rng = random.Random(seed)
    pixels = image.load()
    width, height = image.size
    for _ in range(width * height // speckle_every):
        x, y = rng.randrange(width), rng.randrange(height)
        pixels[x, y] = rng.choice((40, 90, 230))  # type: ignore[index]
    return image, truth
