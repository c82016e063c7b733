"""A Word document that is only pictures: scans pasted into Word, one per page, as offices send
exhibits and signed pages. Its text is in the pictures, so each picture is read by OCR as a page
of its own (the image parser, via dispatch), rather than the document being stored with no text.
A document with text of its own is read as Word text alone: its pictures are figures and logos.
"""

from __future__ import annotations

import logging
import tempfile
from dataclasses import replace
from pathlib import Path

import docx
from lxml import etree

from casetrack.domain import ParsedPage
from casetrack.errors import CaseTrackError
from casetrack.parse.options import ParseOptions

log = logging.getLogger(__name__)

_BLIP = "{http://schemas.openxmlformats.org/drawingml/2006/main}blip"
_EMBED = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed"
_IMAGE_DATA = "{urn:schemas-microsoft-com:vml}imagedata"  # pictures of Word 2003-era documents
_VML_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
# Picture formats the image parser reads; Word also stores EMF/WMF drawings, which hold no scan.
_READABLE = {"image/png": ".png", "image/jpeg": ".jpg", "image/tiff": ".tiff"}
# Fewer letters and digits than this in the whole document: it has no text of its own.
MIN_OWN_TEXT_CHARS = 20
MAX_PICTURES_READ = 200


def picture_pages(document: docx.document.Document, options: ParseOptions) -> tuple[list[ParsedPage], list[str]]:
    """OCR pages of the body's pictures in reading order (numbered from 1, page numbers estimated), and
    warnings. No pages when the body holds no picture the image parser reads."""
    from casetrack.parse.dispatch import parse_file  # dispatch imports this module's caller

    pictures = list(_pictures(document))
    readable = [(blob, _READABLE[kind]) for blob, kind in pictures if kind in _READABLE]
    warnings: list[str] = []
    if not readable:
        if pictures:
            warnings.append("This Word document has no text, only drawings CaseTrack cannot read (EMF/WMF); "
                            "print it to PDF and ingest the PDF.")  # fmt: skip
        return [], warnings
    pages: list[ParsedPage] = []
    with tempfile.TemporaryDirectory(prefix="casetrack-docx-pictures-") as folder:
        for index, (blob, suffix) in enumerate(readable[:MAX_PICTURES_READ], start=1):
            path = Path(folder) / f"picture {index}{suffix}"
            path.write_bytes(blob)
            try:
                parsed = parse_file(path, options)
            except CaseTrackError as exc:
                warnings.append(f"Picture {index} could not be read: {exc.message.replace(str(path), 'it')}")
                continue
            for page in parsed.pages:  # a multi-page TIFF gives several
                pages.append(replace(page, number=len(pages) + 1, approximate=True,
                                     warnings=tuple(f"Picture {index}: {w}" for w in page.warnings)))
    if len(readable) > MAX_PICTURES_READ:
        warnings.append(f"Only the first {MAX_PICTURES_READ} of {len(readable)} pictures were read.")
    read = "its picture was read by OCR as its page" if len(readable) == 1 else \
        f"its {len(readable)} pictures were read by OCR, one page each"
    warnings.insert(0, f"This Word document has no text of its own, only pictures: {read} (page numbers are "
                       "estimated).")  # fmt: skip
    return pages, warnings


def _pictures(document: docx.document.Document) -> list[tuple[bytes, str]]:
    """(bytes, content type) of each picture the body shows, in reading order, each image part once."""
    related = document.part.related_parts
    seen: set[str] = set()
    out: list[tuple[bytes, str]] = []
    body: etree._Element = document.element.body
    for element in body.iter(_BLIP, _IMAGE_DATA):
        rel_id = element.get(_EMBED) if element.tag == _BLIP else element.get(_VML_ID)
        part = related.get(rel_id or "")
        if part is None or rel_id in seen:
            continue
        seen.add(rel_id or "")
        out.append((part.blob, getattr(part, "content_type", "")))
    return out
