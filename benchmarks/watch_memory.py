"""Memory of the folder watcher itself on a folder of many small files.

    uv run python benchmarks/watch_memory.py            # 5,000 .txt files in 50 subfolders
    uv run python benchmarks/watch_memory.py 20000      # other sizes

The watch runs for a case that is closed, so the worker pauses instead of ingesting:
what is measured is the watcher (watchdog observer, inotify watches, the per-path
pending map and its bound), not parsing or embedding, which an ingest would add. Two
bounds are run: one large enough that a burst touching every file is remembered path
by path, and the default (5,000), where the burst falls back to one full sync. Memory:
process RSS delta (psutil) and tracemalloc of allocations made by watchdog and
casetrack.service.watch.service.
"""

from __future__ import annotations

import gc
import shutil
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import psutil

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.watch.service import WatchConfig, WatchService

PER_FOLDER = 100


def rss_mb() -> float:
    gc.collect()
    return psutil.Process().memory_info().rss / 2**20


def traced_kb(snapshot: tracemalloc.Snapshot) -> float:
    keep = [tracemalloc.Filter(True, "*watchdog*"), tracemalloc.Filter(True, "*casetrack/service/watch*")]
    return sum(s.size for s in snapshot.filter_traces(keep).statistics("filename")) / 1024


def wait(check: Callable[[], bool], what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.05)


def run(files: int, max_pending: int) -> list[tuple[str, float, float, int]]:
    root = Path(tempfile.mkdtemp(prefix="casetrack-watch-bench-"))
    try:
        folder = root / "Matter"
        for n in range(files):
            sub = folder / f"box-{n // PER_FOLDER:03}"
            sub.mkdir(parents=True, exist_ok=True)
            (sub / f"doc-{n:05}.txt").write_text(f"Document {n} of the production.")
        app = CaseTrack.open(load_settings(root / "data"))
        case = app.create_case("Benchmark")
        config = WatchConfig(debounce_s=60.0, schedule_check_s=3600.0, lock_retry_s=0.1, max_pending=max_pending)
        service = app.watches = WatchService(root / "data", app.cases, app.folders, app.ingestor, config)
        service.add(case, str(folder))
        app.close_case(case.id)  # the worker pauses the watch rather than ingest 5,000 files

        rows: list[tuple[str, float, float, int]] = []
        tracemalloc.start()
        base_rss = rss_mb()
        service.start()
        wait(lambda: service.views()[0].watch.state.status == "paused", "the watch to start")
        rows.append((f"observing {files:,} files in {files // PER_FOLDER} folders", rss_mb() - base_rss,
                     traced_kb(tracemalloc.take_snapshot()), service.views()[0].pending))

        started = time.monotonic()
        for path in sorted(folder.rglob("*.txt")):
            path.write_text("Amended. " + path.read_text())
        expected = files if files < max_pending else 0
        # Wait until the observer has delivered the whole burst (the last file is always noted or overflowed).
        wait(lambda: service.views()[0].pending == expected and time.monotonic() - started > 2, "the burst")
        label = "coalesced per path" if expected else "over the bound: one full sync queued"
        rows.append((f"burst: {files:,} files modified ({label})", rss_mb() - base_rss,
                     traced_kb(tracemalloc.take_snapshot()), service.views()[0].pending))
        service.stop()
        tracemalloc.stop()
        return rows
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    files = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    print(f"Folder watcher memory, {files:,} small .txt files (tracemalloc: watchdog + service.watch)\n")
    print(f"| {'max_pending':>11} | {'phase':<70} | {'RSS delta MB':>12} | {'traced KB':>9} | {'pending':>7} |")
    print(f"|{'-' * 13}|{'-' * 72}|{'-' * 14}|{'-' * 11}|{'-' * 9}|")
    for bound in (files * 2, WatchConfig().max_pending):
        for phase, rss, traced, pending in run(files, bound):
            print(f"| {bound:>11,} | {phase:<70} | {rss:>12.1f} | {traced:>9.0f} | {pending:>7,} |")


if __name__ == "__main__":
    main()
