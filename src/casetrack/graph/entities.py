"""Entities named in a document: parties, people with their roles (judges, attorneys, an
e-mail's senders and recipients), organisations, courts, money and legal concepts, each
mention located on its page.

Variants of one name share a key (`names.py`); a party's defined term (`the "Company"`)
is linked to the party, so later mentions of "Company" count as mentions of it. A bare
surname (`Dr. Xiang`) joins the one full name in the document that ends with it.
Statutes, case citations and dates become entities in `graph.extract`, from their own finders.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from casetrack.domain import ParsedPage
from casetrack.graph.concepts import find_concepts
from casetrack.graph.courts import court_role, find_courts
from casetrack.graph.mail.correspondents import correspondents
from casetrack.graph.names import display_name, entity_key, fuller_names, looks_like_person
from casetrack.graph.pagetext import JoinedText, join_pages
from casetrack.graph.parties.captions import caption_parties
from casetrack.graph.parties.party import RawParty, org_names
from casetrack.graph.parties.preambles import contract_parties
from casetrack.graph.people import people
from casetrack.graph.scan import (
    finditer_in_at,
    index_keywords,
    keyword_hits,
    lowered,
    near_keywords,
    windows_at,
)


class EntityKind(StrEnum):
    PERSON = "person"
    ORGANIZATION = "organization"
    COURT = "court"
    STATUTE = "statute"
    CASE_CITATION = "case_citation"
    DATE = "date"
    MONETARY_AMOUNT = "monetary_amount"
    LEGAL_CONCEPT = "legal_concept"


@dataclass(frozen=True, slots=True)
class EntityMention:
    key: str  # merge key: "organization:smith corp", "court:ca8", "person:john smith"
    name: str  # display name of the merged entity
    kind: EntityKind
    role: str | None  # "plaintiff", "judge", "attorney", "distributor"...
    page: int
    char_start: int  # page_text[char_start:char_end] == text
    char_end: int
    text: str


@dataclass(frozen=True, slots=True)
class Party:
    key: str
    name: str
    kind: EntityKind  # PERSON or ORGANIZATION
    role: str  # "plaintiff", "licensor", ... or "party" when the document gives none
    aliases: tuple[str, ...]  # defined terms naming it: ("Company",)
    page: int  # where it is first named
    char_start: int
    char_end: int


_MONEY_KEYWORDS = ("$", "€", "£", "usd", "eur", "gbp", "dollar")
_MONEY = re.compile(
    r"(?:US\$|U\.S\.[ \t]?\$|\$|USD[ \t]?|€|£|EUR[ \t]?|GBP[ \t]?)[ \t]?(?P<amount>\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?"
    r"|\d+(?:\.\d{1,2})?)"
    r"(?:[ \t]?(?P<scale>million|billion|thousand)\b)?"
    r"|\(?(?P<amount2>\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)\)?[ \t]+(?:U\.S\.[ \t]+)?(?P<cur>dollars"
    r"|Dollars|DOLLARS|USD)\b"
)
index_keywords(_MONEY_KEYWORDS)
_SCALE = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_CURRENCY = {"€": "EUR", "£": "GBP", "EUR": "EUR", "GBP": "GBP"}


def find_parties(pages: Sequence[ParsedPage]) -> list[Party]:
    """Parties of the document with roles and defined-term aliases, one per merged name."""
    joined = join_pages(pages)
    return parties_in(joined, raw_parties(joined.text))


def find_entities(pages: Sequence[ParsedPage]) -> list[EntityMention]:
    """People, organisations, courts, money and legal concepts on `pages`, in reading order."""
    return entities_in(join_pages(pages))


def entities_in(joined: JoinedText, raws: list[RawParty] | None = None) -> list[EntityMention]:
    """`find_entities` over pages already joined; `raws` from `raw_parties` when the caller has them."""
    text = joined.text
    low = lowered(text)
    raws = raw_parties(text) if raws is None else raws
    found: list[tuple[int, int, str, EntityKind, str | None]] = []  # start, end, name, kind, role
    for p in raws:
        found.append((p.start, p.end, p.name, _party_kind(p), p.role))
        if p.alias and p.alias_start is not None and p.alias_end is not None:
            found.append((p.alias_start, p.alias_end, p.name, _party_kind(p), p.role))
    found.extend(_alias_mentions(text, raws))
    found.extend((s, e, name, EntityKind.PERSON, role) for s, e, name, role in people(text, low))
    found.extend((s, e, name, EntityKind.PERSON, role) for s, e, name, role in correspondents(text, low))
    for s, e in org_names(text):
        found.append((s, e, " ".join(text[s:e].split()).rstrip(","), EntityKind.ORGANIZATION, None))
    found.extend(_known_name_mentions(text, low, found))
    out = _dedupe_spans(found)
    mentions = list(_to_mentions(joined, out))
    mentions.extend(_courts(joined))
    mentions.extend(_money(joined, low))
    mentions.extend(_concepts(joined, low))
    return sorted(mentions, key=lambda m: (m.page, m.char_start))


def raw_parties(text: str) -> list[RawParty]:
    """Party names in the joined text, unmerged: from the caption of a court document, else from the
    preamble of a contract (a complaint's "Smith Corp. and Jones LLC executed the Agreement" is not one)."""
    return caption_parties(text) or contract_parties(text)


def _party_kind(p: RawParty) -> EntityKind:
    person = looks_like_person(p.name.title()) if p.person is None else p.person
    return EntityKind.PERSON if person else EntityKind.ORGANIZATION


def parties_in(joined: JoinedText, raws: list[RawParty]) -> list[Party]:
    """`raws` merged by name key, each with its roles and aliases, located where first named."""
    keys = [entity_key(p.name, _party_kind(p).value) for p in raws]
    fuller = fuller_names(keys)
    by_key: dict[str, list[RawParty]] = {}
    for p, key in zip(raws, keys, strict=True):
        by_key.setdefault(fuller.get(key, key), []).append(p)
    out: list[Party] = []
    for key, group in by_key.items():
        first = min(group, key=lambda p: p.start)
        located = joined.locate(first.start, first.end)
        if located is None:
            continue
        aliases = tuple(dict.fromkeys(p.alias for p in group if p.alias))
        out.append(Party(key, display_name(p.name for p in group), _party_kind(first), _roles(group), aliases,
                         *located))  # fmt: skip
    return sorted(out, key=lambda p: (p.page, p.char_start))


def _roles(group: list[RawParty]) -> str:
    """One party's roles in reading order, as captions join them: defendant below and appellant here is
    `defendant-appellant`; `party` when the document gives none."""
    parts = [part for p in sorted(group, key=lambda p: p.start) if p.role != "party" for part in p.role.split("-")]
    return "-".join(dict.fromkeys(parts)) or "party"


def _alias_mentions(text: str, raws: list[RawParty]) -> Iterator[tuple[int, int, str, EntityKind, str | None]]:
    """Every later use of a party's defined term ("the Company") is a mention of that party."""
    for p in raws:
        if not p.alias or p.alias_end is None:
            continue
        flags = re.IGNORECASE if p.alias.isupper() else 0
        pattern = re.compile(rf"{re.escape(p.alias)}(?![\w\"”’'])", flags)  # literal-led: fast to scan for
        for m in pattern.finditer(text, p.alias_end):
            before = text[m.start() - 1] if m.start() else " "
            if not (before.isalnum() or before in "\"“‘'_"):
                yield m.start(), m.end(), p.name, _party_kind(p), p.role


def _known_name_mentions(
    text: str, low: str, found: list[tuple[int, int, str, EntityKind, str | None]]
) -> Iterator[tuple[int, int, str, EntityKind, str | None]]:
    """Later uses of a full name already found (`attorney Richard P. Liebowitz`), in any case or line wrapping."""
    names: dict[str, tuple[str, EntityKind, str | None]] = {}
    for _, _, name, kind, role in found:
        if len(name.split()) >= 2 and len(name) >= 6:
            names.setdefault(name.casefold(), (name, kind, role))
    if not names:
        return
    words = sorted(names, key=len, reverse=True)
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(r"\s+".join(re.escape(w) for w in n.split()) for n in words) + r")(?!\w)",
        re.IGNORECASE,
    )
    first_words = {n.split()[0].lower() for n in words}
    reach = max(len(n) for n in words) + 10
    # A match opens with a name's first word, so the pattern is tried only where one occurs: the same
    # matches as scanning every window around those words, without trying it at every position.
    hits = keyword_hits(low, first_words)
    for m in finditer_in_at(pattern, text, windows_at(hits, len(text), reach), sorted({s for s, _ in hits})):
        name, kind, role = names[" ".join(m.group().split()).casefold()]
        yield m.start(), m.end(), name, kind, role


