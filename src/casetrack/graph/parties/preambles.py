"""The parties a contract's preamble names: `by and between A, a Delaware corporation ("Licensor"),
and B ("Licensee")`, each linked to the defined terms that follow its name.

Names come from their corporate word or description (parties.py) and, without one, from their place
in the list (`and Stephen Marley ("Talent")`); a defined term belongs to the nearest name before it
that it can still describe. Offsets index the joined text.
"""

from __future__ import annotations

import re

from casetrack.graph.names import organization_key
from casetrack.graph.parties.defined_terms import DEFINED, DefinedTerm, defined_terms
from casetrack.graph.parties.party import QUOTES, ROLE_WORDS, RawParty, clean_name, name_before, org_names
from casetrack.graph.scan import lowered

Span = tuple[int, int]

_DESCRIPTOR = re.compile(
    r",[ \t\n]+an?[ \t\n]+(?:[A-Z][a-z]+[ \t\n]+){0,3}"
    r"(?:corporation|company|limited\s+liability\s+company|(?:limited\s+)?partnership|individual|bank|association|trust)\b",
    re.IGNORECASE,
)
# Where a preamble lists its parties: "between A and B", "BETWEEN: A ... AND: B", "(1) A ... (2) B".
_LISTED_BEFORE = re.compile(
    r"(?:\b(?:between|among|and)\b:?|^[ \t]*\((?:\d{1,2}|[a-h])\))\s+(?:the\s+)?$", re.IGNORECASE | re.M
)
# The same, and the artist a company lends: "Marine MP, LLC ("Lender"), for services of Arnold Schwarzenegger".
# Tried only where str.find sees one of _LISTING_WORDS (a regex scan of the preamble costs more than the rest).
_LISTING = re.compile(r"(?:between|among|and|f/s/o|services\s+of)\b:?\s+", re.IGNORECASE)
_LISTING_WORDS = ("between", "among", "and", "f/s/o", "services")
_LENT = re.compile(r"\b(?:for|furnishing|providing)\s+(?:the\s+)?$", re.IGNORECASE)  # "furnishing the services of"
_ITEM = re.compile(r"[ \t]*\((?:\d{1,2}|[a-h])\)[ \t]+")  # at a line start
_LOWER_WORD = re.compile(r"\s(?!(?:of|de)\s)[a-z]")
_LISTED_NAME_END = re.compile(r"[ \t]*[,(]|\s+(?:located|having|whose)\b")
_SENTENCE_END = re.compile(r"[a-z]{3,}\.$")  # "1. Grant of License and Rights.     (a) For the License Term"
_OFFICER = re.compile(r"\b(?:Officer|Director|President|Manager|Secretary|Chairman|Treasurer|CEO|CFO)\b", re.I)
_TRADE_NAME = re.compile(r"\b(?:d/b/a|dba|d\.b\.a\.|doing\s+business\s+as)\s+", re.IGNORECASE)
_ASSIGNS = re.compile(r"^,?\s*(?:and/or|and\s+its)\s+(?:permitted\s+)?(?:successors\s+and\s+)?assigns\b")
_WORDS_AND_BEFORE = re.compile(r"(?:[A-Z][\w.&'’\-]*\s+){1,4}and\s+$")


# Each opens a word (checked in _marker): a pattern opening with "\b" would be tried at every position, 20x slower.
_PREAMBLE_END = re.compile(
    r"(?:WHEREAS|RECITALS|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H|NOW,?\s+THEREFORE|agrees?\s+as\s+follows?|agree\s+that"
    r"|AGREE\s+AS\s+FOLLOWS|BACKGROUND)\b"
)
_PREAMBLE_MAX = 3000
_CONTENTS = ("TABLE OF CONTENTS", "Table of Contents")
# The sentence that opens an agreement: "This Agreement is made ...", "..., dated as of ..., by and between".
_OPENING = re.compile(
    r"\b(?:is|are)\s+(?:made|entered)\b|\bentered\s+into\b|\bdated\s+as\s+of\b|\bby\s+and\s+(?:between|among)\b",
    re.IGNORECASE,
)
_COVER_REACH = 10_000  # how far a cover page and a table of contents may push the opening
_OPENING_TO_TERM = 400


