"""Dates in legal text, normalised to ISO and typed by the event around them.

Formats: `January 15, 2022`, `Jan. 15, 2022`, `15 January 2022`, `the 15th day of January,
2022`, `1/15/22`, `01/15/2022`, `2022-01-15`, and month and year alone (`March 2017`, `in June of
2019`), whose day is unknown: their ISO form has month precision (`2017-03`, ISO 8601's reduced form),
which sorts just before the days of that month. Impossible dates (`13/45/2020`, `February 30`)
are rejected; two-digit years follow POSIX: 69-99 -> 19xx, 00-68 -> 20xx. Numbers that only
look like dates (`Section 1.15`, `$1,500.00`, `212-857-8528`) are not dates.
"""

from __future__ import annotations

import datetime as dt
import re
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from casetrack.domain import ParsedPage
from casetrack.graph.citation_windows import in_court_parenthetical
from casetrack.graph.date_openings import numeric_hits, pattern_starts, year_hits
from casetrack.graph.pagetext import JoinedText, sentence_bounds, squash
from casetrack.graph.scan import (
    CASE_FOLD_EXTRAS,
    digit_runs,
    finditer_in_at,
    index_keywords,
    keyword_hits,
    lowered,
    windows_at,
)


class EventType(StrEnum):
    FILED = "filed"
    SIGNED = "signed"
    EFFECTIVE = "effective"
    HEARING = "hearing"
    DEADLINE = "deadline"
    DECIDED = "decided"
    CITED = "cited"  # the date of a decision the document cites, "(8th Cir. Jan. 10, 2023)": not on the timeline
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class DateMention:
    iso: str  # "2022-01-15", or "2022-01" when the text gives no day
    text: str  # exactly page_text[char_start:char_end]
    event: EventType
    sentence: str  # the sentence around the date, whitespace collapsed: the event description
    page: int
    char_start: int
    char_end: int


MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
    "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip
_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:s[ \t]?t|n[ \t]?d|r[ \t]?d|t[ \t]?h)?"  # a PDF may split the ordinal: "the 20t h day of"
_YEAR = r"(?P<year>(?:1[7-9]|2[01])\d\d)"
_W = r"[ \t]*\n?[ \t]*"  # a date may wrap once

DATE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # the 15th day of January, 2022 / this 19 day of March, 2004 / 15th day of January in the year 2022
    # OCR often turns the space of "day of" into a stray period or comma ("19 day.of March")
    ("day-of", re.compile(rf"\b{_DAY}{_W}day(?:{_W}|[.,]{_W}?)of{_W}{_MONTH},?{_W}(?:in{_W}the{_W}year{_W})?{_YEAR}\b",
                          re.I)),
    # a range, dated by its first day: April 25 and 26, 1996 / March 3-5, 2021 / June 1 through 5, 2020
    ("month-days-year", re.compile(rf"\b{_MONTH}{_W}{_DAY}(?:{_W}(?:and|&|to|through|thru){_W}|[ \t]*[-\u2013][ \t]*)"
                                   rf"[0-3]?\d(?:st|nd|rd|th)?[ \t]?,?{_W}{_YEAR}\b", re.I)),
    # January 15, 2022 / Jan. 15 2022 / January 15th, 2022 / July 11 , 2006 (a space before the comma)
    ("month-day-year", re.compile(rf"\b{_MONTH}{_W}{_DAY}[ \t]?,?{_W}{_YEAR}\b", re.I)),
    # 15 January 2022 / 15th January, 2022
    ("day-month-year", re.compile(rf"\b{_DAY}{_W}(?:of{_W})?{_MONTH},?{_W}{_YEAR}\b", re.I)),
    # 2022-01-15
    ("iso", re.compile(r"(?<![\w$.,/-])(?P<year>(?:1[7-9]|2[01])\d\d)-(?P<month>[01]?\d)-(?P<day>[0-3]?\d)(?![\w/-]"
        r"|[.,]\d)")),
    # 1/15/22, 01/15/2022, 1-15-2022, 01.15.2022 (dots only with a four-digit year)
    ("numeric", re.compile(
        r"(?<![\w$.,/-])(?P<a>[01]?\d|[23]\d)(?P<sep>[/-])(?P<b>[0-3]?\d)(?P=sep)(?P<year>\d{4}|\d{2})(?![\w/-]|[.,]\d)"
        r"|(?<![\w$.,/-])(?P<a2>[01]?\d|[23]\d)\.(?P<b2>[0-3]?\d)\.(?P<year2>(?:1[7-9]|2[01])\d\d)(?![\w/-]|[.,]\d)")),
    # March 2017 / June, 2019 / June of 2019: last, so a full date holding it wins; the month must be capitalised
    ("month-year", re.compile(rf"\b{_MONTH},?{_W}(?:of{_W})?{_YEAR}\b", re.I)),
)  # fmt: skip

