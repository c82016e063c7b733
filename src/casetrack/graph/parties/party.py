"""Parties and their roles: the raw party record and where an organisation's name begins.

A name is found from its end, a corporate word ("Inc.", "Limited") or a description
(", a Delaware corporation"), by walking back over the words of a name. Contract preambles
are read in preambles.py, court captions in captions.py. Offsets index the joined text (pages
joined by `pagetext.PAGE_SEPARATOR`); entities.py maps them to pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from casetrack.graph.jurisdictions import STATE_BY_NAME

ROLE_WORDS = frozenset(
    [
        "plaintiff",
        "defendant",
        "petitioner",
        "respondent",
        "appellant",
        "appellee",
        "licensor",
        "licensee",
        "distributor",
        "company",
        "consultant",
        "agent",
        "reseller",
        "supplier",
        "customer",
        "vendor",
        "manufacturer",
        "purchaser",
        "buyer",
        "seller",
        "employer",
        "employee",
        "contractor",
        "subcontractor",
        "landlord",
        "tenant",
        "lessor",
        "lessee",
        "lender",
        "borrower",
        "guarantor",
        "client",
        "provider",
        "partner",
        "franchisor",
        "franchisee",
        "developer",
        "publisher",
        "investor",
        "shareholder",
        "member",
        "owner",
        "operator",
        "servicer",
        "recipient",
        "discloser",
        "producer",
        "intervenor",
        "debtor",
        "creditor",
        "trustee",
    ]
)


@dataclass(frozen=True, slots=True)
class RawParty:
    name: str
    role: str  # a role word ("plaintiff", "distributor") or "party"
    alias: str | None  # the defined term, as written: "Company"
    start: int  # span of the name in the joined text
    end: int
    alias_start: int | None = None
    alias_end: int | None = None
    person: bool | None = None  # None: decide from the name's shape
    truncated: bool = False  # a docket short-title side that may have been cut (truncation.py)


# A corporate suffix closing a name ("Inc.", "CORPORATION", "L.L.C."), capitalised: "a Delaware corporation"
# describes, "Biopure Corporation" names. The pattern opens with the suffix so `re` skips ahead fast.
# Two-letter postal codes that double as suffixes (CO, PA, NV, SC) are left out: "Denver, CO" is a place.
_SUFFIX_FORMS = [
    "Incorporated",
    "INCORPORATED",
    "Corporation",
    "CORPORATION",
    "Company",
    "COMPANY",
    "Limited",
    "LIMITED",
    "Inc",
    "INC",
    "Corp",
    "CORP",
    "Co",
    "LLC",
    "L.L.C",
    "LLP",
    "L.L.P",
    "LP",
    "L.P",
    "Ltd",
    "LTD",
    "PLC",
    "plc",
    "Plc",
    "GmbH",
    "GMBH",
    "AG",
    "N.V",
    "S.A",
    "B.V",
    "P.C",
    "SRL",  # a Romanian or Italian limited company, an Italian joint-stock company, a French SARL
    "S.R.L",
    "S.p.A",
    "SpA",
    "SARL",
]
# Not the first part of a hyphenated word: "Co-Branding" is no company.
_ORG_END = re.compile(rf"(?:{'|'.join(re.escape(f) for f in _SUFFIX_FORMS)})\b(?!-)\.?")  # preceded by space/comma
_LEADING_STOP = frozenset(["the", "this", "by", "between", "among", "and", "with", "whereas", "agreement", "of", "for"])
# Words that end a name when walking back from its suffix, whatever their case ("IN NO EVENT SHALL COMPANY").
_BREAK_WORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "shall",
        "will",
        "may",
        "must",
        "whether",
        "any",
        "all",
        "such",
        "each",
        "no",
        "not",
        "in",
        "to",
        "by",
        "with",
        "this",
        "that",
        "which",
        "if",
        "or",
        "party",
        "parties",
        "between",
        "among",
        "regardless",
        "notwithstanding",
        "other",
        "than",
        "under",
        "upon",
        "from",
        "hereby",
        "herein",
        "said",
    ]
)
_BREAK_WORDS |= frozenset(  # a role before a name is not part of it: "Attorney for Plaintiff Smith Corp"
    ["attorney", "attorneys", "counsel", "plaintiff", "plaintiffs", "defendant", "defendants", "petitioner",
     "respondent", "appellant", "appellee"]
)  # fmt: skip
_BREAK_WORDS |= frozenset(["agreement"])  # a name never runs back into the title: "IP RIGHTS AGREEMENT Synchron"
# Words of a signature block ("NAME", "Title:", "Signature" on its own line) and "for" end a name too, unless
# capitalised inside one: "Signature Orthopaedics Pty Ltd", "Food For Athletes, Inc.".
_FORM_WORDS = frozenset(["for", "event", "name", "title", "signature", "print", "date"])
# A name word: capitalised ("Acme", "10X", "Sterling/Winters"), a brand with a capital or a digit inside ("iMine",
# "eDiets", "i3", "bw-3"), a domain ("ebix.com"), a connector; a trade-mark sign may close it ("BioNutrients™").
_NAME_WORD = re.compile(
    r"^(?:[A-Z0-9][\w.&'’\-/]*|[a-z][a-z\-]*[A-Z0-9][\w.&'’\-]*|[a-z][\w\-]*\.(?:com|net|org|io)\b[\w.\-]*|&|of|de)"
    r"[™®]?[,]?$"
)
_INNER_PARENTHESIS = re.compile(r"\([A-Z][A-Za-z.]{1,10}\)")  # "TOM Online (BVI) Limited"
_DASHES = ("-", "–")  # "National Football League Alumni - Northern California Chapter"
QUOTES = "\"“"


def name_before(text: str, end: int) -> int | None:
    """Start of the capitalised name that ends at `end` (e.g. before ", Inc." or ", a Delaware corporation")."""
    lo = max(0, end - 120)
    words = [(m.start() + lo, m.group()) for m in re.finditer(r"\S+", text[lo:end])]
    start: int | None = None
    for i in range(len(words) - 1, -1, -1):
        pos, word = words[i]
        last = i == len(words) - 1
        if _INNER_PARENTHESIS.fullmatch(word) or (not last and word in _DASHES and _joins(words, i)):
            continue
        if word[0] in QUOTES and _NAME_WORD.match(word[1:]):  # a name in quotation marks starts at the mark
            start = pos + 1
            break
        bare = word.rstrip(",.").lower()
        if not _NAME_WORD.match(word) or (word.endswith(",") and not last) or word.endswith((")", ":", ";")):
            break
        if bare in _FORM_WORDS and not _inside_a_name(text, pos, word):
            break
        if bare in _BREAK_WORDS or (not last and word.endswith(".") and len(bare) >= 4 and bare.isalpha()):
            break  # a stop word, or a sentence end ("Services. TruckThat LLC")
        if "\n\n" in text[pos + len(word) : end] and not last:
            break
        start = pos
    if start is None:
        return None
    while True:  # drop leading stop words, connectors and numbers ("between", "and", "10018")
        m = re.match(r"\S+\s*", text[start:end])
        if m is None:
            return None
        first = m.group().strip().rstrip(",")
        number = not any(c.isalpha() for c in first)
        if first.lower() in _LEADING_STOP or (number and not _numbered(text, start + m.end())):
            start += m.end()
            continue
        break
    if start >= end or not text[start].isalnum():
        return None
    if text[start:end].strip(" ,").lower() in STATE_BY_NAME:  # "the TOWN OF VINTON, VIRGINIA, a Virginia ..."
        town = _MUNICIPALITY.search(text, max(0, start - 60), start)
        return town.start() if town else None  # a State alone names no contracting party
    return start


# A company known by its registration number and province: "695014 B.C. Ltd.", "2251723 Ontario Inc.".
_PROVINCE = re.compile(
    r"(?:B\.C\.|BC|Alberta|Ontario|Qu[eé]bec|Manitoba|Saskatchewan|Nova\s+Scotia|New\s+Brunswick|Yukon|Canada)\s"
)


def _numbered(text: str, after_number: int) -> bool:
    """Whether the number before `after_number` begins a numbered company's name."""
    return _PROVINCE.match(text, after_number) is not None


