"""get_page_image: how long a cited passage takes to be drawn on its page.

    uv run python benchmarks/page_image.py [--eval-dev ../shared/eval-dev] [--calls 200]

The eval-dev documents are ingested into a scratch data directory. Then, over a real stdio MCP
session (the tool as a client calls it: the page drawn, PNG encoded, base64 in JSON), get_page_image
is called for --calls passages of the native PDFs in turn (every passage of every page, round robin),
and for the e-mail-like text formats (a rendering) and one scanned page (re-read by OCR). Reported per
kind: p50, p95 and max of the call, the PNG's size and its pixels. The first call of each kind (PDFium
and Pillow loading) is reported apart, not in the percentiles. Then the same native-PDF passages drawn
in-process (`CaseTrack.page_images.draw`, the service call the tool makes): wall-clock and CPU time
of the drawing thread, which a busy shared machine (the load average is printed) inflates far less.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.search import print_table
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.store import documents as docstore

NATIVE = ("cuad_netgear_distributor_agreement.pdf", "cuad_lucid_distributor_agreement.pdf",
          "cuad_ebix_cobranding_agreement.pdf", "ca8_rule_28j_letter_us_v_xiang_2023.pdf")
RENDERED = ("cuad_biopure_agency_agreement.txt", "common_paper_mutual_nda_v1.docx")
SCANNED = ("scan_ca10_order_in_re_liebowitz_2021.pdf",)


def in_process(root: Path, chunk_ids: list[str]) -> list[tuple[str, str]]:
    app = CaseTrack.open(load_settings(root, environ={}))
    case = app.case("Page images")
    app.page_images.draw(case, chunk_ids[0])  # libraries loading
    wall, cpu = [], []
    for chunk_id in chunk_ids:
        started, started_cpu = time.perf_counter(), time.thread_time()
        app.page_images.draw(case, chunk_id)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.thread_time() - started_cpu) * 1000)
    app.jobs.shutdown()
    return [("in-process native PDF page: calls", str(len(wall))),
            ("in-process: wall p50 / p95 / max, ms", f"{statistics.median(wall):.0f} / {percentile(wall, 0.95):.0f} / "
                                                     f"{max(wall):.0f}"),
            ("in-process: CPU p50 / p95 / max, ms", f"{statistics.median(cpu):.0f} / {percentile(cpu, 0.95):.0f} / "
                                                    f"{max(cpu):.0f}")]


def ingest(root: Path, docs: Path) -> dict[str, list[str]]:
    """The case, and each document's chunk ids in order."""
    app = CaseTrack.open(load_settings(root, environ={}))
    case = app.create_case("Page images", case_type="contract")
    chunks: dict[str, list[str]] = {}
    for name in NATIVE + RENDERED + SCANNED:
        app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(docs / name)))
    with app.cases.store(app.cases.get(case.id)).reader() as db:
        for doc in docstore.list_documents(db):
            chunks[doc.name] = [c.id for c in docstore.document_chunks(db, doc)]
    app.jobs.shutdown()
    return chunks


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def measure(root: Path, chunks: dict[str, list[str]], calls: int) -> list[tuple[str, str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASETRACK_")}
    env.update({"CASETRACK_HOME": str(root), "CASETRACK_NO_UPDATE_CHECK": "1"})
    server = StdioServerParameters(command=str(Path(sys.executable).with_name("casetrack")), args=["serve"], env=env)
    rows: list[tuple[str, str]] = []
    async with Client(server, read_timeout_seconds=300) as client:
        await client.call_tool("switch_case", {"case_name": "Page images"})
        kinds = {"native PDF page": _round_robin([chunks[n] for n in NATIVE], calls),
                 "rendering (text, Word)": _round_robin([chunks[n] for n in RENDERED], max(calls // 4, 10)),
                 "scanned page (re-read by OCR)": chunks[SCANNED[0]][:3]}
        for kind, ids in kinds.items():
            timings, sizes, pixels = [], [], ""
            for chunk_id in ids:
                started = time.perf_counter()
                result = await client.call_tool("get_page_image", {"chunk_id": chunk_id})
                timings.append((time.perf_counter() - started) * 1000)
                assert not result.is_error, result.content
                image = next(b for b in result.content if b.type == "image")
                sizes.append(len(base64.b64decode(image.data)))
                data: dict[str, Any] = result.structured_content or {}
                pixels = f"{data['image_width']} x {data['image_height']}"
            first, rest = timings[0], timings[1:] or timings
            rows += [(f"{kind}: calls", str(len(timings))),
                     (f"{kind}: first call (libraries loading), ms", f"{first:.0f}"),
                     (f"{kind}: p50, ms", f"{statistics.median(rest):.0f}"),
                     (f"{kind}: p95, ms", f"{percentile(rest, 0.95):.0f}"), (f"{kind}: max, ms", f"{max(rest):.0f}"),
                     (f"{kind}: PNG, KB (median)", f"{statistics.median(sizes) / 1024:.0f}"),
                     (f"{kind}: pixels", pixels)]
    return rows


def _round_robin(lists: list[list[str]], count: int) -> list[str]:
    out: list[str] = []
    index = 0
    while len(out) < count and any(lists):
        for ids in lists:
            if index < len(ids) and len(out) < count:
                out.append(ids[index])
        index += 1
        if all(index >= len(ids) for ids in lists):
            index = 0
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--eval-dev", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "eval-dev")
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "CaseTrack"
        chunks = ingest(root, args.eval_dev / "docs")
        rows = asyncio.run(measure(root, chunks, args.calls))
        rows += in_process(root, _round_robin([chunks[n] for n in NATIVE], args.calls))
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print_table(f"get_page_image ({os.cpu_count()} cores, load average {load} at the end)", rows)


if __name__ == "__main__":
    main()
