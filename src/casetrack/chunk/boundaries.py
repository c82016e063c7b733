"""Where a page may be cut, and how good each cut is.

A *break* is a whitespace gap between two non-space characters: a chunk may end at
`end` (just after the last character before the gap) and the next may start at
`next_start` (the first character after it). Breaks are graded by `Strength`; gaps
inside *protected spans* (citations, section references, defined terms, inline
clause headings: `protected.py`) are never offered, so those cannot be cut by the chunker.

Everything here is regex scans over the page: linear in its length, no recursion.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from enum import IntEnum
from typing import NamedTuple


class Strength(IntEnum):
    WORD = 0  # any other gap between words; only a fallback
    CLAUSE = 1  # after ";" or ":"
    LINE = 2  # a wrapped line: PDF text breaks lines mid-sentence
    SENTENCE = 3  # after a sentence end, inside a line or at its end
    STRUCTURE = 4  # before a numbered clause, heading or recital
    PARAGRAPH = 5  # one or more blank lines


class Break(NamedTuple):
    """A tuple rather than a frozen dataclass: a page has ~100 and building a tuple costs
    half as much (find_breaks 9% faster)."""

    end: int
    next_start: int
    strength: Strength


# Tokens that end with a period without ending a sentence (compared lower-cased,
# without the period). Dotted initialisms (U.S., e.g., U.S.C.) and single letters
# (initials, "R." in "Fed. R. Civ. P.") are recognised by shape instead.
ABBREVIATIONS = frozenset(
    [
        "v",
        "vs",
        "no",
        "nos",
        "inc",
        "corp",
        "co",
        "ltd",
        "llc",
        "l.l.c",
        "plc",
        "sec",
        "secs",
        "art",
        "arts",
        "para",
        "paras",
        "ch",
        "cl",
        "pt",
        "pts",
        "fed",
        "civ",
        "crim",
        "app",
        "evid",
        "bankr",
        "proc",
        "supp",
        "cir",
        "dist",
        "ct",
        "cl",
        "stat",
        "ann",
        "reg",
        "regs",
        "rev",
        "mr",
        "mrs",
        "ms",
        "dr",
        "jr",
        "sr",
        "st",
        "hon",
        "esq",
        "prof",
        "gen",
        "gov",
        "govt",
        "dept",
        "assn",
        "natl",
        "intl",
        "univ",
        "bros",
        "al",
        "cf",
        "id",
        "ibid",
        "viz",
        "approx",
        "est",
        "ex",
        "exh",
        "fig",
        "op",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "f.2d",
        "f.3d",
        "f.4th",
        "l.ed",
        "s.ct",
        "f.supp",
    ]
)

_CLOSERS = "\"'”’)]"
_MAY_END_SENTENCE = frozenset(".!?" + _CLOSERS)  # a sentence end is one of these, maybe then closers
_WORD_BEFORE = re.compile(r"(\S+)$")
_INITIALISM = re.compile(r"^(?:[A-Za-z]\.)+[A-Za-z]?$|^[A-Za-z]$")
_ENUMERATOR = re.compile(r"^\(?(?:\d{1,3}(?:\.\d{1,3})*|[ivxlcIVXLC]{1,6}|[A-Za-z])\)?$")

# A line that starts a new unit: numbered clause, lettered item, heading keyword.
_STRUCTURAL_LINE = re.compile(
    r"[ \t]*(?:(?:\d{1,3}(?:\.\d{1,3})+[.)]?|\d{1,3}[.)])[ \t]+\S"
    r"|\((?:[a-z]{1,3}|\d{1,3}|[A-Z])\)[ \t]"
    r"|[A-Z][.)][ \t]"
    r"|[IVXLC]{1,6}\.[ \t]"
    r"|(?:Section|SECTION|Article|ARTICLE|WHEREAS|NOW,? THEREFORE|IN WITNESS)\b|§|Q\.\s)"
)
# A short heading line ("ARTICLE V", "1. Definitions", "GOVERNING LAW"): a cut right
# after it would leave the heading without its text.
_HEADING_LINE = re.compile(
    r"[ \t]*(?:(?:Section|SECTION|Article|ARTICLE|§)\s*[\dIVXLC]+[\w.()]*[.:]?(?:[ \t]+[^\n]{0,60})?"
    r"|(?:\d{1,3}(?:\.\d{1,3})*[.)]?|(?:[IVXLC]{1,6}|[A-Z])[.)])[ \t]+[A-Z][^\n.;,]{0,50}[.:]?"
    r"|(?=[^\n]*[A-Z][^\n]*[A-Z])[^a-z\n]{3,60})[ \t]*$"
)

def ends_sentence(text: str, end: int, line_start: int) -> bool:
    """Whether text[:end] ends a sentence (not an abbreviation, initial or clause number)."""
    if end <= line_start or text[end - 1] not in _MAY_END_SENTENCE:
        return False  # the common case, decided without slicing
    tail = text[max(line_start, end - 40) : end]
    stripped = tail.rstrip(_CLOSERS)
    if not stripped or stripped[-1] not in ".!?":
        return False
    if stripped[-1] in "!?":
        return True
    match = _WORD_BEFORE.search(stripped[:-1])
    if match is None:
        return False  # a lone "." is not a sentence
    word = match.group(1).lstrip("(\"'“‘[")
    if not word or word.lower() in ABBREVIATIONS or _INITIALISM.match(word):
        return False
    # "1." / "(a)." / "IV." opening a line is an enumerator, not a sentence.
    at_line_start = text[line_start : end - len(tail) + match.start(1)].strip() == ""
    return not (at_line_start and _ENUMERATOR.match(word))


_GAP = re.compile(r"\s+")
# Only gaps that hold a newline or follow punctuation can be better than WORD. Each such gap
# is a whole whitespace run; this finds the punctuation mark or the first newline that opens
# one, and the regex engine skips to those in C because the pattern opens with a character set
# (3x faster than opening with `\s`: a page has ten times more spaces than candidates). A
# newline's run may start with spaces before it, found by stepping back.
_CANDIDATE_GAP = re.compile(r"[.!?;:\"'”’)\]\n](?:(?<=\n)\s*|\s+)")
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")
# A lettered clause's title run into its text in flattened PDF or DOCX text, "... default. f. Force
# Majeure. In the event ...": a cut after the title would leave it without its text (numbered
# titles, "1.2 Compensation. The ...", are protected spans). Searched in the 90 characters before
# a sentence end, so it opens with the stop, paren or newline before the letter.
_LETTERED_TITLE = (
    r"\(?[a-zA-Z]{1,3}[.)][ \t]+[A-Z][\w&'’-]*(?:[ \t]+(?:[A-Z][\w&'’-]*|of|and|or|the|to|for|in|on)){0,6}\."
)
_ENDS_LETTERED_TITLE = re.compile(rf"(?:[.;:)][\"”’]?|\n)[ \t]*{_LETTERED_TITLE}$")
_OPENS_LETTERED_TITLE = re.compile(rf"{_LETTERED_TITLE}[ \t]")
_SENTENCE_START = re.compile(r"[\"“‘'(\[]?[A-Z0-9§]")


def candidate_gaps(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of every whitespace run that holds a newline or follows one of `.!?;:"'”’)]`."""
    for gap in _CANDIDATE_GAP.finditer(text):
        start, end = gap.span()
        if text[start] != "\n":
            yield start + 1, end
            continue
        while start > 0 and text[start - 1].isspace():
            start -= 1
        yield start, end


