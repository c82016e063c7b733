"""DOCX via python-docx's XML tree: paragraphs, list numbers, tables as lines, page breaks,
and each section's headers and footers once, on its first page.

Word files have no fixed pages, but they often record where pages broke: manual page
breaks, section breaks, and the `lastRenderedPageBreak` marks Word leaves from its last
layout. Those split pages; where none exist, pages are estimated and flagged approximate.
The archive is inspected before python-docx opens it, because a DOCX is a ZIP file and a
hostile one can expand to gigabytes.
"""

from __future__ import annotations

import copy
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import docx
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn
from lxml import etree

from casetrack.domain import ParsedDocument, ParsedPage
from casetrack.errors import DocumentUnreadable
from casetrack.parse.formats import DOCX
from casetrack.parse.headers_footers import HeaderFooterReader
from casetrack.parse.normalize import word_chars
from casetrack.parse.options import ParseOptions
from casetrack.parse.word.entities import entity_warning
from casetrack.parse.word.headers import section_parts
from casetrack.parse.word.lines import printed_line_width
from casetrack.parse.word.notes import ENDNOTE, REFERENCE_TAGS, NoteReference, Notes, read_notes
from casetrack.parse.word.numbering import ListNumbering
from casetrack.parse.word.pages import PageBuilder, ShownPicture
from casetrack.parse.word.pictures import (
    BLIP,
    IMAGE_DATA,
    MIN_OWN_TEXT_CHARS,
    body_pictures,
    picture_key,
    picture_pages,
    scanned_pages,
    shown_page_sized,
)

# Real DOCX files: a few dozen entries, XML compressing 5-20x. Limits are far above that.
MAX_ZIP_ENTRIES = 10_000
MAX_UNCOMPRESSED_BYTES = 512 * 1024 * 1024
MAX_COMPRESSION_RATIO = 100  # applied to entries above BOMB_CHECK_BYTES, where a bomb does its damage
BOMB_CHECK_BYTES = 5 * 1024 * 1024

_PAGE = object()  # marks a page break inside the inline event stream
_SKIPPED_SUBTREES = frozenset(
    {
        qn("w:del"),
        qn("w:moveFrom"),  # the old place of text moved with tracked changes: it reads at its w:moveTo
        qn("w:instrText"),
        qn("w:delInstrText"),
        "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback",
    }
)
_INLINE_TEXT = {
    qn("w:tab"): " ",
    qn("w:ptab"): " ",
    qn("w:cr"): "\n",
    qn("w:noBreakHyphen"): "-",
    qn("w:softHyphen"): "",
}
# Wrappers that hold ordinary paragraphs, rows or cells: templates put content controls
# (w:sdt) and custom XML tags around whole clauses, table rows and single cells.
_WRAPPERS = frozenset({qn("w:sdt"), qn("w:sdtContent"), qn("w:customXml")})
_BREAKING_SECTIONS = frozenset({"nextPage", "oddPage", "evenPage"})
_UNREADABLE_FIX = "Open it in Word or LibreOffice and save it again as .docx, then ingest the new file."


