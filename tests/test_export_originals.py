"""`casetrack export` carries the documents' originals by default (issue 35 §4): it reported
"(6 documents, 0 originals)" unless an undocumented config key had kept copies at ingest. It carries
each file it can still read unchanged, names those it cannot and why, and `--no-originals` leaves
them out. The real `casetrack` command in subprocesses; the archive read as the ZIP it is."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

from tests.mcp_helpers import CASETRACK, server_env


def casetrack(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([CASETRACK, *args], capture_output=True, text=True, timeout=600, check=False,
                          env=server_env(data_dir, CASETRACK_LOG="WARNING"))
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def letter(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"Dear Counsel,\n\n{body}\n\nSincerely,\nA. Lawyer\n", encoding="utf-8")
    return path


def test_export_carries_the_originals_it_can_read_and_names_the_others(tmp_path: Path) -> None:
    data, files = tmp_path / "data", tmp_path / "files"
    files.mkdir()
    kept = letter(files, "Notice.txt", "The tenant shall give sixty days written notice of termination.")
    changed = letter(files, "Offer.txt", "We offer to settle all claims for the sum of fifty thousand dollars.")
    moved = letter(files, "Reply.txt", "Your client's offer is rejected; the deadline for discovery stands.")
    casetrack(data, "cases", "create", "Harbor v. Meridian")
    casetrack(data, "ingest", str(files))
    changed.write_text("A later draft, not the document in the case.\n", encoding="utf-8")
    moved.unlink()

    done = casetrack(data, "export", "--output", str(tmp_path / "with.ctcase"))
    assert "(3 documents, 1 originals)" in done.stdout
    assert "2 originals could not be read" in done.stdout
    assert f"Offer.txt: {changed} has changed since it was ingested" in done.stdout
    assert f"Reply.txt: {moved} is no longer there" in done.stdout
    with zipfile.ZipFile(tmp_path / "with.ctcase") as archive:
        carried = [n for n in archive.namelist() if n.startswith("originals/")]
        assert len(carried) == 1 and carried[0].endswith("/Notice.txt")
        assert archive.read(carried[0]) == kept.read_bytes()

    bare = casetrack(data, "export", "--no-originals", "--output", str(tmp_path / "bare.ctcase"))
    assert "(3 documents, originals left out (--no-originals))" in bare.stdout
    with zipfile.ZipFile(tmp_path / "bare.ctcase") as archive:
        assert not [n for n in archive.namelist() if n.startswith("originals/")]

    imported = casetrack(tmp_path / "elsewhere", "import", str(tmp_path / "with.ctcase"))
    assert "with 3 documents" in imported.stdout
