"""A timeline's date range keeps a date known only to its month or year when that month or
year overlaps the range: "March 2017" belongs to a range starting 2017-03-15."""

from __future__ import annotations

import pytest

from casetrack.service.graph import CaseGraph, Event, Mention

DATES = ["2016", "2017-02-28", "2017-03", "2017-03-01", "2017-03-31", "2017-04", "2018-01-02"]


def graph() -> CaseGraph:
    mention = Mention("doc", "doc.pdf", None, 1, 0, 4, "date")
    return CaseGraph(0, {}, events=[Event(iso, "other", "", mention) for iso in DATES])


@pytest.mark.parametrize(("start", "end", "kept"), [
    (None, None, DATES),
    ("2017-03-15", None, ["2017-03", "2017-03-31", "2017-04", "2018-01-02"]),
    (None, "2017-03-15", ["2016", "2017-02-28", "2017-03", "2017-03-01"]),
    ("2017-03-01", "2017-03-31", ["2017-03", "2017-03-01", "2017-03-31"]),
    ("2016-06-01", "2016-06-30", ["2016"]),
    ("2017-05-01", "2017-12-31", []),
])
def test_dates_of_month_or_year_precision_are_kept_when_they_overlap_the_range(
        start: str | None, end: str | None, kept: list[str]) -> None:
    assert [e.iso for e in graph().events_between(start, end)] == kept
