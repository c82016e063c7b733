"""Temporary copies of client content (pages rendered for OCR, converted .doc files, attachments) live in
`<data dir>/tmp/`, never the system's shared temp folder, and what a killed ingest left there is removed at
the next start (issue 20: a kill during OCR left a client's page in /tmp/casetrack-ocr-*)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from casetrack.config import load_settings
from casetrack.parse import ocr_available
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from tests.parse.synthetic import image_pdf_bytes, text_image
from tests.parse.test_docx import build_agreement, libreoffice_convert

needs_ocr = pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")


def scan_pdf(path: Path, pages: int) -> Path:
    lines = ["The tenant shall pay the rent on the first day", "of each month to the landlord at its office."]
    path.write_bytes(image_pdf_bytes([text_image([f"Page {n}.", *lines]) for n in range(1, pages + 1)]))
    return path


@needs_ocr
def test_a_page_left_by_an_ingest_killed_during_ocr_is_removed_at_the_next_start(tmp_path: Path,
                                                                                  data_dir: Path) -> None:
    setup = CaseTrack.open(load_settings(data_dir))
    setup.create_case("Lease")
    setup.jobs.shutdown()
    scan = scan_pdf(tmp_path / "lease.pdf", 8)
    ingest = subprocess.Popen(
        [sys.executable, "-m", "casetrack", "--data-dir", str(data_dir), "ingest", str(scan), "--case", "Lease"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not (pages := list((data_dir / "tmp").glob(f"casetrack-{ingest.pid}-ocr-*/page-*.png"))):
            assert time.monotonic() < deadline and ingest.poll() is None, "OCR never wrote a page in <data dir>/tmp"
            time.sleep(0.005)
    finally:
        os.killpg(ingest.pid, signal.SIGKILL)  # the ingest and its Tesseract processes, as a forced quit does
        ingest.wait()
    left = pages[0].parent
    assert left.is_dir()  # the killed process could not remove it
    running = data_dir / "tmp" / f"casetrack-{os.getpid()}-ocr-running"  # a live process's: kept
    running.mkdir()

    CaseTrack.open(load_settings(data_dir))  # the next start
    assert not left.exists()
    assert running.is_dir()


class _Created(FileSystemEventHandler):
    def __init__(self) -> None:
        self.paths: list[str] = []

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("created", "modified", "moved"):
            self.paths.append(str(event.src_path))


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
@needs_ocr
@pytest.mark.skipif(not (shutil.which("soffice") or shutil.which("libreoffice")), reason="LibreOffice is not installed")
def test_ingesting_scans_word_files_and_attachments_writes_nothing_to_the_system_temp_folder(
    tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    system_tmp = tmp_path / "system-tmp"
    system_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(system_tmp))
    monkeypatch.setattr(tempfile, "tempdir", None)  # tempfile reads TMPDIR again
    folder = tmp_path / "Matter"
    folder.mkdir()
    scan = scan_pdf(folder / "lease.pdf", 2)
    doc = libreoffice_convert(build_agreement(tmp_path / "msa.docx"), "doc", tmp_path / "build")
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "a@example.com", "b@example.com", "The signed lease"
    mail.set_content("Attached.")
    mail.add_attachment(scan.read_bytes(), maintype="application", subtype="pdf", filename="signed.pdf")
    (folder / "mail.eml").write_bytes(mail.as_bytes())

    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Temp")
    made: list[Path] = []  # every temporary folder made, recorded as it is made (a short-lived one escapes inotify)
    real_folder = tempfile.TemporaryDirectory

    def recording(*args: Any, **kwargs: Any) -> tempfile.TemporaryDirectory[str]:
        folder = real_folder(*args, **kwargs)
        made.append(Path(folder.name))
        return folder

    monkeypatch.setattr(tempfile, "TemporaryDirectory", recording)
    outside = _Created()
    observer = Observer()
    observer.schedule(outside, str(system_tmp), recursive=True)
    observer.start()
    try:
        for path in (scan, doc, folder / "mail.eml"):
            app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(path)))
        time.sleep(1.0)  # let the observer deliver the last events
    finally:
        observer.stop()
        observer.join()
    app.jobs.shutdown()
    assert outside.paths == [] and list(system_tmp.iterdir()) == []
    purposes = {p.name.split("-")[2] for p in made if p.name.startswith("casetrack-")}
    assert {"ocr", "doc", "attachment"} <= purposes, made
    assert all(p.parent == data_dir / "tmp" for p in made if p.name.startswith("casetrack-")), made
    assert list((data_dir / "tmp").iterdir()) == []  # and each removed its folder when done
