"""The context graph's extraction core: pure functions from page text to located mentions.

Four finders and one bundle:

    find_authorities(pages) -> [AuthorityMention]   cases, statutes, rules, regulations + treatment
    find_entities(pages)    -> [EntityMention]      people, organisations, courts, money, concepts
    find_parties(pages)     -> [Party]              parties with roles and defined-term aliases
    find_dates(pages)       -> [DateMention]        ISO dates typed by event
    find_issues(pages, headings) -> [IssueMention]  clause headings, counts, causes of action
    extract(pages, headings=()) -> GraphExtract     all of the above, statutes/cases/dates also as entities
    extract_mentions(pages) -> GraphExtract         the same but the issues (they need the headings)

Every mention carries its page and `char_start`/`char_end` into that page's text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from casetrack.domain import ParsedPage
from casetrack.graph.citations.authorities import AuthorityMention, authorities_in, find_authorities
from casetrack.graph.citations.statutes import AuthorityKind
from casetrack.graph.citations.treatment import Treatment
from casetrack.graph.concepts import CONCEPTS
from casetrack.graph.dates.mentions import DateMention, EventType, find_dates
from casetrack.graph.entities import (
    EntityKind,
    EntityMention,
    Party,
    entities_in,
    find_entities,
    find_parties,
    parties_in,
    raw_parties,
)
from casetrack.graph.issues import Heading, IssueMention, find_issues, issues_with_causes
from casetrack.graph.mail.correspondents import CORRESPONDENT_ROLES
from casetrack.graph.names import entity_key, organization_key, person_key, same_entity
from casetrack.graph.pagetext import JoinedText, join_pages


@dataclass(frozen=True, slots=True)
class GraphExtract:
    authorities: tuple[AuthorityMention, ...]
    entities: tuple[EntityMention, ...]  # includes statutes, case citations and dates as entities
    parties: tuple[Party, ...]
    dates: tuple[DateMention, ...]
    issues: tuple[IssueMention, ...]


_CASE_KINDS = (AuthorityKind.CASE_LAW,)
CAUSES_OF_ACTION = frozenset(c.label for c in CONCEPTS if c.cause_of_action)


def extract(pages: Sequence[ParsedPage], headings: Sequence[Heading] = ()) -> GraphExtract:
    """Everything the context graph needs from one document's pages. Pure; never raises on odd text."""
    found = extract_mentions(pages)
    return replace(found, issues=tuple(issues_with_causes(pages, headings, causes_of_action(found.entities))))


def extract_mentions(pages: Sequence[ParsedPage], joined: JoinedText | None = None) -> GraphExtract:
    """All but the issues, which need the document's headings: ingestion runs this in the helper
    process while it finds the headings, then adds the issues (`issues_with_causes`). `joined`: the pages
    joined (`join_pages`), when the caller reads the same text too (its keyword pass is then shared)."""
    joined = join_pages(pages) if joined is None else joined
    authorities = authorities_in(joined)
    dates = find_dates(pages, joined)
    raws = raw_parties(joined.text)
    entities = entities_in(joined, raws)
    entities.extend(_authority_entities(authorities))
    entities.extend(_date_entities(dates))
    entities.sort(key=lambda e: (e.page, e.char_start))
    parties = parties_in(joined, raws)
    return GraphExtract(tuple(authorities), tuple(entities), tuple(parties), tuple(dates), ())


def causes_of_action(entities: Sequence[EntityMention]) -> list[IssueMention]:
    """The causes of action among the legal concepts found, as issues."""
    return [
        IssueMention(e.name, "cause_of_action", e.page, e.char_start, e.char_end, e.text)
        for e in entities
        if e.kind is EntityKind.LEGAL_CONCEPT and e.name in CAUSES_OF_ACTION
    ]


def _authority_entities(authorities: list[AuthorityMention]) -> list[EntityMention]:
    out = []
    for a in authorities:
        kind = EntityKind.CASE_CITATION if a.kind in _CASE_KINDS else EntityKind.STATUTE
        out.append(
            EntityMention(f"{kind.value}:{a.key}", a.display, kind, None, a.page, a.char_start, a.char_end, a.text)
        )
    return out


def _date_entities(dates: list[DateMention]) -> list[EntityMention]:
    return [
        EntityMention(f"date:{d.iso}", d.iso, EntityKind.DATE, d.event.value, d.page, d.char_start, d.char_end, d.text)
        for d in dates
    ]


__all__ = [
    "CORRESPONDENT_ROLES",
    "AuthorityKind",
    "AuthorityMention",
    "DateMention",
    "EntityKind",
    "EntityMention",
    "EventType",
    "GraphExtract",
    "Heading",
    "IssueMention",
    "Party",
    "Treatment",
    "causes_of_action",
    "entity_key",
    "extract",
    "extract_mentions",
    "find_authorities",
    "find_dates",
    "find_entities",
    "find_issues",
    "find_parties",
    "issues_with_causes",
    "organization_key",
    "person_key",
    "same_entity",
]