# Words near a date that say what happened on it. Nearest match wins; ties go to priority.
EVENT_RULES: tuple[tuple[re.Pattern[str], EventType, int], ...] = tuple(
    (re.compile(p, re.I), e, prio)
    for p, e, prio in (
        (
            # "plaintiff sued", "moved to intervene", "their Fourth Amended Complaint on July 8, 2021"
            r"\b(?:date\s+)?filed\b|\bfiling\b|\bdocketed\b|\bsubmitted\b|\bsued\b|\bmoved\s+(?:to|for)\b"
            r"|\b(?:complaint|petition|answer|motion)\s+on\b",
            EventType.FILED,
            50,
        ),
        (
            # "dated" signs this document ("This Agreement, dated this 19th day", "dated as of", a "Dated:" line,
            # "EXHIBIT 10.43 Dated 29/3/18"), not one it refers to ("the Council Directive dated 14 May 1991").
            r"(?m)\bdated\s+(?:this|as\s+of)\b|^[ \t]*dated\b|\bthis\b[^.;\n]{0,60}\bdated\b"
            r"|(?-i:(?<![A-Za-z] )\bDated\b)"
            r"|\bsigned\b|\bexecuted\b|\bentered\s+into\b|\bmade\s+(?:and\s+entered\s+into\s+)?(?:as\s+of|on|this)\b"
            r"|\bis\s+made\b|\bas\s+of\b",
            EventType.SIGNED,
            60,
        ),
        (
            # a statute's history note "eff. 1/1/2024"; "in effect since", "took effect"
            # "effective as of August 1" ends where "as of" (signed) does, and outranks it
            r"\beffective(?:\s+(?:as\s+of|on|from))?\b|\beff\.|\bin\s+effect\b|\btook\s+effect\b|\bcommenc\w*"
            r"|\bbegin(?:ning|s)?\b|\bstart\s+date\b",
            EventType.EFFECTIVE,
            70,
        ),
        (r"\bhearing\b|\bargu(?:ed|ment)\b|\bArg\.|\btrial\b|\bconference\b|\bheard\b|\bSub\.", EventType.HEARING, 40),
        (
            r"\bdue\b|\bon\s+or\s+before\b|\bno\s+later\s+than\b|\bdeadline\b|\bnot\s+later\s+than\b|\bexpir\w*|\bby\s+no\b"
            r"|\buntil\b|\bending\s+on\b|\bthrough\s+and\s+including\b"  # the last day of a period
            r"|\bby\s+(?=(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d)",  # "by February 14"
            EventType.DEADLINE,
            80,
        ),
        (
            r"\bdecided\b|\bentered\b(?!\s+into)|\bordered\b|\bjudgment\b|\bissued\b|\bopin-?\s*ion\b|\bdecision\b"
            # a court's ruling ("the District Court denied", "the court granted the motion"), its order by name
            r"|\b(?:court|judge|panel)(?:\s+of\s+appeals)?\s+(?:\w+\s+)?(?:granted|denied|dismissed|vacated|affirmed"
            r"|reversed|remanded|ruled|stayed)\b|\bcourt['’]s\b|(?-i:\b(?:Minute\s+)?Order\s+(?:\(|[A-Z]\w+))",
            EventType.DECIDED,
            30,
        ),
    )
)
_EVENT_REACH = 90  # characters either side of the date searched for event words, within its sentence
# Per rule, lower-case words one of which each of its alternatives holds ("argu" in "argued" holds "arg", "as of"
# holds "as"): a rule none of whose words is in the lower-cased reach has no match there and is not searched.
_EVENT_WORDS: tuple[tuple[str, ...], ...] = (
    ("filed", "filing", "docketed", "submitted", "sued", "moved", "complaint", "petition", "answer", "motion"),
    ("dated", "signed", "executed", "entered", "made", "as"),
    ("eff", "took", "commenc", "begin", "start"),
    ("hearing", "arg", "trial", "conference", "heard", "sub"),
    ("due", "before", "later", "deadline", "expir", "by", "until", "ending", "including"),
    ("decided", "entered", "order", "judgment", "issued", "opin", "decision", "court", "judge", "panel"),
)


