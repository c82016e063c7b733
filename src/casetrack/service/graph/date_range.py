"""The date range a user asks a timeline for: checked as calendar dates, not as text.

Comparing the raw strings let "2017-13-01" through (it sorts like a date in 2017) and a
reversed range answered "no events" instead of saying what was wrong. A year ("2017") or a
month ("2017-03") is taken as the whole of it, since that is what "the timeline for 2017" means.
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from casetrack.errors import InvalidInput, quoted

_PARTIAL = re.compile(r"(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?")
FORMAT_HINT = "Dates must look like 2023-01-31 (YYYY-MM-DD); a year (2023) or a month (2023-01) also works"


def _bound(value: str, last: bool) -> str:
    """`value` as YYYY-MM-DD; a year or month becomes its first day, or its last when `last`.
    Raises InvalidInput naming the format for anything else, including impossible dates."""
    text = value.strip()
    match = _PARTIAL.fullmatch(text)
    if match is None or (match[3] and not match[2]):
        raise InvalidInput(f'{FORMAT_HINT}; got "{quoted(value)}".')
    year, month = int(match[1]), int(match[2] or (12 if last else 1))
    try:
        day = int(match[3]) if match[3] else (calendar.monthrange(year, month)[1] if last else 1)
        return date(year, month, day).isoformat()
    except ValueError:  # month 13, February 30, year 0 ...
        raise InvalidInput(f'"{quoted(value)}" is not a calendar date. {FORMAT_HINT}.') from None


def date_range(start: str | None, end: str | None) -> tuple[str | None, str | None]:
    """The inclusive range as YYYY-MM-DD strings (None: open). Raises InvalidInput for a value that
    is not a date, and for a start after the end."""
    low = _bound(start, last=False) if start and start.strip() else None
    high = _bound(end, last=True) if end and end.strip() else None
    if low and high and low > high:
        raise InvalidInput(f"start_date {low} is after end_date {high}; swap them to see the events between.")
    return low, high