def _dedupe_spans(
    found: list[tuple[int, int, str, EntityKind, str | None]],
) -> list[tuple[int, int, str, EntityKind, str | None]]:
    """Overlapping finds keep the first (parties before people before bare organisations)."""
    out: list[tuple[int, int, str, EntityKind, str | None]] = []
    taken = bytearray(max((f[1] for f in found), default=0))
    for f in found:
        if any(taken[f[0] : f[1]]):
            continue
        out.append(f)
        taken[f[0] : f[1]] = b"\x01" * (f[1] - f[0])
    return out


def _to_mentions(
    joined: JoinedText, found: list[tuple[int, int, str, EntityKind, str | None]]
) -> Iterator[EntityMention]:
    keys = [entity_key(name, kind.value) for _, _, name, kind, _ in found]
    fuller = fuller_names(keys)
    keys = _merge_surnames([fuller.get(k, k) for k in keys])
    names: dict[str, list[str]] = {}
    roles: dict[str, str] = {}
    for key, (_, _, name, _, role) in zip(keys, found, strict=True):
        names.setdefault(key, []).append(name)
        if role and key not in roles:
            roles[key] = role
    displays = {key: display_name(variants) for key, variants in names.items()}
    for key, (s, e, _, kind, role) in zip(keys, found, strict=True):
        located = joined.locate(s, e)
        if located is None:
            continue
        page, ls, le = located
        yield EntityMention(key, displays[key], kind, role or roles.get(key), page, ls, le, joined.text[s:e])


