"""A document in which nothing can be searched (blank pages, text drawn with no text layer) is kept, and
the user is told so plainly, with why and what to do, instead of "now searchable" (issue 20 "also
found"). Real PDFs built with PDFium, the real ingest and the texts the tools return."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from casetrack.config import load_settings
from casetrack.render.documents import ingested
from casetrack.render.folders import report as report_text
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.service.ingest.folders import walk


def blank_pdf(path: Path, pages: int) -> Path:
    document = pdfium.PdfDocument.new()
    for _ in range(pages):
        document.new_page(612, 792)
    document.save(str(path))
    document.close()
    return path


def test_a_pdf_of_blank_pages_is_kept_and_said_to_have_nothing_searchable(data_dir: Path, tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Smith v. Jones")
    done = app.ingestor.ingest(case, IngestRequest(str(blank_pdf(tmp_path / "production.pdf", 300))))
    assert done.document.chunk_count == 0 and done.document.page_count == 300
    warning = done.document.warnings[0]
    assert warning.startswith("Nothing in this document is searchable: no text was found on any of its 300 pages;")
    assert "blank" in warning and "It is kept in the case, but no search will find it." in warning
    text = ingested(done.document, case, done.duration_s)
    assert "now searchable" not in text
    assert "Nothing in this document is searchable: no text was found in it (see the first warning)." in text
    stored = app.documents.resolve(app.cases.get(case.id), "production.pdf")
    assert stored.warnings == done.document.warnings  # every later answer about it repeats the warning
    app.stop()


def test_a_folder_report_names_the_documents_with_nothing_searchable(data_dir: Path, tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Smith v. Jones")
    folder = tmp_path / "Production"
    folder.mkdir()
    blank_pdf(folder / "PROD000123.pdf", 5)
    (folder / "letter.txt").write_text("Dear Counsel, the lease ends on 1 May 2024.", encoding="utf-8")
    report = app.folders.ingest_folder(case, folder.resolve(), walk(folder.resolve()))
    text = report_text(report, case.name)
    assert "All 2 new or changed documents are now searchable." not in text
    assert "1 of 2 new or changed documents are now searchable; no text was found in PROD000123.pdf " \
           "(see Warnings)." in text
    assert "  - PROD000123.pdf: Nothing in this document is searchable" in text
    app.stop()
