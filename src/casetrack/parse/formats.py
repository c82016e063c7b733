"""The format registry: every file format CaseTrack reads, as data. Adding a format means adding a
`FormatSpec` here (and its parser, named in it); the extension lists, content checks, labels in messages and tool
descriptions and the bundle manifest are all derived from this table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FormatSpec:
    id: str  # what `ParsedDocument.format` and a stored document's format say: "pdf", "eml"
    label: str  # how users read it in lists: "PDF", "Outlook MSG"
    extensions: tuple[str, ...]  # lower case, with the dot
    kinds: frozenset[str]  # what `sniff` may find in a file of this format (a mislabelled file is refused)
    # "module:function" under casetrack.parse, `(Path, ParseOptions) -> ParsedDocument`, imported by
    # `dispatch` when a file of this format is read: a parser may read the files it holds (an e-mail's
    # attachments, a Word document's pictures) through dispatch, so this table, at the bottom of parse/,
    # imports no parser.
    parser: str


PDF = FormatSpec("pdf", "PDF", (".pdf",), frozenset({"pdf"}), "pdf.document:parse_pdf")
DOCX = FormatSpec("docx", "DOCX", (".docx",), frozenset({"zip"}), "word.document:parse_docx")
# Word happily opens RTF and DOCX content saved as ".doc", and LibreOffice converts all three, so
# ".doc" accepts them.
DOC = FormatSpec("doc", "DOC", (".doc",), frozenset({"ole", "rtf", "zip"}), "word.legacy:parse_doc")
ODT = FormatSpec("odt", "ODT", (".odt",), frozenset({"zip"}), "word.legacy:parse_odt")
TXT = FormatSpec("txt", "TXT", (".txt",), frozenset({"text"}), "text_file:parse_text_file")
RTF = FormatSpec("rtf", "RTF", (".rtf",), frozenset({"rtf"}), "rtf:parse_rtf")
EML = FormatSpec("eml", "EML", (".eml",), frozenset({"text"}), "mail.eml:parse_eml")
MSG = FormatSpec("msg", "Outlook MSG", (".msg",), frozenset({"ole"}), "mail.msg:parse_msg")
# The picture formats share one id: a parsed picture is an "image" whatever its encoding.
IMAGE_ID = "image"
PNG = FormatSpec(IMAGE_ID, "PNG", (".png",), frozenset({"png"}), "image:parse_image")
JPG = FormatSpec(IMAGE_ID, "JPG", (".jpg", ".jpeg"), frozenset({"jpeg"}), "image:parse_image")
TIFF = FormatSpec(IMAGE_ID, "TIFF", (".tif", ".tiff"), frozenset({"tiff"}), "image:parse_image")

FORMATS: tuple[FormatSpec, ...] = (
    PDF,
    DOCX,
    DOC,
    ODT,
    TXT,
    RTF,
    EML,
    MSG,
    PNG,
    JPG,
    TIFF,
)

# Formats whose documents are e-mail messages (sender, recipients, a thread), and picture formats.
MAIL_FORMATS: frozenset[str] = frozenset({EML.id, MSG.id})
IMAGE_EXTENSIONS: frozenset[str] = frozenset(e for spec in (PNG, JPG, TIFF) for e in spec.extensions)


def by_extension(formats: tuple[FormatSpec, ...] = FORMATS) -> dict[str, FormatSpec]:
    return {extension: spec for spec in formats for extension in spec.extensions}


def supported_label(formats: tuple[FormatSpec, ...] = FORMATS) -> str:
    """"PDF, DOCX, ..., TIFF": the formats as a user reads them in a message or a tool description."""
    return ", ".join(spec.label for spec in formats)