def _merge_surnames(keys: list[str]) -> list[str]:
    """`person:xiang` -> `person:haitao xiang` when exactly one full name in the document ends with it."""
    full = {k for k in keys if k.startswith("person:") and " " in k}
    out = []
    for k in keys:
        if k.startswith("person:") and " " not in k:
            surname = k.removeprefix("person:")
            matches = [f for f in full if f.split()[-1] == surname or f.split()[-2:-1] == [surname]]
            if len(matches) == 1:
                out.append(matches[0])
                continue
        out.append(k)
    return out


def _courts(joined: JoinedText) -> Iterator[EntityMention]:
    courts = find_courts(joined.text)
    circuits = {c.key for c in courts if c.key.startswith("ca") and c.key != "ca"}
    for c in courts:
        key, name = c.key, c.name
        if key == "ca" and len(circuits) == 1:  # a bare "United States Court of Appeals" in a one-circuit document
            key = next(iter(circuits))
            name = next(x.name for x in courts if x.key == key)
        located = joined.locate(c.start, c.end)
        if located:
            yield EntityMention(f"court:{key}", name, EntityKind.COURT, court_role(joined.text, c, courts), *located,
                                joined.text[c.start : c.end])


def _money(joined: JoinedText, low: str) -> Iterator[EntityMention]:
    for m in near_keywords(_MONEY, _MONEY_KEYWORDS, joined.text, low, 40):
        amount = float((m["amount"] or m["amount2"]).replace(",", "")) * _SCALE.get((m["scale"] or "").lower(), 1)
        symbol = m.group().lstrip()[:3]
        currency = next((v for k, v in _CURRENCY.items() if symbol.startswith(k)), "USD")
        name = f"{currency} {amount:,.2f}"
        located = joined.locate(m.start(), m.end())
        if located:
            yield EntityMention(f"monetary_amount:{currency} {amount:.2f}", name, EntityKind.MONETARY_AMOUNT, None,
                                *located, m.group())  # fmt: skip


def _concepts(joined: JoinedText, low: str) -> Iterator[EntityMention]:
    for concept, m in find_concepts(joined.text, low):
        located = joined.locate(m.start(), m.end())
        if located:
            yield EntityMention(f"legal_concept:{concept.label.lower()}", concept.label, EntityKind.LEGAL_CONCEPT,
                                    None, *located, m.group())  # fmt: skip


__all__ = [
    "EntityKind",
    "EntityMention",
    "Party",
    "entities_in",
    "find_entities",
    "find_parties",
    "parties_in",
    "raw_parties",
]
