"""Plain text: detect the encoding, keep the text as written, find or estimate pages."""

from __future__ import annotations

import codecs
from pathlib import Path

from charset_normalizer import from_bytes

from casetrack.domain import ParsedDocument
from casetrack.errors import DocumentUnreadable
from casetrack.parse.formats import TXT
from casetrack.parse.options import ParseOptions
from casetrack.parse.sniff import bomless_utf16
from casetrack.parse.text_pages import text_pages

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE, whose BOM is its prefix
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Windows-1252 is what non-UTF-8 English and Western European documents are written in.
# The detector's language scores are unreliable on a few accented words (French text scored
# as Polish cp1257, "très" read as "trčs"), so cp1252 wins whenever it reads the bytes with no
# more chaos than the detector's best guess.
_WESTERN_DEFAULT = "cp1252"
# Guesses that never fit a text file without a byte-order mark: UTF-16/32 without a BOM
# would be full of NULs (read by `bomless_utf16`, or refused before parsing), and EBCDIC is
# mainframe data. The detector offers them for short files, e.g. a four-byte '“OK”' in cp1252
# as UTF-16.
_IMPLAUSIBLE = ("utf_16", "utf_32", "cp037", "cp273", "cp424", "cp500", "cp875", "cp1026", "cp1140")


def decode_text(data: bytes) -> tuple[str, str]:
    """(text, encoding name): a byte-order mark if present, else UTF-8, else the best
    charset-normalizer guess. Never fails: undecodable bytes become U+FFFD as a last resort."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data.decode(encoding, errors="replace"), encoding.removesuffix("-sig")
    bomless = bomless_utf16(data)
    if bomless is not None:
        return data.decode(bomless, errors="replace"), bomless
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    western = from_bytes(data, cp_isolation=[_WESTERN_DEFAULT]).best()  # None: cp1252 reads it as chaos
    matches = [match for match in from_bytes(data) if not match.encoding.startswith(_IMPLAUSIBLE)]
    best = matches[0] if matches else None
    if western is not None and (best is None or western.chaos <= best.chaos):
        return str(western), _WESTERN_DEFAULT
    # Too short for the detector to rate cp1252 at all: keep the best guess only when it
    # recognised a language in it, else read the bytes as Western text.
    if best is not None and (western is not None or best.coherence > 0 or not decodes(data, _WESTERN_DEFAULT)):
        return str(best), best.encoding
    return data.decode(_WESTERN_DEFAULT, errors="replace"), _WESTERN_DEFAULT


def decodes(data: bytes, encoding: str) -> bool:
    """Whether `data` is valid `encoding` throughout."""
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def parse_text_file(path: Path, options: ParseOptions, keep_indents: bool = False) -> ParsedDocument:
    """Parse a .txt file. Form feeds or printed page numbers mark real page breaks; without them pages
    are estimated (parse/text_pages.py). `keep_indents` for a draft, whose indented paragraphs are quotations."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentUnreadable(
            str(path), f"it could not be read ({exc.strerror})", "Check the file's permissions."
        ) from exc
    text, encoding = decode_text(data)
    warnings: tuple[str, ...] = ()
    if "\ufffd" in text and encoding != "utf-8":
        warnings = (f"Some characters could not be decoded (read as {encoding}) and were replaced with '\ufffd'.",)
    return ParsedDocument(format=TXT.id, pages=text_pages(text, keep_indents), metadata={"encoding": encoding},
                          warnings=warnings)
