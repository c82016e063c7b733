"""The people an e-mail passes between are entities: the names on its From/To/Cc lines, each
located where it is written, as senders and recipients; names outside a header block, groups and
bare addresses are not."""

from __future__ import annotations

import pytest

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import EntityKind, find_entities
from casetrack.parse import parse_file
from tests.parse.test_msg import BOUNCE


def people(text: str) -> list[tuple[str, str | None, str]]:
    page = ParsedPage(number=1, text=text, method=ExtractionMethod.NATIVE)
    found = [m for m in find_entities([page]) if m.kind is EntityKind.PERSON]
    for m in found:
        assert text[m.char_start : m.char_end] == m.text  # located exactly
    return [(m.name, m.role, m.text) for m in found]


# An Internet header block: commas between recipients, a quoted "Last, First", a bare address (no one).
INTERNET = (
    'From: Jane Harper <jane@firm.example>\nTo: Robert Client <bob@acme.example>, "Smith, Anna" '
    "<anna@acme.example>\nCc: tom.brady@other.example\nDate: Tue, 04 Mar 2025 10:15:00 -0500\n"
    "Subject: Settlement offer\n\nBob,\n\nThe offer is attached.\n"
)
# Outlook's quoted header in a reply: semicolons between recipients, names as "Last, First", a group.
OUTLOOK_QUOTED = (
    "Thanks, see below.\n\n________________________________\nFrom: Smith, Anna\nSent: Tuesday, March 4, 2025 "
    "9:02 AM\nTo: Client, Robert; Harper, Jane <jane@firm.example>\nCc: All Litigation Staff\n"
    "Subject: RE: Settlement offer\n"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (INTERNET, [("Jane Harper", "sender", "Jane Harper"), ("Robert Client", "recipient", "Robert Client"),
                    ("Anna Smith", "recipient", "Smith, Anna")]),
        (OUTLOOK_QUOTED, [("Anna Smith", "sender", "Smith, Anna"), ("Robert Client", "recipient", "Client, Robert"),
                          ("Jane Harper", "recipient", "Harper, Jane")]),
    ],
    ids=["internet-header", "outlook-quoted-header"],
)  # fmt: skip
def test_a_header_block_names_its_sender_and_recipients_however_it_writes_them(
    text: str, expected: list[tuple[str, str, str]]
) -> None:
    assert people(text) == expected


def test_a_memo_header_in_capitals_counts_and_a_lone_address_line_in_prose_does_not() -> None:
    memo = "MEMORANDUM\n\nTO: Litigation Team\nFROM: Walter Gray\nDATE: May 2, 2024\nRE: Discovery plan\n"
    assert people(memo) == [("Walter Gray", "sender", "Walter Gray")]
    brief = "The letter was addressed as follows.\nTo: Walter Gray\n\nIt was never answered.\n"
    assert people(brief) == []  # an address line alone, no header block around it
    inline = "The memo said To: Walter Gray\nDate: May 2, 2024\n"
    assert people(inline) == []  # the label does not open its line


def test_names_without_addresses_are_split_where_the_line_lists_several() -> None:
    text = "From: Walter Gray\nTo: Robert Client, Anna Smith\nCc: Harper, Jane\nSubject: Draft\n"
    assert people(text) == [
        ("Walter Gray", "sender", "Walter Gray"),
        ("Robert Client", "recipient", "Robert Client"),
        ("Anna Smith", "recipient", "Anna Smith"),
        ("Jane Harper", "recipient", "Harper, Jane"),
    ]


def test_display_names_typed_in_lower_case_are_people_too() -> None:
    text = "From: meredith chen <yosipnps@model.com>\nTo: <hp_lsz@tjdpf.org.cn>\nSubject: FYI\n"
    assert people(text) == [("meredith chen", "sender", "meredith chen")]


def test_an_outlook_messages_correspondents_are_found_through_its_parsed_pages() -> None:
    document = parse_file(BOUNCE)
    found = [(m.name, m.role) for m in find_entities(document.pages) if m.kind is EntityKind.PERSON]
    assert ("Meredith chen", "sender") in found  # the bounced message's own sender
    assert not any(name.startswith("Mail Delivery") for name, _ in found)  # a mailbox, not a person
