"""Plain text: detect the encoding, keep the text as written, find or estimate pages."""

from __future__ import annotations

import codecs
from pathlib import Path

from charset_normalizer import from_bytes

from casetrack.domain import ParsedDocument
from casetrack.errors import DocumentUnreadable
from casetrack.parse.normalize import paginate
from casetrack.parse.options import ParseOptions

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE, whose BOM is its prefix
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Windows-1252 is what non-UTF-8 English and Western European documents are written in;
# when the detector finds it as good a fit as a neighbour (cp1250, cp1257), it wins the tie.
_WESTERN_DEFAULT = "cp1252"


def decode_text(data: bytes) -> tuple[str, str]:
    """(text, encoding name): a byte-order mark if present, else UTF-8, else the best
    charset-normalizer guess. Never fails: undecodable bytes become U+FFFD as a last resort."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data.decode(encoding, errors="replace"), encoding.removesuffix("-sig")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    matches = list(from_bytes(data))
    if not matches:
        return data.decode(_WESTERN_DEFAULT, errors="replace"), _WESTERN_DEFAULT
    best = matches[0]
    tied = [match for match in matches if (match.chaos, match.coherence) == (best.chaos, best.coherence)]
    chosen = next((match for match in tied if match.encoding == _WESTERN_DEFAULT), best)
    return str(chosen), chosen.encoding


def parse_text_file(path: Path, options: ParseOptions) -> ParsedDocument:
    """Parse a .txt file. Form feeds mark real page breaks; without them pages are estimated."""
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
    return ParsedDocument(format="txt", pages=paginate(text), metadata={"encoding": encoding}, warnings=warnings)