def find_breaks(text: str, spans: list[tuple[int, int]]) -> list[Break]:
    """All non-WORD breaks of a page in order, minus those inside protected spans.

    WORD breaks are many and rarely needed, so `word_breaks` finds them on demand.
    """
    breaks: list[Break] = []
    span_i, span_count, size = 0, len(spans), len(text)
    line_start = 0
    # `candidate_gaps`, inlined: this loop runs ~100 times a page.
    for gap in _CANDIDATE_GAP.finditer(text):
        end, next_start = gap.span()
        if text[end] != "\n":
            end += 1
        else:
            while end > 0 and text[end - 1].isspace():
                end -= 1
        if end == 0 or next_start == size:
            continue
        if next_start - end == 1:  # one character: a lone newline (a wrapped line) or space
            ws = text[end]
            newlines = 1 if ws == "\n" else 0
        else:
            ws = text[end:next_start]
            newlines = ws.count("\n")
        prev_line_start = line_start
        if newlines:
            line_start = text.rfind("\n", end, next_start) + 1
        while span_i < span_count and spans[span_i][1] <= end:
            span_i += 1
        if span_i < span_count and spans[span_i][0] < next_start:
            continue  # the gap lies inside a protected span
        strength = _classify(text, end, next_start, ws, newlines, prev_line_start)
        if strength is not None:
            breaks.append(Break(end, next_start, strength))
    return breaks


