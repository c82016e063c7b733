"""The kept PDF of a Word file is named by a digest: a crafted record (an imported case's data) cannot place it
outside the case folder."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from casetrack.domain import Document, DocumentType
from casetrack.service.cases.page_images import converted_pdf


def test_a_crafted_id_or_hash_never_leaves_the_case_folder(tmp_path: Path) -> None:
    doc = Document(id="d1", name="a.docx", original_path=None, file_hash="ab" * 32, file_size=1, file_mtime=0.0,
                   format="docx", document_type=DocumentType.CONTRACT, type_confidence=1.0, type_source="user",
                   page_count=1, chunk_count=1, ocr_pages=0, skipped_pages=0, ocr_confidence=None,
                   ingested_at=0.0, embedded_at=None, embedders=())
    case_dir = tmp_path / "case"
    for crafted in (doc, replace(doc, file_hash="../../../../tmp/x"), replace(doc, id="../../../etc/passwd")):
        path = converted_pdf(case_dir, crafted)
        assert path.parent == case_dir / "page_images" and path.resolve().is_relative_to(case_dir.resolve())
    assert converted_pdf(case_dir, doc) != converted_pdf(case_dir, replace(doc, file_hash="cd" * 32))


def test_deleting_a_document_removes_its_printed_pdf(tmp_path: Path) -> None:
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest.document import IngestRequest

    app = CaseTrack.open(load_settings(tmp_path / "data", environ={}))
    case = app.create_case("Printed")
    source = tmp_path / "memo.txt"
    source.write_text("MEMO\n\nThe shipment left the yard on March 3.\n", encoding="utf-8")
    doc = app.ingestor.ingest(case, IngestRequest(str(source))).document
    printed = converted_pdf(app.cases.store(case).case_dir, doc)
    printed.parent.mkdir(parents=True, exist_ok=True)
    printed.write_bytes(b"%PDF-1.4 privileged pages")
    app.ingestor.delete(app.cases.get(case.id), doc)
    assert not printed.exists()
    app.jobs.shutdown()