def preamble_end(text: str) -> int:
    """Where the preamble that names the parties ends: at the recitals or the words of agreement.

    A cover page and a table of contents may come first, and a table of contents lists "RECITALS" and
    "BACKGROUND" as headings: when one comes before any defined term, the preamble is the first opening
    sentence that defines a term, and ends at the first marker after it."""
    hi = _marker(text, 0, _PREAMBLE_MAX)
    contents = min((i for i in (text.find(c, 0, hi) for c in _CONTENTS) if i >= 0), default=-1)
    if contents < 0 or DEFINED.search(text, 0, contents):
        return hi
    for opening in _OPENING.finditer(text, contents, _COVER_REACH):
        if DEFINED.search(text, opening.end(), opening.end() + _OPENING_TO_TERM):
            return _marker(text, opening.end(), opening.start() + _PREAMBLE_MAX)
    return hi


def _marker(text: str, lo: int, hi: int) -> int:
    """Where the first end-of-preamble word in text[lo:hi] begins, else min(hi, len(text))."""
    end = _PREAMBLE_END.search(text, lo, hi)
    while end is not None and _is_word(text, end.start() - 1):
        end = _PREAMBLE_END.search(text, end.start() + 1, hi)
    return end.start() if end else min(len(text), hi)


def _is_word(text: str, i: int) -> bool:
    """Whether text[i] is a character of a word (`re`'s `\\w`); False before the text."""
    return i >= 0 and (text[i].isalnum() or text[i] == "_")


def contract_parties(text: str) -> list[RawParty]:
    """Parties named in a contract's preamble, each with the defined terms that follow its name."""
    hi = preamble_end(text)
    terms = list(defined_terms(text, 0, hi))
    names = [n for n in _with_full_names(text, _preamble_names(text, hi)) if not _on_filing_line(text, n[0])]
    listed = _listed_names(text, hi, names, terms)  # no corporate word: a party only if a defined term follows
    names = sorted(names + listed)
    parties: list[RawParty] = []
    linked: dict[Span, int] = {}  # a name with a defined term -> where its last term ends
    for d in terms:
        candidates = [(s, e) for s, e in names if e <= d.start and _takes(text, linked.get((s, e)), e, d.start)]
        if not candidates:
            continue
        s, e = _not_the_parent(text, candidates, linked)
        linked[s, e] = d.end
        parties.extend(_party(text, s, e, d, (s, e) in listed))
    parties.extend(_labelled(text, hi, names, linked))
    for s, e in names:  # unlinked names count only where the recital lists them: "between A and B"
        if (s, e) not in linked and (s, e) not in listed and _LISTED_BEFORE.search(text, max(0, s - 40), s):
            parties.append(RawParty(clean_name(text[s:e]), "party", None, s, e, person=_individual(text, e)))
    return sorted(parties, key=lambda p: p.start)


# A party described as part of another company: "Associated Natural Gas Company, a division of Arkansas Western Gas
# Company, ("Shipper")". The other company describes the party; it is one only with a term of its own, after the
# party's: 'HOF Village Media Group, LLC (the "Village Media Company"), ... a wholly-owned subsidiary of HOF Village,
# LLC, a Delaware limited liability company ("HOFV")'.
_PARENT_BEFORE = re.compile(
    r"\ban?\s+(?:(?:wholly|majority)[\s-]owned\s+|operating\s+)?(?:division|subsidiary|affiliate|unit)\s+of\s+(?:the\s+)?$",
    re.IGNORECASE,
)


def _not_the_parent(text: str, candidates: list[Span], linked: dict[Span, int]) -> Span:
    """The name that takes a term: the nearest, unless it is the parent company of a party still without one."""
    nearest = candidates[-1]
    if len(candidates) > 1 and _PARENT_BEFORE.search(text, max(0, nearest[0] - 40), nearest[0]):
        party = candidates[-2]
        if party not in linked and not text[party[1] : nearest[0]].count("("):
            return party
    return nearest


def _on_filing_line(text: str, start: int) -> bool:
    """Whether a name stands on the line an SEC exhibit ends its pages with, "Source: AGAPE ATP CORP, 10-K/A,
    12/2/2019": it names the company that filed the contract, not a party to it."""
    line = text.rfind("\n", 0, start) + 1
    return text.startswith("Source:", line)


def _takes(text: str, last_term: int | None, end: int, start: int) -> bool:
    """Whether the name ending at `end` takes the defined term at `start`. A name that has one takes another only
    after its description: `i3 Integrative Creative Solutions, LLC ("i3 ICS"), a Virginia limited liability
    company, having its offices at ... ("Reseller")`."""
    if last_term is None:
        return _attaches(text[end:start])
    return _DESCRIPTOR.match(text, last_term, start) is not None and _attaches(text[last_term:start])


