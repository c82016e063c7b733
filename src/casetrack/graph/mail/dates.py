"""Dates an e-mail writes relative to the day it was sent: "tomorrow", "by Friday", "next week".

Correspondence sets deadlines and meetings that way ("Edison will distribute a one-pager by mid-day
tomorrow", "the answer is due a week from today"), and a date question ("when was the one-pager due?")
asks for the calendar date. Each phrase is read against the sent date of the message that wrote it (its
Date header, or the "Sent:" line of a quoted message): `sent_date` reads that date as written, in the
sender's own time zone; `relative_dates` finds the phrases and the day each names.

Rules: today/tonight/this morning = the sent day; tomorrow +1, yesterday -1, the day after tomorrow +2;
"a week from today" +7, "in/within N days" +N, "N days from today" +N, "two weeks from today" +14; a weekday
with a cue ("this", "next", "on", "by", "until", "before", "sometime", "this coming") is its next occurrence
after the sent day ("this" Monday sent on a Monday is that day; "next" skips a day of the same calendar
week); "last <weekday>" the one before; "this weekend" the coming Saturday; "next week" / "this week" /
"last week" / "the week after next" the Monday of that week; "end of the week" that week's Friday. A weekday
followed by a written date ("Monday, December 10") is left to graph.dates. Pure.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

from casetrack.domain import MailPart, ParsedPage
from casetrack.graph.dates.events import event_of
from casetrack.graph.dates.mentions import DateMention, dates_in
from casetrack.graph.pagetext import sentence_bounds, squash

_MAX_DESCRIPTION = 240
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "ten": 10, "fourteen": 14,
            "thirty": 30, "a": 1}
_COUNT = r"(?P<count>\d{1,3}|one|two|three|four|five|six|seven|ten|fourteen|thirty|a)"
_WEEKDAY = r"(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((name, re.compile(pattern, re.I)) for name, pattern in (
    ("after_tomorrow", r"\bthe day after tomorrow\b"),
    ("offset_week", rf"\b{_COUNT}\s+weeks?\s+from\s+(?:today|now)\b"),
    ("offset_day", rf"\b(?:in|within)\s+{_COUNT}\s+(?:business\s+)?days?\b"),
    ("offset_day", rf"\b{_COUNT}\s+days?\s+from\s+(?:today|now)\b"),
    ("week_after_next", r"\b(?:the\s+)?week\s+after\s+next\b"),
    ("named_week", r"\b(?P<which>next|this|last)\s+week\b"),
    ("end_of_week", r"\bend\s+of\s+(?:the|this)\s+week\b"),
    ("weekend", r"\bthis\s+weekend\b"),
    ("weekday", rf"\b(?P<cue>this\s+coming|this|next|last|on|by|until|till|before|sometime)\s+{_WEEKDAY}\b"
                r"(?![\s,]*(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"),
    ("tomorrow", r"\btomorrow\b"),
    ("yesterday", r"\byesterday\b"),
    ("today", r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b"),
))


@dataclass(frozen=True, slots=True)
class RelativeDate:
    start: int
    end: int
    phrase: str  # exactly text[start:end]
    iso: str  # the day it names, "2001-10-30"
    week: bool = False  # the phrase names a week; iso is its Monday

    @property
    def written(self) -> str:
        """ "Tuesday, October 30, 2001" (or "the week of Monday, November 5, 2001")."""
        day = dt.date.fromisoformat(self.iso)
        text = f"{WEEKDAYS[day.weekday()].title()}, {day.strftime('%B')} {day.day}, {day.year}"
        return f"the week of {text}" if self.week else text


def sent_date(raw: str) -> dt.date | None:
    """The day a message was sent, as its sender saw it: an RFC 5322 Date header, or a quoted header's
    "Monday, October 29, 2001 8:04 AM", "Tue 8/21/2001 2:08 AM", "20 August 2001 22:30"."""
    if not raw.strip():
        return None
    try:
        return parsedate_to_datetime(raw).date()
    except (TypeError, ValueError, IndexError):
        pass
    for mention in dates_in(raw):
        if len(mention.iso) == 10:
            return dt.date.fromisoformat(mention.iso)
    return None


def relative_dates(text: str, sent: dt.date) -> list[RelativeDate]:
    """The relative date phrases of `text` with the day each names, read against `sent`; in text order, none
    overlapping another."""
    found: list[RelativeDate] = []
    taken: list[tuple[int, int]] = []
    for name, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            resolved = _resolve(name, m, sent)
            if resolved is None:
                continue
            day, week = resolved
            taken.append((m.start(), m.end()))
            found.append(RelativeDate(m.start(), m.end(), m.group(), day.isoformat(), week))
    return sorted(found, key=lambda r: r.start)


def mail_date_mentions(pages: Sequence[ParsedPage], parts: Sequence[MailPart]) -> list[DateMention]:
    """The relative dates of an e-mail's messages as dated mentions for the timeline, each read against the
    sent date of the message that wrote it (a quoted message's own "Sent:" date)."""
    out = []
    by_number = {page.number: page for page in pages}
    for part in parts:
        sent = sent_date(part.sent)
        if sent is None:
            continue
        for page in (by_number[n] for n in range(part.first_page, part.last_page + 1) if n in by_number):
            number = page.number
            for found in relative_dates(page.text, sent):
                s, e = sentence_bounds(page.text, found.start, found.end)
                event = event_of(page.text, found.start, found.end, s, e)
                described = squash(page.text[s:e])[:_MAX_DESCRIPTION]
                out.append(DateMention(found.iso, found.phrase, event, f"{described} [{found.phrase}: {found.written}]",
                                       number, found.start, found.end))
    return out


def _resolve(name: str, m: re.Match[str], sent: dt.date) -> tuple[dt.date, bool] | None:
    monday = sent - dt.timedelta(days=sent.weekday())
    if name == "today":
        return sent, False
    if name in ("tomorrow", "yesterday", "after_tomorrow"):
        return sent + dt.timedelta(days={"tomorrow": 1, "yesterday": -1, "after_tomorrow": 2}[name]), False
    if name in ("offset_day", "offset_week"):
        count = _count(m["count"])
        return sent + dt.timedelta(days=count * (7 if name == "offset_week" else 1)), False
    if name == "week_after_next":
        return monday + dt.timedelta(days=14), True
    if name == "named_week":
        return monday + dt.timedelta(days={"next": 7, "this": 0, "last": -7}[m["which"].lower()]), True
    if name == "end_of_week":
        return monday + dt.timedelta(days=4), False
    if name == "weekend":
        return monday + dt.timedelta(days=5), False
    return _weekday(m["cue"].lower(), WEEKDAYS.index(m["weekday"].lower()), sent)


def _weekday(cue: str, target: int, sent: dt.date) -> tuple[dt.date, bool]:
    ahead = (target - sent.weekday()) % 7
    if cue == "last":
        return sent - dt.timedelta(days=(sent.weekday() - target) % 7 or 7), False
    if cue == "this" and ahead == 0:
        return sent, False
    ahead = ahead or 7
    if cue == "next" and target > sent.weekday():  # "next Thursday" said on a Monday: not this week's
        ahead += 7
    return sent + dt.timedelta(days=ahead), False


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word.lower()]
