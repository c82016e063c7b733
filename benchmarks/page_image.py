"""get_page_image: how long a cited passage takes to be drawn on its page, against older code in the same run.

    uv run python benchmarks/page_image.py [--eval-dev ../shared/eval-dev] [--calls 200] [--baseline OLD_SRC]

The eval-dev documents are ingested into a scratch data directory. Then, over real stdio MCP sessions
(the tool as a client calls it: the page drawn, PNG encoded, base64 in JSON), get_page_image is called
for --calls passages of the native PDFs in turn (every passage of every page, round robin), for a text
file (a rendering), for two Word files (drawn through LibreOffice: each printed to a PDF at its first call,
the first two calls) and for the scanned pages. With --baseline (a copy of older source,
e.g. `git archive <rev> src | tar -x -C /tmp/old`), a second server runs that code (PYTHONPATH=OLD_SRC/src,
the same interpreter and data) and each passage is asked of both in turn, the order alternating, so a
burst of load from other jobs hits both alike; the ratio is old / new. Reported per kind: p50, p95 and
max of the call, the PNG's size and pixels. The first call of each kind (PDFium and Pillow loading) is
left out of the percentiles. Then the same native-PDF passages drawn in-process
(`CaseTrack.page_images.draw`, the service call the tool makes), each code in a process of its own:
wall-clock and CPU time of the drawing thread, which a busy shared machine inflates far less.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.search import print_table
from mcp import Client
from mcp.client.stdio import StdioServerParameters

NATIVE = ("cuad_netgear_distributor_agreement.pdf", "cuad_lucid_distributor_agreement.pdf",
          "cuad_ebix_cobranding_agreement.pdf", "ca8_rule_28j_letter_us_v_xiang_2023.pdf")
RENDERED = ("cuad_biopure_agency_agreement.txt",)
WORD = ("common_paper_mutual_nda_v1.docx", "cuad_driven_deliveries_consulting_agreement.docx")
SCANNED = ("scan_ca10_order_in_re_liebowitz_2021.pdf", "scan_ca7_order_fedex_ground_2017.tiff",
           "scan_cuad_ominto_reseller_agreement_p1.png")
CASE = "Page images"


def ingest(root: Path, docs: Path) -> dict[str, list[str]]:
    """The case, and each document's chunk ids in order."""
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest.document import IngestRequest
    from casetrack.store import documents as docstore

    app = opened(CaseTrack, load_settings(root, environ={}))
    case = app.create_case(CASE, case_type="contract")
    chunks: dict[str, list[str]] = {}
    for name in NATIVE + RENDERED + WORD + SCANNED:
        app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(docs / name)))
    with app.cases.store(app.cases.get(case.id)).reader() as db:
        for doc in docstore.list_documents(db):
            chunks[doc.name] = [c.id for c in docstore.document_chunks(db, doc)]
    app.jobs.shutdown()
    return chunks


def draw_in_process(root: Path, chunk_ids: list[str]) -> dict[str, list[float]]:
    """Each passage drawn by the service in this process (whichever code PYTHONPATH gives): wall and CPU ms."""
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack

    app = opened(CaseTrack, load_settings(root, environ={}))
    case = app.case(CASE)
    app.page_images.draw(case, chunk_ids[0])  # libraries loading
    wall, cpu = [], []
    for chunk_id in chunk_ids:
        started, started_cpu = time.perf_counter(), time.thread_time()
        app.page_images.draw(case, chunk_id)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.thread_time() - started_cpu) * 1000)
    app.jobs.shutdown()
    return {"wall": wall, "cpu": cpu}


def in_process(root: Path, chunk_ids: list[str], codes: dict[str, dict[str, str]]) -> list[tuple[str, str]]:
    """`draw_in_process` run by each code in a child process of its own, in turn."""
    ids = Path(root).parent / "native-ids.json"
    ids.write_text(json.dumps(chunk_ids))
    rows, p95s = [], {}
    for code, env in codes.items():
        out = subprocess.run([sys.executable, __file__, "--draw-in-process", str(root), str(ids)], env=env,
                             capture_output=True, text=True, check=True).stdout
        times = json.loads(out.strip().splitlines()[-1])
        wall, cpu = times["wall"], times["cpu"]
        p95s[code] = (percentile(wall, 0.95), percentile(cpu, 0.95))
        rows += [(f"in-process native PDF page, {code} code: wall p50 / p95 / max, ms", _spread(wall)),
                 (f"in-process native PDF page, {code} code: CPU p50 / p95 / max, ms", _spread(cpu))]
    if "old" in p95s:
        rows.append(("in-process p95 ratio old / new: wall, CPU",
                     f"x{p95s['old'][0] / p95s['new'][0]:.2f}, x{p95s['old'][1] / p95s['new'][1]:.2f}"))
    return rows


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.0f} / {percentile(values, 0.95):.0f} / {max(values):.0f}"


