"""Relative dates in real e-mails read against the day the message was sent."""

from __future__ import annotations

import datetime as dt

import pytest

from casetrack.graph.mail.dates import relative_dates, sent_date

MONDAY = sent_date("Mon, 29 Oct 2001 06:03:34 -0800 (PST)")


@pytest.mark.parametrize(("sentence", "phrase", "day"), [
    ("Edison will distribute a one-pager by mid-day tomorrow laying out its proposal", "tomorrow", "2001-10-30"),
    ("The answer is due a\nweek from today, and we still have", "a\nweek from today", "2001-11-05"),
    ("SCE can meet with us this Thursday.", "this Thursday", "2001-11-01"),
    ("I should have them sometime Tuesday.", "sometime Tuesday", "2001-10-30"),
    ("Thanks for meeting with Paul and I yesterday.", "yesterday", "2001-10-28"),
    ("initiate settlement discussions with ESPs week after next.", "week after next", "2001-11-12"),
])
def test_a_relative_date_names_the_day_counted_from_the_sent_date(sentence: str, phrase: str, day: str) -> None:
    assert MONDAY is not None
    [found] = relative_dates(sentence, MONDAY)
    assert (found.phrase, found.iso) == (phrase, day)


def test_a_weekday_written_with_its_date_and_one_without_a_cue_are_left_alone() -> None:
    assert MONDAY is not None
    assert relative_dates("On Monday, December 10, we will not be filing suit", MONDAY) == []
    assert relative_dates("as of Friday it had not received the information", MONDAY) == []


@pytest.mark.parametrize(("written", "day"), [
    ("Mon, 29 Oct 2001 06:03:34 -0800 (PST)", dt.date(2001, 10, 29)),  # the sender's own day, not UTC's
    ("Monday, October 29, 2001 8:04 AM", dt.date(2001, 10, 29)),  # Outlook's quoted header
    ("Tue 8/21/2001 2:08 AM", dt.date(2001, 8, 21)),
    ("20 August 2001 22:30", dt.date(2001, 8, 20)),
    ("08/02/01 04:47PM", dt.date(2001, 8, 2)),  # GroupWise
])
def test_a_sent_date_is_read_as_each_mail_program_writes_it(written: str, day: dt.date) -> None:
    assert sent_date(written) == day
