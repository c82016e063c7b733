"""RTF via striprtf: each \\par becomes a paragraph, \\page a real page break, and each
footnote a paragraph after the one citing it (striprtf drops footnote groups)."""

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
_NOTE_MARK = "\ue001"  # starts a moved footnote's label, so the spacing after the label can be tidied
_FOOTNOTE = re.compile(r"\{\\footnote(?![a-zA-Z])")
_PARAGRAPH_END = re.compile(r"\\par(?![a-zA-Z])")
_NOTE_LABEL = re.compile(_NOTE_MARK + r"(\[\d+\])\s*")


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
    source = _move_footnotes(data.decode("latin-1"))
    source = _PAGE_BREAK.sub(lambda _: f"\\par {_PAGE_MARK}", source)
    try:
        text = rtf_to_text(source, encoding=encoding, errors="replace")
    except (ValueError, IndexError, RecursionError) as exc:
        raise DocumentUnreadable(
            str(path),
            f"the RTF could not be decoded ({exc.__class__.__name__})",
            "Re-save it from Word or LibreOffice.",
        ) from exc
    parts = _NOTE_LABEL.sub(r"\1 ", text).split(_PAGE_MARK)
    # In RTF one line is one \par paragraph; the page-text convention wants a blank line between paragraphs.
    paragraphs_per_part = ["\n\n".join(line.strip() for line in part.splitlines() if line.strip()) for part in parts]
    if len(parts) > 1:
        pages = native_pages([part for part in paragraphs_per_part if part] or [""], approximate=False)
    else:
        pages = native_pages(split_approximate_pages(paragraphs_per_part[0]), approximate=True)
    return ParsedDocument(format="rtf", pages=pages, metadata={"encoding": encoding})


def _move_footnotes(source: str) -> str:
    """Each {\\footnote ...} group turned into an ordinary group opening a paragraph labelled
    [1], [2]... and moved after the end of the paragraph citing it, so the citing sentence
    is not cut in two. Briefs and opinions exported as RTF cite their authorities there."""
    pieces: list[str] = []
    pending: list[str] = []
    position = 0
    number = 0
    for match in _FOOTNOTE.finditer(source):
        if match.start() < position:
            continue  # a footnote group nested in one already moved travels with it
        pieces.append(_after_first_paragraph_end(source[position : match.start()], pending))
        end = _group_end(source, match.start())
        number += 1
        pending.append(f"{{\\par {_NOTE_MARK}[{number}] {source[match.end() : end - 1]}}}")
        position = end
    rest = _after_first_paragraph_end(source[position:], pending)
    # Footnotes cited in the last paragraph, when it has no \\par, go before the document's closing brace.
    closing = rest.rfind("}")
    if closing < 0:
        closing = len(rest)
    return "".join(pieces) + rest[:closing] + "".join(pending) + rest[closing:]


def _after_first_paragraph_end(text: str, pending: list[str]) -> str:
    """`text` with the pending footnotes inserted after its first paragraph end (emptying `pending`)."""
    if not pending:
        return text
    paragraph_end = _PARAGRAPH_END.search(text)
    if paragraph_end is None:
        return text
    moved = "".join(pending)
    pending.clear()
    return text[: paragraph_end.end()] + moved + text[paragraph_end.end() :]


def _group_end(source: str, start: int) -> int:
    """Index just past the brace closing the group opened at `start` (or the end of an unclosed
    group); escaped braces and backslashes (\\{, \\}, \\\\) do not count."""
    depth = 0
    index = start
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return len(source)
