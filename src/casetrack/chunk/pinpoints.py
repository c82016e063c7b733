"""The places lawyers point to inside pleadings and transcripts, as terms each chunk holds (issue 21).

A complaint is cited by its numbered paragraphs ("Compl. ¶ 24") though it prints "24." at a line's start, never
"¶ 24"; a deposition by printed page and line ("Maxwell Dep. 17:19", "page 31, lines 9-18") though it prints
"Page 17" above rows numbered 1 to 25. Neither citation shares a word with the passage it points to, and the
bare numbers ("24", "17", "19") are on every page of such a document. So each chunk is given the places it
holds as terms:

* `¶24` where a paragraph numbered 24 opens in it: the term the tokenizer already writes for "¶ 24",
  "paragraph 24" and "para. 24" in a question (index.tokenize), so the question meets the paragraph;
* `pin:17:19` for each printed line of a transcript page it holds, and a question's "17:19", "17:19-21" or
  "page 17, line 19" becomes the same term (`query_pin_terms`).

A transcript page's number is the "Page 17" line above its rows, or the number printed alone at the top of the
page (a filed exhibit prints it below the court's "Page 3 of 20" stamp); a PDF page that holds several transcript
pages (a condensed transcript) carries one such line per page. The same rows give a passage's citation by the
transcript's own page and lines (`printed_lines`, "17:19-18:4") and let verify_draft find "Dep. 17:19"
(`document_rows`, verify.places). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Protocol

from casetrack.chunk.layout import MAX_PRINTED_LINE, MIN_PRINTED_LINES, PRINTED_NUMBER
from casetrack.domain import ChunkSpan

PIN = "pin:"
PARAGRAPH = "¶"
MAX_PARAGRAPH = 999

# "24. In 2011, ..." opening a line, after the printed line number of pleading paper ("12 24. In 2011").
_PARAGRAPH_OPENING = re.compile(r"(?m)^[ \t]*(?:\d{1,2}[ \t]+)?(\d{1,3})\.[ \t]+(?=[\"“‘'(\[]?[^\W\d_])")
# A transcript page's own number: "Page 17", "- 17 -", or "17" alone on a line; never a filing stamp's "Page 3 of
# 20" (verify.places reads that one as a page number: here it would number the rows under it wrongly).
_PAGE_MARK = re.compile(r"[ \t]*(?:page[ \t]*:?[ \t]*|[-\u2013\u2014][ \t]*)?(\d{1,4})"
                        r"(?:[ \t]*[-\u2013\u2014])?[ \t]*$", re.IGNORECASE)
# A line that PRINTED_NUMBER matches, anywhere in a page (with a newline put in front of it): one search in C
# instead of a match a line (found after the newline, as `re` skips ahead to each in C).
_ANY_ROW = re.compile(r"\n[ \t]*\d{1,2}(?=[ \t\n]|\Z)")
# A question's pin cite: "17:19", "17:19-21", "31:9-18", "55:5 - 56:3" (the first line is the place), never
# "1:15-cv-07433" (a docket number) or "9:15 a.m." (a time) ...
_QUERY_COLON = re.compile(r"(?<![\w:])(\d{1,4}):(\d{1,2})(?![\w:]|-[^\W\d_]|\s*[ap]\.?\s?m\b)", re.IGNORECASE)
# ... and only in a question about a transcript or a pleading ("Smith Dep. 17:19", "Tr. at 45:3", "Compl. 3:12"):
# elsewhere "17:19" is more likely a time ("the 9:15 meeting").
_TRANSCRIPT_CUE = re.compile(r"\b(?:dep|depo|depositions?|tr|trans|transcripts?|testimony|testified|compl|"
                             r"complaints?|decl|declarations?|pleadings?)\b", re.IGNORECASE)
# "page 31, line 9", "p. 31, ll. 9-18", "page 31 lines 9-18": page and line in words, whatever the question names.
_QUERY_WORDS = re.compile(r"\b(?:page|pg\.?|p\.)[ \t]*(\d{1,4}),?[ \t]*(?:at[ \t]*)?(?:lines?|ll?\.)[ \t]*(\d{1,2})\b",
                          re.IGNORECASE)


class PageText(Protocol):
    """A page as parsed (ParsedPage) or stored (StoredPage): what finding its places needs."""

    @property
    def number(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def approximate(self) -> bool: ...


def chunk_place_terms(pages: Sequence[PageText], spans: Sequence[ChunkSpan]) -> list[list[str]]:
    """Per chunk (in `spans`' order), the place terms it holds: `¶N` for each numbered paragraph opening in it,
    `pin:P:L` for each printed transcript line in it."""
    places: dict[int, list[tuple[int, str]]] = {page.number: [(offset, PARAGRAPH + str(number))
                                                              for offset, number in paragraph_openings(page.text)]
                                                 for page in pages}
    for file_page, offset, printed, line in document_rows(pages):
        places[file_page].append((offset, f"{PIN}{printed}:{line}"))
    return [[term for offset, term in places.get(span.page, ()) if span.char_start <= offset < span.char_end]
            for span in spans]


def document_rows(pages: Sequence[PageText]) -> Iterator[tuple[int, int, int, int]]:
    """(file page, offset, printed page, printed line) of every transcript row of a document, in page order, a
    transcript page carried on over a break between the file's pages."""
    carried: Row | None = None
    for page in sorted(pages, key=lambda p: p.number):
        rows, carried = transcript_lines(page.text, carried, None if page.approximate else page.number)
        for offset, printed, line in rows:
            yield page.number, offset, printed, line


def paragraph_openings(text: str) -> Iterator[tuple[int, int]]:
    """(offset, number) of each numbered paragraph opening on a page ("24. In 2011, ...")."""
    for match in _PARAGRAPH_OPENING.finditer(text):
        number = int(match.group(1))
        if 1 <= number <= MAX_PARAGRAPH:
            yield match.start(1), number


Row = tuple[int, int]  # (printed page, printed line) of a transcript row
_MAX_HIDDEN = 3  # rows in a run whose numbers a redaction may black out, each still a line of its own


def transcript_lines(text: str, carried: Row | None = None,
                     page_number: int | None = None) -> tuple[list[tuple[int, int, int]], Row | None]:
    """(offset, printed page, printed line) of each numbered row on a page of transcript, and the last row, for
    the next page to carry on from (`_page_rows`). A page that opens with rows of a transcript page begun on the
    page of the file before, which does not end with that page's rows (a filed copy's stamp below them, or rows
    1-8 left out of the exhibit), then prints the next page's "Page 10": those rows are page 9's."""
    rows, last = _page_rows(text, carried, page_number)
    opening = _opening(text, {offset for offset, _, _ in rows})
    if opening is None:
        return rows, last
    read, read_last = _page_rows(text, opening, page_number)
    return (read, read_last) if sum(page == opening[0] for _, page, _ in read) >= MIN_PRINTED_LINES else (rows, last)


def _opening(text: str, read: set[int]) -> Row | None:
    """(page, line) the page's first rows carry on from, when they open it unread, are as many as a page's rows
    must be (MIN_PRINTED_LINES) and the next page's number follows them: the row before its first, on the page
    before that number."""
    if _ANY_ROW.search("\n" + text) is None:  # no line opens with a row number (most pages of most documents)
        return None
    offset, first, expected = 0, None, 0
    for line in text.split("\n"):
        row = PRINTED_NUMBER.match(line)
        if first is None and row is not None:
            if offset + row.start(1) in read or int(row.group(1)) < 2:
                return None
            first = expected = int(row.group(1))
        if first is not None:
            if row is not None and int(row.group(1)) == expected:
                expected += 1
            elif (mark := _PAGE_MARK.fullmatch(line)) is not None:
                page = int(mark.group(1))
                return (page - 1, first - 1) if page >= 2 and expected - first >= MIN_PRINTED_LINES else None
        elif _PAGE_MARK.fullmatch(line) is not None:
            return None  # a page number above every row: they are its own
        offset += len(line) + 1
    return None


def _page_rows(text: str, carried: Row | None = None,
               page_number: int | None = None) -> tuple[list[tuple[int, int, int]], Row | None]:
    """(offset, printed page, printed line) of each numbered row on a page of transcript, and the last row, for
    the next page to carry on from (`carried`: a transcript page split over two pages of the file). A page's rows
    are a run of at least MIN_PRINTED_LINES numbered up from 1, 2 or 3 under the line that gives the transcript
    page's number ("Page 17", or the number alone), else the file's `page_number` (a text file's page whose
    printed number the parser took out, a deposition PDF); the rows a page ends with may be fewer, as the
    transcript page goes on over the break. Rows under no page number are left out: better no place than a wrong
    one. A row whose number a redaction blacked out leaves a line of text without one: the rows after it go on."""
    out: list[tuple[int, int, int]] = []
    page, run = (carried[0], [(-1, carried[1])]) if carried else (page_number, [])
    offset, text_after = 0, False  # text_after: a line of text below the last row
    bare_first = False  # the run's first row holds only its number (a blank row, or the page's own number)
    unnumbered = 0  # lines of text since the run's last row
    for line in text.split("\n"):
        row = PRINTED_NUMBER.match(line)
        if row:
            number = int(row.group(1))
            if carried and run == [(-1, carried[1])] and number != carried[1] + 1:
                page, run = page_number, []  # the page before ended its transcript page after all
            elif number == 1 and len(run) == 1 and bare_first:  # "2" alone above row 1 was the page's number
                page, run = run[0][1], []
            hidden = number - run[-1][1] - 1 if run else 0  # rows between whose number is not printed
            follows = hidden == 0 or (run[-1][0] >= 0 and 0 < hidden <= min(unnumbered, _MAX_HIDDEN))
            if (follows if run else 1 <= number <= 3) and number <= MAX_PRINTED_LINE:
                if not run:
                    bare_first = not line[row.end():].strip()
                run.append((offset + row.start(1), number))
                offset, text_after, unnumbered = offset + len(line) + 1, False, 0
                continue
        unnumbered += bool(line.strip())  # a blank line is no row (pleading paper prints no number on one)
        mark = _PAGE_MARK.fullmatch(line)
        if mark is not None:
            out += _rows(page, run, MIN_PRINTED_LINES)
            page, run = int(mark.group(1)), []
        text_after = text_after or bool(line.strip())
        offset += len(line) + 1
    # Rows the page ends with may go on over the page break: however few, they are kept and carried on.
    ends_page = not text_after
    out += _rows(page, run, 1 if ends_page else MIN_PRINTED_LINES)
    return out, ((page, run[-1][1]) if page is not None and run and ends_page else None)


def _rows(page: int | None, run: list[tuple[int, int]], least: int) -> list[tuple[int, int, int]]:
    carried = bool(run) and run[0][0] < 0  # the rows continue a page begun on the page before
    if page is None or not (carried or len(run) >= least):
        return []
    return [(offset, page, line) for offset, line in run if offset >= 0]


def query_pin_terms(query: str) -> list[str]:
    """The transcript places a question points to, as the terms chunks hold them (`pin:31:9` for "Dep. 31:9-18" or
    "page 31, lines 9-18"), once each, in order."""
    found = [(m.start(), m.group(1), m.group(2)) for m in _QUERY_COLON.finditer(query)] \
        if _TRANSCRIPT_CUE.search(query) else []
    found += [(m.start(), m.group(1), m.group(2)) for m in _QUERY_WORDS.finditer(query)]
    return list(dict.fromkeys(f"{PIN}{int(page)}:{int(line)}" for _, page, line in sorted(found)))


def pin_terms(tokens: Sequence[str]) -> list[str]:
    """The transcript places among a question's `tokens` (see `query_pin_terms`)."""
    return [t for t in tokens if t.startswith(PIN)]


def printed_lines(terms: Sequence[str], file_page: int) -> str | None:
    """The printed page:line span of a chunk's transcript rows, from its place terms, as lawyers cite it:
    "17:19-25", "17:19-18:4". None when it holds no row, or when its rows are on one page printed with the file
    page's own number (the citation's "p. 17, ll. 19-25" says it already)."""
    rows = [tuple(int(n) for n in t[len(PIN):].split(":")) for t in terms if t.startswith(PIN)]
    if not rows:
        return None
    (first_page, first_line), (last_page, last_line) = min(rows), max(rows)
    if first_page == last_page == file_page:
        return None
    if first_page == last_page:
        return f"{first_page}:{first_line}" + (f"-{last_line}" if last_line != first_line else "")
    return f"{first_page}:{first_line}-{last_page}:{last_line}"
