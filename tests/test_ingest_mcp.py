"""Ingestion as a user drives it through Claude: real files, a real server, a real store."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.store import documents as docstore
from tests.badfiles import write_all
from tests.conftest import EVAL_DEV
from tests.mcp_helpers import CASETRACK, call_error, call_ok, mcp_session, server_env, text_of

pytestmark = pytest.mark.anyio

MANIFEST = json.loads((EVAL_DEV / "docs" / "manifest.json").read_text())["documents"]
QUERIES = [json.loads(line) for line in (EVAL_DEV / "queries.jsonl").read_text().splitlines() if line.strip()]
NATIVE = [d["file"] for d in MANIFEST if not d["scanned"]]


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _overlaps(answer: str, chunk: str) -> bool:
    """Contained, ignoring whitespace; or (for text an extractor renders slightly differently)
    at least 80% of the answer's words appear in order-independent form in the chunk."""
    a, c = _squash(answer), _squash(chunk)
    if a in c:
        return True
    words = re.findall(r"\w+", a)
    present = set(re.findall(r"\w+", c))
    return bool(words) and sum(w in present for w in words) / len(words) >= 0.8


def _case_store_docs(data_dir: Path) -> tuple[CaseTrack, list]:
    app = CaseTrack.open(load_settings(data_dir))
    [case] = app.list_cases("all")
    with app.cases.store(case).reader() as db:
        docs = docstore.list_documents(db)
    return app, docs


@pytest.mark.slow  # end to end over real models and processes: CI runs it with -m slow
async def test_every_eval_dev_document_ingests_with_exact_provenance(data_dir: Path) -> None:
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Eval Dev", case_type="contract")
        report = await call_ok(client, "ingest_folder", folder_path=str(EVAL_DEV / "docs"), wait_seconds=600)
        counts = report.structured_content["report"]["counts"]
        assert counts.get("ingested") == len(MANIFEST), text_of(report)
        assert counts.get("failed", 0) == 0
        assert "Folder ingestion complete for Eval Dev" in text_of(report)

        listing = await call_ok(client, "list_documents", sort_by="name")
        pages = {d["name"]: d["page_count"] for d in listing.structured_content["documents"]}
        for entry in MANIFEST:  # the manifest gives page counts for paged formats (PDF, images)
            if entry["pages"] is not None:
                assert pages[entry["file"]] == entry["pages"], entry["file"]

        # One chunk, every provenance field, as a user sees it.
        chunks = await call_ok(client, "get_document_chunks", document_name="cuad_ebix", page_filter=7)
        first = chunks.structured_content["chunks"][0]
        assert first["source"]["page"] == 7
        assert first["source"]["file_path"].endswith("cuad_ebix_cobranding_agreement.pdf")
        for field in ("paragraph_start", "line_start", "char_start", "char_end", "extraction_method", "ingested_at",
                      "embedded_at"):
            assert first["source"][field] is not None, field
        chunk = await call_ok(client, "get_chunk", chunk_id=first["chunk_id"])
        assert "File Path:" in text_of(chunk) and "Chars:" in text_of(chunk) and "Chunk Index:" in text_of(chunk)
        assert first["citation"].startswith("cuad_ebix_cobranding_agreement.pdf, p. 7, para")

        scan = await call_ok(client, "get_document", document_name="scan_ca10")
        assert scan.structured_content["document"]["extraction"] == "ocr"
        assert scan.structured_content["document"]["ocr_confidence"] > 50

    app, docs = _case_store_docs(data_dir)
    case = app.list_cases("all")[0]
    by_name = {d.name: d for d in docs}
    contained = 0
    with app.cases.store(case).reader() as db:
        chunks_by_doc = {d.name: list(docstore.document_chunks(db, d)) for d in docs}
        for doc in docs:
            page_text = {p.number: p.text for p in docstore.pages(db, doc.id)}
            for chunk in chunks_by_doc[doc.name]:
                assert page_text[chunk.span.page][chunk.span.char_start:chunk.span.char_end] == chunk.text
    for query in QUERIES:
        doc = by_name[query["doc"]]
        candidates = [c for c in chunks_by_doc[doc.name] if query["page"] is None or c.span.page == query["page"]]
        answers = query.get("all_answer_texts") or [query["answer_text"]]
        assert any(_overlaps(a, c.text) for a in answers for c in candidates), query["id"]
        contained += any(_squash(a) in _squash(c.text) for a in answers for c in candidates)
    assert contained >= len(QUERIES) - 3, f"only {contained}/{len(QUERIES)} answers fully contained"


