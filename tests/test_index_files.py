"""A case's search index lives in files inside its folder, in step with its store: a reopened case reads
them instead of rebuilding, commits made since are caught up from the store, and files that are damaged
or missing are rebuilt from the store without the user doing anything."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.domain import Case
from casetrack.service.app import CaseTrack
from casetrack.service.search import index_sync
from casetrack.service.search.case_index import CaseIndex
from casetrack.store.search_index import files as index_files
from casetrack.store.search_index.manifest import INDEX_DIR, MANIFEST, read_manifest
from tests.index_cases import WORDS, answers, delete_documents, same, write_documents


def fresh_index(data_dir: Path, case: Case) -> CaseIndex:
    """The case's index as a new server process would open it."""
    app = CaseTrack.open(load_settings(data_dir))
    return app.search.index(app.cases.get(case.id))


def rebuilt(data_dir: Path, case: Case) -> CaseIndex:
    """The case's index rebuilt from its store alone."""
    shutil.rmtree(data_dir / "cases" / case.id / INDEX_DIR, ignore_errors=True)
    index = fresh_index(data_dir, case)
    assert index.source == "rebuilt"
    return index


def test_a_reopened_case_reads_its_index_files_instead_of_rebuilding(data_dir: Path) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Files")
    write_documents(app, case, 12)
    first = app.search.index(case)
    assert first.source == "rebuilt" and first.chunk_count == 240
    manifest = read_manifest(data_dir / "cases" / case.id / INDEX_DIR)
    assert manifest is not None and manifest.generation == first.generation and manifest.chunks == 240

    reopened = fresh_index(data_dir, case)
    assert reopened.source == "files" and reopened.generation == first.generation
    assert same(answers(reopened), answers(first))


def test_commits_made_after_the_files_were_written_are_caught_up_from_the_store(data_dir: Path,
                                                                                 tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Catch up")
    docs = write_documents(app, case, 10)
    kept = app.search.index(case)  # files written at this generation
    other = CaseTrack.open(load_settings(data_dir))  # a second server on the same data directory
    write_documents(other, case, 3, seed=1)
    delete_documents(other, other.cases.get(case.id), docs[:2])
    letter = tmp_path / "letter.txt"
    letter.write_text("The tenant gave notice of the breach on 3 March.", encoding="utf-8")
    from casetrack.service.ingest.document import IngestRequest
    other.ingestor.ingest(other.cases.get(case.id), IngestRequest(str(letter)))

    seen = app.search.index(case)  # the generation moved: caught up in place, nothing rebuilt
    assert seen is kept and seen.chunk_count == 10 * 20 - 2 * 20 + 3 * 20 + 1
    assert app.search.search(case, "notice of the breach", top_k=3).hits[0].chunk.text.startswith("The tenant")
    reopened = fresh_index(data_dir, case)
    assert reopened.source == "files"
    expected = answers(rebuilt(data_dir, case))
    assert same(answers(seen), expected) and same(answers(reopened), expected)


def test_pending_chunks_become_segments_merged_and_deletions_are_kept_as_dead_rows(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_sync, "FLUSH_ROWS", 40)
    monkeypatch.setattr(index_sync, "SMALL_ROWS", 100)
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Segments")
    docs = write_documents(app, case, 4)
    index = app.search.index(case)
    for seed in range(2, 12):  # 10 commits of one 20-chunk document each: a segment every other commit
        write_documents(app, case, 1, seed=seed)
        index = app.search.index(case)
    delete_documents(app, case, docs[:1])
    index = app.search.index(case)
    manifest = read_manifest(data_dir / "cases" / case.id / INDEX_DIR)
    assert manifest is not None
    assert len(manifest.segments) < index_sync.MERGE_SMALL + 1  # small segments were merged
    assert len(index.segments) >= 2 and index.pending_rows < 40
    assert same(answers(fresh_index(data_dir, case)), answers(rebuilt(data_dir, case)))


def test_segments_merged_away_by_another_process_while_opening_are_read_from_its_new_manifest(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by CI: a server read the manifest, another server merged the segments it names and removed
    them, and the first failed on a file that was gone. It reads the new manifest instead (no rebuild)."""
    monkeypatch.setattr(index_sync, "FLUSH_ROWS", 20)
    monkeypatch.setattr(index_sync, "SMALL_ROWS", 100)
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Race")
    write_documents(app, case, 2)
    app.search.index(case)
    index_dir = data_dir / "cases" / case.id / INDEX_DIR
    stale = read_manifest(index_dir)
    other = CaseTrack.open(load_settings(data_dir))
    for seed in range(1, 6):  # commits that another server turns into segments and merges
        write_documents(other, case, 1, seed=seed)
        other.search.index(other.cases.get(case.id))
    fresh = read_manifest(index_dir)
    assert stale is not None and fresh is not None and fresh != stale
    assert not any((index_dir / entry.name).exists() for entry in stale.segments)  # merged away and removed

    reads = iter([stale])
    real_read = index_sync.read_manifest
    monkeypatch.setattr(index_sync, "read_manifest", lambda folder: next(reads, None) or real_read(folder))
    index = fresh_index(data_dir, case)
    assert index.source == "files" and index.generation >= fresh.generation
    assert same(answers(index), answers(rebuilt(data_dir, case)))


def test_a_damaged_or_missing_index_file_is_rebuilt_from_the_store(data_dir: Path,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Damaged")
    write_documents(app, case, 6)
    expected = answers(app.search.index(case))
    index_dir = data_dir / "cases" / case.id / INDEX_DIR
    segment = next(p for p in index_dir.iterdir() if p.name.startswith("seg-"))

    with (segment / "chunk_ids.npy").open("r+b") as handle:  # one byte changed inside a checked file
        handle.seek(200)
        byte = handle.read(1)
        handle.seek(200)
        handle.write(bytes([byte[0] ^ 0xFF]))
    with caplog.at_level(logging.WARNING, logger="casetrack.service.search.index_sync"):
        repaired = fresh_index(data_dir, case)
    assert repaired.source == "rebuilt" and "damaged" in caplog.text and "chunk_ids.npy" in caplog.text
    assert same(answers(repaired), expected)

    segment = next(p for p in index_dir.iterdir() if p.name.startswith("seg-"))
    (segment / "bm25_tf.npy").unlink()
    assert fresh_index(data_dir, case).source == "rebuilt"
    (index_dir / MANIFEST).write_text("{ not json", encoding="utf-8")
    again = fresh_index(data_dir, case)
    assert again.source == "rebuilt" and same(answers(again), expected)
    assert fresh_index(data_dir, case).source == "files"  # and the rebuilt files are good again


def test_damage_inside_a_large_array_found_by_a_search_rebuilds_the_index(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_files, "CHECKED_BYTES", 0)  # as for arrays too large to checksum at open
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Bit rot")
    write_documents(app, case, 6)
    expected = answers(app.search.index(case))
    segment = next(p for p in (data_dir / "cases" / case.id / INDEX_DIR).iterdir() if p.name.startswith("seg-"))
    rows = segment / "bm25_rows.npy"
    data = bytearray(rows.read_bytes())
    data[-400:] = b"\x7f" * 400  # postings now name rows far past the segment's end
    rows.write_bytes(bytes(data))

    other = CaseTrack.open(load_settings(data_dir))
    query = " ".join(w for w in WORDS if w.startswith("term"))  # the terms last in the vocabulary, so damaged
    response = other.search.search(other.cases.get(case.id), query, top_k=3)
    assert response.hits
    index = other.search.cache.peek(case.id)
    assert index is not None and index.source == "rebuilt" and same(answers(index), expected)
