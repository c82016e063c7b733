"""A long single document does not hold a tool call past the client's patience: ingest_document
waits `wait_seconds`, then hands back a job id that get_ingest_status follows to the same answer."""

from __future__ import annotations

import time
from pathlib import Path

import anyio
import pytest

from casetrack.mcp.outputs_ingest import Job as JobOut
from casetrack.render.folders import job_started, job_status
from casetrack.service.infra.jobs import REINDEX_JOB, Job
from tests.conftest import EVAL_DEV
from tests.mcp_helpers import call_error, call_ok, mcp_session, text_of

pytestmark = pytest.mark.anyio

NETGEAR = EVAL_DEV / "docs" / "cuad_netgear_distributor_agreement.pdf"  # 8 pages, 21 chunks to embed
LUCID = EVAL_DEV / "docs" / "cuad_lucid_distributor_agreement.pdf"


async def _until_finished(client, job_id: str) -> dict:  # type: ignore[no-untyped-def]
    for _ in range(600):
        status = await call_ok(client, "get_ingest_status", job_id=job_id)
        if status.structured_content["state"] in ("done", "failed"):
            return {"text": text_of(status), **status.structured_content}
        await anyio.sleep(0.2)
    raise AssertionError(f"job {job_id} still running after 120 s")


@pytest.mark.slow  # end to end over real models and processes: CI runs it with -m slow
async def test_a_document_not_done_in_time_continues_as_a_job(data_dir: Path) -> None:
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Distribution")
        started = await call_ok(client, "ingest_document", file_path=str(NETGEAR), wait_seconds=0)
        job = started.structured_content
        assert job["kind"] == "ingest_document" and job["state"] in ("queued", "running")
        assert job["file_path"] == str(NETGEAR.resolve()) and "folder" not in job  # a file is not a folder
        assert f'get_ingest_status(job_id="{job["job_id"][:8]}")' in text_of(started)
        assert "nothing is stored until the whole document is" in text_of(started)

        asked = time.monotonic()
        await call_ok(client, "list_cases")  # the server answers while the document embeds
        assert time.monotonic() - asked < 1.0

        finished = await _until_finished(client, job["job_id"][:8])
        assert finished["state"] == "done", finished["text"]
        assert 'Ingested "cuad_netgear_distributor_agreement.pdf" into Distribution' in finished["text"]
        document = finished["report"]["document"]
        assert document["name"] == "cuad_netgear_distributor_agreement.pdf" and document["page_count"] == 8
        listing = await call_ok(client, "list_documents")
        assert [d["id"] for d in listing.structured_content["documents"]] == [document["id"]]


@pytest.mark.slow  # end to end over real models and processes: CI runs it with -m slow
async def test_a_document_done_in_time_answers_inline_and_its_errors_stay_errors(data_dir: Path) -> None:
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Distribution")
        done = await call_ok(client, "ingest_document", file_path=str(NETGEAR), wait_seconds=120)
        assert done.structured_content["document"]["chunk_count"] > 0
        assert "This document is now searchable." in text_of(done)
        duplicate = await call_error(client, "ingest_document", file_path=str(NETGEAR))
        assert duplicate.startswith("Already ingested: this file is identical (same SHA-256)")

        # A failure after the wait reads as a failed job, with the same message. The duplicate waits
        # in the document queue behind an 8-page ingest, so it cannot have failed before the call returns.
        ahead = await call_ok(client, "ingest_document", file_path=str(LUCID), wait_seconds=0)
        queued = await call_ok(client, "ingest_document", file_path=str(NETGEAR), wait_seconds=0)
        assert queued.structured_content["state"] == "queued"
        finished = await _until_finished(client, queued.structured_content["job_id"])
        assert finished["state"] == "failed"
        assert "Already ingested: this file is identical" in finished["text"]
        assert (await _until_finished(client, ahead.structured_content["job_id"]))["state"] == "done"
        assert (await call_ok(client, "list_documents")).structured_content["total"] == 2


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_a_changed_file_ingested_again_names_the_earlier_version(data_dir: Path, tmp_path: Path) -> None:
    lease = tmp_path / "lease.txt"
    lease.write_text("The lease ends on 1 May 2024. Rent is due monthly.\n", encoding="utf-8")
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Lease")
        first = (await call_ok(client, "ingest_document", file_path=str(lease))).structured_content["document"]
        lease.write_text("The lease ends on 1 June 2025. Rent is due weekly.\n", encoding="utf-8")
        again = await call_ok(client, "ingest_document", file_path=str(lease))
        assert again.structured_content["earlier_version"]["id"] == first["id"]
        assert f'Note: "lease.txt" (ID: {first["id"][:8]}) was ingested from this same file before it changed' \
            in text_of(again)
        assert (await call_ok(client, "list_documents")).structured_content["total"] == 2  # nothing is lost


def test_each_job_names_what_it_works_on() -> None:
    reindex = Job("r" * 36, REINDEX_JOB, "case-id", "Smith v. Jones", "Smith v. Jones", 12)
    assert "12 documents queued." in job_started(reindex) and "from Smith v. Jones" not in job_started(reindex)
    assert "0 of 12 documents" in job_status(reindex)
    sent = JobOut.of(reindex).model_dump(mode="json", exclude_unset=True)  # as mcp/tools/base.result sends it
    assert "folder" not in sent and "file_path" not in sent
    folder = Job("f" * 36, "sync_folder", "case-id", "Smith v. Jones", "/cases/smith", 3)
    assert "3 files queued from /cases/smith." in job_started(folder) and JobOut.of(folder).folder == "/cases/smith"
