"""The merged context graph of a case as values: nodes (parties, entities, authorities, issues) with every place
each is named, and the timeline's events. Built by `case_graph.build_graph`; read by the graph tools."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from casetrack.domain import Document, Provenance


class Mention(NamedTuple):
    """One place a node is named. A tuple, not a frozen dataclass: a 1,000-document case builds
    ~170,000 of these at its first graph call, and a frozen dataclass's __init__ costs 3x more."""

    document_id: str
    document_name: str
    chunk_id: str | None
    page: int
    char_start: int
    char_end: int
    text: str
    treatment: str | None = None  # authorities only
    role: str | None = None


@dataclass(slots=True)
class Node:
    """A merged entity or authority across the case."""

    key: str
    name: str
    kind: str
    roles: set[str] = field(default_factory=set)
    mentions: list[Mention] = field(default_factory=list)

    @property
    def documents(self) -> set[str]:
        return {m.document_id for m in self.mentions}


@dataclass(frozen=True, slots=True)
class Event:
    iso: str
    event: str
    description: str
    mention: Mention
    also_on_pages: tuple[int, ...] = ()  # a running header or footer: the same dated line on these pages too


@dataclass(frozen=True, slots=True)
class LocatedMention:
    """A mention with the passage it sits in, as a user cites it (`GraphReader.locate`): the graph tools'
    texts and structured results read this one record."""

    mention: Mention
    document: Document  # as stored now (its name and path), not as the graph was built
    snippet: str  # the page's text around the mention, whitespace collapsed
    mention_paragraph: int  # where the mention itself is, counted as chunk citations count (chunk.layout) ...
    mention_line: int
    mention_citation: str  # ... and cited: "Contract.pdf, p. 3, para. 2, l. 7 (ABC 000123)"
    citation: str  # the passage's full citation; without a stored chunk, "Contract.pdf, p. 3"
    citation_short: str
    passage: Provenance | None  # the stored chunk's provenance; None when the mention has no chunk
    mentions_in_passage: int | None = None  # get_entity_mentions: how many mentions that passage holds


@dataclass(slots=True)
class CaseGraph:
    generation: int
    documents: dict[str, Document]
    entities: dict[str, Node] = field(default_factory=dict)
    authorities: dict[str, Node] = field(default_factory=dict)
    parties: dict[str, Node] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    issues: dict[str, Node] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)  # documents whose extraction failed

    def events_between(self, start: str | None, end: str | None) -> list[Event]:
        """Events within [start, end] (YYYY-MM-DD, either open). A date known only to the month
        (`2017-03`) or year is in range when its month or year overlaps the range."""
        return [e for e in self.events
                if (not start or e.iso >= start[:len(e.iso)]) and (not end or e.iso <= end[:len(e.iso)])]
