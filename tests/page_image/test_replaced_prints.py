"""The PDF LibreOffice prints of a Word file (get_page_image) never outlives the version it shows: a reindex of the
changed file, a re-ingest of it (sync) and a delete each remove the old print; a process killed between the commit
and that removal loses nothing, and the next start removes the old print while the new one stays; only names the
code derives inside the case's page_images folder are ever removed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import docx
import pypdfium2 as pdfium
import pytest

from casetrack.config import load_settings
from casetrack.domain import Case, Document
from casetrack.service.app import CaseTrack
from casetrack.service.cases.page_images import PRINTS, converted_pdf, print_key, sweep_prints
from casetrack.service.ingest.document import IngestRequest
from casetrack.store import documents as docstore

needs_libreoffice = pytest.mark.skipif(shutil.which("soffice") is None and shutil.which("libreoffice") is None,
                                       reason="LibreOffice is not installed")
needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed")

PRIVILEGED = "Counsel's note: the client admits the March shipment was late."
OLD_TERM = "The notice period under this agreement is thirty days from delivery."
NEW_TERM = "The notice period under this agreement is sixty days from delivery."


def _memo(path: Path, *paragraphs: str) -> Path:
    document = docx.Document()
    document.add_paragraph("SUPPLY MEMORANDUM")
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    document.save(path)
    stat = path.stat()  # a later version must look changed to a size-and-time check too
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + len(paragraphs) * 2_000_000_000))
    return path


def _open(root: Path) -> CaseTrack:
    return CaseTrack.open(load_settings(root, environ={}))


def _prints(app: CaseTrack, case: Case) -> list[str]:
    folder = app.cases.store(case).case_dir / PRINTS
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def _only_document(app: CaseTrack, case: Case) -> Document:
    [doc] = app.documents.all(case)
    return doc


def _stored_text(app: CaseTrack, case: Case, doc: Document) -> str:
    with app.cases.store(case).reader() as db:
        return " ".join(chunk.text for chunk in docstore.document_chunks(db, doc))


def _pdf_text(path: Path) -> str:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


def _ocr(png: bytes, folder: Path) -> str:
    image = folder / "page.png"
    image.write_bytes(png)
    done = subprocess.run(["tesseract", str(image), "stdout"], capture_output=True, text=True, check=True)
    return " ".join(done.stdout.split())


@needs_libreoffice
@needs_tesseract
def test_a_reindexed_word_file_keeps_no_print_of_its_old_version(tmp_path: Path) -> None:
    app = _open(tmp_path / "data")
    case = app.create_case("Supply")
    source = _memo(tmp_path / "memo.docx", OLD_TERM, PRIVILEGED)
    app.ingestor.ingest(case, IngestRequest(str(source)))
    old = _only_document(app, case)
    app.page_images.draw(app.cases.get(case.id), document_name="memo.docx", page=1)
    old_print = converted_pdf(app.cases.store(case).case_dir, old)
    assert old_print.is_file() and "admits" in _pdf_text(old_print)

    _memo(source, NEW_TERM, "AMENDED by the parties.")
    done = app.reindexer.reindex_named(app.cases.get(case.id), "memo.docx")
    assert done.action == "reparsed" and done.document.id != old.id
    assert not old_print.exists() and _prints(app, case) == []

    view = app.page_images.draw(app.cases.get(case.id), document_name="memo.docx", page=1)
    new_print = converted_pdf(app.cases.store(case).case_dir, done.document)
    assert _prints(app, case) == [new_print.name]
    assert "sixty" in _pdf_text(new_print) and "admits" not in _pdf_text(new_print)
    assert view.drawing.source == "pdf_text_layer" and "LibreOffice" in (view.drawing.note or "")
    seen = _ocr(view.drawing.png, tmp_path)
    assert "sixty days" in seen and "AMENDED" in seen and "thirty" not in seen and "admits" not in seen
    app.jobs.shutdown()


def test_a_changed_file_synced_again_and_a_deleted_one_leave_no_print(tmp_path: Path) -> None:
    """The folder-sync path (the watcher's) and delete_document, with a print planted where get_page_image keeps
    it (the LibreOffice run itself is the test above)."""
    app = _open(tmp_path / "data")
    case = app.create_case("Supply")
    source = _memo(tmp_path / "memo.docx", OLD_TERM, PRIVILEGED)
    first = app.folders.sync_file(case, str(source)).done
    assert first is not None
    case_dir = app.cases.store(case).case_dir
    converted_pdf(case_dir, first.document).parent.mkdir(parents=True)
    converted_pdf(case_dir, first.document).write_bytes(b"%PDF-1.4 " + PRIVILEGED.encode())

    _memo(source, NEW_TERM)
    synced = app.folders.sync_file(app.cases.get(case.id), str(source))
    assert synced.done is not None and synced.done.replaced is not None and synced.done.replaced.id == first.document.id
    assert _prints(app, case) == []

    converted_pdf(case_dir, synced.done.document).write_bytes(b"%PDF-1.4 the new version")
    app.delete_document(app.cases.get(case.id), "memo.docx", confirm=True)
    assert _prints(app, case) == [] and app.documents.all(case) == []
    app.jobs.shutdown()


CRASHING_REINDEX = """
import os, sys
from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest import document

def killed(*_args):  # the process dies right after the commit, before the old print is removed
    os._exit(17)

document.forget_print = killed
app = CaseTrack.open(load_settings(sys.argv[1], environ={}))
case = app.cases.resolve("Supply")
app.reindexer.reindex_named(case, "memo.docx")
"""


def test_a_crash_between_the_commit_and_the_removal_loses_nothing(tmp_path: Path) -> None:
    root = tmp_path / "data"
    app = _open(root)
    case = app.create_case("Supply")
    source = _memo(tmp_path / "memo.docx", OLD_TERM, PRIVILEGED)
    app.ingestor.ingest(case, IngestRequest(str(source)))
    old = _only_document(app, case)
    case_dir = app.cases.store(case).case_dir
    old_print = converted_pdf(case_dir, old)
    old_print.parent.mkdir(parents=True)
    old_print.write_bytes(b"%PDF-1.4 " + PRIVILEGED.encode())
    _memo(source, NEW_TERM)

    killed = subprocess.run([sys.executable, "-c", textwrap.dedent(CRASHING_REINDEX), str(root)],
                            capture_output=True, text=True, timeout=300)
    assert killed.returncode == 17, killed.stderr[-2000:]
    new = _only_document(app, case)  # the new version is stored whole; the old print is still there
    assert new.id != old.id and old_print.exists()
    assert "sixty days" in _stored_text(app, case, new) and "admits" not in _stored_text(app, case, new)
    new_print = converted_pdf(case_dir, new)  # the new version printed (by a server that kept running)
    new_print.write_bytes(b"%PDF-1.4 the new version")
    app.jobs.shutdown()

    restarted = _open(root)  # the next start removes the old print, never the new one
    assert not old_print.exists() and new_print.read_bytes() == b"%PDF-1.4 the new version"
    assert any("removed 1 printed PDF" in action for action in restarted.recovered)
    assert _only_document(restarted, case).id == new.id
    restarted.jobs.shutdown()


def test_only_names_the_code_derives_are_ever_removed(tmp_path: Path) -> None:
    app = _open(tmp_path / "data")
    case = app.create_case("Supply")
    source = _memo(tmp_path / "memo.docx", OLD_TERM)
    app.ingestor.ingest(case, IngestRequest(str(source)))
    live = _only_document(app, case)
    store = app.cases.store(case)
    folder = store.case_dir / PRINTS
    folder.mkdir()
    stale, gone_partial = "0" * 32, f".{'1' * 32}.pdf.4242.partial"
    kept = [f"{print_key(live)}.pdf", f".{print_key(live)}.pdf.4242.partial", "notes.pdf", f"{'A' * 32}.pdf",
            f"{'0' * 32}.pdf.bak", f"{'0' * 31}.pdf", "page_images.pdf"]
    for name in [f"{stale}.pdf", gone_partial, *kept]:
        (folder / name).write_bytes(b"%PDF-1.4")
    (folder / f"{'2' * 32}.pdf").mkdir()  # a folder with a print's name is not removed (and not followed)
    (folder / f"{'2' * 32}.pdf" / "inside.pdf").write_bytes(b"%PDF-1.4")

    assert sweep_prints(store) == 2
    assert _prints(app, case) == sorted([*kept, f"{'2' * 32}.pdf"])
    assert (folder / f"{'2' * 32}.pdf" / "inside.pdf").is_file()

    # A page_images that is a link (not a folder CaseTrack made): nothing behind it is touched.
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / f"{stale}.pdf").write_bytes(b"%PDF-1.4")
    shutil.rmtree(folder)
    folder.symlink_to(outside, target_is_directory=True)
    assert sweep_prints(store) == 0 and (outside / f"{stale}.pdf").is_file()
    # ... and no print is written through it: the page is drawn from its stored text instead.
    view = app.page_images.draw(app.cases.get(case.id), document_name="memo.docx", page=1)
    assert view.drawing.png and sorted(p.name for p in outside.iterdir()) == [f"{stale}.pdf"]
    app.jobs.shutdown()


@needs_libreoffice
def test_a_print_finished_after_its_document_was_deleted_does_not_stay(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """get_page_image printing while delete_document runs: the delete finds no print yet; the drawing, finding
    its document gone when the print is done, removes it."""
    real = shutil.which("soffice") or shutil.which("libreoffice")
    sleep = shutil.which("sleep")
    assert real is not None and sleep is not None
    started, go = tmp_path / "started", tmp_path / "go"
    wrapper = tmp_path / "bin" / "soffice"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\n: > "{started}"\nwhile [ ! -e "{go}" ]; do "{sleep}" 0.1; done\n'
                       f'exec "{real}" "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    app = _open(tmp_path / "data")
    case = app.create_case("Supply")
    app.ingestor.ingest(case, IngestRequest(str(_memo(tmp_path / "memo.docx", OLD_TERM, PRIVILEGED))))
    drawn: list[object] = []
    drawing = threading.Thread(target=lambda: drawn.append(
        app.page_images.draw(app.cases.get(case.id), document_name="memo.docx", page=1)))
    drawing.start()
    deadline = time.monotonic() + 60
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists(), "LibreOffice was never started"
    app.delete_document(app.cases.get(case.id), "memo.docx", confirm=True)
    go.touch()
    drawing.join(timeout=120)
    assert drawn and not drawing.is_alive()
    assert _prints(app, case) == []
    app.jobs.shutdown()


def test_reindex_case_clears_a_print_an_earlier_crash_left(tmp_path: Path) -> None:
    app = _open(tmp_path / "data")
    case = app.create_case("Supply")
    app.ingestor.ingest(case, IngestRequest(str(_memo(tmp_path / "memo.docx", OLD_TERM))))
    folder = app.cases.store(case).case_dir / PRINTS
    folder.mkdir()
    (folder / f"{'3' * 32}.pdf").write_bytes(b"%PDF-1.4 " + PRIVILEGED.encode())  # a document's long gone
    app.reindexer.reindex_case(app.cases.get(case.id), skip_unchanged=True)
    assert _prints(app, case) == []
    app.jobs.shutdown()
