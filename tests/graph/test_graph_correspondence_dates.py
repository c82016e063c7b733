"""When correspondence was sent: e-mail and memo headers, quoted replies. Not every "Date:" or "On <date>"."""

from __future__ import annotations

import pytest

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import EventType, find_dates


def events(text: str) -> list[tuple[str, EventType]]:
    return [(d.iso, d.event) for d in find_dates([ParsedPage(1, text, ExtractionMethod.NATIVE)])]


@pytest.mark.parametrize(
    "text",
    [
        # an .eml's header block, as CaseTrack renders it on page 1
        "From: Jane Counsel <jane@firm.example>\nTo: client@example.com\nDate: Tue, 04 Mar 2025 10:15:00 -0500\n"
        "Subject: Re: Settlement offer\n\nThe offer stands.",
        # Outlook's header of a message quoted in a reply
        "Thanks.\n\nFrom: Bob Smith\nSent: Tuesday, March 4, 2025 10:15 AM\nTo: Jane Counsel\nSubject: RE: Offer\n",
        # a forwarded message quoted with ">"
        "> From: Bob Smith\n> Date: March 4, 2025\n> Subject: Offer\n",
        # a memorandum's heading
        "MEMORANDUM\n\nTO: File\nFROM: J. Smith\nDATE: March 4, 2025\nRE: Deposition of A. Jones\n",
        # a reply's attribution line
        "Agreed.\n\nOn Tue, Mar 4, 2025 at 10:15 AM Bob Smith <bob@example.com> wrote:\n> Can we settle?",
    ],
)
def test_the_date_a_message_was_sent_is_typed_sent(text: str) -> None:
    assert events(text) == [("2025-03-04", EventType.SENT)]


@pytest.mark.parametrize(
    ("text", "event"),
    [
        # a signature block's date is when the document was signed
        ("IN WITNESS WHEREOF the parties sign.\nBy: ______\nTitle: CEO\nDate: March 4, 2025\n", EventType.SIGNED),
        # a "Date:" label with no message header around it says nothing of sending
        ("Inspection report\n\nDate: March 4, 2025\n\nThe roof was inspected.", EventType.OTHER),
        # "On <date>," opening a sentence of a brief is no reply line
        ("On March 4, 2025, the court held a hearing on the motion.", EventType.HEARING),
        ("On March 4, 2025, Plaintiff wrote to Defendant demanding payment.", EventType.OTHER),
    ],
)
def test_other_dates_near_the_same_words_are_not_sent(text: str, event: EventType) -> None:
    assert events(text) == [("2025-03-04", event)]
