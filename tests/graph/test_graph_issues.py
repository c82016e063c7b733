"""Issues: clause headings, pleaded counts and causes of action, each located; nothing invented."""

from __future__ import annotations

import pytest

from casetrack.chunk.structure import extract_structure
from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import find_issues
from casetrack.graph.issues import issue_for_heading
from tests.graph.graph_evaldev import pages_of

HEADINGS = [
    ("Termination", "Termination"),
    ("TERM AND TERMINATION", "Termination"),
    ("Indemnification", "Indemnification"),
    ("Mutual Indemnity", "Indemnification"),
    ("Governing Law", "Governing Law"),
    ("Choice of Law", "Governing Law"),
    ("Confidential Information", "Confidentiality"),
    ("Limitation of Liability", "Limitation of Liability"),
    ("Representations and Warranties", "Representations and Warranties"),
    ("Compensation", "Payment and Compensation"),
    ("Non-Competition", "Non-Competition"),
    ("Force Majeure", "Force Majeure"),
    ("Arbitration", "Dispute Resolution"),
    ("Definitions", None),
    ("Notices", None),
    ("Miscellaneous", None),
    ("Entire Agreement", None),
]


@pytest.mark.parametrize(("title", "label"), HEADINGS)
def test_clause_headings_map_to_issue_labels_or_to_nothing(title: str, label: str | None) -> None:
    assert issue_for_heading(title) == label


COMPLAINT = """COMPLAINT

COUNT I - BREACH OF CONTRACT
(Against All Defendants)

1. Defendant breached the Agreement by failing to pay.

COUNT II: Negligence

2. Defendant owed a duty of care.

Count Three - Unjust Enrichment

3. Plaintiff also alleges breach of fiduciary duty and tortious interference.
"""


def test_counts_and_causes_of_action_in_a_complaint_are_issues_where_they_appear() -> None:
    page = ParsedPage(2, COMPLAINT, ExtractionMethod.NATIVE)
    issues = find_issues([page])
    counts = [(i.label, i.text) for i in issues if i.source == "count"]
    assert counts == [
        ("Breach of Contract", "BREACH OF CONTRACT"),
        ("Negligence", "Negligence"),
        ("Unjust Enrichment", "Unjust Enrichment"),
    ]
    causes = {i.label for i in issues if i.source == "cause_of_action"}
    assert causes == {
        "Breach of Contract",
        "Negligence",
        "Unjust Enrichment",
        "Breach of Fiduciary Duty",
        "Tortious Interference",
    }
    for i in issues:
        assert i.page == 2 and COMPLAINT[i.char_start : i.char_end] == i.text


def test_a_text_without_issues_yields_none() -> None:
    page = ParsedPage(1, "The Court will contact one counsel per party.", ExtractionMethod.NATIVE)
    assert find_issues([page]) == []


def test_contract_headings_from_structure_become_issues_located_on_their_pages() -> None:
    pages = pages_of("cuad_lucid_distributor_agreement.pdf")
    issues = find_issues(pages, extract_structure(pages))
    headings = {(i.label, i.text, i.page) for i in issues if i.source == "heading"}
    assert {
        ("Termination", "TERMINATION", 5),
        ("Termination", "EFFECT OF TERMINATION", 6),
        ("Governing Law", "Governing Law", 7),
        ("Intellectual Property", "Intellectual Property", 4),
        ("Limitation of Liability", "LIMITATION OF LIABILITY", 6),
    } <= headings
    assert not any(i.text in ("Appointment", "Products", "Training", "NOTICE") for i in issues)
    for i in issues:
        assert i.text in pages[i.page - 1].text[i.char_start : i.char_end]
