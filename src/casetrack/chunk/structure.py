"""Headings and numbered sections of a document, located exactly.

Recognised: `ARTICLE V` (with its title on the next line), `Section 8.1 Term`, `§ 4.2(a)`,
`I. INTRODUCTION`, `1. Definitions.`, `1.2 Compensation.`, `9. PRODUCT DESIGN During the
term ...` (also inline, in text flattened from PDF or DOCX) and short ALL-CAPS heading lines.
Numbered lines count only when what follows the number reads as a title (short, capitalised
words), which keeps out numbered sentences, amounts and dates; a sub-section number opening a
line (`1.01. AIRSOPURE grants ...`, `5.1 The Company shall ...`) is listed by its number alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from casetrack.chunk.boundaries import ABBREVIATIONS
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
# A heading never ends on one of these: "CONFIDENTIAL PORTIONS OF THIS" is the first line of a
# wrapped legend, "USE OF Confidential Information" a sentence's opening words.
_DANGLING_WORDS = _SMALL_WORDS | {"this", "that", "these", "such", "any", "all", "each", "our", "your", "their"}
# A letter after these names a part of the document ("Schedule A"), not the first sub-clause.
_PART_WORDS = frozenset(
    [
        "schedule",
        "exhibit",
        "annex",
        "appendix",
        "attachment",
        "part",
        "article",
        "section",
        "clause",
        "rider",
        "addendum",
        "form",
        "class",
        "series",
        "tier",
        "phase",
        "level",
        "grade",
        "type",
        "item",
    ]
)
# Words a number follows: a title cannot end on them ("... TO SECTION" 16.4 ...).
_REFERENCE_WORDS = frozenset(
    ["section", "sections", "article", "articles", "paragraph", "clause", "exhibit", "schedule"]
)
# Fields of a signature block, not headings: "BY:   CITIES COMPANY", "WITNESS: ____".
_SIGNATURE_FIELDS = ("BY:", "NAME:", "TITLE:", "DATE:", "WITNESS:", "ATTEST:", "ITS:")
# A signature line, or the blank to sign on, on the line after a caps line (blank lines between allowed).
_SIGNATURE_LINE = re.compile(r"[^\n]*\n\s*(?P<line>By\b|BY\b|/s/|__|--|- --)")

_KEYWORD_HEADING = re.compile(
    r"^[ \t]*(?P<kw>ARTICLE|Article|SECTION|Section|§)[ \t]*"
    r"(?P<num>[\dIVXLC]{1,6}[A-Za-z]?(?:\.\d{1,3})*(?:\([a-zA-Z0-9]{1,4}\))*)\.?"
    r"(?:[ \t]*[:.\-–—][ \t]*|[ \t]+|$)(?P<title>[^\n]{0,120})",
    re.MULTILINE,
)
# The title group takes at most the opening 200 characters of the line: a paragraph of PDF or
# DOCX text is one long line, and its heading is at its start ("3. Term. This Agreement will ...").
_NUMBERED_HEADING = re.compile(
    r"^[ \t]*(?P<num>\d{1,3}(?:\.\d{1,3})+\.?|\d{1,3}\.|[IVXLC]{1,6}\.|[A-Z]\.)[ \t]+(?P<title>[^\n]{1,200})",
    re.MULTILINE,
)
# Opens with the `. ` or `: ` before the number, so the regex engine skips ahead in C to those
# (rarer than digits); the match ends with the title, the `. ` after it only looked at, so
# that `. ` can open the next heading. Only the groups' offsets are used.
# The stop before the number may close a quotation ('the "Term." 4. Annual ...'), and the text
# after the title may open with a sub-clause: "1.1 Provision of Services. (a) Provider ...".
_INLINE_HEADING = re.compile(
    r"[.:][\"”’)]? +(?P<num>\d\d?(?:\.\d{1,2})*\.?) +(?P<title>[A-Z][\w&'’,;-]*(?: +[\w&'’,;-]+){0,7}?)"
    r"(?=\. +(?:[A-Z0-9“\"(]|[a-z][.)] ))"
)
# An ALL-CAPS title needs no stop after it: it ends where the clause's text begins, at a
# capitalised word ("9. PRODUCT DESIGN During the term"), a sub-clause number ("1. TERMS OF
# AGREEMENT 1.1 Commencement"), a lettered item ("1. DEFINITIONS a. ...") or the line's end.
_CAPS_WORDS = r"[A-Z][A-Z'’&,;()/-]*(?:[ \t]+(?:[A-Z][A-Z'’&,;()/-]*|\d+|[/&-]))*"
_CAPS_TITLE_END = r"(?=[.:]?[ \t]*(?:\n|$)|[.:][ \t]|[ \t]+(?:[A-Z][a-z]|\d{1,3}\.\d|\(?[a-zA-Z0-9]{1,3}[.)][ \t]))"
_CAPS_TITLE = re.compile(rf"(?P<title>{_CAPS_WORDS}){_CAPS_TITLE_END}")
_INLINE_CAPS_HEADING = re.compile(
    rf"[.:][-\"”’)]? +(?P<num>\d\d?(?:\.\d{{1,2}})*\.?) +(?P<title>{_CAPS_WORDS}){_CAPS_TITLE_END}"
)
# A sub-section number opening a sentence of flattened text ("... of the Agreement. 5.2 The Company")
# or following its section's ALL-CAPS title ("1. TERMS OF AGREEMENT 1.1 Commencement This ...").
# The pattern opens with the number's first dot, the one or two digits before it checked behind it:
# the regex engine skips to a "." in C, where it would try every character for a digit (20x slower).
# What comes before the number is checked in `_follows_stop_or_caps`.
_INLINE_NUMBER = re.compile(r"\.(?:(?<= \d\.)|(?<= \d\d\.))\d{1,2}(?:\.\d{1,2})*(?=\.? +[A-Z\"“])")
_STOP = re.compile(r"[.:](?:\s|$)")  # the stop ending a title: "Term. This ..."
_ARABIC_NUMBER = re.compile(r"\d{1,3}(?:\.\d{1,3})*")
_ROMAN = re.compile(r"[IVXLC]{1,6}")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
# The line after `ARTICLE V` or `SECTION 3`, when that line is the heading's title.
_NEXT_LINE = re.compile(r"[ \t]*\n(?:[ \t]*\n)?(?P<line>[^\n]*)")
_CAPS_LINE = re.compile(r"^[ \t]*(?P<title>[A-Z][A-Z0-9&'’,:;()\-–— ]{2,60}?)[ \t]*$", re.MULTILINE)
# The line-start patterns above, opening with the newline before the line instead of "^": the
# regex engine skips to newlines in C, where a MULTILINE "^" is tried at every offset (4x
# slower). The first line, which no newline precedes, is matched with the "^" pattern.
_AFTER_NEWLINE = {
    pattern: re.compile("\n" + pattern.pattern.removeprefix("^"), pattern.flags)
    for pattern in (_KEYWORD_HEADING, _NUMBERED_HEADING, _CAPS_LINE)
}


def extract_structure(pages: Sequence[ParsedPage]) -> list[StructureEntry]:
    """Headings and numbered sections in reading order. Never raises.

    A sub-section number without a title (`5.2 The Company shall ...`) counts only where it
    continues the numbering read so far (after `5`, `5.1` or, one number missed, `5.0`-`5.1`):
    "2.5 Million shares" opening a wrapped line does not."""
    entries: list[StructureEntry] = []
    last_number: str | None = None  # the last section number read, in arabic digits
    for page in pages:
        headings, numbers = _page_entries(page)
        found: dict[int, StructureEntry] = {}
        for entry in headings:
            found.setdefault(entry.char_start, entry)
        untitled = {e.char_start: e for e in numbers if e.char_start not in found}
        for start in sorted(found.keys() | untitled.keys()):
            entry = found.get(start) or untitled[start]
            if start in untitled and not _continues(last_number, untitled[start].number or ""):
                continue
            entries.append(entry)
            last_number = _arabic(entry.number) or last_number
    return entries


def _inline_numbers(page: ParsedPage) -> Iterator[StructureEntry]:
    """Sub-section numbers opening a sentence of flattened text (`... the Agreement. 5.2 The
    Company ...`), listed by their number alone."""
    text = page.text
    for m in _INLINE_NUMBER.finditer(text):
        start = text.rindex(" ", 0, m.start()) + 1
        if _follows_stop_or_caps(text, start):
            number = text[start : m.end()]
            yield StructureEntry(_depth(number), "", number, page.number, start, m.end())


def _follows_stop_or_caps(text: str, start: int) -> bool:
    """Whether spaces before `start` follow a stop (maybe closing a quotation) or two capitals."""
    before = text[max(0, start - 40) : start]
    stripped = before.rstrip(" ")
    if len(stripped) == len(before) or not stripped:
        return False
    last = stripped[-1]
    if last in "\"”’)":
        return stripped[-2:-1] in (".", ":")
    return last in ".:" or (len(stripped) > 1 and "A" <= last <= "Z" and "A" <= stripped[-2] <= "Z")


def _continues(previous: str | None, number: str) -> bool:
    """Whether `number` is the next sub-section after `previous` (its parent or its elder
    sibling), one number missed allowed: "5.2" after "5", "5.1" or "5.0"."""
    if previous is None or not _ARABIC_NUMBER.fullmatch(number):
        return False
    parent, _, last = number.rpartition(".")
    if previous == parent:
        return int(last) <= 2
    previous_parent, _, previous_last = previous.rpartition(".")
    return previous_parent == parent and 0 < int(last) - int(previous_last) <= 2


def _arabic(number: str | None) -> str | None:
    """A section number in arabic digits ("V" of `ARTICLE V` is 5), or None for a letter."""
    if number is None:
        return None
    if _ARABIC_NUMBER.fullmatch(number):
        return number
    if _ROMAN.fullmatch(number):
        value = 0
        for char, following in zip(number, number[1:] + " ", strict=True):
            digit, next_digit = _ROMAN_VALUES[char], _ROMAN_VALUES.get(following, 0)
            value += -digit if digit < next_digit else digit
        return str(value)
    return None


def _page_entries(page: ParsedPage) -> tuple[list[StructureEntry], list[StructureEntry]]:
    """The page's headings, and its sub-section numbers without a title (which count only where
    they continue the numbering: `extract_structure`)."""
    text, out = page.text, []
    numbers = list(_inline_numbers(page))
    title_lines: set[int] = set()  # lines read as the title of the `ARTICLE V` line above them
    for line_start, m in _line_matches(_KEYWORD_HEADING, text):
        number, rest = m.group("num"), m.group("title")
        title = _title_part(rest, number)
        if title is None and rest.strip() and not _opens_clause(rest):
            continue  # "Section 2 of the Act applies ..." is a sentence, not a heading
        level = 1 if m.group("kw").upper() == "ARTICLE" else _depth(number)
        entry = _entry(page, m, line_start, level, title or "", number)
        if not rest.strip():
            entry = _titled_by_next_line(text, m.end(), entry, title_lines)
        out.append(entry)
    for line_start, m in _line_matches(_NUMBERED_HEADING, text):
        number, rest = m.group("num").rstrip("."), m.group("title")
        title = _title_part(rest, number)
        if title:
            out.append(_entry(page, m, line_start, _depth(number), title, number))
        elif "." in number and number[0].isdigit() and _opens_clause(rest):
            numbers.append(_entry(page, m, line_start, _depth(number), "", number))  # "1.01. AIRSOPURE grants"
    for m in _INLINE_HEADING.finditer(text):
        number = m.group("num").rstrip(".")
        title = _title_part(m.group("title") + ".", number)
        if title:
            end = m.start("title") + len(title)  # with its stop; "DEFINITIONS" of "DEFINITIONS a." without "a."
            end += text.startswith(".", end)
            out.append(StructureEntry(_depth(number), title, number, page.number, m.start("num"), end))
    for m in _INLINE_CAPS_HEADING.finditer(text):
        number = m.group("num").rstrip(".")
        title = _title_part(m.group("title"), number)
        if title:
            start = m.start("num")
            out.append(StructureEntry(_depth(number), title, number, page.number, start, m.start("title") + len(title)))
    for line_start, m in _line_matches(_CAPS_LINE, text):
        title = m.group("title").strip()
        if line_start not in title_lines and _is_caps_heading(text, line_start, title):
            out.append(StructureEntry(1, title, None, page.number, m.start("title"), m.start("title") + len(title)))
    return out, numbers


def _titled_by_next_line(text: str, after: int, entry: StructureEntry, title_lines: set[int]) -> StructureEntry:
    """`ARTICLE V` with the title printed on the line below it (`DEFINITIONS`) as one heading."""
    m = _NEXT_LINE.match(text, after)
    if m is None:
        return entry
    line = m.group("line")
    title = line.strip()
    is_caps = _CAPS_LINE.fullmatch(line) is not None and _is_caps_heading(text, m.start("line"), title)
    if not (is_caps or (title and _title_part(title) == title.rstrip(".:"))):
        return entry
    title = title.rstrip(".:") if not is_caps else title
    start = m.start("line") + len(line) - len(line.lstrip())
    title_lines.add(m.start("line"))
    return StructureEntry(entry.level, title, entry.number, entry.page, entry.char_start, start + len(title))


def _opens_clause(rest: str) -> bool:
    """Whether the text after a section number opens a sentence or a quoted definition."""
    rest = rest.lstrip()
    return bool(rest) and (rest[0].isupper() or rest[0] in '"“')


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


def _title_part(rest: str, number: str | None = None) -> str | None:
    """The heading title at the start of `rest`, or None when `rest` is a sentence.

    A title is up to MAX_TITLE_WORDS words, each capitalised (small words aside), ending at
    the line end or at a "." / ":" that may be followed by body text; an ALL-CAPS title may
    also end where the clause's text begins (`_CAPS_TITLE`). `number` is the heading's own
    number, to tell a list item from a heading.
    """
    rest = rest.strip()
    if not rest or not rest[0].isupper():
        return None
    caps = _CAPS_TITLE.match(rest)
    if caps is not None and _plausible_caps_title(caps.group("title")):
        title = caps.group("title")
    else:
        cut = _STOP.search(rest)
        title = rest[: cut.start()] if cut else rest
        if not cut and len(rest) > 80:
            return None  # a long line without a stop is wrapped body text
        if cut and rest[cut.end() :].lstrip().startswith("$"):
            return None  # "1. Year 1. $[*****] 2. Year 2 ...": a schedule of amounts
    title = _without_first_item(title.strip(), number)
    if not title:
        return None
    words = title.split()
    if len(words) > MAX_TITLE_WORDS or title.endswith((",", ";")) or _dangles(words):
        return None
    if any(not (w[0].isupper() or w[0].isdigit() or w.lower() in _SMALL_WORDS or not w[0].isalpha()) for w in words):
        return None
    if len(words) == 1 and title.lower() in ABBREVIATIONS:
        return None  # "Date: 22 Dec. 2017": the stop is the abbreviation's
    return title


def _plausible_caps_title(title: str) -> bool:
    words = title.split()
    # "WITHOUT PREJUDICE TO SECTION 16.4, ...": the number after the run is the reference's own
    return sum(c.isalpha() for c in title) >= 3 and not _dangles(words) and words[-1].lower() not in _REFERENCE_WORDS


def _dangles(words: list[str]) -> bool:
    """Whether a heading would end on a word that needs more after it ("... PORTIONS OF THIS");
    a letter naming a part ("EXHIBIT A") does not."""
    last = words[-1].lower()
    return last in _DANGLING_WORDS and not (len(words) > 1 and words[-2].lower() in _PART_WORDS)


def _without_first_item(title: str, number: str | None) -> str | None:
    """`title` less the first item of the clause, run into it in flattened text ("Transfer by You
    A. You agree ..."); None when the title runs into the next item of its own list ("1. Dr Lily
    Tomas 2. Dr Bernd Friedlander"), which is a list, not a heading."""
    head, _, last = title.rpartition(" ")
    if not head:
        return title
    own = number.rsplit(".", 1)[-1] if number else ""
    if last.isdigit():
        return None if own.isdigit() and int(last) == int(own) + 1 else title
    if len(last) == 1 and last.isalpha() and (last.islower() or head.split()[-1].lower() not in _PART_WORDS):
        return head.rstrip()
    return title


def _depth(number: str) -> int:
    core = number.strip(".")
    return 1 + core.count(".") + core.count("(")


def _is_caps_heading(text: str, start: int, title: str) -> bool:
    letters = [c for c in title if c.isalpha()]
    words = title.split()
    if len(letters) < 4 or len(words) > 8 or title.endswith((",", ";")):
        return False
    if sum(c.isdigit() for c in title) >= 3 or title.count("(") != title.count(")"):
        return False  # an address, Bates stamp or the tail of a wrapped line, not a heading
    if "--" in title or title.startswith(_SIGNATURE_FIELDS):
        return False  # a form's blank to fill in, a signature block's field
    if _dangles(words) or words[0] in ("AND", "OR"):
        return False  # one line of a wrapped capitalised legend
    signature = _SIGNATURE_LINE.match(text, start + len(title))
    if signature and (signature.group("line").startswith(("By", "BY", "/s/")) or title.endswith(":")):
        return False  # the party's name over its signature line: "AIRSOPURE:" then "By: ____"
    # The last line of an ALL-CAPS paragraph (a disclaimer wrapped over lines) is not a heading.
    prev_end = text.rfind("\n", 0, start)
    if prev_end > 0:
        prev_line = text[text.rfind("\n", 0, prev_end) + 1 : prev_end].strip()
        if len(prev_line) > 60 and not any(c.islower() for c in prev_line):
            return False
    return True
