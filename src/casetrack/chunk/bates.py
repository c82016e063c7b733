"""Bates numbers: the production stamps litigators cite pages by (PRD 07 §4).

A stamp is an upper-case prefix and a zero-padded serial — `ABC 000123`,
`ABC-000123`, `SMITH0004567`, `DEF_00012`, `GOOG-DOJ-00012345` — printed in a page's
header or footer.
Only the first and last few non-empty lines are read, which is where stamps are and
where body text (dates, amounts, docket numbers) mostly is not; of a long line (a paragraph
of PDF text kept on one line) only its two ends, where a stamp is printed.
"""

from __future__ import annotations

import re

EDGE_LINES = 3  # non-empty lines read at the top and at the bottom of a page
# A line longer than this is a paragraph, not a header or footer: a stamp counts only within
# CORNER_CHARS of its start or end ("... CS 90119 69361 LYON" in a notice address is not a stamp).
LONG_LINE_CHARS = 120
CORNER_CHARS = 40

_STAMP = re.compile(
    # The first letter is not the tail of a docket number, URL, date or longer code; checked
    # behind that letter so the pattern opens with a character set the engine skips to in C.
    # A prefix may have a second part naming the production: `GOOG-DOJ-00012345`, `APL-EG_00012345`.
    r"(?P<prefix>[A-Z](?<![\w./:#-][A-Z])[A-Z0-9]{0,11}?(?:[-_][A-Z][A-Z0-9]{0,7}?)?)"
    r"(?P<sep>[ _-]?)(?P<serial>\d{5,10})"
    r"(?![\w/.:-]?\d)(?!\w)"  # not followed by more of a phone number, date or range part
)

# Securities and bank identifiers, a stamp-like prefix of their own ("CUSIP 037833100") and a label
# naming the code after them ("ISIN US0378331005").
_SECURITIES_AND_BANKING = frozenset(["CUSIP", "ISIN", "SEDOL", "IBAN", "SWIFT", "ABA", "ROUTING"])

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
        # Attorney bar numbers, printed at the top of every pleading: "JOHN SMITH (SBN 123456)"
        "SBN",
        "CSBN",
        "BAR",
        "BBO",
        "WSBA",
        "OSB",
        "ARDC",
        "ATTY",
    ]
) | _SECURITIES_AND_BANKING
# Labels naming the code printed after them, which is then no stamp: "ISIN US0378331005",
# "Serial US1234567". ("Protective Order ABC 000123" is a stamp: ORDER is not a label here.)
IDENTIFIER_LABELS = _SECURITIES_AND_BANKING | frozenset(
    [
        "BIC",
        "ACCOUNT",
        "ACCT",
        "SERIAL",
        "PATENT",
        "POLICY",
        "TRACKING",
        "SKU",
        "LOT",
        "MODEL",
        "INVOICE",
        "CERTIFICATE",
        "REGISTRATION",
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
    for line in _edge_lines(page_text):
        stamp = _stamp_in(line)
        if stamp:
            return stamp
    return None


def _edge_lines(text: str) -> list[str]:
    """The last EDGE_LINES non-empty lines (stripped), bottom first, then the first EDGE_LINES.

    Read from both ends of the page with find/rfind: splitting and stripping every line of a
    page cost ten times more. A page with too few lines for the two ends to stay apart is split."""
    top: list[str] = []
    top_end = 0  # offset just past the last line read from the top
    while len(top) < EDGE_LINES and top_end <= len(text):
        newline = text.find("\n", top_end)
        line_end = len(text) if newline < 0 else newline
        if line := text[top_end:line_end].strip():
            top.append(line)
        top_end = line_end + 1
    bottom: list[str] = []
    bottom_end = len(text)  # end of the next line to read from the bottom
    while len(bottom) < EDGE_LINES:
        line_start = text.rfind("\n", 0, bottom_end) + 1
        if line_start < top_end:
            break  # read from the top already
        if line := text[line_start:bottom_end].strip():
            bottom.append(line)
        bottom_end = line_start - 1
    if len(bottom) < EDGE_LINES:  # the two ends meet: a short page
        lines = [line.strip() for line in text.split("\n") if line.strip()]
        return lines[-EDGE_LINES:][::-1] + lines[:EDGE_LINES]
    return bottom + top


def _stamp_in(line: str) -> str | None:
    long_line = len(line) > LONG_LINE_CHARS
    for match in _STAMP.finditer(line):
        if long_line and match.start() >= CORNER_CHARS and match.end() <= len(line) - CORNER_CHARS:
            continue  # in the middle of a paragraph
        prefix, serial = match.group("prefix"), match.group("serial")
        letters = sum(ch.isalpha() for ch in prefix)
        if letters < 2 or _not_a_stamp_prefix(prefix) or _label_before(line, match.start()) in IDENTIFIER_LABELS:
            continue
        if prefix in US_STATES and len(serial) == 5:
            continue  # "NY 10018": a state and a ZIP code
        return match.group()
    return None


def _not_a_stamp_prefix(prefix: str) -> bool:
    return prefix in NOT_PREFIXES or re.split(r"[-_]", prefix, maxsplit=1)[0] in NOT_PREFIXES


def _label_before(line: str, start: int) -> str:
    """The word before `start`, upper-cased, without its punctuation ("ISIN:" -> "ISIN")."""
    words = line[max(0, start - 20) : start].split()
    return words[-1].strip(".:#").upper() if words else ""