def find_dates(pages: Sequence[ParsedPage], joined: JoinedText | None = None) -> list[DateMention]:
    """Every valid date on `pages`, in reading order. Never raises. `joined`, the pages joined, when the
    caller has it: digits and month names are then found in one pass shared with the other finders."""
    if joined is None:
        return [d for page in pages for d in dates_in(page.text, page.number)]
    runs = digit_runs(joined.text)
    run_starts = [a for a, _ in runs]
    months = _month_starts(joined.text)
    out: list[DateMention] = []
    for page, start in zip(pages, joined.starts, strict=True):
        end = start + len(page.text)
        lo, hi = bisect_left(run_starts, start), bisect_left(run_starts, end)
        page_runs = [(a - start, b - start) for a, b in runs[lo:hi]]
        page_months = [i - start for i in months[bisect_left(months, start) : bisect_left(months, end)]]
        out.extend(dates_in(page.text, page.number, (page_runs, page_months)))
    return out


def dates_in(
    text: str, page: int = 1, openings: tuple[list[tuple[int, int]], list[int]] | None = None
) -> list[DateMention]:
    """The dates in one page's `text`; `openings`, its digit runs and month-name starts, when the caller has them."""
    found: list[DateMention] = []
    taken: list[tuple[int, int]] = []
    runs, months = (digit_runs(text), _month_starts(text)) if openings is None else openings
    for start, end, iso in _candidates(text, runs, months):
        if any(start < e and s < end for s, e in taken):
            continue
        taken.append((start, end))
        s, e = sentence_bounds(text, start, end)
        event = _event(text, start, end, s, e)
        found.append(DateMention(iso, text[start:end], event, _describe(text, s, e, start, end), page, start, end))
    return sorted(found, key=lambda d: d.char_start)


# Triggers: the patterns run only near these. Every month-name date ends in a four-digit year; every
# numeric one has digits on both sides of a separator. Both can only open at the end of a run of digits
# (a year trigger four digits before it, a numeric one at its last digit), so they are tried only there.
_YEAR_TRIGGER = re.compile(r"(?:1[7-9]|2[01])\d\d(?!\d)")
_NUMERIC_TRIGGER = re.compile(r"\d[/.-]\d")
_REACH = 50  # "the 15th day of January, in the year 2022" ends 45 characters after it starts


# Every date pattern opens with a month name or with a number no digit precedes (a boundary or a lookbehind
# excluding \w comes first), so each is tried only at month-name starts or at the starts of digit runs.
_MONTH_PREFIXES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "ſep")  # ſ: re.I
index_keywords(_MONTH_PREFIXES)


def _month_starts(text: str) -> list[int]:
    return sorted({s for s, _ in keyword_hits(lowered(text), _MONTH_PREFIXES)})


def _candidates(text: str, runs: list[tuple[int, int]], months: list[int]) -> Iterator[tuple[int, int, str]]:
    windows = {
        _YEAR_TRIGGER: windows_at(year_hits(text, runs), len(text), _REACH),
        _NUMERIC_TRIGGER: windows_at(numeric_hits(text, runs), len(text), _REACH),
    }
    # Only openings inside a pattern's windows are tried, so only those are sorted out
    run_starts = [a for a, _ in runs]
    year_runs = [runs[i] for i in _indices_within(run_starts, windows[_YEAR_TRIGGER])]
    numeric_runs = [runs[i] for i in _indices_within(run_starts, windows[_NUMERIC_TRIGGER])]
    year_months = [months[i] for i in _indices_within(months, windows[_YEAR_TRIGGER])]
    starts = pattern_starts(text, year_runs, numeric_runs, year_months)
    for name, pattern in DATE_PATTERNS:
        trigger = _NUMERIC_TRIGGER if name in ("iso", "numeric") else _YEAR_TRIGGER
        for m in finditer_in_at(pattern, text, windows[trigger], starts[name]):
            iso = _iso(name, m)
            if iso is not None:
                yield m.start(), m.end(), iso


def _indices_within(positions: list[int], windows: list[tuple[int, int]]) -> Iterator[int]:
    """Indices of the sorted `positions` that lie in one of the disjoint, sorted `windows`."""
    for lo, hi in windows:
        yield from range(bisect_left(positions, lo), bisect_left(positions, hi))


