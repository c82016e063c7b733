"""The format registry: every file format CaseTrack reads, as data. Adding a format means adding a
`FormatSpec` here (and its parser); the extension lists, content checks, labels in messages and tool
descriptions and the bundle manifest are all derived from this table."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from casetrack.domain import ParsedDocument
from casetrack.parse.options import ParseOptions

Parser = Callable[[Path, ParseOptions], ParsedDocument]


@dataclass(frozen=True, slots=True)
class FormatSpec:
    label: str  # how users read it in lists: "PDF", "Outlook MSG"
    extensions: tuple[str, ...]  # lower case, with the dot
    kinds: frozenset[str]  # what `sniff` may find in a file of this format (a mislabelled file is refused)
    # The function, or where it is ("casetrack.parse.pdf:parse_pdf"), imported when a file of the format is first
    # read: a search, a listing or a tool description needs the registry but no parser (and the parsers' libraries
    # took a third of a cold `casetrack search`'s imports, issue 35 §3).
    parser: Parser | str

    def parse(self, path: Path, options: ParseOptions) -> ParsedDocument:
        parser = self.parser
        if isinstance(parser, str):
            module, _, name = parser.partition(":")
            parser = cast(Parser, getattr(importlib.import_module(module), name))
        return parser(path, options)


# Word happily opens RTF and DOCX content saved as ".doc", and LibreOffice converts all three, so
# ".doc" accepts them.
FORMATS: tuple[FormatSpec, ...] = (
    FormatSpec("PDF", (".pdf",), frozenset({"pdf"}), "casetrack.parse.pdf:parse_pdf"),
    FormatSpec("DOCX", (".docx",), frozenset({"zip"}), "casetrack.parse.word:parse_docx"),
    FormatSpec("DOC", (".doc",), frozenset({"ole", "rtf", "zip"}), "casetrack.parse.legacy_doc:parse_doc"),
    FormatSpec("ODT", (".odt",), frozenset({"zip"}), "casetrack.parse.legacy_doc:parse_odt"),
    FormatSpec("TXT", (".txt",), frozenset({"text"}), "casetrack.parse.text_file:parse_text_file"),
    FormatSpec("RTF", (".rtf",), frozenset({"rtf"}), "casetrack.parse.rtf:parse_rtf"),
    FormatSpec("EML", (".eml",), frozenset({"text"}), "casetrack.parse.eml:parse_eml"),
    FormatSpec("Outlook MSG", (".msg",), frozenset({"ole"}), "casetrack.parse.msg:parse_msg"),
    FormatSpec("PNG", (".png",), frozenset({"png"}), "casetrack.parse.image:parse_image"),
    FormatSpec("JPG", (".jpg", ".jpeg"), frozenset({"jpeg"}), "casetrack.parse.image:parse_image"),
    FormatSpec("TIFF", (".tif", ".tiff"), frozenset({"tiff"}), "casetrack.parse.image:parse_image"),
)


def by_extension(formats: tuple[FormatSpec, ...] = FORMATS) -> dict[str, FormatSpec]:
    return {extension: spec for spec in formats for extension in spec.extensions}


def supported_label(formats: tuple[FormatSpec, ...] = FORMATS) -> str:
    """"PDF, DOCX, ..., TIFF": the formats as a user reads them in a message or a tool description."""
    return ", ".join(spec.label for spec in formats)
