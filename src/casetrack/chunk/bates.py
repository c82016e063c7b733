"""Bates numbers: the production stamps litigators cite pages by (PRD 07 §4).

A stamp is an upper-case prefix and a zero-padded serial — `ABC 000123`,
`ABC-000123`, `SMITH0004567`, `DEF_00012` — printed in a page's header or footer.
Only the first and last few non-empty lines are read, which is where stamps are and
where body text (dates, amounts, docket numbers) mostly is not.
"""

from __future__ import annotations

import re

EDGE_LINES = 3  # non-empty lines read at the top and at the bottom of a page

_STAMP = re.compile(
    r"(?<![\w./:#-])"  # not the tail of a docket number, URL, date or longer code
    r"(?P<prefix>[A-Z][A-Z0-9]{0,11}?)(?P<sep>[ _-]?)(?P<serial>\d{5,10})"
    r"(?![\w/.:-]?\d)(?!\w)"  # not followed by more of a phone number, date or range part
)

# Upper-case words that precede numbers that are not Bates stamps.
NOT_PREFIXES = frozenset(
    [
        "NO",
        "NOS",
        "NUMBER",
        "PAGE",
        "PAGES",
        "PG",
        "P",
        "PP",
        "CASE",
        "DOCKET",
        "DKT",
        "DOC",
        "DOCUMENT",
        "ID",
        "REF",
        "FILE",
        "FILED",
        "TEL",
        "PHONE",
        "FAX",
        "CELL",
        "MOBILE",
        "ZIP",
        "POSTAL",
        "PO",
        "BOX",
        "SUITE",
        "STE",
        "ROOM",
        "RM",
        "FLOOR",
        "APT",
        "UNIT",
        "EIN",
        "SSN",
        "TIN",
        "ACCT",
        "ACCOUNT",
        "INVOICE",
        "ORDER",
        "CIK",
        "SEC",
        "WL",
        "LEXIS",
        "USC",
        "CFR",
        "ISBN",
        "ISSN",
        "DATE",
        "CV",
        "CR",
        "AP",
        "BK",
        "MC",
        "MJ",
        "ECF",
        "CM",
        "EXHIBIT",
        "EX",
        "DX",
        "PX",
        "APPX",
        "JA",
        "ER",
        "SPA",
    ]
)
US_STATES = frozenset(
    [
        "AL",
        "AK",
        "AZ",
        "AR",
        "CA",
        "CO",
        "CT",
        "DE",
        "DC",
        "FL",
        "GA",
        "HI",
        "ID",
        "IL",
        "IN",
        "IA",
        "KS",
        "KY",
        "LA",
        "ME",
        "MD",
        "MA",
        "MI",
        "MN",
        "MS",
        "MO",
        "MT",
        "NE",
        "NV",
        "NH",
        "NJ",
        "NM",
        "NY",
        "NC",
        "ND",
        "OH",
        "OK",
        "OR",
        "PA",
        "RI",
        "SC",
        "SD",
        "TN",
        "TX",
        "UT",
        "VT",
        "VA",
        "WA",
        "WV",
        "WI",
        "WY",
        "PR",
        "GU",
        "VI",
    ]
)


def find_bates_number(page_text: str) -> str | None:
    """The Bates stamp in a page's header or footer lines, as printed; None if there is none.

    Footer lines are tried first (stamps are usually bottom-right). Never raises.
    """
    lines = [line.strip() for line in page_text.split("\n") if line.strip()]
    if not lines:
        return None
    edge = lines[-EDGE_LINES:][::-1] + lines[:EDGE_LINES]
    for line in edge:
        stamp = _stamp_in(line)
        if stamp:
            return stamp
    return None


def _stamp_in(line: str) -> str | None:
    for match in _STAMP.finditer(line):
        prefix, serial = match.group("prefix"), match.group("serial")
        letters = sum(ch.isalpha() for ch in prefix)
        if letters < 2 or prefix in NOT_PREFIXES:
            continue
        if prefix in US_STATES and len(serial) == 5:
            continue  # "NY 10018": a state and a ZIP code
        return match.group()
    return None
