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

from casetrack.domain import ParsedPage
from casetrack.graph.dates.events import EventType, event_of
from casetrack.graph.dates.openings import numeric_hits, pattern_starts, year_hits
from casetrack.graph.pagetext import JoinedText, sentence_bounds, squash
from casetrack.graph.scan import (
    digit_runs,
    finditer_in_at,
    index_keywords,
    keyword_hits,
    lowered,
    windows_at,
)


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
        event = event_of(text, start, end, s, e)
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


_MAX_DESCRIPTION = 300


def _describe(text: str, s: int, e: int, start: int, end: int) -> str:
    if e - s > _MAX_DESCRIPTION:
        lo = max(s, start - _MAX_DESCRIPTION // 2)
        hi = min(e, end + _MAX_DESCRIPTION // 2)
        lo = text.find(" ", lo, start) + 1 or lo if lo > s else lo
        s, e = lo, hi
    return squash(text[s:e])
