"""Parties and their roles, from contract preambles and court captions.

Contracts: the names in the opening recital (`by and between A, a Delaware corporation
("Licensor"), and B ("Licensee")`), each linked to the defined term that follows it.
Court documents: captions (`X v. Y`, vertical captions with `Plaintiffs-Appellants,`
lines, `In re: X`) and `notice of appeal filed by X`. Offsets index the joined text
(pages joined by `pagetext.PAGE_SEPARATOR`); entities.py maps them to pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from casetrack.graph.names import looks_like_person
from casetrack.graph.scan import lowered
from casetrack.graph.truncation import SHORT_TITLE_WIDTH, complete_truncated, maybe_cut

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

_ROLE_LINE = re.compile(
    r"^[ \t\]|]*(?P<role>(?:Plaintiffs?|Defendants?|Petitioners?|Respondents?|Appellants?|Appellees?|Intervenors?"
    r"|Counter-?(?:Plaintiffs?|Defendants?)|Debtors?)(?:[-–/](?:Appellants?|Appellees?|Petitioners?|Respondents?"
    r"|Cross-Appellants?|Cross-Appellees?))*)[ \t]*[,.]?[ \t]*$",
    re.MULTILINE | re.IGNORECASE,
)
_CAPTION_STOP = re.compile(r"^\s*(?:v\.?|vs\.?|and|IN\s+RE:?|No\.|Case\b|.*LITIGATION\s*$)", re.IGNORECASE)
_VERSUS = re.compile(
    r"^(?P<label>[ \t]*(?:Re|RE|Short\s+Title|Caption|Case\s+Name):?[ \t]*)?(?P<a>[A-Z][^\n]{1,80}?)[ \t]+v\.[ \t]+"
    r"(?P<b>[A-Z][^\n,(]{1,80})",
    re.MULTILINE,
)
# A docket field's caption wraps: the next line continues the second name when it holds only capitalised
# words (and connectors), no label ("DC Docket #:"), no number ("No. 17-3510").
_WRAPPED_NAME = re.compile(
    r"\n[ \t]*[A-Z][\w.&'’\-]*"  # a capitalised word opens the line, only such words and connectors follow
    r"(?:[ \t]+(?:[A-Z][\w.&'’\-]*|of|and|the|&|de|for))*[ \t]*(?=\n|$)"
)
_CITATION_AFTER = re.compile(r"^[^\n]{0,40}?(?:\d+\s+(?:WL|U\.S\.|F\.|S\.\s?Ct\.)|__)")
_IN_RE = re.compile(  # `Inre:` too: OCR often drops the space
    r"\bIn\s*re\b:?[ \t]*\n?[ \t]*(?P<name>[A-Z][^\n]{2,80}(?:\n(?![ \t]*(?:No\.|Case|\n))[^\n]{1,80}){0,2})",
    re.IGNORECASE,
)
_APPEAL_BY = re.compile(
    r"notice\s+of\s+appeal\s+(?:was\s+)?filed\s+by\s+(?:the\s+)?(?P<name>[A-Z][\w.&'’\-]*(?:\s+(?:of\s+|&\s+)?[A-Z][\w.&'’\-]*){0,8})"
)
_ET_AL = re.compile(r",?\s+et\s+al\.?,?\s*$", re.IGNORECASE)


def caption_parties(text: str, caption_reach: int = 3000) -> list[RawParty]:
    """Parties from the caption area (the first `caption_reach` characters) of a court document."""
    area = text[:caption_reach]
    out: list[RawParty] = []
    for m in _ROLE_LINE.finditer(area):
        span = _name_lines_before(area, m.start())
        if span:
            s, e = span
            raw = re.split(r",?\s+et\s+al\b", area[s:e], flags=re.IGNORECASE)[0].rstrip(" ,.\n")
            out.append(RawParty(_caption_name(raw), _role(m["role"]), None, s, s + len(raw)))
    for m in _VERSUS.finditer(area):
        if not _caption_line(area, m) or _CITATION_AFTER.match(area, m.end("b")):
            continue
        label = m["label"].split()[0] if m["label"] else ""  # Short, Caption, Case: a docket field
        b_end = m.end("b")
        if label[:1] in ("S", "C") and (wrapped := _WRAPPED_NAME.match(area, b_end)) and _wraps(m, wrapped.group()):
            b_end = wrapped.end()
        a, b = m["a"].rstrip(" ,"), area[m.start("b") : b_end].rstrip(" ,.")
        for name, role, start in ((a, "plaintiff", m.start("a")), (b, "defendant", m.start("b"))):
            name_ = _caption_name(name)
            cut = label == "Short" and maybe_cut(name_)
            out.append(RawParty(name_, role, None, start, start + len(name), truncated=cut))
    for m in _IN_RE.finditer(area):
        if re.search(r"\bLITIGATION\b|\bPRACTICES\b", m["name"], re.IGNORECASE):  # a matter's name, not a party
            continue
        # The docket number often shares the line: `In re: RICHARD P. LIEBOWITZ   No. 21-800`.
        name = re.split(r"\s+No\.\s*\d|\s{3,}", m["name"].split("\n")[0])[0].strip().rstrip(",")
        if not looks_like_person(name.title()):
            continue
        out.append(RawParty(_caption_name(name), "respondent", None, m.start("name"), m.start("name") + len(name)))
    for m in _APPEAL_BY.finditer(text) if "notice of appeal" in lowered(text) else ():
        out.append(RawParty(m["name"], "appellant", None, m.start("name"), m.end("name")))
    return complete_truncated(_dedupe(out))


_WRAP_WIDTH = 40  # a caption line shorter than this did not wrap: what follows it is another line


def _wraps(m: re.Match[str], line: str) -> bool:
    """Whether `line` is the rest of the caption's second name: after a long line, in the name's case style
    (a `DOCKETING NOTICE` heading does not continue `Acme Corp`), within the docket system's width for a short
    title."""
    b = m["b"].rstrip()
    if m.end("b") - m.start() < _WRAP_WIDTH or line.isupper() != b.isupper():
        return False
    return not m["label"].lstrip().startswith("Short") or len(b) + len(" ".join(line.split())) + 1 <= SHORT_TITLE_WIDTH


def _caption_line(area: str, m: re.Match[str]) -> bool:
    """`X v. Y` is a caption when it opens its line after a label, a blank line or the start of the text."""
    if m["label"]:
        return True
    before = area[: m.start()].rstrip(" \t")
    return (
        not before
        or before.endswith("\n\n")
        or before.endswith(":")
        or (before[-1] == "\n" and before[:-1].rstrip(" \t").endswith(":"))
    )


def _name_lines_before(area: str, pos: int) -> tuple[int, int] | None:
    """The (at most three) name lines just above a role line, stopping at blank lines, `v.` or `In re`."""
    end = pos - 1 if pos > 0 else 0
    start = end
    for _ in range(3):
        line_start = area.rfind("\n", 0, start) + 1 if start > 0 else 0
        line = area[line_start:start]
        if not line.strip() or _CAPTION_STOP.match(line) or _ROLE_LINE.match(line):
            break
        start = line_start
        if line_start == 0:
            break
        start = line_start - 1 if line_start > 0 else 0
    s = start + 1 if start < end and area[start] == "\n" else start
    s = s + len(area[s:end]) - len(area[s:end].lstrip())
    return (s, end) if s < end else None


def _caption_name(name: str) -> str:
    name = _ET_AL.sub("", " ".join(name.split()).lstrip("] |")).strip(" ,.")
    return name


def _role(word: str) -> str:
    """`Plaintiffs-Appellants` -> `plaintiff-appellant`."""
    parts = [p[:-1] if p.endswith("s") and p[:-1] in ROLE_WORDS else p for p in re.split(r"[-–/]", word.lower())]
    return "-".join(parts)


def _dedupe(parties: list[RawParty]) -> list[RawParty]:
    out: list[RawParty] = []
    for p in sorted(parties, key=lambda p: (p.start, -p.end)):
        if any(p.start < q.end and q.start < p.end for q in out):
            continue
        out.append(p)
    return out