def _iso(name: str, m: re.Match[str]) -> str | None:
    if name == "numeric":
        if m["a2"]:
            return _valid(int(m["year2"]), int(m["a2"]), int(m["b2"]))
        a, b, year = int(m["a"]), int(m["b"]), _full_year(m["year"])
        # US order (month/day); day/month only when the first number cannot be a month
        return _valid(year, a, b) if a <= 12 else _valid(year, b, a)
    if name == "iso":
        return _valid(int(m["year"]), int(m["month"]), int(m["day"]))
    if name == "month-year":
        return _valid_month(int(m["year"]), MONTHS[m["month"].lower()])
    month = MONTHS[m["month"].lower()]
    return _valid(int(m["year"]), month, int(m["day"]))


def _valid_month(year: int, month: int) -> str | None:
    return f"{year:04d}-{month:02d}" if 1700 <= year <= 2199 else None


def _full_year(text: str) -> int:
    if len(text) == 4:
        return int(text)
    yy = int(text)
    return 1900 + yy if yy >= 69 else 2000 + yy


def _valid(year: int, month: int, day: int) -> str | None:
    if not 1700 <= year <= 2199:
        return None
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


_SIGNATURE_BLOCK = re.compile(r"authorized\s+signature|\bBy:|\bTitle:|type\s+or\s+print|IN\s+WITNESS", re.IGNORECASE)
_OWN_LINE_OR_DATE_LABEL = re.compile(r"(?:^|\n)[ \t]*(?:Date:?[ \t]*)?$")


# A "Date:" line under a judge's signature or in a court document's header ("Court: ...") dates the decision.
_DATE_LINE = re.compile(r"(?:^|\n)[ \t]*(?:Date|DATE|Dated|DATED)[ \t]*:?[ \t]*$")
_COURT_SIGNATURE = re.compile(
    r"\b(?:District|Circuit|Magistrate|Bankruptcy|Trial)\s+Judge\b|\bSO\s+ORDERED\b|(?m:^[ \t]*Court:)", re.IGNORECASE
)
_EFF = re.compile(r"\beff\.[ \t]*$")  # a history note's "eff. 1/1/2024": the sentence splitter cuts at "eff."


def _event(text: str, start: int, end: int, s: int, e: int) -> EventType:
    if in_court_parenthetical(text, start, end):
        return EventType.CITED
    if _DATE_LINE.search(text, max(0, start - 30), start) and _COURT_SIGNATURE.search(text, max(0, start - 200), start):
        return EventType.DECIDED
    if _EFF.search(text, max(0, start - 8), start):
        return EventType.EFFECTIVE
    # A date alone on its line (or after "Date:") in a signature block is when the document was signed.
    if _OWN_LINE_OR_DATE_LABEL.search(text, max(0, start - 30), start) and _SIGNATURE_BLOCK.search(
        text, max(0, start - 400), start
    ):
        return EventType.SIGNED
    lo, hi = max(s, start - _EVENT_REACH), min(e, end + _EVENT_REACH)
    line_start = text.rfind("\n", 0, start) + 1
    lo = min(lo, line_start) if start - line_start < 40 else lo  # "Date Filed: 01/19/2023" labels
    best: tuple[int, int, EventType] | None = None
    reach = text[lo:hi]
    low = reach.lower()
    every_rule = any(c in reach for c in CASE_FOLD_EXTRAS)  # IGNORECASE matches these where `low` shows no word
    for (pattern, event, prio), words in zip(EVENT_RULES, _EVENT_WORDS, strict=True):
        if not every_rule and not any(w in low for w in words):
            continue
        for m in pattern.finditer(text, lo, hi):
            if m.end() <= start:
                distance = start - m.end()
            elif m.start() >= end:
                distance = m.start() - end + 10  # words after the date weigh a little less
            else:
                continue
            cand = (distance, -prio, event)
            if best is None or cand < best:
                best = cand
    return best[2] if best else EventType.OTHER


_MAX_DESCRIPTION = 300


def _describe(text: str, s: int, e: int, start: int, end: int) -> str:
    if e - s > _MAX_DESCRIPTION:
        lo = max(s, start - _MAX_DESCRIPTION // 2)
        hi = min(e, end + _MAX_DESCRIPTION // 2)
        lo = text.find(" ", lo, start) + 1 or lo if lo > s else lo
        s, e = lo, hi
    return squash(text[s:e])
