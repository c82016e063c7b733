"""The format registry: every file format CaseTrack reads, as data. Adding a format means adding a
`FormatSpec` here (and its parser); the extension lists, content checks, labels in messages and tool
descriptions and the bundle manifest are all derived from this table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from casetrack.domain import ParsedDocument
from casetrack.parse.eml import parse_eml
from casetrack.parse.image import parse_image
from casetrack.parse.legacy_doc import parse_doc, parse_odt
from casetrack.parse.msg import parse_msg
from casetrack.parse.options import ParseOptions
from casetrack.parse.pdf import parse_pdf
from casetrack.parse.rtf import parse_rtf
from casetrack.parse.text_file import parse_text_file
from casetrack.parse.word import parse_docx

Parser = Callable[[Path, ParseOptions], ParsedDocument]


@dataclass(frozen=True, slots=True)
class FormatSpec:
    label: str  # how users read it in lists: "PDF", "Outlook MSG"
    extensions: tuple[str, ...]  # lower case, with the dot
    kinds: frozenset[str]  # what `sniff` may find in a file of this format (a mislabelled file is refused)
    parser: Parser


# Word happily opens RTF and DOCX content saved as ".doc", and LibreOffice converts all three, so
# ".doc" accepts them.
FORMATS: tuple[FormatSpec, ...] = (
    FormatSpec("PDF", (".pdf",), frozenset({"pdf"}), parse_pdf),
    FormatSpec("DOCX", (".docx",), frozenset({"zip"}), parse_docx),
    FormatSpec("DOC", (".doc",), frozenset({"ole", "rtf", "zip"}), parse_doc),
    FormatSpec("ODT", (".odt",), frozenset({"zip"}), parse_odt),
    FormatSpec("TXT", (".txt",), frozenset({"text"}), parse_text_file),
    FormatSpec("RTF", (".rtf",), frozenset({"rtf"}), parse_rtf),
    FormatSpec("EML", (".eml",), frozenset({"text"}), parse_eml),
    FormatSpec("Outlook MSG", (".msg",), frozenset({"ole"}), parse_msg),
    FormatSpec("PNG", (".png",), frozenset({"png"}), parse_image),
    FormatSpec("JPG", (".jpg", ".jpeg"), frozenset({"jpeg"}), parse_image),
    FormatSpec("TIFF", (".tif", ".tiff"), frozenset({"tiff"}), parse_image),
)


def by_extension(formats: tuple[FormatSpec, ...] = FORMATS) -> dict[str, FormatSpec]:
    return {extension: spec for spec in formats for extension in spec.extensions}


def supported_label(formats: tuple[FormatSpec, ...] = FORMATS) -> str:
    """"PDF, DOCX, ..., TIFF": the formats as a user reads them in a message or a tool description."""
    return ", ".join(spec.label for spec in formats)
