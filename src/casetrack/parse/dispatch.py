"""The format registry and `parse_file`: validate the path, check the content matches the
extension, route to the format's parser."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path

from casetrack.domain import ParsedDocument
from casetrack.errors import DocumentUnreadable, FileNotFound, InvalidInput, UnsupportedFormat, quoted
from casetrack.parse.formats import FORMATS, FormatSpec, by_extension, supported_label
from casetrack.parse.options import ParseOptions
from casetrack.parse.sniff import read_head, sniff

Parser = Callable[[Path, ParseOptions], ParsedDocument]

FORMAT_OF: dict[str, FormatSpec] = by_extension(FORMATS)
SUPPORTED_EXTENSIONS: tuple[str, ...] = tuple(FORMAT_OF)
SUPPORTED_LABEL = supported_label(FORMATS)

# What a case folder often holds that CaseTrack does not read, and how to turn it into something it does.
CONVERSION_HINTS: dict[str, str] = {
    ".pst": "an Outlook data file (a whole mailbox): in Outlook, select its messages and drag them into a folder "
            "(each becomes a .msg), then ingest that folder",
    ".ost": "an Outlook offline mailbox: in Outlook, select its messages and drag them into a folder (each "
            "becomes a .msg), then ingest that folder",
    ".mbox": "a mailbox file: open it in a mail program (Thunderbird, Apple Mail) and save its messages as .eml "
             "files, then ingest them",
    ".wpd": "a WordPerfect document: open it in WordPerfect or LibreOffice and save it as .docx or PDF",
    ".pages": "an Apple Pages document: export it as PDF or Word (File > Export To)",
    ".xlsx": "a spreadsheet: save or print it as PDF",
    ".xls": "a spreadsheet: save or print it as PDF",
    ".csv": "a spreadsheet table: open it in a spreadsheet program and save or print it as PDF",
    ".pptx": "a presentation: save it as PDF",
    ".ppt": "a presentation: save it as PDF",
    ".htm": "a web page: print it to PDF from a browser",
    ".html": "a web page: print it to PDF from a browser",
    ".heic": "an iPhone photo: export it as JPEG",
    ".zip": "an archive: extract it, then ingest the extracted folder",
    ".7z": "an archive: extract it, then ingest the extracted folder",
    ".rar": "an archive: extract it, then ingest the extracted folder",
}  # fmt: skip


def parse_file(path: Path, options: ParseOptions | None = None) -> ParsedDocument:
    """Turn one file into a ParsedDocument.

    Raises FileNotFound (no such path), InvalidInput (a folder or a device), UnsupportedFormat
    (extension not in SUPPORTED_EXTENSIONS), DocumentUnreadable (empty, mislabelled, corrupt,
    encrypted or hostile files), ToolUnavailable (a .doc or .odt without LibreOffice). Scanned pages
    without Tesseract are not an error: they come back SKIPPED with a warning."""
    options = options or ParseOptions()
    path = Path(path)
    if not path.exists():
        raise FileNotFound(str(path))
    if path.is_dir():
        raise InvalidInput(
            f"{path} is a folder, not a file. "
            "Give the path of one document, or ingest the folder to add every document in it."
        )
    if not path.is_file():
        raise InvalidInput(f"{quoted(path, 300)} is not a regular file (a device, pipe or socket). "
                           "Give the path of a document.")
    extension = path.suffix.lower()
    spec = FORMAT_OF.get(extension)
    if spec is None:
        raise UnsupportedFormat(extension, SUPPORTED_EXTENSIONS, CONVERSION_HINTS.get(extension, ""))
    size = _check_content(path, spec)
    document = parser_of(spec)(path, options)
    if size > options.max_file_bytes_warn:
        warning = (
            f"Large file: {size / 2**20:,.0f} MB (over {options.max_file_bytes_warn / 2**20:,.0f} MB); "
            "parsing may be slow and use a lot of memory."
        )
        document = replace(document, warnings=(warning, *document.warnings))
    return document


def _check_content(path: Path, spec: FormatSpec) -> int:
    """The file's size, after refusing empty, unreadable and mislabelled files."""
    try:
        size = path.stat().st_size
        head = read_head(path)
    except OSError as exc:
        raise DocumentUnreadable(
            str(path),
            f"it could not be opened ({exc.strerror or exc})",
            "Check the file's permissions and that it is not locked by another program.",
        ) from exc
    if size == 0:
        raise DocumentUnreadable(
            str(path),
            "the file is empty (0 bytes)",
            "Check that it was saved, copied or downloaded completely, then ingest it again.",
        )
    kind, description = sniff(head)
    if kind not in spec.kinds:
        raise DocumentUnreadable(
            str(path),
            f"its name says {path.suffix.lower()} but its content looks like {description}",
            "Rename it with the right extension, or re-export it in the format its name claims.",
        )
    return size


@cache
def parser_of(spec: FormatSpec) -> Parser:
    """The function `spec.parser` names, imported on first use."""
    module, _, function = spec.parser.partition(":")
    parser: Parser = getattr(importlib.import_module(f"casetrack.parse.{module}"), function)
    return parser
