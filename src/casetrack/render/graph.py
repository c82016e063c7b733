"""Texts of the context-graph tools (their structured results: `mcp/outputs_graph.py`); every mention
shown carries its citation, and empty results say what to do instead of failing."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from casetrack.domain import Case, Document, page_citation
from casetrack.graph import CORRESPONDENT_ROLES
from casetrack.graph.courts import COURT_BELOW, FORUM
from casetrack.graph.parties.truncation import ELLIPSIS
from casetrack.render.formats import plural, size
from casetrack.service.graph.case_graph import CaseGraph, Event, Node
from casetrack.service.graph.model import LocatedMention
from casetrack.service.graph.relations import Cluster, Relation
from casetrack.service.search.mail_index import EmailThread

KEY_EVENTS = ("filed", "signed", "effective", "hearing", "deadline", "decided", "sent")
EMPTY = "No documents in this case yet. Add some with ingest_document or ingest_folder, then ask again."
MAP_PARTIES = 30
MAP_DATES = 15
MAP_COURTS = 8
CASE_COURT_ROLES = frozenset({FORUM, COURT_BELOW})


def _prominence(n: Node) -> tuple[int, int, str]:
    """Most documents first, then most mentions, then by name (ignoring case: "ebix.com" with the e's)."""
    return -len(n.documents), -len(n.mentions), n.name.casefold()


def _documents(n: Node) -> str:
    docs = sorted({m.document_name for m in n.mentions})
    return ", ".join(docs[:3]) + (" ..." if len(docs) > 3 else "")


def shown_name(name: str) -> str:
    """A name as the map shows it: one the document itself prints cut short (a docket's short title) says so."""
    return f"{name} (cut short in the document)" if name.endswith(ELLIPSIS) else name


@dataclass(frozen=True, slots=True)
class MapSections:
    """What the case map shows, each section in its order: the text and the structured result both read it."""

    parties: list[Node]
    judges: list[Node]
    attorneys: list[Node]
    courts: list[Node]  # the courts the case's documents are from, and the courts below
    correspondents: list[Node]
    key_events: list[Event]
    issues: list[Node]
    by_type: Counter[str]
    authorities: list[Node]  # most cited first
    entities: list[Node]  # people, organizations and concepts, most mentioned first


def map_sections(graph: CaseGraph) -> MapSections:
    return MapSections(
        parties=sorted(graph.parties.values(), key=_prominence),
        judges=sorted((n for n in graph.entities.values() if "judge" in n.roles), key=_prominence),
        attorneys=sorted((n for n in graph.entities.values() if "attorney" in n.roles), key=_prominence),
        # a court only cited is an authority's
        courts=sorted((n for n in graph.entities.values() if n.kind == "court" and n.roles & CASE_COURT_ROLES),
                      key=lambda n: (FORUM not in n.roles, *_prominence(n))),
        # The people the case's e-mails pass between (From/To/Cc), when they have no office of their own here.
        correspondents=sorted((n for n in graph.entities.values() if n.roles & CORRESPONDENT_ROLES
                               and not n.roles & {"judge", "attorney"}), key=_prominence),
        key_events=_key_dates(graph.events),
        issues=sorted(graph.issues.values(), key=lambda n: (-len(n.documents), -len(n.mentions))),
        by_type=Counter(d.document_type.value for d in graph.documents.values()),
        authorities=sorted(graph.authorities.values(), key=lambda n: (-len(n.mentions), n.name)),
        entities=sorted((n for n in graph.entities.values() if n.kind in ("person", "organization", "legal_concept")),
                        key=lambda n: (-len(n.mentions), n.name)))


def case_map(case: Case, graph: CaseGraph, coverage: dict[str, int]) -> str:
    if not graph.documents:
        return EMPTY
    lines = [f"CASE MAP: {case.name} ({case.case_type.label})", ""]
    m = map_sections(graph)
    parties, judges, attorneys, courts, correspondents = m.parties, m.judges, m.attorneys, m.courts, m.correspondents
    lines.append("  PARTIES:")
    for p in parties[:MAP_PARTIES]:  # the spec's "all identified parties", up to a screenful
        roles = ", ".join(sorted(p.roles)) or "party"
        lines.append(f"    {roles.title() + ':':<14} {shown_name(p.name)}  ({_documents(p)})")
    for label, nodes in (("Judge", judges), ("Attorney", attorneys), ("Correspondent", correspondents)):
        for n in nodes[:4]:
            lines.append(f"    {label + ':':<14} {n.name}")
    for n in courts[:MAP_COURTS]:
        label = "Court:" if FORUM in n.roles else "Court below:"
        lines.append(f"    {label:<14} {n.name}  ({_documents(n)})")
    if len(parties) > MAP_PARTIES:
        lines.append(f"    ... and {len(parties) - MAP_PARTIES} more parties (list_entities shows them all)")
    if not (parties or judges or courts or correspondents):
        lines.append("    (no parties identified)")
    key_events = m.key_events
    shown = map_dates(key_events, MAP_DATES)
    lines += ["", "  KEY DATES:"] + [
        f"    {e.iso:<10}  {e.event.capitalize()}: {e.description[:90]} ({e.mention.document_name}, p.{e.mention.page})"
        for e in shown] + (["    (no dates found)"] if not key_events else [])
    if len(key_events) > len(shown):
        lines.append(f"    ... {len(key_events) - len(shown)} more (get_case_timeline lists every dated event)")
    issues = m.issues
    lines += ["", "  KEY LEGAL ISSUES:"] + [
        f"    {i}. {n.name} -- {plural(len(n.documents), 'document')}, "
        f"{plural(len({m.chunk_id for m in n.mentions if m.chunk_id}), 'chunk')}"
        for i, n in enumerate(issues[:10], start=1)] + (["    (none identified)"] if not issues else [])
    by_type = m.by_type
    lines += ["", f"  DOCUMENTS ({len(graph.documents)} total, {plural(case.stats.page_count, 'page')}, "
                  f"{plural(case.stats.chunk_count, 'chunk')}):"]
    for kind, count in by_type.most_common():
        names = sorted(d.name for d in graph.documents.values() if d.document_type.value == kind)
        lines.append(f"    {kind.replace('_', ' ').title() + ':':<16} {plural(count, 'doc')} "
                     f"({', '.join(names[:3])}{', ...' if len(names) > 3 else ''})")
    authorities = m.authorities
    lines += ["", "  TOP AUTHORITIES (most cited):"] + [
        f"    {i}. {n.name} -- {plural(len(n.mentions), 'citation')} across {plural(len(n.documents), 'document')}"
        for i, n in enumerate(authorities[:10], start=1)] + (["    (none cited)"] if not authorities else [])
    entities = m.entities
    lines += ["", "  TOP ENTITIES:"] + [
        f"    {n.name} ({n.kind}) -- {plural(len(n.mentions), 'mention')} in {plural(len(n.documents), 'document')}"
        for n in entities[:10]]
    cov = ", ".join(f"{e} {c}/{case.stats.chunk_count}" for e, c in sorted(coverage.items()))
    lines += ["", f"  EMBEDDINGS: {cov} chunks embedded" if cov
              else "  EMBEDDINGS: none yet (keyword search only; get_index_status says what is missing)"]
    if graph.failed:
        lines.append(f"  NOTE: graph extraction failed for {', '.join(graph.failed)}; reindex them.")
    return "\n".join(lines)


def _key_dates(events: list[Event]) -> list[Event]:
    """The map's dates: the first event of each kind (filed, signed, ...) in each document, in date
    order, so one contract's four "commencing" clauses do not push a later filing off the map. The
    timeline keeps every event. A case with no typed event shows its first dated ones."""
    seen: set[tuple[str, str]] = set()
    picked = []
    for e in events:
        if e.event in KEY_EVENTS and (e.mention.document_id, e.event) not in seen:
            seen.add((e.mention.document_id, e.event))
            picked.append(e)
    return picked or events


def map_dates(events: list[Event], limit: int) -> list[Event]:
    """Up to `limit` of the key dates, in date order; when there are more, filings, signings, hearings and
    deadlines first, then e-mails' sending: a case's hundred e-mails must not push its complaint off the map."""
    if len(events) <= limit:
        return events
    order = sorted(range(len(events)), key=lambda i: (events[i].event == "sent", i))[:limit]
    return [events[i] for i in sorted(order)]


def _pages(pages: tuple[int, ...]) -> str:
    shown = ", ".join(str(p) for p in pages[:8])
    return f"p. {shown}" if len(pages) == 1 else f"pp. {shown}{', ...' if len(pages) > 8 else ''}"


def timeline(case_name: str, events: list[Event], details: list[LocatedMention], start: str | None,
             end: str | None) -> str:
    window = f" from {start or 'the start'} to {end or 'the end'}" if start or end else ""
    if not events:
        return (f"No dated events found in {case_name}{window}. Dates are read from document text; scanned pages "
                "need OCR.")
    lines = [f"Timeline of {case_name}{window}: {plural(len(events), 'event')}", ""]
    for e, d in zip(events, details, strict=False):
        lines.append(f"  {e.iso:<10}  [{e.event}] {e.description[:160]}")
        repeated = f" (repeated on {_pages(e.also_on_pages)})" if e.also_on_pages else ""
        lines.append(f"              {d.mention_citation} [chunk {d.mention.chunk_id}]{repeated}")
    if len(details) < len(events):
        lines += ["", f"(showing the first {len(details)} of {len(events)} events; narrow the range with "
                      "start_date and end_date to see the rest)"]
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class CaseCounts:
    """get_case_statistics: what a case holds, counted (its structured result is this, field for field)."""

    case: str
    documents: int
    pages: int
    chunks: int
    ocr_pages: int
    skipped_pages: int  # pages without text: OCR could not read them
    documents_by_type: dict[str, int]
    entities: int
    entities_by_type: dict[str, int]
    authorities: int
    authorities_by_type: dict[str, int]
    citations: int
    events: int
    embedder_coverage: dict[str, int]  # embedder -> chunks it covers
    storage_bytes: int


def case_counts(case: Case, graph: CaseGraph, coverage: dict[str, int]) -> CaseCounts:
    docs = graph.documents.values()
    return CaseCounts(
        case=case.name, documents=len(graph.documents), pages=case.stats.page_count, chunks=case.stats.chunk_count,
        ocr_pages=sum(d.ocr_pages for d in docs), skipped_pages=sum(d.skipped_pages for d in docs),
        documents_by_type=dict(Counter(d.document_type.value for d in docs)),
        entities=len(graph.entities), entities_by_type=dict(Counter(n.kind for n in graph.entities.values())),
        authorities=len(graph.authorities),
        authorities_by_type=dict(Counter(n.kind for n in graph.authorities.values())),
        citations=sum(len(n.mentions) for n in graph.authorities.values()), events=len(graph.events),
        embedder_coverage=coverage, storage_bytes=case.stats.storage_bytes)


def statistics(c: CaseCounts, parties: int) -> str:
    def most(counts: dict[str, int]) -> str:
        return ", ".join(f"{k} {v}" for k, v in Counter(counts).most_common())

    lines = [f"Statistics for {c.case}", "",
             f"  Documents: {c.documents} | Pages: {c.pages} | Chunks: {c.chunks}",
             f"  OCR pages: {c.ocr_pages} | Pages without text (OCR could not read them): {c.skipped_pages}",
             "  By type: " + (most(c.documents_by_type) or "none"),
             f"  Entities: {c.entities} ({most(c.entities_by_type)})",
             f"  Authorities: {c.authorities} ({most(c.authorities_by_type)})",
             f"  Citations: {c.citations} | Timeline events: {c.events} | Parties: {parties}",
             "  Embedder coverage: " + (", ".join(f"{e} {n}/{c.chunks} chunks"
                                                  for e, n in sorted(c.embedder_coverage.items())) or "none"),
             f"  Storage: {size(c.storage_bytes)}"]
    return "\n".join(lines)


def node_list(case_name: str, what: str, nodes: list[Node], total: int, kind: str) -> str:
    if not nodes:
        return (f"No {what} of type {kind} found in {case_name}." if kind != "all" else
                f"No {what} found in {case_name} yet. {EMPTY if what == 'entities' else ''}".strip())
    lines = [f"{what.title()} in {case_name} ({len(nodes)} of {total}):"]
    current = None
    for n in sorted(nodes, key=lambda n: n.kind) if what == "entities" else nodes:
        if what == "entities" and n.kind != current:
            current = n.kind
            lines += ["", f"  {n.kind.replace('_', ' ').upper()}"]
        roles = f" [{', '.join(sorted(n.roles))}]" if n.roles else ""
        label = "citation" if what == "authorities" else "mention"
        lines.append(f"    {n.name}{roles} ({n.kind}) -- {plural(len(n.mentions), label)}, "
                     f"{plural(len(n.documents), 'document')}")
    return "\n".join(lines)


def _passages(details: list[LocatedMention], total: int, shown_label: str) -> list[str]:
    lines = []
    for i, d in enumerate(details, start=1):
        extra = f" [{d.mention.treatment}]" if d.mention.treatment else ""
        if (d.mentions_in_passage or 1) > 1:
            extra += f" ({d.mentions_in_passage} mentions here)"
        lines += ["", f"  {i}. {d.mention_citation}{extra} [chunk {d.mention.chunk_id}]", f"     \"...{d.snippet}...\""]
    if total > len(details):
        lines += ["", f"  ... {total - len(details)} more {shown_label} (raise top_k to see them)"]
    return lines


def mentions(name: str, nodes: list[Node], details: list[LocatedMention], passages: int, total: int) -> str:
    kinds = ", ".join(sorted({n.kind for n in nodes}))
    matched = ", ".join(n.name for n in nodes[:5])
    lines = [f'Mentions of "{name}" ({kinds}; matched: {matched}) -- {plural(total, "mention")} in '
             f"{plural(passages, 'passage')}, showing {len(details)}:"]
    return "\n".join(lines + _passages(details, passages, "passages"))


def together(names: list[str], details: list[LocatedMention], total: int) -> str:
    if not details:
        return (f"No passage mentions all of {', '.join(names)} together. Try fewer entities, or "
                "get_entity_mentions for each.")
    head = f"{plural(total, 'passage')} {'mentions' if total == 1 else 'mention'} {' + '.join(names)} together:"
    return "\n".join([head, *_passages(details, total, "passages")])


def citations(nodes: list[Node], details: list[LocatedMention], total: int, treatment: str) -> str:
    names = "; ".join(n.name for n in nodes[:3])
    counts = Counter(m.treatment for n in nodes for m in n.mentions)
    summary = ", ".join(f"{k} {v}" for k, v in counts.most_common())
    lines = [f"Citations of {names} -- {total} {'' if treatment == 'all' else treatment + ' '}"
             f"(treatment: {summary}):"]
    if not details:
        lines.append(f"  No citations with treatment \"{treatment}\".")
    return "\n".join(lines + _passages(details, total, "citations"))


def related(doc: Document, found: list[Relation], kind: str) -> str:
    if not found:
        return f"No related documents found for {doc.name} ({kind})."
    lines = [f"Documents related to {doc.name}:"]
    for i, r in enumerate(found, start=1):
        lines.append(f"  {i}. {r.document.name} [{r.document.document_type.value}] (strength {r.score:.2f})")
        lines += [f"     - {reason}" for reason in r.reasons]
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class ThreadRow:
    """A message of an e-mail thread, in the order sent (get_email_thread's structured result, field for field)."""

    position: int
    document: str
    document_id: str
    sender: str | None
    recipients: str | None
    sent: str | None
    subject: str | None
    replies_to: str | None  # the message it answers
    citation: str


def thread_rows(found: EmailThread) -> list[ThreadRow]:
    names = {d.id: d.name for d in found.messages}
    return [ThreadRow(position=i, document=doc.name, document_id=doc.id, sender=doc.metadata.get("from"),
                      recipients="; ".join(v for k in ("to", "cc") if (v := doc.metadata.get(k))) or None,
                      sent=doc.metadata.get("date"), subject=doc.metadata.get("subject"),
                      replies_to=names.get(found.replies_to.get(doc.id, "")),
                      citation=f"{doc.name}, {page_citation(1, True, None, None)}")
            for i, doc in enumerate(found.messages, start=1)]


def email_thread(found: EmailThread) -> str:
    """An e-mail's thread in the order sent: who wrote each message to whom, when, and its citation."""
    count = plural(len(found.messages), "message")
    lines = [f'E-mail thread "{found.subject}" ({count}), holding {found.document.name}:']
    for row in thread_rows(found):
        answered = f" (answers {row.replies_to})" if row.replies_to else ""
        lines += [f"  {row.position}. {row.sent or 'date unknown'} -- {row.sender or 'sender unknown'} to "
                  f"{row.recipients or 'no recipient named'}{answered}",
                  f"     {row.subject or '(no subject)'} -- {row.citation}"]
    return "\n".join(lines)


def clusters(case_name: str, strategy: str, found: list[Cluster]) -> str:
    if not found:
        why = {"topical": "no document has embeddings yet (see get_status)",
               "entity": "no party or entity is named in more than one document",
               "authority": "no authority is cited by more than one document",
               "document_type": "the case has no documents yet"}[strategy]
        return f"No {strategy} clusters in {case_name}: {why}."
    lines = [f"Document clusters in {case_name} ({strategy}):"]
    for i, c in enumerate(found, start=1):
        lines.append(f"  {i}. {c.label} -- {plural(len(c.documents), 'document')}"
                     + (f" ({c.detail})" if c.detail else ""))
        lines += [f"     - {d.name}" for d in c.documents[:10]]
    return "\n".join(lines)
