"""RTF via striprtf: each \\par becomes a paragraph, \\page a real page break, each
footnote a paragraph after the one citing it, each distinct header/footer paragraph once
where its section starts (striprtf drops footnote, header and footer groups), and each
table row one line of cells separated by " | ", as DOCX tables read."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from striprtf.striprtf import rtf_to_text

from casetrack.domain import ParsedDocument
from casetrack.errors import DocumentUnreadable
from casetrack.parse.formats import RTF
from casetrack.parse.headers_footers import PAGE_NUMBER, HeaderFooterReader, is_page_field, not_on_the_page
from casetrack.parse.normalize import DEFAULT_LINE_WIDTH, native_pages, split_approximate_pages
from casetrack.parse.options import ParseOptions

_CODE_PAGE = re.compile(rb"\\ansicpg(\d+)")
# A page break control word, not \pagebb, \pard or \pagenum: followed by a delimiter, not a letter.
_PAGE_BREAK = re.compile(r"\\page(?![a-zA-Z])\s?")
_PAGE_MARK = "\ue000"  # private-use character: survives striprtf, never appears in real text
_NOTE_MARK = "\ue001"  # starts a moved footnote's label, so the spacing after the label can be tidied
_FOOTNOTE = re.compile(r"\{\\footnote(?![a-zA-Z])")
_PARAGRAPH_END = re.compile(r"\\par(?![a-zA-Z])")
_NOTE_LABEL = re.compile(_NOTE_MARK + r"(\[\d+\])\s*")
_HEADER_FOOTER = re.compile(r"\{\\((?:header|footer)[lrf]?)(?![a-zA-Z])")
# Header/footer groups are read in this order whatever order the writer used (LibreOffice writes
# header, footer, first-page header, first-page footer), the order DOCX headers and footers are read in.
_READING_ORDER = {name: str(rank) for rank, name in enumerate(
    ("headerf", "header", "headerl", "headerr", "footerf", "footer", "footerl", "footerr"))}  # fmt: skip
_HEADER_START, _HEADER_END = "\ue004", "\ue005"  # around a header/footer group's rank and text
_HEADER_TEXT = re.compile(f"{_HEADER_START}(\\d)(.*?){_HEADER_END}", re.DOTALL)
_HEADER_RUN = re.compile(f"(?:{_HEADER_START}[^{_HEADER_END}]*{_HEADER_END}\\s*)+")  # groups next to each other
# Headers and footers defined just before a page break belong to the page after it.
_HEADERS_BEFORE_BREAK = re.compile(f"({_HEADER_RUN.pattern}){_PAGE_MARK}")
_FIELD = re.compile(r"\{\\field(?![a-zA-Z])")
_FIELD_INSTRUCTION = re.compile(r"\{\\\*\\fldinst(?![a-zA-Z])")
_CONTROL_OR_BRACE = re.compile(r"\\[a-zA-Z]+-?\d* ?|\\\*|[{}]")
_PAGE_NUMBER_WORD = re.compile(r"\\chpgn(?![a-zA-Z]) ?")
# Paragraph and table control words, to tell a paragraph end inside a table cell from one outside.
_TABLE_WORDS = re.compile(r"\\(pard|intbl|par|cell|nestcell|row)(?![a-zA-Z]) ?")
_CELL = "\ue003"  # ends a table cell; striprtf's own "|" could not be told from a "|" in the text
_ROW_BREAK = "\ue006"  # between the rows of one table, a line break but not a paragraph break


def parse_rtf(path: Path, options: ParseOptions) -> ParsedDocument:
    """Parse an .rtf file. Raises DocumentUnreadable when the RTF cannot be decoded."""
    data = path.read_bytes()
    encoding = rtf_encoding(data)
    # RTF is 7-bit ASCII with \'hh escapes decoded by striprtf; latin-1 maps any stray 8-bit byte 1:1.
    source = _mark_table_cells(_mark_headers_and_footers(_move_footnotes(data.decode("latin-1"))))
    source = _PAGE_BREAK.sub(lambda _: f"\\par {_PAGE_MARK}", source)
    try:
        text = rtf_to_text(source, encoding=encoding, errors="replace")
    except (ValueError, IndexError, RecursionError) as exc:
        raise DocumentUnreadable(
            str(path),
            f"the RTF could not be decoded ({exc.__class__.__name__})",
            "Re-save it from Word or LibreOffice.",
        ) from exc
    reader = HeaderFooterReader()
    text = _join_cells(_NOTE_LABEL.sub(r"\1 ", text))
    text = _HEADERS_BEFORE_BREAK.sub(lambda match: _PAGE_MARK + match.group(1), text)
    parts = [_read_headers_and_footers(part, reader) for part in text.split(_PAGE_MARK)]
    # In RTF one line is one \par paragraph; the page-text convention wants a blank line between paragraphs.
    paragraphs_per_part = [
        "\n\n".join(line.strip() for line in part.splitlines() if line.strip()).replace(_ROW_BREAK, "\n")
        for part in parts
    ]
    if len(parts) > 1:
        pages = native_pages([part for part in paragraphs_per_part if part] or [""], approximate=False,
                             line_width=DEFAULT_LINE_WIDTH)
    else:
        pages = native_pages(split_approximate_pages(paragraphs_per_part[0]), approximate=True,
                             line_width=DEFAULT_LINE_WIDTH)
    return ParsedDocument(format=RTF.id, pages=pages, metadata={"encoding": encoding})


def rtf_encoding(data: bytes) -> str:
    """The code page RTF's \\'hh escapes are in (\\ansicpg), as a Python codec; Windows-1252 when unnamed or unknown."""
    code_page = _CODE_PAGE.search(data[:4096])
    encoding = f"cp{code_page.group(1).decode()}" if code_page else "cp1252"
    try:
        codecs.lookup(encoding)
    except LookupError:
        return "cp1252"
    return encoding


def _mark_headers_and_footers(source: str) -> str:
    """Each header/footer group made an ordinary group whose text striprtf keeps between
    _HEADER_START and _HEADER_END, its page-number fields replaced by PAGE_NUMBER."""
    pieces: list[str] = []
    position = 0
    for match in _HEADER_FOOTER.finditer(source):
        if match.start() < position:
            continue  # nested in a group already marked
        end = _group_end(source, match.start())
        closed = source[end - 1] == "}"
        content = source[match.end() : end - 1 if closed else end]
        content = _PAGE_BREAK.sub(r"\\par ", _PAGE_NUMBER_WORD.sub(PAGE_NUMBER, _without_page_fields(content)))
        closing = "}" if closed else ""
        rank = _READING_ORDER[match.group(1)]
        pieces.append(f"{source[position : match.start()]}{{{_HEADER_START}{rank}{content}{_HEADER_END}{closing}")
        position = end
    return "".join(pieces) + source[position:]


def _without_page_fields(content: str) -> str:
    """`content` with each PAGE/NUMPAGES field group replaced by PAGE_NUMBER: its stored result
    is the number of one page only, and the header is read once for all of them."""
    pieces: list[str] = []
    position = 0
    for match in _FIELD.finditer(content):
        if match.start() < position:
            continue
        end = _group_end(content, match.start())
        field = content[match.start() : end]
        instruction = _FIELD_INSTRUCTION.search(field)
        if instruction is None:
            continue
        instruction_text = _CONTROL_OR_BRACE.sub(" ", field[instruction.end() : _group_end(field, instruction.start())])
        if is_page_field(instruction_text):
            pieces.append(content[position : match.start()] + PAGE_NUMBER)
            position = end
    return "".join(pieces) + content[position:]


def _read_headers_and_footers(part: str, reader: HeaderFooterReader) -> str:
    """The part's text with each run of marked headers/footers replaced by their paragraphs not
    read before and not already lines of the text that follows, one per line, in reading order."""

    def replacement(match: re.Match[str]) -> str:
        groups = sorted(_HEADER_TEXT.findall(match.group(0)))  # (rank, text); equal ranks keep their order
        fresh = reader.new(line.strip() for _, text in groups for line in text.splitlines())
        following = _HEADER_RUN.sub("", part[match.end() :])
        return "\n" + "\n".join(not_on_the_page(fresh, following)) + "\n"

    return _HEADER_RUN.sub(replacement, part)


def _mark_table_cells(source: str) -> str:
    """Cell ends as _CELL, and paragraph ends inside a cell as spaces (a cell reads as one
    line, as in DOCX). A paragraph is in a table from its \\intbl to the next \\pard or \\row."""
    in_table = False

    def replacement(match: re.Match[str]) -> str:
        nonlocal in_table
        word = match.group(1)
        if word == "intbl":
            in_table = True
        elif word in ("pard", "row"):
            in_table = False
        elif word in ("cell", "nestcell"):
            return _CELL
        elif word == "par" and in_table:
            return " "
        return match.group(0)

    return _TABLE_WORDS.sub(replacement, source)


def _join_cells(text: str) -> str:
    """Each table row's cells joined by " | ", with no separator after the last cell, and the
    rows of one table joined by _ROW_BREAK: one paragraph of one line per row, as DOCX tables read."""
    if _CELL not in text:
        return text
    lines: list[str] = []
    in_table = False
    for line in text.split("\n"):
        if _CELL not in line:
            lines.append(line)
            in_table = in_table and not line.strip()
            continue
        cells = [" ".join(cell.split()) for cell in line.split(_CELL)]
        if not cells[-1]:
            cells.pop()  # what follows the last cell end: nothing but the row end
        if not any(cells):
            continue
        row = " | ".join(cells)
        if in_table:
            while not lines[-1].strip():
                lines.pop()  # blank lines between two rows of one table
            lines[-1] += _ROW_BREAK + row
        else:
            lines.append(row)
        in_table = True
    return "\n".join(lines)


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