def parse_docx(path: Path, options: ParseOptions) -> ParsedDocument:
    """Parse a .docx file. Raises DocumentUnreadable for corrupt files, non-Word ZIP files,
    archives that would expand beyond safe limits, and XML nested too deeply to parse."""
    check_archive(path)
    try:
        document = docx.Document(str(path))
        notes = read_notes(document)
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise DocumentUnreadable(str(path), f"it is not a valid Word document ({exc})", _UNREADABLE_FIX) from exc
    except etree.XMLSyntaxError as exc:
        raise DocumentUnreadable(
            str(path), f"its XML is malformed or nested too deeply to parse safely ({exc})", _UNREADABLE_FIX
        ) from exc
    numbering = ListNumbering(_numbering_element(document), document.styles.element)
    builder = PageBuilder(printed_line_width(document))
    body = document.element.body
    pictures = body_pictures(document)
    page_pictures = frozenset(picture.rel_id for picture in pictures if picture.page_sized)
    headers = iter(_headers_and_footers(document, list(body.iter(qn("w:sectPr"))), numbering))
    builder.start_section(next(headers, []))
    _add_block_children(body, builder, _Walk(numbering, notes, iter(_section_breaks(body)), headers, page_pictures))
    for endnote in notes.endnotes:  # Word prints endnotes after the last paragraph
        builder.add(endnote)
    properties = document.core_properties
    metadata = {
        key: value.strip()
        for key, value in (("title", properties.title), ("author", properties.author))
        if value and value.strip()
    }
    warnings: list[str] = []
    if authors := notes.comment_authors():
        metadata["comment_authors"] = ", ".join(authors)
    inserted, deleted = _tracked_changes(body)
    if inserted or deleted:
        changes = f"{inserted} insertion{'s' * (inserted != 1)}, {deleted} deletion{'s' * (deleted != 1)}"
        metadata["tracked_changes"] = changes
        # Quoting proposed language as agreed text is the error to prevent: say how the draft was read.
        warnings.append(f"This document has tracked changes not yet accepted or rejected ({changes}). Its text is "
                        "read as if every change were accepted: inserted text included, deleted text left out.")
    if entities := entity_warning(document):
        warnings.append(entities)
    pages = builder.pages()
    if not _has_own_text(pages):
        scanned, picture_warnings = picture_pages(pictures, options)
        warnings.extend(picture_warnings)
        pages = tuple(scanned) or pages
    elif page_pictures:
        read, picture_warnings = scanned_pages(pictures, options)
        warnings.extend(picture_warnings)
        pages = builder.pages(read)
    return ParsedDocument(format=DOCX.id, pages=pages, metadata=metadata, warnings=tuple(warnings))


def _has_own_text(pages: tuple[ParsedPage, ...]) -> bool:
    """Whether the pages hold MIN_OWN_TEXT_CHARS letters or digits; stops counting once they do."""
    count = 0
    for page in pages:
        count += word_chars(page.text)
        if count >= MIN_OWN_TEXT_CHARS:
            return True
    return False


def _tracked_changes(body: etree._Element) -> tuple[int, int]:
    """Revisions of the body's text still pending: insertions (and moves) and deletions that hold text."""
    inserted = sum(1 for tag in (qn("w:ins"), qn("w:moveTo")) for change in body.iter(tag)
                   if next(change.iter(qn("w:t")), None) is not None)
    deleted = sum(1 for change in body.iter(qn("w:del")) if next(change.iter(qn("w:delText")), None) is not None)
    return inserted, deleted


def check_archive(path: Path) -> None:
    """Refuse ZIP archives that are not DOCX-shaped or would expand dangerously, before any XML is read."""
    try:
        with zipfile.ZipFile(path) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, OSError) as exc:
        raise DocumentUnreadable(str(path), f"it is not a valid DOCX (ZIP) file ({exc})", _UNREADABLE_FIX) from exc
    if len(entries) > MAX_ZIP_ENTRIES:
        raise DocumentUnreadable(
            str(path), f"the archive holds {len(entries):,} files, far more than any Word document", _UNREADABLE_FIX
        )
    total = sum(entry.file_size for entry in entries)
    if total > MAX_UNCOMPRESSED_BYTES:
        raise DocumentUnreadable(
            str(path),
            f"it would expand to {total / 2**20:,.0f} MB (limit {MAX_UNCOMPRESSED_BYTES / 2**20:,.0f} MB)",
            "Split the document or remove embedded media, then save it again.",
        )
    for entry in entries:
        ratio = entry.file_size / max(entry.compress_size, 1)
        if entry.file_size > BOMB_CHECK_BYTES and ratio > MAX_COMPRESSION_RATIO:
            raise DocumentUnreadable(
                str(path),
                f"it looks like a ZIP bomb ({entry.filename} expands {ratio:,.0f}x "
                f"to {entry.file_size / 2**20:,.0f} MB)",
                "Do not open this file; if you expected a normal document, ask the sender for a new copy.",
            )
    if "word/document.xml" not in {entry.filename for entry in entries}:
        raise DocumentUnreadable(
            str(path),
            "the ZIP archive has no word/document.xml, so it is not a Word document (it may be another Office file)",
            "Check the file type; supported Office files are .docx and .doc.",
        )