# A party named after its role and a colon: "Party A: Beike Internet Security Technology Co., Ltd.",
# "Company: Bravatek Solutions, Inc.". The same label again (a cover page, then the preamble) is the same party.
_LABEL = re.compile(r"\b(?:Party\s+[A-Z0-9]|[A-Z][A-Za-z]+)[ \t]*$")  # tried before each colon


def _labelled(text: str, hi: int, names: list[Span], linked: dict[Span, int]) -> list[RawParty]:
    starts = {s: e for s, e in names if (s, e) not in linked}
    out: list[RawParty] = []
    colon = text.find(":", 0, hi)
    while colon != -1:
        label = _LABEL.search(text, max(0, colon - 20), colon)
        after = colon + 1
        while text[after : after + 1] in (" ", "\t"):
            after += 1
        e = starts.get(after)
        colon = text.find(":", colon + 1, hi)
        if label is None or e is None:
            continue
        term = label.group().rstrip()
        if not (term.startswith("Party") or term.lower() in ROLE_WORDS) or any(p.alias == term for p in out):
            continue
        linked[after, e] = after
        role = term.lower() if term.lower() in ROLE_WORDS else "party"
        out.append(RawParty(clean_name(text[after:e]), role, term, after, e, label.start(), label.start() + len(term),
                            _individual(text, e)))  # fmt: skip
    return out


def _party(text: str, s: int, e: int, d: DefinedTerm, listed: bool) -> list[RawParty]:
    """The party named text[s:e], once for each of its defined terms ("MusclePharm" or the "Company")."""
    described = _individual(text, e) or _individual(text, d.end)  # `Stephen Marley ("Talent"), an individual`
    # A name found by its place in the list, not by a corporate word, may be a person: its shape decides.
    person = None if listed and not described else described
    return [
        RawParty(clean_name(text[s:e]), term.lower() if term.lower() in ROLE_WORDS else "party", term, s, e, at,
                 at + len(term), person)
        for term, at in d.terms
    ]  # fmt: skip


def _individual(text: str, end: int) -> bool:
    """Contract parties are organisations unless described as individuals."""
    return re.match(r",?\s+an\s+individual\b", text[end : end + 40], re.IGNORECASE) is not None


def _preamble_names(text: str, hi: int) -> list[Span]:
    spans = org_names(text, 0, hi)
    for m in _DESCRIPTOR.finditer(text, 0, hi):
        start = name_before(text, m.start())
        if start is None:  # "and i-on interactive, a Florida corporation": the description makes it a name
            lower = _LOWER_NAME.search(text, max(0, m.start() - 60), m.start())
            start = lower.start("name") if lower and not _BREAK_WORD.search(lower["name"]) else None
        if start is not None and not any(s <= start < e or s < m.start() <= e for s, e in spans):
            spans.append((start, m.start()))
    # A trade name after "d/b/a" is the party before it under another name, not a party of its own.
    return sorted((s, e) for s, e in spans if not _TRADE_NAME.search(text, max(0, s - 20), s))


# A name written in small letters, between a listing word and the party's description.
_LOWER_NAME = re.compile(r"\b(?:between|and)\s+(?P<name>(?:[a-z][\w.&'’\-]*\s+){0,3}[a-z][\w.&'’\-]*)$")
_BREAK_WORD = re.compile(r"\b(?:the|a|an|its|their|each|any|all|such|other|this|that|which|who|shall|will|may)\b")


def _with_full_names(text: str, names: list[Span]) -> list[Span]:
    """A name may hold "and" ("ExxonMobil Research and Engineering Company"), which ends the walk back from its
    corporate word: where another name found (a cover page's) is the longer one, the name is read as that."""
    longer = {(s, e): m.start() for s, e in names
              if text[max(0, s - 4) : s].lower() == "and " and (m := _WORDS_AND_BEFORE.search(text, max(0, s - 60), s))}
    if not longer:
        return names
    keys = {organization_key(text[s:e]) for s, e in names}
    return [(longer[s, e], e) if (s, e) in longer and organization_key(text[longer[s, e] : e]) in keys else (s, e)
            for s, e in names]  # fmt: skip