def _inside_a_name(text: str, pos: int, word: str) -> bool:
    """A form word capitalised within a line ("Signature Orthopaedics"), not a label on a line of its own."""
    titled = word[0].isupper() and word[1:].rstrip(",.").islower()
    return titled and text[pos + len(word) : pos + len(word) + 1] != "\n"


def _joins(words: list[tuple[int, str]], i: int) -> bool:
    """Whether the dash at words[i] sits between two words of a name (not "Exhibit A - Acme")."""
    before = words[i - 1][1] if i > 0 else ""
    return len(before) > 2 and before.isalpha() and before.lower() not in _BREAK_WORDS


_MUNICIPALITY = re.compile(
    r"\b(?:City|Town|County|Village|Borough|Township)\s+of\s+[A-Z][\w.'’\- ]{0,30},\s*$", re.IGNORECASE
)


_ARTICLE_BEFORE = re.compile(r"\b(?:a|an|A|An)\s+$")


def org_names(text: str, lo: int = 0, hi: int | None = None) -> list[tuple[int, int]]:
    """Spans of organisation names with a corporate suffix in text[lo:hi]."""
    hi = len(text) if hi is None else hi
    out: list[tuple[int, int]] = []
    for m in _ORG_END.finditer(text, lo, hi):
        if m.start() == 0 or text[m.start() - 1] not in " \t\n,":
            continue
        if out and m.start() - out[-1][1] <= 3 and not text[out[-1][1] : m.start()].strip(" ,"):
            out[-1] = (out[-1][0], m.end())  # a second corporate word: "Warehouse Corporation LLC", "Co., Ltd."
            continue
        before = m.start()
        while before > 0 and text[before - 1] in " \t\n":
            before -= 1
        if before > 0 and text[before - 1] == ",":
            before -= 1
        start = name_before(text, before)
        if start is None or start < lo or _ARTICLE_BEFORE.search(text, max(0, start - 4), start):
            continue
        if out and start < out[-1][1]:
            continue
        out.append((start, m.end()))
    return out


def clean_name(name: str) -> str:
    """A name as shown: whitespace collapsed, no trailing comma, no trade-mark sign."""
    return " ".join(name.replace("™", "").replace("®", "").split()).rstrip(",")


# --- court captions ------------------------------------------------------------------
