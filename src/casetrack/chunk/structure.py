"""Headings and numbered sections of a document, located exactly.

Recognised: `ARTICLE V`, `Section 8.1 Term`, `§ 4.2(a)`, `I. INTRODUCTION`,
`1. Definitions.`, `1.2 Compensation.` (also inline, in text flattened from DOCX)
and short ALL-CAPS heading lines. Numbered lines count only when what follows the
number reads as a title (short, capitalised words), which keeps out numbered
sentences, amounts and dates.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from casetrack.domain import ParsedPage


@dataclass(frozen=True, slots=True)
class StructureEntry:
    level: int  # 1 = top (article, roman part, caps heading, "1."); one more per ".n" or "(a)"
    title: str  # "" when the heading is only a number ("ARTICLE V")
    number: str | None  # "8.1", "V", "4.2(a)"; None for an unnumbered caps heading
    page: int
    char_start: int  # offsets of the heading in that page's text
    char_end: int


MAX_TITLE_WORDS = 10
_SMALL_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "as",
        "at",
        "by",
        "for",
        "from",
        "in",
        "of",
        "on",
        "or",
        "the",
        "to",
        "with",
        "under",
        "upon",
        "its",
    ]
)

_KEYWORD_HEADING = re.compile(
    r"^[ \t]*(?P<kw>ARTICLE|Article|SECTION|Section|§)[ \t]*"
    r"(?P<num>[\dIVXLC]{1,6}[A-Za-z]?(?:\.\d{1,3})*(?:\([a-zA-Z0-9]{1,4}\))*)\.?"
    r"(?:[ \t]*[:.\-–—][ \t]*|[ \t]+|$)(?P<title>[^\n]{0,120})$",
    re.MULTILINE,
)
_NUMBERED_HEADING = re.compile(
    r"^[ \t]*(?P<num>\d{1,3}(?:\.\d{1,3})+\.?|\d{1,3}\.|[IVXLC]{1,6}\.|[A-Z]\.)[ \t]+(?P<title>[^\n]{1,200})$",
    re.MULTILINE,
)
# Opens with the `. ` or `: ` before the number, so the regex engine skips ahead in C to those
# (rarer than digits); the match ends with the title, the `. ` after it only looked at, so
# that `. ` can open the next heading. Only the groups' offsets are used.
_INLINE_HEADING = re.compile(
    r"[.:] (?P<num>\d\d?(?:\.\d{1,2})*\.?) +(?P<title>[A-Z][\w&'’,-]*(?: +[\w&'’,-]+){0,7}?)(?=\. +[A-Z0-9“\"])"
)
_CAPS_LINE = re.compile(r"^[ \t]*(?P<title>[A-Z][A-Z0-9&'’,:;()\-–— ]{2,60}?)[ \t]*$", re.MULTILINE)
# The line-start patterns above, opening with the newline before the line instead of "^": the
# regex engine skips to newlines in C, where a MULTILINE "^" is tried at every offset (4x
# slower). The first line, which no newline precedes, is matched with the "^" pattern.
_AFTER_NEWLINE = {
    pattern: re.compile("\n" + pattern.pattern.removeprefix("^"), pattern.flags)
    for pattern in (_KEYWORD_HEADING, _NUMBERED_HEADING, _CAPS_LINE)
}


def extract_structure(pages: Sequence[ParsedPage]) -> list[StructureEntry]:
    """Headings and numbered sections in reading order. Never raises."""
    entries: list[StructureEntry] = []
    for page in pages:
        found: dict[int, StructureEntry] = {}
        for entry in _page_entries(page):
            found.setdefault(entry.char_start, entry)
        entries.extend(found[start] for start in sorted(found))
    return entries


def _page_entries(page: ParsedPage) -> list[StructureEntry]:
    text, out = page.text, []
    for line_start, m in _line_matches(_KEYWORD_HEADING, text):
        title = _title_part(m.group("title"))
        if title is None and m.group("title").strip():
            continue  # "Section 2 of the Act applies ..." is a sentence, not a heading
        number = m.group("num")
        level = 1 if m.group("kw").upper() == "ARTICLE" else _depth(number)
        out.append(_entry(page, m, line_start, level, title or "", number))
    for line_start, m in _line_matches(_NUMBERED_HEADING, text):
        title = _title_part(m.group("title"))
        if title:
            number = m.group("num").rstrip(".")
            out.append(_entry(page, m, line_start, _depth(number), title, number))
    for m in _INLINE_HEADING.finditer(text):
        title = _title_part(m.group("title") + ".")
        if title:
            number = m.group("num").rstrip(".")
            start = m.start("num")
            end = m.end("title") + 1
            out.append(StructureEntry(_depth(number), title, number, page.number, start, end))
    for line_start, m in _line_matches(_CAPS_LINE, text):
        title = m.group("title").strip()
        if _is_caps_heading(text, line_start, title):
            out.append(StructureEntry(1, title, None, page.number, m.start("title"), m.start("title") + len(title)))
    return out


def _line_matches(pattern: re.Pattern[str], text: str) -> Iterator[tuple[int, re.Match[str]]]:
    """What `pattern.finditer(text)` finds for a MULTILINE pattern opening with "^", each with
    the offset of its line. Matches never hold a newline past their first character, so each
    search may resume where the last match ended."""
    first = pattern.match(text)
    if first is not None:
        yield 0, first
    for m in _AFTER_NEWLINE[pattern].finditer(text, first.end() if first is not None else 0):
        yield m.start() + 1, m


def _entry(page: ParsedPage, m: re.Match[str], line_start: int, level: int, title: str, number: str) -> StructureEntry:
    line = m.string[line_start : m.end()]
    start = line_start + len(line) - len(line.lstrip())
    end = page.text.index(title, m.start("title")) + len(title) if title else m.end("num")
    return StructureEntry(level, title, number, page.number, start, end)


def _title_part(rest: str) -> str | None:
    """The heading title at the start of `rest`, or None when `rest` is a sentence.

    A title is up to MAX_TITLE_WORDS words, each capitalised (small words aside),
    ending at the line end or at a "." / ":" that may be followed by body text.
    """
    rest = rest.strip()
    if not rest or not rest[0].isupper():
        return None
    cut = re.search(r"[.:](?:\s|$)", rest)
    title = rest[: cut.start()] if cut else rest
    if not cut and len(rest) > 80:
        return None  # a long line without a stop is wrapped body text
    words = title.split()
    if not words or len(words) > MAX_TITLE_WORDS or title.endswith((",", ";")):
        return None
    if any(not (w[0].isupper() or w[0].isdigit() or w.lower() in _SMALL_WORDS or not w[0].isalpha()) for w in words):
        return None
    return title.strip()


def _depth(number: str) -> int:
    core = number.strip(".")
    return 1 + core.count(".") + core.count("(")


def _is_caps_heading(text: str, start: int, title: str) -> bool:
    letters = [c for c in title if c.isalpha()]
    if len(letters) < 4 or len(title.split()) > 8 or title.endswith((",", ";")):
        return False
    if sum(c.isdigit() for c in title) >= 3 or title.count("(") != title.count(")"):
        return False  # an address, Bates stamp or the tail of a wrapped line, not a heading
    # The last line of an ALL-CAPS paragraph (a disclaimer wrapped over lines) is not a heading.
    prev_end = text.rfind("\n", 0, start)
    if prev_end > 0:
        prev_line = text[text.rfind("\n", 0, prev_end) + 1 : prev_end].strip()
        if len(prev_line) > 60 and not any(c.islower() for c in prev_line):
            return False
    return True
