"""Parties and their roles: the raw party record, organisation names, and contract preambles.

Contracts: the names in the opening recital (`by and between A, a Delaware corporation
("Licensor"), and B ("Licensee")`), each linked to the defined term that follows it.
Court captions are read in captions.py. Offsets index the joined text (pages joined by
`pagetext.PAGE_SEPARATOR`); entities.py maps them to pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
]
_ORG_END = re.compile(rf"(?:{'|'.join(re.escape(f) for f in _SUFFIX_FORMS)})\b\.?")  # preceded by space/comma
_DESCRIPTOR = re.compile(
    r",[ \t\n]+an?[ \t\n]+(?:[A-Z][a-z]+[ \t\n]+){0,3}"
    r"(?:corporation|company|limited\s+liability\s+company|(?:limited\s+)?partnership|individual|bank|association|trust)\b",
    re.IGNORECASE,
)
_DEFINED = re.compile(
    r"\(\s*(?:the\s+|each\s+a\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?)?[\"“‘'](?P<term>[^\"”’'\n]{1,60})[\"”’']\s*\)"
    r"|hereinafter(?:\s+referred\s+to\s+as)?,?\s+(?:the\s+)?[\"“‘'](?P<term2>[^\"”’'\n]{1,60})[\"”’']",
    re.IGNORECASE,
)
_PREAMBLE_END = re.compile(
    r"\bWHEREAS\b|\bRECITALS\b|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H|\bNOW,?\s+THEREFORE\b|\bagree(?:s)?\s+as\s+follows\b"
    r"|\bagree\s+that\b|\bAGREE\s+AS\s+FOLLOWS\b|\bBACKGROUND\b"
)
_PREAMBLE_MAX = 3000
_LEADING_STOP = frozenset(["the", "this", "by", "between", "among", "and", "with", "whereas", "agreement", "of"])
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
        "for",
        "with",
        "this",
        "that",
        "which",
        "if",
        "or",
        "event",
        "name",
        "title",
        "signature",
        "print",
        "date",
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
_NAME_WORD = re.compile(r"^(?:[A-Z0-9][\w.&'’\-]*|[a-z][\w\-]*\.(?:com|net|org|io)\b[\w.\-]*|&|of|de)[,]?$")


def name_before(text: str, end: int) -> int | None:
    """Start of the capitalised name that ends at `end` (e.g. before ", Inc." or ", a Delaware corporation")."""
    lo = max(0, end - 120)
    words = [(m.start() + lo, m.group()) for m in re.finditer(r"\S+", text[lo:end])]
    start: int | None = None
    for i in range(len(words) - 1, -1, -1):
        pos, word = words[i]
        last = i == len(words) - 1
        bare = word.rstrip(",.").lower()
        if not _NAME_WORD.match(word) or (word.endswith(",") and not last) or word.endswith((")", ":", ";")):
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
        if first.lower() in _LEADING_STOP or not any(c.isalpha() for c in first):
            start += m.end()
            continue
        break
    return start if start < end and text[start].isalnum() else None


_ARTICLE_BEFORE = re.compile(r"\b(?:a|an|A|An)\s+$")


def org_names(text: str, lo: int = 0, hi: int | None = None) -> list[tuple[int, int]]:
    """Spans of organisation names with a corporate suffix in text[lo:hi]."""
    hi = len(text) if hi is None else hi
    out: list[tuple[int, int]] = []
    for m in _ORG_END.finditer(text, lo, hi):
        if m.start() == 0 or text[m.start() - 1] not in " \t\n,":
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


def contract_parties(text: str) -> list[RawParty]:
    """Parties named in a contract's preamble, each with the defined term that follows its name."""
    end_marker = _PREAMBLE_END.search(text, 0, _PREAMBLE_MAX)
    hi = end_marker.start() if end_marker else min(len(text), _PREAMBLE_MAX)
    names = _preamble_names(text, hi)
    parties: list[RawParty] = []
    linked: set[tuple[int, int]] = set()
    for d in _DEFINED.finditer(text, 0, hi):
        term = d["term"] or d["term2"]
        candidates = [(s, e) for s, e in names if e <= d.start() and _attaches(text[e : d.start()])]
        if not candidates:
            continue
        s, e = candidates[-1]
        if (s, e) in linked:
            continue
        linked.add((s, e))
        term_start = d.start("term") if d["term"] else d.start("term2")
        role = term.lower() if term.lower() in ROLE_WORDS else "party"
        parties.append(
            RawParty(_clean(text[s:e]), role, term, s, e, term_start, term_start + len(term), _individual(text, e))
        )
    for s, e in names:  # unlinked names count only where the recital lists them: "between A and B"
        if (s, e) not in linked and _LISTED_BEFORE.search(text, max(0, s - 40), s):
            parties.append(RawParty(_clean(text[s:e]), "party", None, s, e, person=_individual(text, e)))
    return sorted(parties, key=lambda p: p.start)


_LISTED_BEFORE = re.compile(r"\b(?:between|among|and|AND|BETWEEN|AMONG)\s+$")


def _individual(text: str, end: int) -> bool:
    """Contract parties are organisations unless described as individuals."""
    return re.match(r",?\s+an\s+individual\b", text[end : end + 40], re.IGNORECASE) is not None


def _preamble_names(text: str, hi: int) -> list[tuple[int, int]]:
    spans = org_names(text, 0, hi)
    for m in _DESCRIPTOR.finditer(text, 0, hi):
        start = name_before(text, m.start())
        if start is not None and not any(s <= start < e or s < m.start() <= e for s, e in spans):
            spans.append((start, m.start()))
    return sorted(spans)


def _attaches(gap: str) -> bool:
    """Whether a defined term after `gap` still belongs to the name before it."""
    if len(gap) > 320 or _DEFINED.search(gap):
        return False
    if re.search(r"\b(?:and|AND|And)\s+(?:[A-Z\[]|the\s)", gap):  # "... 14623 And [*] ('Distributor')"
        return False
    stripped = gap.strip()
    return (
        not stripped or stripped[0] in ",(" or stripped.lower().startswith(("a ", "an ", "having", "located", "with"))
    )


def _clean(name: str) -> str:
    return " ".join(name.split()).rstrip(",")


# --- court captions ------------------------------------------------------------------
