"""Legacy Word (.doc) and OpenDocument text (.odt): LibreOffice converts the file to DOCX in a
scratch folder, then the DOCX parser reads it. LibreOffice runs offline (libreoffice_offline): a
picture the document links by URL is never fetched."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from casetrack.domain import ParsedDocument
from casetrack.errors import DocumentUnreadable, ToolUnavailable
from casetrack.parse.formats import DOC, ODT
from casetrack.parse.options import ParseOptions
from casetrack.parse.scratch import scratch_folder
from casetrack.parse.sniff import read_head, sniff
from casetrack.parse.word.document import parse_docx
from casetrack.parse.word.libreoffice import offline_environment, offline_profile

CONVERT_TIMEOUT_S = 120.0
INSTALL_LIBREOFFICE = (
    "apt install libreoffice-writer / brew install --cask libreoffice / "
    "winget install TheDocumentFoundation.LibreOffice "
    "(or open the file in Word and save it as .docx)"
)
_CONVERT_FIX = "Open it in Word or LibreOffice, save it as .docx, and ingest that file."
# The import filter is forced by what the file really is: left to guess, LibreOffice imports
# unrecognisable bytes as plain text and "converts" garbage. Word 6/95 files are not covered.
_IMPORT_FILTERS = {"ole": "MS Word 97", "rtf": "Rich Text Format", "zip": "MS Word 2007 XML"}
_ODT_FILTER = "writer8"  # LibreOffice's own format: an .odt is a ZIP too, but never Word XML


def find_soffice(options: ParseOptions) -> str | None:
    if options.soffice_cmd:
        return shutil.which(options.soffice_cmd)
    return shutil.which("soffice") or shutil.which("libreoffice")


def parse_doc(path: Path, options: ParseOptions) -> ParsedDocument:
    """Parse a .doc file. Raises ToolUnavailable when LibreOffice is not installed, and
    DocumentUnreadable when the conversion fails or takes longer than CONVERT_TIMEOUT_S."""
    kind, _ = sniff(read_head(path))
    return _converted(path, options, _IMPORT_FILTERS.get(kind, "MS Word 97"), DOC.id, "legacy Word (.doc)")


def parse_odt(path: Path, options: ParseOptions) -> ParsedDocument:
    """Parse an OpenDocument text (.odt, LibreOffice's and Google Docs' export); raises as `parse_doc`."""
    return _converted(path, options, _ODT_FILTER, ODT.id, "OpenDocument (.odt)")


def _converted(path: Path, options: ParseOptions, import_filter: str, file_format: str,
               what: str) -> ParsedDocument:
    soffice = find_soffice(options)
    if soffice is None:
        raise ToolUnavailable("LibreOffice", f"read {what} files", INSTALL_LIBREOFFICE)
    with scratch_folder(options, "doc") as scratch:
        # A private profile: with the user's own, a running LibreOffice window swallows the
        # request and the conversion silently produces nothing. It is locked down so that
        # nothing the document links is fetched (libreoffice_offline).
        profile = offline_profile(Path(scratch) / "profile")
        out_dir = Path(scratch) / "out"
        argv = [soffice, f"-env:UserInstallation={profile}", "--headless", "--norestore", "--nologo",
                f"--infilter={import_filter}",
                "--convert-to", "docx", "--outdir", str(out_dir), str(path)]  # fmt: skip
        returncode, output = _run_killing_group(argv, CONVERT_TIMEOUT_S, path, offline_environment(Path(scratch)))
        converted = out_dir / f"{path.stem}.docx"
        if not converted.is_file():
            errors = [line.strip() for line in output.splitlines() if line.strip().lower().startswith("error")]
            detail = errors[-1] if errors else f"exit code {returncode}"
            raise DocumentUnreadable(str(path), f"LibreOffice could not convert it ({detail})", _CONVERT_FIX)
        document = parse_docx(converted, options)
    return replace(document, format=file_format)


def convert_to_pdf(path: Path, target: Path, options: ParseOptions) -> bool:
    """The document at `path` laid out and printed to a PDF at `target` by LibreOffice (headless, offline,
    a private profile, killed after CONVERT_TIMEOUT_S), for drawing a Word page as Word-like software lays it
    out. False when LibreOffice is not installed or could not convert it."""
    soffice = find_soffice(options)
    if soffice is None:
        return False
    with scratch_folder(options, "pdf") as scratch:
        profile = offline_profile(Path(scratch) / "profile")
        out_dir = Path(scratch) / "out"
        argv = [soffice, f"-env:UserInstallation={profile}", "--headless", "--norestore", "--nologo",
                "--convert-to", "pdf", "--outdir", str(out_dir), str(path)]  # fmt: skip
        try:
            _run_killing_group(argv, CONVERT_TIMEOUT_S, path, offline_environment(Path(scratch)))
        except (DocumentUnreadable, OSError):
            return False
        converted = out_dir / f"{path.stem}.pdf"
        if not converted.is_file():
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
        shutil.move(converted, partial)
        os.replace(partial, target)  # whole or not at all, should two drawings convert it at once
    return True


def _run_killing_group(argv: list[str], timeout: float, path: Path, env: dict[str, str]) -> tuple[int, str]:
    """Run soffice, returning its exit code and combined output. On timeout, kill its whole
    process group: the launcher starts a separate soffice.bin that would otherwise outlive it."""
    posix = sys.platform != "win32"
    process = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=posix, stdin=subprocess.DEVNULL,
        env=env,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        if posix:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
        process.communicate()
        raise DocumentUnreadable(
            str(path), f"LibreOffice took longer than {timeout:g} s to convert it", _CONVERT_FIX
        ) from None
    return process.returncode, output.decode(errors="replace")
