"""Headings and numbered sections are found with their exact place, and ordinary
numbered sentences, amounts and dates are not mistaken for them."""

from __future__ import annotations

from casetrack.chunk import StructureEntry, extract_structure
from casetrack.domain import ExtractionMethod, ParsedPage


def _structure(text: str) -> list[StructureEntry]:
    return extract_structure([ParsedPage(1, text, ExtractionMethod.NATIVE)])


def _summary(text: str) -> list[tuple[int, str | None, str]]:
    return [(e.level, e.number, e.title) for e in _structure(text)]


def test_recognised_heading_forms():
    text = (
        "I. INTRODUCTION\n"
        "This case concerns a license.\n\n"
        "ARTICLE V\n"
        "The Licensee shall pay.\n\n"
        "Section 8.1 Term of Agreement\n"
        "The term is one year.\n\n"
        "§ 4.2(a) Notice.\n"
        "Notice must be written.\n\n"
        "1. Definitions.\n"
        '"Affiliate" means any entity.\n\n'
        "1.1. Appointment. Subject to the terms of this Agreement, the Company appoints the Agent.\n\n"
        "GOVERNING LAW\n"
        "New York law governs.\n"
    )
    assert _summary(text) == [
        (1, "I", "INTRODUCTION"),
        (1, "V", ""),
        (2, "8.1", "Term of Agreement"),
        (3, "4.2(a)", "Notice"),
        (1, "1", "Definitions"),
        (2, "1.1", "Appointment"),
        (1, None, "GOVERNING LAW"),
    ]


def test_offsets_point_at_the_heading_in_the_page():
    text = "Preamble text here.\n\n   Section 8.1 Term\nBody.\n"
    [entry] = _structure(text)
    assert text[entry.char_start : entry.char_end] == "Section 8.1 Term"
    assert entry.page == 1


def test_inline_clause_headings_in_flattened_text():
    text = (
        "the Parties agree as follows: 1. Services and Compensation. 1.1. Services. Consultant shall help. "
        "1.2 Compensation. The Company shall pay $18,000 per month. 1.3 Expenses. The Company shall reimburse."
    )
    entries = _structure(text)
    assert [(e.number, e.title) for e in entries] == [
        ("1", "Services and Compensation"),
        ("1.1", "Services"),
        ("1.2", "Compensation"),
        ("1.3", "Expenses"),
    ]
    for e in entries:
        assert text[e.char_start : e.char_end].startswith(e.number)
        assert text[e.char_start : e.char_end].endswith(e.title + ".")


def test_no_false_positives_on_sentences_amounts_dates_and_addresses():
    text = (
        "The Agent shall pay 2. The Company will refund the balance within thirty days.\n"
        "2. The Distributor shall purchase the products and resell them in the territory.\n"
        "$5,000,000. Payable on signing.\n"
        "12/31/2020 is the end date.\n"
        "March 29, 1999. The Agreement starts.\n"
        "40 Foley Square\n"
        "New York, NY 10007\n"
        "Section 2 of the Act applies to every contract made under it.\n"
        "IN NO EVENT WILL EITHER PARTY BE LIABLE FOR ANY INDIRECT OR CONSEQUENTIAL DAMAGES\n"
        "ARISING OUT OF THIS AGREEMENT.\n"
        "ABC 000123\n"
    )
    assert _summary(text) == []


def test_entries_keep_reading_order_across_pages():
    pages = [
        ParsedPage(1, "ARTICLE I\nText.\n\nARTICLE II\nText.", ExtractionMethod.NATIVE),
        ParsedPage(2, "ARTICLE III\nText.", ExtractionMethod.NATIVE),
    ]
    assert [(e.page, e.number) for e in extract_structure(pages)] == [(1, "I"), (1, "II"), (2, "III")]
