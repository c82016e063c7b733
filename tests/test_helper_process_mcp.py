"""The helper process under a real `casetrack serve`, as Claude starts it: a long PDF ingested
through the tools is read the same with the helper as without it, and the helper ends with the server."""

from __future__ import annotations

import time
from pathlib import Path

import psutil
import pytest
from pypdf import PdfReader, PdfWriter

from casetrack import helper_process
from casetrack.config import load_settings
from casetrack.parse.pdf.document import SPLIT_MIN_PAGES
from casetrack.service.app import CaseTrack
from casetrack.store import documents as docstore
from tests.conftest import EVAL_DEV
from tests.mcp_helpers import call_ok, mcp_session

pytestmark = [pytest.mark.anyio,
              pytest.mark.skipif(helper_process.usable_cores() < 2, reason="the helper process needs two cores")]


def _bundle(target: Path, title: str) -> Path:
    """The eval-dev contracts and a letter, 26 pages; `title` changes the file's bytes, not its text."""
    writer = PdfWriter()
    for name in ("cuad_ebix_cobranding_agreement.pdf", "cuad_netgear_distributor_agreement.pdf",
                 "cuad_lucid_distributor_agreement.pdf", "ca8_rule_28j_letter_us_v_xiang_2023.pdf"):
        for page in PdfReader(EVAL_DEV / "docs" / name).pages:
            writer.add_page(page)
    assert len(writer.pages) >= SPLIT_MIN_PAGES
    writer.add_metadata({"/Title": title})
    with target.open("wb") as handle:
        writer.write(handle)
    return target


def _helpers_of_servers() -> list[psutil.Process]:
    """The helper processes of the `casetrack serve` processes this test started."""
    servers = [p for p in psutil.Process().children(recursive=True) if "serve" in p.cmdline()]
    return [c for s in servers for c in s.children() if any("spawn_main" in part for part in c.cmdline())]


def _settled_cpu(process: psutil.Process) -> float:
    """The process's CPU seconds once they stop growing (it is waiting for work)."""
    deadline = time.monotonic() + 60
    before = -1.0
    while (now := sum(process.cpu_times()[:2])) != before:
        assert time.monotonic() < deadline, "the helper never went idle"
        before = now
        time.sleep(0.5)
    return now


@pytest.mark.slow  # end to end over real models and processes: CI runs it with -m slow
async def test_a_long_pdf_ingested_over_mcp_reads_the_same_with_the_helper_which_ends_with_the_server(
    data_dir: Path, tmp_path: Path
) -> None:
    first, second = _bundle(tmp_path / "first.pdf", "first"), _bundle(tmp_path / "second.pdf", "second")
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Long papers", case_type="contract")
        await call_ok(client, "ingest_document", file_path=str(first), wait_seconds=600)
        deadline = time.monotonic() + 60  # the first long document started the helper; it takes no work until ready
        while not (helpers := _helpers_of_servers()):
            assert time.monotonic() < deadline, "no helper process under the server"
            time.sleep(0.2)
        idle_cpu = _settled_cpu(helpers[0])  # past its start-up imports: from here its CPU time is work it was given
        await call_ok(client, "ingest_document", file_path=str(second), wait_seconds=600)
        assert _helpers_of_servers() == helpers  # still the same helper: nothing failed
        # It read half the pages and found the graph's mentions (~0.3 s of CPU here); idle it uses none.
        assert sum(helpers[0].cpu_times()[:2]) - idle_cpu >= 0.05
    psutil.wait_procs(helpers, timeout=30)
    assert not any(h.is_running() and h.status() != psutil.STATUS_ZOMBIE for h in helpers)

    app = CaseTrack.open(load_settings(data_dir))
    [case] = app.list_cases("all")
    with app.cases.store(case).reader() as db:
        docs = {d.name: d for d in docstore.list_documents(db)}
        alone, shared = docs["first.pdf"], docs["second.pdf"]
        assert alone.page_count == shared.page_count == 26
        assert [p.text for p in docstore.pages(db, alone.id)] == [p.text for p in docstore.pages(db, shared.id)]
        assert [c.text for c in docstore.document_chunks(db, alone)] == [
            c.text for c in docstore.document_chunks(db, shared)]
        extracts = dict(docstore.graph_extracts(db))
    plain = [{section: [r._replace(chunk_id=None) for r in getattr(extracts[doc.id], section)]
              for section in ("authorities", "entities", "parties", "dates", "issues")} for doc in (alone, shared)]
    assert plain[0] == plain[1] and len(plain[0]["entities"]) > 50
