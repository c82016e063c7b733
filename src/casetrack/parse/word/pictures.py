"""Scans pasted into Word. Offices send exhibits and signed pages as pictures inside a .docx,
and their text is in the pictures, so those are read by OCR (the image parser, via dispatch)
rather than lost:

- a document with no text of its own: every picture it shows, one page each;
- a document with text: each picture shown at the size of a page (a pasted scan), as a page
  of its own where it stands. Smaller pictures are figures, logos and signatures, and a
  picture behind the text is a letterhead or watermark: none of those is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import docx
from lxml import etree

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.errors import CaseTrackError
from casetrack.parse.dispatch import parse_file
from casetrack.parse.options import ParseOptions
from casetrack.parse.scratch import scratch_folder

BLIP = "{http://schemas.openxmlformats.org/drawingml/2006/main}blip"
IMAGE_DATA = "{urn:schemas-microsoft-com:vml}imagedata"  # pictures of Word 2003-era documents
_EMBED = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed"
_VML_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
_VML_SHAPE = "{urn:schemas-microsoft-com:vml}shape"
# Picture formats the image parser reads; Word also stores EMF/WMF drawings, which hold no scan.
_READABLE = {"image/png": ".png", "image/jpeg": ".jpg", "image/tiff": ".tiff"}
# Fewer letters and digits than this in the whole document: it has no text of its own.
MIN_OWN_TEXT_CHARS = 20
MAX_PICTURES_READ = 200
# Shown at least this large (inches) a picture is a page, not a figure: a scan pasted at the page's width
# is 6-6.5 x 8-8.5 in; a logo, signature or chart is far smaller, a landscape photo less tall.
PAGE_PICTURE_MIN_INCHES = (4.0, 5.0)
_EMU_PER_INCH = 914_400
# A VML length is CSS: a number with a unit, or without one for pixels (findall gives "" for no unit).
_VML_LENGTH = re.compile(r"(?<![\w-])(width|height)\s*:\s*(\d+(?:\.\d*)?|\.\d+)\s*(pt|in|px|cm|mm|)")
_VML_UNITS_PER_INCH = {"pt": 72.0, "in": 1.0, "px": 96.0, "cm": 2.54, "mm": 25.4, "": 96.0}


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture the body shows: its image part, how large it is shown, and whether it sits behind the text."""

    rel_id: str
    blob: bytes
    content_type: str
    inches: tuple[float, float] | None  # (width, height) as displayed, when the document records it
    behind_text: bool = False

    @property
    def readable(self) -> bool:
        return self.content_type in _READABLE

    @property
    def page_sized(self) -> bool:
        """A pasted scan: shown at least PAGE_PICTURE_MIN_INCHES, in front of the text, in a format OCR reads."""
        return self.readable and _page_sized(self.inches, self.behind_text)


def shown_page_sized(element: etree._Element) -> bool:
    """Whether this showing of a picture (a blip or VML imagedata element) is at the size of a page."""
    return _page_sized(*_placement(element))


def _page_sized(inches: tuple[float, float] | None, behind_text: bool) -> bool:
    if inches is None or behind_text:
        return False
    return inches[0] >= PAGE_PICTURE_MIN_INCHES[0] and inches[1] >= PAGE_PICTURE_MIN_INCHES[1]


def picture_key(element: etree._Element) -> str | None:
    """The image part a blip or VML imagedata element shows, as its relationship id."""
    return element.get(_EMBED) if element.tag == BLIP else element.get(_VML_ID)


def body_pictures(document: docx.document.Document) -> list[Picture]:
    """The pictures the body shows, in reading order, each image part once (page-sized if it is shown so once)."""
    related = document.part.related_parts
    out: dict[str, Picture] = {}
    for element in document.element.body.iter(BLIP, IMAGE_DATA):
        rel_id = picture_key(element) or ""
        part = related.get(rel_id)
        if part is None or (rel_id in out and out[rel_id].page_sized):
            continue
        inches, behind = _placement(element)
        picture = Picture(rel_id, part.blob, getattr(part, "content_type", ""), inches, behind)
        if rel_id not in out or picture.page_sized:
            out[rel_id] = picture
    return list(out.values())


def _placement(element: etree._Element) -> tuple[tuple[float, float] | None, bool]:
    """(width, height) in inches a picture is shown at, and whether it is anchored behind the text."""
    for ancestor in element.iterancestors(f"{_WP}inline", f"{_WP}anchor", _VML_SHAPE):
        if ancestor.tag == _VML_SHAPE:
            lengths = {name: float(value) / _VML_UNITS_PER_INCH[unit]
                       for name, value, unit in _VML_LENGTH.findall(ancestor.get("style", ""))}
            size = (lengths["width"], lengths["height"]) if len(lengths) == 2 else None
            return size, False
        extent = ancestor.find(f"{_WP}extent")
        behind = ancestor.tag == f"{_WP}anchor" and ancestor.get("behindDoc") in ("1", "true")
        if extent is None:
            return None, behind
        try:
            return (int(extent.get("cx", "0")) / _EMU_PER_INCH, int(extent.get("cy", "0")) / _EMU_PER_INCH), behind
        except ValueError:
            return None, behind
    return None, False