def opened(app_class: Any, settings: Any) -> Any:
    """The application as the code measured opens it: `CaseTrack.open` since issue 38, a constructor before (the
    baseline's code may be older)."""
    return app_class.open(settings) if hasattr(app_class, "open") else app_class(settings)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def server_env(root: Path, src: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASETRACK_") and k != "PYTHONPATH"}
    env.update({"CASETRACK_HOME": str(root), "CASETRACK_NO_UPDATE_CHECK": "1"})
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return env


async def measure(chunks: dict[str, list[str]], calls: int, codes: dict[str, dict[str, str]]) -> list[tuple[str, str]]:
    kinds = {"native PDF page": _round_robin([chunks[n] for n in NATIVE], calls),
             "rendering (text file)": _round_robin([chunks[n] for n in RENDERED], max(calls // 4, 10)),
             # new code: printed to a PDF by LibreOffice at each file's first call (old: a rendering)
             "Word page": [chunks[n][0] for n in WORD] + _round_robin([chunks[n] for n in WORD], max(calls // 4, 10)),
             "scanned page": [chunks[n][0] for n in SCANNED]}
    async with contextlib.AsyncExitStack() as stack:
        clients = {}
        for code, env in codes.items():
            server = StdioServerParameters(command=sys.executable, args=["-m", "casetrack", "serve"], env=env)
            clients[code] = await stack.enter_async_context(Client(server, read_timeout_seconds=300))
            await clients[code].call_tool("switch_case", {"case_name": CASE})
        rows: list[tuple[str, str]] = []
        for kind, ids in kinds.items():
            timings: dict[str, list[float]] = {code: [] for code in clients}
            sizes, pixels = [], ""
            for turn, chunk_id in enumerate(ids):
                order = list(clients) if turn % 2 == 0 else list(reversed(clients))
                for code in order:
                    started = time.perf_counter()
                    result = await clients[code].call_tool("get_page_image", {"chunk_id": chunk_id})
                    timings[code].append((time.perf_counter() - started) * 1000)
                    assert not result.is_error, result.content
                    if code == "new":
                        image = next(b for b in result.content if b.type == "image")
                        sizes.append(len(base64.b64decode(image.data)))
                        data: dict[str, Any] = result.structured_content or {}
                        pixels = f"{data['image_width']} x {data['image_height']}"
            rows += _kind_rows(kind, timings, sizes, pixels, 2 if kind == "Word page" else 1)
    return rows


def _kind_rows(kind: str, timings: dict[str, list[float]], sizes: list[int], pixels: str,
               first: int) -> list[tuple[str, str]]:
    """Rows for one kind of page; its `first` calls (libraries loading, a Word file printed) apart."""
    rows = [(f"{kind}: calls", str(len(timings["new"])))]
    p95 = {}
    for code, values in timings.items():
        rest = values[first:] or values
        p95[code] = percentile(rest, 0.95)
        rows += [(f"{kind}, {code} code: first call(s), ms", " / ".join(f"{v:.0f}" for v in values[:first])),
                 (f"{kind}, {code} code: p50 / p95 / max, ms", _spread(rest))]
    if "old" in p95:
        rows.append((f"{kind}: p95 ratio old / new", f"x{p95['old'] / p95['new']:.2f}"))
    return [*rows, (f"{kind}: PNG, KB (median)", f"{statistics.median(sizes) / 1024:.0f}"), (f"{kind}: pixels", pixels)]


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
    parser.add_argument("--baseline", type=Path, help="a copy of older source: its src/ runs as the old code")
    parser.add_argument("--draw-in-process", nargs=2, type=Path, help=argparse.SUPPRESS)  # ROOT IDS: the child
    args = parser.parse_args()
    if args.draw_in_process:
        root, ids = args.draw_in_process
        print(json.dumps(draw_in_process(root, json.loads(ids.read_text()))))
        return
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "CaseTrack"
        chunks = ingest(root, args.eval_dev / "docs")
        codes = {"new": server_env(root, Path(__file__).resolve().parents[1] / "src")}
        if args.baseline is not None:
            codes["old"] = server_env(root, args.baseline.resolve() / "src")
        rows = asyncio.run(measure(chunks, args.calls, codes))
        rows += in_process(root, _round_robin([chunks[n] for n in NATIVE], args.calls), codes)
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print_table(f"get_page_image ({os.cpu_count()} cores, load average {load} at the end)", rows)


if __name__ == "__main__":
    main()
