"""The copy of an original kept in a case (ingest with copy_original) stays with its document (issue 33 §3,
§4): a reindex gives the document a new id and its copy moves with it, a reindex killed at any point loses
neither, and a data folder copied elsewhere shows (and reads) its own copies, not the old folder's."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.domain import Case, Document
from casetrack.mcp.outputs import DocumentOut
from casetrack.render import documents as render
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest

MEMO = "MEMORANDUM\n\nThe supplier must give 30 days' notice of termination.\n\nThe buyer may cure within 10 days."


def kept_case(data: Path, sources: Path) -> tuple[CaseTrack, Case, Document]:
    """A case holding memo.txt, its original copied into the case."""
    sources.mkdir(parents=True, exist_ok=True)
    (sources / "memo.txt").write_text(MEMO)
    app = CaseTrack.open(load_settings(data, environ={}))
    case = app.create_case("Kept")
    app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(sources / "memo.txt"), copy_original=True))
    [doc] = app.documents.all(case)
    return app, case, doc


def shown_copy(app: CaseTrack, case: Case) -> tuple[Document, Path]:
    """The case's one document as get_document shows it, and its kept copy (which must be on disk)."""
    [doc] = app.documents.all(app.cases.get(case.id))
    shown = DocumentOut.of(doc).copied_original
    assert shown is not None and f"Copy of original: {shown}" in render.document_detail(doc)
    copy = Path(shown)
    assert copy.is_file() and copy.read_text() == MEMO
    assert copy.parent == app.settings.case_dir(case.id) / "originals" / doc.id
    return doc, copy


def test_reindexing_a_document_or_the_case_keeps_its_copy_of_the_original(tmp_path: Path) -> None:
    app, case, first = kept_case(tmp_path / "CaseTrack", tmp_path / "sources")
    originals = app.settings.case_dir(case.id) / "originals"

    done = app.reindexer.reindex_named(app.cases.get(case.id), first.id, force=True)
    second, _ = shown_copy(app, case)
    assert done.document.id == second.id != first.id and done.document.copied_original
    assert sorted(p.name for p in originals.iterdir()) == [second.id]  # moved with it, none left behind

    (tmp_path / "sources" / "memo.txt").unlink()  # the source is gone: the kept copy is read instead
    [(_, action, detail)] = app.reindexer.reindex_case(app.cases.get(case.id))
    third, _ = shown_copy(app, case)
    assert action == "reparsed" and "the copy kept in the case" in detail
    assert third.original_path == str(tmp_path / "sources" / "memo.txt")  # still its source, shown as such
    assert sorted(p.name for p in originals.iterdir()) == [third.id]
    app.jobs.shutdown()


def test_a_changed_source_replaces_the_kept_copy_with_the_new_file(tmp_path: Path) -> None:
    app, case, first = kept_case(tmp_path / "CaseTrack", tmp_path / "sources")
    (tmp_path / "sources" / "memo.txt").write_text(MEMO + "\n\nAmended: the cure period is 20 days.")
    app.reindexer.reindex_named(app.cases.get(case.id), first.id)
    [doc] = app.documents.all(case)
    assert doc.copied_original and "Amended" in Path(doc.copied_original).read_text()
    app.jobs.shutdown()


CRASH = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest.document import Ingestor

    data, case_id, doc_id, point = sys.argv[1:]

    def killed(*args, **kwargs):
        os._exit(9)

    if point == "before the commit":  # the new copy is made, the commit never happens
        Ingestor._commit = killed
    else:  # committed; the replaced document's copy is not yet removed
        Ingestor._remove_copy = staticmethod(killed)
    app = CaseTrack.open(load_settings(Path(data), environ={}))
    app.reindexer.reindex_named(app.cases.get(case_id), doc_id, force=True)
""")


@pytest.mark.parametrize("point", ["before the commit", "after the commit"])
def test_a_reindex_killed_midway_loses_neither_the_document_nor_its_copy(point: str, tmp_path: Path) -> None:
    app, case, first = kept_case(tmp_path / "CaseTrack", tmp_path / "sources")
    app.jobs.shutdown()
    killed = subprocess.run([sys.executable, "-c", CRASH, str(tmp_path / "CaseTrack"), case.id, first.id, point],
                            capture_output=True, text=True, timeout=300)
    assert killed.returncode == 9, killed.stderr

    app = CaseTrack.open(load_settings(tmp_path / "CaseTrack", environ={}))  # start-up repair runs
    doc, _ = shown_copy(app, case)
    assert (doc.id == first.id) is (point == "before the commit")
    assert app.documents.chunks(case, doc.id)[1]
    originals = app.settings.case_dir(case.id) / "originals"
    assert sorted(p.name for p in originals.iterdir()) == [doc.id]  # the half-done move finished or undone
    app.jobs.shutdown()


def test_a_copied_data_folder_shows_and_reads_its_own_copies(tmp_path: Path) -> None:
    app, case, _first = kept_case(tmp_path / "old laptop" / "CaseTrack", tmp_path / "sources")
    app.jobs.shutdown()
    shutil.copytree(tmp_path / "old laptop", tmp_path / "new laptop", symlinks=True)
    shutil.rmtree(tmp_path / "old laptop")

    app = CaseTrack.open(load_settings(tmp_path / "new laptop" / "CaseTrack", environ={}))
    doc, copy = shown_copy(app, case)
    assert str(tmp_path / "new laptop") in str(copy) and "old laptop" not in render.document_detail(doc)
    assert doc.original_path == str(tmp_path / "sources" / "memo.txt")  # the folder's own record: still its source
    retyped = app.documents.set_type(app.cases.get(case.id), doc.id, "other")  # set_document_type's answer too
    assert DocumentOut.of(retyped).copied_original == str(copy)
    assert app.reindexer.reindex_named(app.cases.get(case.id), doc.id, force=True).action == "reparsed"
    shown_copy(app, case)
    app.jobs.shutdown()


PAUSED = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest.document import Ingestor

    data, case_id, doc_id = sys.argv[1:]

    def paused(*args, **kwargs):  # the new copy is made; the commit waits
        print("copied", flush=True)
        time.sleep(600)

    Ingestor._commit = paused
    app = CaseTrack.open(load_settings(Path(data), environ={}))
    app.reindexer.reindex_named(app.cases.get(case_id), doc_id, force=True)
""")


def test_start_up_repair_leaves_the_copy_of_a_reindex_still_running_in_another_process(tmp_path: Path) -> None:
    app, case, first = kept_case(tmp_path / "CaseTrack", tmp_path / "sources")
    app.jobs.shutdown()
    originals = app.settings.case_dir(case.id) / "originals"
    running = subprocess.Popen([sys.executable, "-c", PAUSED, str(tmp_path / "CaseTrack"), case.id, first.id],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert running.stdout is not None and running.stdout.readline().strip() == "copied"
        made = sorted(p.name for p in originals.iterdir() if not p.name.startswith("."))
        assert len(made) == 2  # the document's copy, and the one its reindex made before committing
        CaseTrack.open(load_settings(tmp_path / "CaseTrack", environ={})).jobs.shutdown()  # start-up repair runs
        assert sorted(p.name for p in originals.iterdir() if not p.name.startswith(".")) == made
    finally:
        running.kill()
        running.communicate(timeout=30)  # reaped, its pipe closed
    app = CaseTrack.open(load_settings(tmp_path / "CaseTrack", environ={}))  # now it is gone: its copy is undone
    doc, _ = shown_copy(app, case)
    assert doc.id == first.id and sorted(p.name for p in originals.iterdir()) == [first.id]
    app.jobs.shutdown()
