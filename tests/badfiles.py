"""Bad inputs, written on demand, with the outcome each must produce.

Each `write_*` function writes one file into a directory and returns a `BadFile` row:
the file name, the CaseTrack error class parse_file must raise (None when the file must
parse), and a fragment the error message (or, for files that parse, the text) must contain.
`write_all` writes every one. Folder-ingest tests reuse the table.
"""

from __future__ import annotations

import io
import shutil
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from pypdf import PdfReader, PdfWriter

from casetrack.errors import CaseTrackError, DocumentUnreadable, ToolUnavailable, UnsupportedFormat


@dataclass(frozen=True)
class BadFile:
    filename: str
    expected_error: type[CaseTrackError] | None  # None: the file must parse
    message_fragment: str  # in the error message; for files that parse, in the parsed text


# --- a tiny PDF writer, so bad PDFs derive from a known-good one without fixtures --------


def text_pdf_bytes(pages: Sequence[Sequence[tuple[float, float, str]]], font_size: float = 11) -> bytes:
    """A valid PDF with Helvetica text: each page a list of (x, y, text) lines in points,
    on a US Letter page (612 x 792, y growing upward)."""
    objects: list[bytes] = [
        b"",
        b"",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    page_ids = []
    for lines in pages:
        stream = b"".join(
            b"BT /F1 %.1f Tf %.2f %.2f Td (%s) Tj ET\n" % (font_size, x, y, _pdf_string(text)) for x, y, text in lines
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        content_id = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
            b"/Contents %d 0 R >>" % content_id
        )
        page_ids.append(len(objects))
    return _pdf_file(objects, page_ids)


def giant_page_pdf_bytes(inches: float = 200, shapes: int = 400) -> bytes:
    """One page `inches` square (200 in is the largest a PDF page may be) drawing `shapes` small filled squares
    and no text: ~11 KB that PDFium would render at 40,000 x 40,000 pixels at 200 dpi. It has no text layer and
    enough paths to be read by OCR as words drawn as shapes."""
    side = inches * 72
    columns = max(int(shapes**0.5), 1)
    step = side / (columns + 1)
    stream = b"0 g\n" + b"".join(
        b"%.1f %.1f 20 20 re f\n" % (step * (1 + n % columns), step * (1 + n // columns)) for n in range(shapes)
    )
    objects = [b"", b"", b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.0f %.0f] /Contents 3 0 R >>" % (side, side)]
    return _pdf_file(objects, [4])


def _pdf_file(objects: list[bytes], page_ids: Sequence[int]) -> bytes:
    """The PDF file of `objects` (numbered from 1; 1 and 2 are filled in here as the catalog and the page tree)."""
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    kids = b" ".join(b"%d 0 R" % page_id for page_id in page_ids)
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(page_ids))
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.writelines(b"%010d 00000 n \n" % offset for offset in offsets)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def _pdf_string(text: str) -> bytes:
    return text.encode("cp1252").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def sample_pdf_bytes(page_count: int = 3) -> bytes:
    """A few pages of body text, for deriving damaged copies."""
    return text_pdf_bytes(
        [
            [
                (72, 720 - 14 * row, f"Page {page} line {row}: the parties agree to the terms set out below.")
                for row in range(40)
            ]
            for page in range(1, page_count + 1)
        ]
    )


# --- the bad files --------------------------------------------------------------------


def write_zero_byte_pdf(directory: Path) -> BadFile:
    (directory / "empty.pdf").write_bytes(b"")
    return BadFile("empty.pdf", DocumentUnreadable, "empty (0 bytes)")


def write_truncated_pdf(directory: Path) -> BadFile:
    data = sample_pdf_bytes()
    (directory / "truncated.pdf").write_bytes(data[: len(data) // 2])
    return BadFile("truncated.pdf", DocumentUnreadable, "PDF parsing error (file may be corrupted or incomplete)")


def write_password_protected_pdf(directory: Path) -> BadFile:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(sample_pdf_bytes())))
    writer.encrypt(user_password="secret", owner_password="owner-secret")
    with (directory / "protected.pdf").open("wb") as handle:
        writer.write(handle)
    return BadFile("protected.pdf", DocumentUnreadable, "Remove the password")


def write_png_named_pdf(directory: Path) -> BadFile:
    Image.new("RGB", (40, 20), "white").save(directory / "picture.pdf", format="PNG")
    return BadFile("picture.pdf", DocumentUnreadable, "looks like a PNG image")


def write_text_named_pdf(directory: Path) -> BadFile:
    (directory / "notes.pdf").write_text("These are plain notes, saved with the wrong extension.\n")
    return BadFile("notes.pdf", DocumentUnreadable, "looks like plain text")


def write_docx_zip_bomb(directory: Path) -> BadFile:
    """A DOCX-shaped archive whose document.xml is 64 MB of one repeated byte (~64 KB zipped)."""
    with zipfile.ZipFile(directory / "bomb.docx", "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", _CONTENT_TYPES)
        archive.writestr("_rels/.rels", _ROOT_RELS)
        with archive.open("word/document.xml", "w", force_zip64=True) as entry:
            block = b" " * (1024 * 1024)
            for _ in range(64):
                entry.write(block)
    return BadFile("bomb.docx", DocumentUnreadable, "ZIP bomb")


def write_docx_deep_xml(directory: Path) -> BadFile:
    """A small, valid-looking DOCX whose body nests 5,000 elements deep."""
    depth = 5000
    body = "<w:sdt><w:sdtContent>" * depth + "<w:p><w:r><w:t>deep</w:t></w:r></w:p>" + "</w:sdtContent></w:sdt>" * depth
    document = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<w:document xmlns:w="{_W}"><w:body>{body}</w:body></w:document>'
    )
    with zipfile.ZipFile(directory / "deep.docx", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", _CONTENT_TYPES)
        archive.writestr("_rels/.rels", _ROOT_RELS)
        archive.writestr("word/document.xml", document)
    return BadFile("deep.docx", DocumentUnreadable, "nested too deeply")


def write_cp1252_text(directory: Path) -> BadFile:
    """Not bad at all: Windows-1252 text with curly quotes must decode, not fail."""
    text = (
        "The Company\u2019s \u201cConfidential Information\u201d \u2013 see Section 4.\r\n"
        "Caf\u00e9 r\u00e9sum\u00e9 na\u00efve.\r\n"
    )
    (directory / "windows.txt").write_bytes(text.encode("cp1252"))
    return BadFile(
        "windows.txt", None, "The Company\u2019s \u201cConfidential Information\u201d \u2013 see Section 4.\nCaf\u00e9"
    )


def write_unsupported_xlsx(directory: Path) -> BadFile:
    with zipfile.ZipFile(directory / "ledger.xlsx", "w") as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
    return BadFile("ledger.xlsx", UnsupportedFormat, "Supported formats: .pdf")


def write_legacy_doc(directory: Path) -> BadFile:
    """A .doc whose OLE body is garbage. Without LibreOffice: ToolUnavailable naming the
    install command. With it: the conversion must fail cleanly."""
    (directory / "legacy.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(range(256)) * 8)
    if shutil.which("soffice") or shutil.which("libreoffice"):
        return BadFile("legacy.doc", DocumentUnreadable, "LibreOffice could not convert it")
    return BadFile("legacy.doc", ToolUnavailable, "LibreOffice is not installed")


WRITERS: tuple[Callable[[Path], BadFile], ...] = (
    write_zero_byte_pdf,
    write_truncated_pdf,
    write_password_protected_pdf,
    write_png_named_pdf,
    write_text_named_pdf,
    write_docx_zip_bomb,
    write_docx_deep_xml,
    write_cp1252_text,
    write_unsupported_xlsx,
    write_legacy_doc,
)


def write_all(directory: Path) -> list[BadFile]:
    """Write every bad file into `directory`; returns the expectation table."""
    directory.mkdir(parents=True, exist_ok=True)
    return [write(directory) for write in WRITERS]


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
    "</Types>"
)
_ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="word/document.xml"/></Relationships>'
)
