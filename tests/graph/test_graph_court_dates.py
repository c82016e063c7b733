"""Dates of court documents typed by the words lawyers and courts use around them."""

from __future__ import annotations

import pytest

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import find_dates
from casetrack.graph.dates.mentions import EventType


def event_of(text: str, date: str) -> EventType:
    hits = [d for d in find_dates([ParsedPage(1, text, ExtractionMethod.NATIVE)]) if d.text == date]
    assert hits, (text, date)
    return hits[0].event


SENTENCES = [
    ("Amended by 2023 N.C. Sess. Laws 140 , s. 35 , eff. 1/1/2024 .", "1/1/2024", EventType.EFFECTIVE),
    ("The requirement has been in effect since January 1, 2020, for every county.", "January 1, 2020",
     EventType.EFFECTIVE),
    ("The court granted the motion November 6, 2024, and plaintiff duly filed the supplemental complaint.",
     "November 6, 2024", EventType.DECIDED),
    ("On October 13, 1995, the District Court denied a motion by IFIC for summary judgment.", "October 13, 1995",
     EventType.DECIDED),
    ("See Mem. Op.;  Order Awarding Attorney's Fees (July 1, 1996).", "July 1, 1996", EventType.DECIDED),
    ("Pursuant to the court's October 15, 2024, order, remaining defendants shall answer.", "October 15, 2024",
     EventType.DECIDED),
    ("On Monday, February 10, 2025, plaintiff sued to challenge the purported termination.", "February 10, 2025",
     EventType.FILED),
    ("On June 10, 2020, Legislative Defendants moved to intervene in this case.", "June 10, 2020", EventType.FILED),
    ("Plaintiffs filed their original Complaint on May 22, 2020, (Doc. 1), and their First Amended Complaint on "
     "June 5, 2020, (Doc. 8).", "June 5, 2020", EventType.FILED),
    ("The parties shall state their positions under Rule of Civil Procedure 65(a)(2) by February 14, 2025.",
     "February 14, 2025", EventType.DEADLINE),
    ("SO ORDERED.\n\nAMY BERMAN JACKSON\nUnited States District Judge\n\nDATE:  February 26, 2025\n",
     "February 26, 2025", EventType.DECIDED),
    ("Court: U.S. District Court — Eastern District of North Carolina\nDocket Number(s): 5:24-CV-481-FL\n"
     "Date: March 28, 2025\n", "March 28, 2025", EventType.DECIDED),
]  # fmt: skip


@pytest.mark.parametrize(("text", "date", "event"), SENTENCES, ids=[d for _, d, _ in SENTENCES])
def test_a_court_documents_date_is_typed_by_its_words(text: str, date: str, event: EventType) -> None:
    assert event_of(text, date) is event


def test_a_letterhead_judge_does_not_make_a_notice_date_a_decision() -> None:
    text = "ROBERT A. KATZMANN\n\nCHIEF JUDGE\n\nCLERK OF COURT\n\nDate: October 31, 2017\nDocket #: 17-3510\n"
    assert event_of(text, "October 31, 2017") is not EventType.DECIDED
