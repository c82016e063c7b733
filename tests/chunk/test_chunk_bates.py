"""Bates stamps are found in header/footer lines and nowhere they are not."""

from __future__ import annotations

import pytest

from casetrack.chunk import find_bates_number

BODY = "\n".join(f"Body line {i} of the produced document, with nothing stamped." for i in range(20))


@pytest.mark.parametrize(
    ("footer", "expected"),
    [
        ("ABC 000123", "ABC 000123"),
        ("ABC-000123", "ABC-000123"),
        ("SMITH0004567", "SMITH0004567"),
        ("DEF_00012", "DEF_00012"),
        ("CONFIDENTIAL                    ABC 000123", "ABC 000123"),
        ("Page 3 of 10     XYZCORP 0012345", "XYZCORP 0012345"),
        ("(ACME-0000042)", "ACME-0000042"),
        # Not Bates numbers:
        ("Page 3 of 10", None),
        ("No. 21-1234", None),
        ("Case No. 2:21-cv-01234", None),
        ("January 19, 2023", None),
        ("01/19/2023", None),
        ("20230119", None),
        ("(212) 857-8528", None),
        ("Tel. 212-857-8528", None),
        ("TEL 2128578528", None),
        ("New York, NY 10018", None),
        ("New York, NY 10018-1234", None),
        ("St. Louis, MO 63102", None),
        ("2023 WL 128600", None),
        ("Document: 010110462922", None),
        ("Case 17-3510, Document 1-1, 10/31/2017, 2161300, Page1 of 2", None),
        ("$5,000,000", None),
        ("JOHN SMITH (SBN 123456)", None),  # attorney bar numbers open every pleading
        ("Jane Roe, Esq. (BBO 654321)", None),
        ("Mary Major, WSBA 12345", None),
        ("-12-", None),
        ("", None),
    ],
)
def test_bates_in_the_footer(footer, expected):
    assert find_bates_number(f"{BODY}\n{footer}\n") == expected


def test_bates_in_the_header_is_found_too():
    assert find_bates_number(f"\n\n  PLTF 000017\n{BODY}") == "PLTF 000017"


def test_a_stamp_like_token_in_the_middle_of_the_page_is_ignored():
    lines = BODY.split("\n")
    lines.insert(10, "see ABC 000123 for the earlier letter")
    assert find_bates_number("\n".join(lines)) is None


def test_footer_wins_over_header():
    assert find_bates_number(f"HDR 000001\n{BODY}\nFTR 000002") == "FTR 000002"


def test_blank_page_has_none():
    assert find_bates_number(" \n\n \t") is None


def test_in_a_paragraph_kept_on_one_line_only_its_ends_are_read():
    # PDF text of a contract keeps a paragraph on one line: its notice address is not a stamp ...
    address = (
        "sent at the following address: Sanofi Pasteur SA 14 Espace Henry Vallee CS 90119 69361 LYON CEDEX 07 - FRANCE"
    )
    paragraph = f"Each invoice shall reference this Amendment 3 and shall be {address}. Upon payment the fee is due."
    assert find_bates_number(f"{BODY}\n{paragraph}\n") is None
    # ... but a stamp printed at the page's corner, run into the last line, is.
    assert find_bates_number(f"{BODY}\n{paragraph} ABC 000123\n") == "ABC 000123"


@pytest.mark.parametrize(
    ("footer", "expected"),
    [
        ("CUSIP 037833100", None),
        ("ISIN US0378331005", None),
        ("Serial No. 87654321", None),
        ("Confidential - Subject to Protective Order ABC 000123", "ABC 000123"),
        ("GOOG-DOJ-00012345", "GOOG-DOJ-00012345"),
        ("HIGHLY CONFIDENTIAL   APL-EG_00012345", "APL-EG_00012345"),
        ("EX-10.3", None),
        ("Source: ACME INC, 10-K, 3/1/2019", None),
    ],
)
def test_identifier_codes_and_two_part_prefixes(footer, expected):
    assert find_bates_number(f"{BODY}\n{footer}\n") == expected