def _listed_names(text: str, hi: int, names: list[Span], terms: list[DefinedTerm]) -> list[Span]:
    """Names without a corporate word where the preamble lists its parties: `and Stephen Marley ("Talent")`,
    "and The University of Iowa, located at ...". The whole run of words after the listing word must be a name,
    and not a term already defined (`ExxonMobil and FCE (each a "Party")`) nor an officer signing for a party
    ("represented by its Chief Operations Officer and Chief Technology Officer Martin Zuurbier")."""
    out: list[Span] = []
    for after in _listing_ends(text, hi):
        if not text[after : after + 1].isupper() or _joins_places(text, after):
            continue
        end = _LISTED_NAME_END.search(text, after, min(hi, after + 100))
        if end is None or _LOWER_WORD.search(text, after, end.start()):  # "and Distributor shall ...": no name
            continue
        start = name_before(text, end.start())
        if start is None or not after <= start <= after + 4:  # a leading "The" is dropped
            continue
        name = text[start : end.start()]
        defined = {t.casefold() for d in terms if d.end <= start for t, _ in d.terms}
        if _SENTENCE_END.search(name) or _OFFICER.search(name) or name.casefold() in defined:
            continue
        if not any(s < end.start() and start < e for s, e in names + out):
            out.append((start, end.start()))
    return out


def _joins_places(text: str, after: int) -> bool:
    """Whether the listing word before `after` is the "and" of an address, not of the parties' list."""
    return any(not text[m.end() : after].strip() for m in _PLACES_JOINED.finditer(text, max(0, after - 80), after + 1))


def _listing_ends(text: str, hi: int) -> list[int]:
    """Where a name may begin after a listing word in text[:hi] ("between ", "AND:   ", "\n(2) "), in order."""
    low = lowered(text)
    out = []
    for word in _LISTING_WORDS:
        i = low.find(word, 0, hi)
        while i != -1:
            m = None if _is_word(text, i - 1) else _LISTING.match(text, i, hi)
            if m and (word != "services" or _LENT.search(text, max(0, i - 20), i)):
                out.append(m.end())
            i = low.find(word, i + 1, hi)
    i = text.find("\n", 0, hi)
    while i != -1:
        m = _ITEM.match(text, i + 1, hi)
        if m:
            out.append(m.end())
        i = text.find("\n", i + 1, hi)
    return sorted(out)


# A party's address written straight after its name: "LIMITED Unit 05, 4F, Energy Plaza", "INC. 2nd Floor, ...".
_ADDRESS = re.compile(r"(?:\d+\w{0,2}|Unit|Suite|Floor|Room|P\.\s?O\.\s+Box)[ \t]", re.IGNORECASE)
# "and" joining the places of one party's address: "with its registered offices located at Berlin and Munich".
_PLACES_JOINED = re.compile(
    r"(\b(?:located|offices?|headquartered|based)\s+(?:at|in)\s+[A-Z][\w\-]+\s+)and(?=\s+[A-Z])"
)


# An aside in parentheses that defines nothing describes the party before it, its "and" lists no party:
# 'a Florida corporation (owner and operator of Dick's Wings and Grill) ("Sponsor")'.
_ASIDE = re.compile(r"\([^()\"“”]*\)")


def _attaches(gap: str) -> bool:
    """Whether a defined term after `gap` still belongs to the name before it."""
    trade_name = _TRADE_NAME.search(gap, 0, 8)  # "B C Marketing Concepts Inc., dba Full Sail Brewing Company, an ..."
    if trade_name:
        gap = gap[: trade_name.start()] + re.sub(r"^[^,(]*", "", gap[trade_name.end() :])
    gap = _ASSIGNS.sub("", gap, count=1)  # "MOUNT KNOWLEDGE HOLDINGS INC. and/or assigns, a corporation ..."
    if len(gap) > 320 or next(defined_terms(gap, 0, len(gap)), None) is not None:
        return False
    listing = _ASIDE.sub("", _PLACES_JOINED.sub(r"\1&", gap))
    if re.search(r"\b(?:and|AND|And)\s+(?:[A-Z\[]|the\s)", listing):
        return False  # "... 14623 And [*] ('Distributor')"
    if _closes_a_parenthesis(gap):  # "(Arte Café - ... Comercio de Cafe, a Brazil company, ...), and sells"
        return False
    stripped = gap.strip().lstrip(QUOTES + "”")  # `"Elephant Talk Communication Holding AG", a company ...`
    return (
        not stripped
        or stripped[0] in ",("
        or stripped.lower().startswith(("a ", "an ", "having", "located", "with"))
        or _ADDRESS.match(stripped) is not None
    )


def _closes_a_parenthesis(gap: str) -> bool:
    """Whether `gap` closes a parenthesis it did not open: the name was inside it, the term is outside."""
    depth = 0
    for c in gap:
        depth += (c == "(") - (c == ")")
        if depth < 0:
            return True
    return False
