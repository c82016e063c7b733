"""RTF via striprtf: each \\par becomes a paragraph, \\page a real page break."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from striprtf.striprtf import rtf_to_text

from casetrack.domain import ParsedDocument
from casetrack.errors import DocumentUnreadable
from casetrack.parse.normalize import native_pages, split_approximate_pages
from casetrack.parse.options import ParseOptions

_CODE_PAGE = re.compile(rb"\\ansicpg(\d+)")
# A page break control word, not \pagebb, \pard or \pagenum: followed by a delimiter, not a letter.
_PAGE_BREAK = re.compile(r"\\page(?![a-zA-Z])\s?")
_PAGE_MARK = "\ue000"  # private-use character: survives striprtf, never appears in real text


def parse_rtf(path: Path, options: ParseOptions) -> ParsedDocument:
    """Parse an .rtf file. Raises DocumentUnreadable when the RTF cannot be decoded."""
    data = path.read_bytes()
    code_page = _CODE_PAGE.search(data[:4096])
    encoding = f"cp{code_page.group(1).decode()}" if code_page else "cp1252"
    try:
        codecs.lookup(encoding)
    except LookupError:
        encoding = "cp1252"
    # RTF is 7-bit ASCII with \'hh escapes decoded by striprtf; latin-1 maps any stray 8-bit byte 1:1.
    source = _PAGE_BREAK.sub(lambda _: f"\\par {_PAGE_MARK}", data.decode("latin-1"))
    try:
        text = rtf_to_text(source, encoding=encoding, errors="replace")
    except (ValueError, IndexError, RecursionError) as exc:
        raise DocumentUnreadable(
            str(path),
            f"the RTF could not be decoded ({exc.__class__.__name__})",
            "Re-save it from Word or LibreOffice.",
        ) from exc
    parts = text.split(_PAGE_MARK)
    # In RTF one line is one \par paragraph; the page-text convention wants a blank line between paragraphs.
    paragraphs_per_part = ["\n\n".join(line.strip() for line in part.splitlines() if line.strip()) for part in parts]
    if len(parts) > 1:
        pages = native_pages([part for part in paragraphs_per_part if part] or [""], approximate=False)
    else:
        pages = native_pages(split_approximate_pages(paragraphs_per_part[0]), approximate=True)
    return ParsedDocument(format="rtf", pages=pages, metadata={"encoding": encoding})