def _numbering_element(document: docx.document.Document) -> etree._Element | None:
    try:
        return document.part.numbering_part.element
    except (KeyError, NotImplementedError):  # python-docx raises these when there is no numbering part
        return None


def _headers_and_footers(
    document: docx.document.Document, sections: list[etree._Element], numbering: ListNumbering
) -> list[list[str]]:
    """Per section, the header/footer paragraphs read for the first time there. They are
    numbered with a copy of `numbering`, so a numbered header paragraph does not shift the body's."""
    parts = section_parts(document, sections)
    if not any(parts):
        return [[] for _ in parts]
    reader = HeaderFooterReader()
    walk = _Walk(copy.deepcopy(numbering), Notes({}), iter(()), iter(()))
    per_section = []
    for roots in parts:
        scratch = PageBuilder()
        for root in roots:
            _add_block_children(root, scratch, walk)
        per_section.append(reader.new(p for page in scratch.paragraphs() for p in page if isinstance(p, str)))
    return per_section


def _section_breaks(body: etree._Element) -> list[bool]:
    """For each section that ends inside the body, whether a new page follows it. A section's
    w:type says how *that* section starts, so the break after section N is section N+1's type."""
    sections = list(body.iter(qn("w:sectPr")))
    kinds = []
    for section in sections[1:]:
        section_type = section.find(qn("w:type"))
        kinds.append(
            (section_type.get(qn("w:val"), "nextPage") if section_type is not None else "nextPage")
            in _BREAKING_SECTIONS
        )
    return kinds


@dataclass(frozen=True, slots=True)
class _Walk:
    """What the walk over the body carries along besides the pages being built."""

    numbering: ListNumbering
    notes: Notes
    section_breaks: Iterator[bool]
    headers_and_footers: Iterator[list[str]]  # per section after the first, what start_section takes
    page_pictures: frozenset[str] = frozenset()  # pasted scans (relationship ids): each a page of its own


def _is_scan(picture: ShownPicture, walk: _Walk) -> bool:
    """A pasted scan: an image part read by OCR (`walk.page_pictures`), shown here at the size of a page (one
    image part can be shown twice, as a thumbnail and as a page)."""
    return picture.key in walk.page_pictures and shown_page_sized(picture.element)


def _add_block_children(container: etree._Element, builder: PageBuilder, walk: _Walk) -> None:
    for child in _unwrapped(container, (qn("w:p"), qn("w:tbl"))):
        if child.tag == qn("w:p"):
            _add_paragraph(child, builder, walk)
        else:
            _add_table(child, builder, walk)


def _unwrapped(container: etree._Element, tags: tuple[str, ...]) -> Iterator[etree._Element]:
    """The children of `container` with one of `tags`, looking through content controls and
    custom XML wrappers (but not a control's w:sdtPr, which holds only its settings)."""
    for child in container:
        if child.tag in tags:
            yield child
        elif child.tag in _WRAPPERS:
            yield from _unwrapped(child, tags)


