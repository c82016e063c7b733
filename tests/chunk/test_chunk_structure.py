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


# What follows was measured on contracts the extractor was not tuned on (tests/chunk/data/unseen/,
# CUAD v1): text taken from PDFs keeps a paragraph on one line, and the SEC's EDGAR text writes
# headings in capitals without a stop.


def test_a_heading_opening_a_long_paragraph_line_is_found():
    body = "This Agreement will be in effect for three (3) years from the Effective Date unless terminated. " * 4
    text = (
        f"3. Term. {body}\n\n   1.1. Appointment. Subject to the terms of this Agreement, the Company appoints. {body}"
    )
    assert _summary(text) == [(1, "3", "Term"), (2, "1.1", "Appointment")]


def test_capitalised_titles_end_where_the_clause_text_begins():
    text = (
        "NOW IT IS AGREED as follows:- 1. TERMS OF AGREEMENT 1.1 Commencement This agreement commences "
        "upon execution. 9. COSTS Each of the parties shall bear its own costs.\n"
        "9.     PRODUCT DESIGN   During the term of this Agreement, CONSULTANT shall use best efforts.\n"
        '("WPT"). 1. DEFINITIONS a. "Affiliate" means an entity controlled by a party. '
        "6. INDEMNITY / INSURANCE 6.1 The Manufacturer shall maintain insurance.\n"
    )
    assert [(n, t) for _, n, t in _summary(text) if t] == [
        ("1", "TERMS OF AGREEMENT"),
        ("9", "COSTS"),
        ("9", "PRODUCT DESIGN"),
        ("1", "DEFINITIONS"),
        ("6", "INDEMNITY / INSURANCE"),
    ]


def test_a_capitalised_subject_or_reference_is_not_a_title():
    text = (
        "5. CONSULTANT shall not endorse any other golf club during the term.\n"
        "16.1 WITHOUT PREJUDICE TO SECTION 16.4, NEITHER Airspan, NOR ANY OF ITS OFFICERS, SHALL HAVE ANY LIABILITY.\n"
    )
    assert [(n, t) for _, n, t in _summary(text)] == []


def test_inline_titles_after_a_quotation_and_before_a_sub_clause():
    text = (
        'referred to as the "Term." 4. Annual Minimum Guarantee. Zynga will pay WPT three million dollars. '
        'The parties agree as follows:   1. Definitions.   a. "Company" shall have the meaning assigned. '
        "AGREEMENT The Parties hereby agree as follows: 1. Services. 1.1 Provision of Services. (a) Provider "
        "agrees to provide the Services. 3. Annual Fees; Playoff Payment.   (a) In consideration for the Benefits."
    )
    assert [(n, t) for _, n, t in _summary(text)] == [
        ("4", "Annual Minimum Guarantee"),
        ("1", "Definitions"),
        ("1", "Services"),
        ("1.1", "Provision of Services"),
        ("3", "Annual Fees; Playoff Payment"),
    ]


def test_the_first_item_of_a_clause_is_not_part_of_its_title():
    text = (
        "12.02.   Transfer by You A. You agree that the rights and duties set forth in this Agreement are personal.\n"
        "2. Schedule A. The Products listed in Schedule A are covered.\n"
    )
    assert [(n, t) for _, n, t in _summary(text)] == [("12.02", "Transfer by You"), ("2", "Schedule A")]


def test_lists_schedules_of_amounts_and_dates_are_not_headings():
    text = (
        "are considered the Intellectual Property of The Manufacturer: 1. Dr Lily Tomas 2. Dr Bernd Friedlander "
        "3. Mr Markus Eistert The list shall be expanded.\n"
        "1.  Year 1. $[*****] 2.  Year 2 $[*****] 3.  Year 3 $[*****]\n"
        "Title: Senior Vice President Industrial Affairs Date: 22 Dec. 2017\n"
    )
    assert _summary(text) == []


def test_an_article_number_takes_its_title_from_the_line_below():
    text = "ARTICLE I\n\n   DEFINITIONS\n\n1.1 Terms used here mean this.\n\nARTICLE II\nThe Shipper shall pay.\n"
    entries = _structure(text)
    assert [(e.level, e.number, e.title) for e in entries] == [(1, "I", "DEFINITIONS"), (2, "1.1", ""), (1, "II", "")]
    assert text[entries[0].char_start : entries[0].char_end] == "ARTICLE I\n\n   DEFINITIONS"


def test_untitled_sub_sections_are_listed_where_they_continue_the_numbering():
    text = (
        "5. TERMINATION\n\n5.1 This Agreement can be terminated at any time on notice.\n\n"
        "(B) a reorganization effected to implement a recapitalization of the Company or its successor. "
        "5.2 On any termination of this Agreement all stock options remain exercisable.\n\n"
        "1.01. AIRSOPURE grants to You the right to operate a Center.\n"
    )
    assert _summary(text) == [(1, "5", "TERMINATION"), (2, "5.1", ""), (2, "5.2", "")]


def test_a_number_opening_a_wrapped_line_is_not_a_section():
    text = "The Company shall issue to the Investor an aggregate of\n2.5 Million shares of Common Stock at closing.\n"
    assert _summary(text) == []


def test_legends_form_blanks_and_signature_labels_are_not_headings():
    text = (
        "CONFIDENTIAL PORTIONS OF THIS\n\nDOCUMENT HAVE BEEN REDACTED\n\nAND HAVE BEEN SEPARATELY\n\n"
        "FILED WITH THE COMMISSION\n\nGOVERNING LAW\n\nThis Agreement is governed by Texas law.\n\n"
        "EXHIBIT A\n\nAIRSOPURE:\n\nBy:    ---------------------------------\n\n"
        "WITNESS:          ------------------------\n\n"
        "UNITED CITIES GAS\n\n                                   BY: /s/ [ILLEGIBLE]\n"
    )
    assert [t for _, _, t in _summary(text)] == [
        "DOCUMENT HAVE BEEN REDACTED",
        "FILED WITH THE COMMISSION",
        "GOVERNING LAW",
        "EXHIBIT A",
    ]