@pytest.mark.slow  # end to end over real models and processes: CI runs it with -m slow
async def test_folder_ingest_reports_each_bad_file_and_sync_tracks_changes(data_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "Smith Documents"
    (folder / "Contracts").mkdir(parents=True)
    for name in ("cuad_lucid_distributor_agreement.pdf", "common_paper_mutual_nda_v1.docx"):
        shutil.copy(EVAL_DEV / "docs" / name, folder / "Contracts" / name)
    shutil.copy(EVAL_DEV / "docs" / "cuad_biopure_agency_agreement.txt", folder / "agency.txt")
    (folder / "~$draft.docx").write_bytes(b"lock file of an open Word document")
    bad = write_all(folder / "Broken")

    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Smith v. Jones")
        first = await call_ok(client, "ingest_folder", folder_path=str(folder), wait_seconds=300)
        files = {f["path"]: f for f in first.structured_content["report"]["files"]}
        assert "~$draft.docx" not in files
        for row in bad:
            outcome = files[f"Broken/{row.filename}"]
            if row.expected_error is None:
                assert outcome["status"] == "ingested", outcome
            elif row.filename.endswith(".xlsx"):
                assert outcome["status"] == "unsupported"
                assert outcome["message"].endswith("this is a spreadsheet: save or print it as PDF")
                assert f"  - Broken/{row.filename}: a spreadsheet: save or print it as PDF" in text_of(first)
            else:
                assert outcome["status"] == "failed", outcome
                assert row.message_fragment in outcome["message"], (row.filename, outcome["message"])
        for good in ("Contracts/cuad_lucid_distributor_agreement.pdf", "Contracts/common_paper_mutual_nda_v1.docx",
                     "agency.txt"):
            assert files[good]["status"] == "ingested"
        ingested = sum(f["status"] == "ingested" for f in files.values())
        failed = sum(f["status"] == "failed" for f in files.values())

        again = await call_ok(client, "ingest_folder", folder_path=str(folder), wait_seconds=300)
        assert again.structured_content["report"]["counts"].get("skipped") == ingested
        assert "ingested" not in again.structured_content["report"]["counts"]

        # Change one file, delete another: dry run first (changes nothing), then for real.
        with (folder / "agency.txt").open("a") as handle:
            handle.write("\n\nAMENDMENT No. 1. The Agent's commission is increased to 7.5 percent.\n")
        (folder / "Contracts" / "common_paper_mutual_nda_v1.docx").unlink()
        before = text_of(await call_ok(client, "list_documents"))
        preview = await call_ok(client, "sync_folder", folder_path=str(folder), dry_run=True, remove_deleted=True,
                                wait_seconds=300)
        pc = preview.structured_content["report"]["counts"]
        # The broken files are not in the case, so a sync tries them again (and they fail again).
        assert pc.get("would_update") == 1 and pc.get("would_remove") == 1 and pc.get("would_ingest") == failed
        assert text_of(await call_ok(client, "list_documents")) == before

        synced = await call_ok(client, "sync_folder", folder_path=str(folder), remove_deleted=True, wait_seconds=300)
        sc = synced.structured_content["report"]["counts"]
        assert sc.get("updated") == 1 and sc.get("removed") == 1 and sc.get("failed") == failed, sc
        assert sc.get("unchanged") == ingested - 2
        docs = {d["name"] for d in (await call_ok(client, "list_documents")).structured_content["documents"]}
        assert "common_paper_mutual_nda_v1.docx" not in docs and "agency.txt" in docs
        chunks = await call_ok(client, "get_document_chunks", document_name="agency.txt")
        assert "commission is increased to 7.5 percent" in text_of(chunks)

        # A renamed file keeps its embeddings (same document id) and takes its new name and path (issue 22 item 8).
        old = (await call_ok(client, "get_document", document_name="cuad_lucid")).structured_content["document"]
        (folder / "Contracts" / "cuad_lucid_distributor_agreement.pdf").rename(folder / "lucid-final.pdf")
        moved = await call_ok(client, "sync_folder", folder_path=str(folder), wait_seconds=300)
        assert moved.structured_content["report"]["counts"].get("moved") == 1
        new = (await call_ok(client, "get_document", document_name="lucid-final")).structured_content["document"]
        assert new["id"] == old["id"] and new["embedded_at"] == old["embedded_at"]
        assert new["name"].startswith("lucid-final")
        assert new["file_path"].endswith("lucid-final.pdf")


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_single_document_errors_are_specific_and_store_nothing(data_dir: Path, tmp_path: Path) -> None:
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Errors")
        missing = await call_error(client, "ingest_document", file_path=str(tmp_path / "Complaint.pdf"))
        assert missing == f"File not found: {tmp_path / 'Complaint.pdf'}\n\nCheck that the path is correct and the " \
                          "file exists."
        sheet = tmp_path / "damages.xlsx"
        sheet.write_bytes(b"PK\x03\x04")
        unsupported = await call_error(client, "ingest_document", file_path=str(sheet))
        assert unsupported.startswith("Unsupported file format: .xlsx\n\nSupported formats: PDF, DOCX")
        assert unsupported.endswith("\n\nThis is a spreadsheet: save or print it as PDF.")  # what to do about it
        assert "is a folder" in await call_error(client, "ingest_document", file_path=str(tmp_path))
        empty = tmp_path / "empty.pdf"
        empty.write_bytes(b"")
        assert "empty" in (await call_error(client, "ingest_document", file_path=str(empty))).lower()
        nda = EVAL_DEV / "docs" / "common_paper_mutual_nda_v1.docx"
        await call_ok(client, "ingest_document", file_path=str(nda), document_type="contract")
        duplicate = await call_error(client, "ingest_document", file_path=str(nda))
        assert duplicate.startswith('Already ingested: this file is identical (same SHA-256) to '
                                    '"common_paper_mutual_nda_v1.docx"')
        listing = await call_ok(client, "list_documents")
        assert listing.structured_content["total"] == 1
        unconfirmed = await call_error(client, "delete_document", document_name="common_paper")
        assert unconfirmed.startswith("Deletion requires confirm=true.")
        await call_ok(client, "delete_document", document_name="common_paper", confirm=True)
        assert (await call_ok(client, "list_documents")).structured_content["total"] == 0
    app, docs = _case_store_docs(data_dir)
    assert docs == []
    with app.cases.store(app.list_cases("all")[0]).reader() as db:
        for cf in ("chunks", "pages", "provenance", "bm25_index", "embeddings", "documents"):
            assert next(db.scan(cf, b""), None) is None, f"{cf} still has entries after delete_document"


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_a_killed_server_leaves_no_partial_document(data_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "production"
    folder.mkdir()
    for n in range(4):
        for name in NATIVE:
            target = folder / f"{n}-{name}"
            shutil.copy(EVAL_DEV / "docs" / name, target)
            with target.open("ab") as handle:  # distinct bytes (readers ignore trailing newlines): no duplicates
                handle.write(b"\n" * (n + 1))
    pid_file = tmp_path / "server.pid"
    params = StdioServerParameters(command="sh", args=["-c", f'echo $$ > "{pid_file}"; exec "{CASETRACK}" serve'],
                                   env=server_env(data_dir))
    with pytest.raises(BaseException):  # noqa: B017 - the connection dies with the server, by design
        async with Client(params, read_timeout_seconds=60) as client:
            await call_ok(client, "create_case", name="Kill Test")
            await call_ok(client, "ingest_folder", folder_path=str(folder), wait_seconds=0)
            for _ in range(600):
                status = await call_ok(client, "get_ingest_status")
                if status.structured_content["jobs"][0]["done"] >= 3:
                    break
                await anyio.sleep(0.1)
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
            await call_ok(client, "list_cases")
    app, docs = _case_store_docs(data_dir)
    case = app.list_cases("all")[0]
    assert docs, "some documents were committed before the kill"
    with app.cases.store(case).reader() as db:
        for doc in docs:
            chunks = list(docstore.document_chunks(db, doc))
            assert len(chunks) == doc.chunk_count and len(docstore.pages(db, doc.id)) == doc.page_count
        referenced = set(docstore.chunk_document_ids(db).values())
    assert referenced == {d.id for d in docs}, "no chunk belongs to a document that is not there"
    assert app.case_info(case.id).stats.document_count == len(docs)


@pytest.mark.slow  # end to end over real models and processes: CI runs it with -m slow
async def test_the_server_stays_responsive_during_a_folder_job(data_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "busy"
    folder.mkdir()
    # The CPU-heaviest files: three OCR scans and the longest contract.
    for name in ("scan_ca10_order_in_re_liebowitz_2021.pdf", "scan_ca7_order_fedex_ground_2017.tiff",
                 "scan_cuad_ominto_reseller_agreement_p1.png", "cuad_netgear_distributor_agreement.pdf"):
        shutil.copy(EVAL_DEV / "docs" / name, folder / name)
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Busy")
        started = await call_ok(client, "ingest_folder", folder_path=str(folder), wait_seconds=0)
        assert "Started background job" in text_of(started)
        job_id = started.structured_content["job_id"]
        slowest = 0.0
        while True:
            t0 = time.perf_counter()
            await call_ok(client, "list_cases")
            slowest = max(slowest, time.perf_counter() - t0)
            state = (await call_ok(client, "get_ingest_status", job_id=job_id[:8])).structured_content["state"]
            if state in ("done", "failed"):
                break
            await anyio.sleep(0.2)
        assert state == "done"
        assert slowest < 1.0, f"list_cases took {slowest:.2f}s while the job ran"