def _classify(text: str, end: int, next_start: int, ws: str, newlines: int, line_start: int) -> Strength | None:
    if newlines >= 2 and _BLANK_LINE.search(ws):
        return Strength.PARAGRAPH
    sentence = ends_sentence(text, end, line_start)
    if newlines:
        # (A longer line can only be a heading once stripped of leading spaces; `end` follows a
        # non-space.) Checked before slicing: most wrapped lines are longer.
        if (
            not sentence
            and (end - line_start <= 60 or text[line_start].isspace())
            and len((line := text[line_start:end]).strip()) <= 60
            and _HEADING_LINE.match(line)
        ):
            return None  # keep a heading with the text it introduces
        if _STRUCTURAL_LINE.match(text, next_start):
            return Strength.STRUCTURE
        return Strength.SENTENCE if sentence else Strength.LINE
    if sentence:
        if _ends_lettered_title(text, end):
            return None  # "f. Force Majeure." stays with "In the event ..."
        if _STRUCTURAL_LINE.match(text, next_start) and text[next_start].isdigit():
            return Strength.STRUCTURE  # "... as follows. 2. Term." in text flattened from DOCX
        if _opens_lettered_title(text, next_start):
            return Strength.STRUCTURE  # "... any other default. f. Force Majeure. In ..."
        return Strength.SENTENCE if _SENTENCE_START.match(text, next_start) else Strength.CLAUSE
    if text[end - 1] in ";:":
        return Strength.CLAUSE
    return None


def _ends_lettered_title(text: str, end: int) -> bool:
    # Cheap string checks first: a title ends on a capitalised word, and the last "x. " or "(x) "
    # before it, within 90 characters, is its enumerator; in most sentences neither holds.
    last_word = text.rfind(" ", max(0, end - 30), end)
    if last_word < 0 or not text[last_word + 1].isupper():
        return False
    lo = max(0, end - 90)
    for mark in (". ", ") "):
        stop = text.rfind(mark, lo, end - 1)
        token = text[text.rfind(" ", lo, stop) + 1 : stop + 1]
        if stop > lo and len(token) <= 5 and token.strip("().").isalpha():
            return _ENDS_LETTERED_TITLE.search(text, lo, end) is not None
    return False


def _opens_lettered_title(text: str, start: int) -> bool:
    # An enumerator's "." or ")" within its first four characters, else no regex is needed.
    head = text[start + 1 : start + 4]
    return ("." in head or ")" in head) and _OPENS_LETTERED_TITLE.match(text, start) is not None


def word_breaks(text: str, lo: int, hi: int, spans: list[tuple[int, int]]) -> list[Break]:
    """WORD-strength breaks whose `end` lies in [lo, hi], outside protected spans."""
    found: list[Break] = []
    for gap in _GAP.finditer(text, max(lo, 1), min(hi + 1, len(text))):
        end, next_start = gap.start(), gap.end()
        if text[end - 1].isspace():
            continue  # the search began inside this gap: its real end lies before `lo`
        if end < lo or next_start >= len(text) or inside(spans, end, next_start):
            continue
        found.append(Break(end, next_start, Strength.WORD))
    return found


def inside(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether the gap [start, end] reaches into the interior of a protected span."""
    i = bisect_left(spans, (end,)) - 1  # the last span starting before `end` reaches furthest
    return i >= 0 and spans[i][1] > start