def _add_paragraph(paragraph: etree._Element, builder: PageBuilder, walk: _Walk) -> None:
    properties = paragraph.find(qn("w:pPr"))
    if properties is not None and _is_on(properties.find(qn("w:pageBreakBefore"))):
        builder.page_break()
    label = walk.numbering.label(paragraph)
    piece: list[str] = [label + " "] if label else []
    cited: list[NoteReference] = []
    for event in _inline_events(paragraph):
        if event is _PAGE:
            builder.add("".join(piece))
            _add_notes(cited, builder, walk.notes)
            builder.page_break()
            piece, cited = [], []
        elif isinstance(event, NoteReference):
            cited.append(event)
        elif isinstance(event, ShownPicture):
            if _is_scan(event, walk):
                builder.add("".join(piece))
                builder.picture(event)
                piece = []
        else:
            piece.append(str(event))
    builder.add("".join(piece))
    _add_notes(cited, builder, walk.notes)
    section_ends_here = properties is not None and properties.find(qn("w:sectPr")) is not None
    if section_ends_here:
        if next(walk.section_breaks, True):
            builder.page_break()
        builder.start_section(next(walk.headers_and_footers, []))


def _add_notes(cited: list[NoteReference], builder: PageBuilder, notes: Notes) -> None:
    """Footnotes as paragraphs after the text citing them; endnotes held back for the end."""
    for reference in cited:
        body = notes.body(reference)
        if body is None:
            continue
        text = "".join(event for event in _inline_events(body) if isinstance(event, str)).strip()
        note = f"{notes.label(reference)} {text}"
        if reference.kind == ENDNOTE:
            notes.endnotes.append(note)
        else:
            builder.add(note)


def _add_table(table: etree._Element, builder: PageBuilder, walk: _Walk) -> None:
    """One line per row, cells separated by " | "; a page break recorded inside the table, or a pasted scan in
    it, takes effect after it (pages are never split mid-table)."""
    rows: list[str] = []
    cited: list[NoteReference] = []
    scans: list[ShownPicture] = []
    broke = False
    for row in _unwrapped(table, (qn("w:tr"),)):
        cells = []
        for cell in _unwrapped(row, (qn("w:tc"),)):
            texts = []
            for event in _inline_events(cell):
                if event is _PAGE:
                    broke = True
                elif isinstance(event, NoteReference):
                    cited.append(event)
                elif isinstance(event, ShownPicture):
                    scans.extend([event] if _is_scan(event, walk) else [])
                else:
                    texts.append(str(event))
            cells.append(" ".join("".join(texts).split()))
        if any(cells):
            rows.append(" | ".join(cells))
    builder.add("\n".join(rows))
    _add_notes(cited, builder, walk.notes)
    for scan in scans:
        builder.picture(scan)
    if broke:
        builder.page_break()


def _inline_events(element: etree._Element) -> Iterator[object]:
    """Text pieces, page-break markers, note references and pictures of a paragraph (or table cell) in document order,
    skipping deleted revisions, field codes and the duplicate fallback copies of text boxes."""
    stack = [iter(element)]
    while stack:
        for child in stack[-1]:
            tag = child.tag
            if tag in _SKIPPED_SUBTREES:
                continue
            if tag == qn("w:t"):
                # An entity reference left unresolved (docx_entities) is a child: the text after it is its tail.
                yield (child.text or "") + "".join(entity.tail or "" for entity in child)
            elif tag in _INLINE_TEXT:
                yield _INLINE_TEXT[tag]
            elif tag == qn("w:br"):
                yield _PAGE if child.get(qn("w:type")) == "page" else "\n"
            elif tag == qn("w:lastRenderedPageBreak"):
                yield _PAGE
            elif tag in REFERENCE_TAGS:
                yield NoteReference(REFERENCE_TAGS[tag], child.get(qn("w:id"), ""))
            elif tag in (BLIP, IMAGE_DATA):
                yield ShownPicture(picture_key(child) or "", child)
            elif len(child):
                if tag == qn("w:p"):
                    yield "\n"  # a paragraph nested in a text box or table cell starts a new line
                stack.append(iter(child))
                break
        else:
            stack.pop()


def _is_on(element: etree._Element | None) -> bool:
    if element is None:
        return False
    return element.get(qn("w:val"), "true") not in ("0", "false", "off")