def read_pictures(
    pictures: Sequence[Picture], options: ParseOptions
) -> Iterator[tuple[Picture, list[ParsedPage], str | None]]:
    """Each readable picture, in order, with the pages the image parser reads from it (a multi-page TIFF gives
    several, numbered from 1) or, when it cannot be read, no pages and why. `ocr_workers` pictures are read at
    once: a picture is one page, so the image parser alone would run one Tesseract at a time."""

    with scratch_folder(options, "docx-pictures") as folder:

        def read(index: int, picture: Picture) -> tuple[Picture, list[ParsedPage], str | None]:
            path = Path(folder) / f"picture {index}{_READABLE[picture.content_type]}"
            path.write_bytes(picture.blob)
            try:
                return picture, list(parse_file(path, options).pages), None
            except CaseTrackError as exc:
                return picture, [], exc.message.replace(str(path), "it")
            finally:
                path.unlink(missing_ok=True)

        with ThreadPoolExecutor(options.ocr_workers, thread_name_prefix="casetrack-docx-ocr") as pool:
            yield from pool.map(read, range(1, len(pictures) + 1), pictures)


def picture_pages(pictures: list[Picture], options: ParseOptions) -> tuple[list[ParsedPage], list[str]]:
    """For a document with no text of its own: OCR pages of its `pictures` (`body_pictures`) in reading order
    (numbered from 1, page numbers estimated), and warnings. No pages when none is one the image parser reads."""
    readable = [picture for picture in pictures if picture.readable]
    warnings: list[str] = []
    if not readable:
        if pictures:
            warnings.append("This Word document has no text, only drawings CaseTrack cannot read (EMF/WMF); "
                            "print it to PDF and ingest the PDF.")  # fmt: skip
        return [], warnings
    pages: list[ParsedPage] = []
    for index, (_, read, failure) in enumerate(read_pictures(readable[:MAX_PICTURES_READ], options), start=1):
        if failure is not None:
            warnings.append(f"Picture {index} could not be read: {failure}")
        for page in read:
            pages.append(replace(page, number=len(pages) + 1, approximate=True,
                                 warnings=tuple(f"Picture {index}: {w}" for w in page.warnings)))
    if len(readable) > MAX_PICTURES_READ:
        warnings.append(f"Only the first {MAX_PICTURES_READ} of {len(readable)} pictures were read.")
    read_as = "its picture was read by OCR as its page" if len(readable) == 1 else \
        f"its {len(readable)} pictures were read by OCR, one page each"
    warnings.insert(0, f"This Word document has no text of its own, only pictures: {read_as} (page numbers are "
                       "estimated).")  # fmt: skip
    return pages, warnings


def scanned_pages(pictures: list[Picture], options: ParseOptions) -> tuple[dict[str, list[ParsedPage]], list[str]]:
    """For a document with text: the OCR pages of each page-sized picture, by relationship id (pages numbered
    from 1 within the picture, warnings naming the picture), and the document's warnings."""
    page_sized = [picture for picture in pictures if picture.page_sized]
    if not page_sized:
        return {}, []
    out: dict[str, list[ParsedPage]] = {}
    warnings: list[str] = []
    for index, (picture, read, failure) in enumerate(read_pictures(page_sized[:MAX_PICTURES_READ], options), start=1):
        if failure is not None:
            warnings.append(f"Pasted scan {index} could not be read: {failure}")
        out[picture.rel_id] = [replace(page, warnings=tuple(f"Pasted scan {index}: {w}" for w in page.warnings))
                               for page in read]
    if len(page_sized) > MAX_PICTURES_READ:
        warnings.append(f"Only the first {MAX_PICTURES_READ} of {len(page_sized)} pasted scans were read.")
    one = len(page_sized) == 1
    shows = "a picture the size of a page (a pasted scan)" if one else \
        f"{len(page_sized)} pictures the size of a page (pasted scans)"
    if any(page.method is ExtractionMethod.OCR for pages in out.values() for page in pages):
        outcome = "read by OCR"
    else:  # Tesseract missing or failing
        outcome = "but OCR could not read it (the page says why)" if one else \
            "but OCR could not read them (the pages say why)"
    warnings.insert(0, f"This Word document shows {shows}. {'It' if one else 'Each'} is a page of its own where it "
                       f"stands, {outcome}. Page numbers from there on are estimated.")  # fmt: skip
    return out, warnings
