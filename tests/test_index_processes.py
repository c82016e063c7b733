"""The index files with more than one process: a server killed while it writes a segment leaves files the
next open repairs from the store, and two servers searching and ingesting one case stay consistent with
each other and with the store."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.search import index_sync
from casetrack.store.search_index.manifest import INDEX_DIR, read_manifest
from tests.index_cases import answers, consistent, same, write_documents

ROOT = Path(__file__).resolve().parents[1]


def start_child(script: str, output: Path, *args: str) -> subprocess.Popen[bytes]:
    """Another CaseTrack process on the same data directory, running `script`; its output goes to files
    (a pipe nobody reads would stop it once full)."""
    with (output / "child.out").open("wb") as out, (output / "child.err").open("wb") as err:
        return subprocess.Popen([sys.executable, "-c", textwrap.dedent(script), *args], cwd=ROOT, stdout=out,
                                stderr=err, env={**os.environ, "PYTHONPATH": str(ROOT / "tests")})


def child_output(output: Path) -> tuple[str, str]:
    return (output / "child.out").read_text(encoding="utf-8"), (output / "child.err").read_text(encoding="utf-8")


KILLED_MID_SEGMENT = """
    import os, signal, sys
    from pathlib import Path
    from casetrack.config import load_settings
    from casetrack.service.search import index_sync
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest.document import IngestRequest
    from casetrack.store.search_index import files as index_files

    index_sync.FLUSH_ROWS = 1  # the next commit is written as a segment at once
    real = index_files._write_array
    written = []

    def write_then_die(path, array):
        written.append(path.name)
        if len(written) == 4:  # mid-segment: three arrays complete, the fourth half written, then killed
            path.write_bytes(b"\\x93NUMPY half an array")
            os.kill(os.getpid(), signal.SIGKILL)
        return real(path, array)

    index_files._write_array = write_then_die
    app = CaseTrack.open(load_settings(sys.argv[1]))
    case = app.cases.get(sys.argv[2])
    app.search.index(case)
    app.ingestor.ingest(case, IngestRequest(sys.argv[3]))
    print("not killed")
"""


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_a_server_killed_while_writing_a_segment_leaves_files_the_next_open_repairs(
        data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Killed")
    write_documents(app, case, 5)
    before = app.search.index(case)
    index_dir = data_dir / "cases" / case.id / INDEX_DIR
    letter = tmp_path / "letter.txt"
    letter.write_text("The landlord served a notice to quit on the tenant of the orchard barn.", encoding="utf-8")

    child = start_child(KILLED_MID_SEGMENT, tmp_path, str(data_dir), case.id, str(letter))
    child.wait(timeout=300)
    assert child.returncode == -signal.SIGKILL, child_output(tmp_path)
    half_written = [p for p in index_dir.iterdir() if p.name.startswith(".tmp-seg-")]
    assert half_written and not (half_written[0] / "segment.json").exists()
    manifest = read_manifest(index_dir)
    assert manifest is not None and manifest.generation == before.generation  # the old files still stand

    monkeypatch.setattr(index_sync, "FLUSH_ROWS", 1)
    reopened = CaseTrack.open(load_settings(data_dir))
    hits = reopened.search.search(reopened.cases.get(case.id), "notice to quit the orchard barn", top_k=1).hits
    assert "orchard barn" in hits[0].chunk.text  # the commit the killed server made is searchable
    index = reopened.search.cache.peek(case.id)
    assert index is not None and index.source == "files" and index.chunk_count == 101
    assert not [p for p in index_dir.iterdir() if p.name.startswith(".tmp-")]  # the half segment is gone
    manifest = read_manifest(index_dir)
    assert manifest is not None and manifest.generation == index.generation
    assert same(answers(CaseTrack.open(load_settings(data_dir)).search.index(app.cases.get(case.id))), answers(index))


WRITER = """
    import sys, time
    from casetrack.config import load_settings
    from casetrack.service.search import index_sync
    from casetrack.service.app import CaseTrack
    from index_cases import answers, consistent, delete_documents, write_documents  # tests/, on this path
    import json

    index_sync.FLUSH_ROWS, index_sync.SEGMENT_ROWS, index_sync.SMALL_ROWS = 30, 400, 100
    app = CaseTrack.open(load_settings(sys.argv[1]))
    case = app.cases.get(sys.argv[2])
    checks = []
    for seed in range(20, 32):
        written = write_documents(app, case, 1, seed=seed)
        if seed % 4 == 0:
            delete_documents(app, case, written)
        checks.append(consistent(app, case))  # this process searches too
        assert app.search.search(case, "lease3 rent7 notice1", top_k=5).hits
        time.sleep(0.05)
    print(json.dumps({"checks": checks, "source": app.search.index(case).source}))
"""


@pytest.mark.slow  # end to end over real models and processes: CI runs it with -m slow
def test_two_processes_searching_and_ingesting_one_case_stay_consistent(
        data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in (("FLUSH_ROWS", 30), ("SEGMENT_ROWS", 400), ("SMALL_ROWS", 100)):
        monkeypatch.setattr(index_sync, name, value)
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Shared")
    write_documents(app, case, 60)  # 1,200 chunks: three segments of at most 400
    first = app.search.index(case)
    assert len(first.segments) == 3

    child = start_child(WRITER, tmp_path, str(data_dir), case.id)
    checks = []
    while child.poll() is None:  # meanwhile this process writes and searches the same case
        write_documents(app, case, 1, seed=100 + len(checks))
        checks.append(consistent(app, case))
        assert app.search.search(case, "deed39 court5", top_k=5).hits
        time.sleep(0.02)
    out, err = child_output(tmp_path)
    assert child.returncode == 0, err
    theirs = json.loads(out.strip().splitlines()[-1])
    # Every search in either process saw exactly the chunks its read session's generation holds, and the
    # other process worked from the index files throughout: it never rebuilt the case from its store.
    assert all(theirs["checks"]) and len(theirs["checks"]) == 12 and all(checks) and checks
    assert theirs["source"] == "files"
    ours = app.search.index(case)
    assert ours is first or ours.source == "files"  # caught up in place, or reopened from the other's files

    final = answers(ours)
    assert ours.chunk_count == app.case_info(case.id).stats.chunk_count == 1200 + 20 * (len(checks) + 12 - 3)
    reopened = CaseTrack.open(load_settings(data_dir)).search.index(app.cases.get(case.id))
    assert reopened.source == "files" and same(answers(reopened), final)
    shutil.rmtree(data_dir / "cases" / case.id / INDEX_DIR)
    assert same(answers(CaseTrack.open(load_settings(data_dir)).search.index(app.cases.get(case.id))), final)
