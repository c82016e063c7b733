"""The context graph of a case: every document's stored extract merged into parties,
entities, authorities, a timeline and issues, each mention traceable to its chunk.
Built on demand and cached per case until the store's generation moves on."""

from __future__ import annotations

import contextlib
import difflib
import gc
import re
import sys
import threading
from collections.abc import Iterable, Iterator
from dataclasses import replace

from casetrack.chunk.layout import PageLayout
from casetrack.domain import Case, Document, ExtractionMethod, ParsedPage, line_citation, page_citation
from casetrack.errors import InvalidInput, NotFound
from casetrack.graph.citations.authorities import authorities_in
from casetrack.graph.dates.mentions import EventType
from casetrack.graph.pagetext import join_pages
from casetrack.graph.records import ExtractRecord
from casetrack.service.cases.cases import CaseService
from casetrack.service.graph.model import CaseGraph, Event, LocatedMention, Mention, Node
from casetrack.service.graph.name_merges import complete_cut_names, join_suffixed_forms
from casetrack.service.search.index_cache import KEPT_CASES
from casetrack.service.search.mail_index import quotations_of_held_messages, unquoted
from casetrack.store import documents as docstore
from casetrack.store.stats import generation


class GraphService:
    def __init__(self, cases: CaseService) -> None:
        self._cases = cases
        self._graphs: dict[str, CaseGraph] = {}
        self._lock = threading.Lock()

    def graph(self, case: Case) -> CaseGraph:
        store = self._cases.store(case)
        with store.reader() as db:
            current = generation(db)
            cached = self._graphs.get(case.id)
            if cached is not None and cached.generation == current:
                self._keep(case.id, cached)
                return cached
            docs = {d.id: d for d in docstore.list_documents(db)}
            # Merged as they are read, each extract freed after: all of a 1,000-document case's
            # extracts at once are ~35 MB of JSON, several times that as dicts.
            built = build_graph(current, docs, docstore.graph_extracts(db))
        self._keep(case.id, built)
        return built

    def _keep(self, case_id: str, graph: CaseGraph) -> None:
        """Most recently used last; beyond KEPT_CASES (as for search indexes: a 1,000-document
        case's graph is ~60 MB) the least recently used is dropped and rebuilt if asked for again."""
        with self._lock:
            self._graphs.pop(case_id, None)
            self._graphs[case_id] = graph
            while len(self._graphs) > KEPT_CASES:
                self._graphs.pop(next(iter(self._graphs)))

    def forget(self, case_id: str) -> None:
        self._graphs.pop(case_id, None)

    # --- lookups -------------------------------------------------------------

    def find_entities(self, graph: CaseGraph, name: str, kind: str = "any") -> list[Node]:
        """Entities matching a name: exact key or name first, then containment, then fuzzy."""
        pool = [n for n in graph.entities.values() if kind in ("any", "all") or n.kind == kind]
        return match_nodes(pool, name, "Entity", "Use list_entities to see the entities found in this case.")

    def lookup(self, graph: CaseGraph, text: str, kind: str = "any") -> list[Node]:
        """What an entity search means, or [] (never raises): a citation in any form, parsed, so
        "42 USC 1983" is "42 U.S.C. § 1983" (kind any, statute or case_citation); else an entity
        by name, defined term or close spelling (`find_entities`)."""
        if kind in ("any", "statute", "case_citation"):
            page = ParsedPage(1, text or "", ExtractionMethod.NATIVE)
            cited = [graph.authorities[m.key] for m in authorities_in(join_pages([page]))
                     if m.key in graph.authorities]
            cited = [n for n in {n.key: n for n in cited}.values()
                     if kind == "any" or (n.kind == "case_law") == (kind == "case_citation")]
            if cited:
                return cited
        try:
            return self.find_entities(graph, text, kind)
        except (NotFound, InvalidInput):
            return []

    def find_authority(self, graph: CaseGraph, text: str) -> list[Node]:
        """An authority by any citation form: "42 USC 1983" finds "42 U.S.C. § 1983"."""
        query = (text or "").strip()
        if not query:
            raise InvalidInput("Give an authority, e.g. \"42 U.S.C. § 1983\" or \"Miranda v. Arizona\".")
        page = ParsedPage(1, query, ExtractionMethod.NATIVE)
        keys = {m.key for m in authorities_in(join_pages([page]))}
        direct = [graph.authorities[k] for k in keys if k in graph.authorities]
        if direct:
            return direct
        return match_nodes(list(graph.authorities.values()), query, "Authority",
                           "Use list_authorities to see the authorities cited in this case.")


def build_graph(gen: int, docs: dict[str, Document], extracts: Iterable[tuple[str, ExtractRecord]]) -> CaseGraph:
    graph = CaseGraph(gen, docs)
    quoted = quotations_of_held_messages(docs.values())
    with _collection_paused():
        for doc_id, ex in extracts:
            doc = docs.get(doc_id)
            if doc is None:
                continue
            retold = quoted.get(doc_id, ())
            if ex.error:
                graph.failed.append(doc.name)
            d_id, d_name = doc.id, doc.name
            _merge(graph.entities, ((r.key, r.name, r.kind, Mention(d_id, d_name, _chunk(r.chunk_id), r.page,
                    r.char_start, r.char_end, r.text, None, r.role)) for r in ex.entities))
            _merge(graph.authorities, ((r.key, r.display, r.kind, Mention(d_id, d_name, _chunk(r.chunk_id), r.page,
                    r.char_start, r.char_end, r.text, r.treatment)) for r in ex.authorities), roles=False)
            _merge(graph.parties, ((r.key, r.name, r.kind, Mention(d_id, d_name, _chunk(r.chunk_id), r.page,
                    r.char_start, r.char_end, "", None, r.role)) for r in ex.parties))
            for r in ex.dates:
                if r.event == EventType.CITED:
                    continue  # a cited decision's date belongs to the authority, not to this case's timeline
                if any(first <= r.page <= last for first, last in retold):
                    continue  # a reply quoting a message the case holds: its dates are that message's own
                graph.events.append(Event(r.iso, r.event, unquoted(r.sentence), Mention(
                    d_id, d_name, _chunk(r.chunk_id), r.page, r.char_start, r.char_end, r.text)))
            for issue in ex.issues:
                if issue.label:
                    _add(graph.issues, issue.label.casefold(), issue.label, "issue", None, Mention(
                        d_id, d_name, _chunk(issue.chunk_id), issue.page, issue.char_start, issue.char_end, issue.text))
        graph.events.sort(key=lambda e: (e.iso, e.mention.document_name, e.mention.page))
        graph.events = collapse_running_lines(graph.events)
        complete_cut_names(graph)
        join_suffixed_forms(graph)
    return graph


@contextlib.contextmanager
def _collection_paused() -> Iterator[None]:
    """Building a 1,000-document graph allocates ~170,000 mentions in one go (and decodes the
    extracts they come from), and every few hundred allocations Python's cycle collector walks all
    of them again: a third of the build (measured: 765 -> 485 ms). Nothing built here is cyclic
    garbage, so the collector waits until it is done. Reference counting still frees everything."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _chunk(chunk_id: str | None) -> str | None:
    """One string per chunk, not one per mention (~10 mentions a chunk)."""
    return chunk_id and sys.intern(chunk_id)


def _merge(into: dict[str, Node], mentions: Iterable[tuple[str, str, str, Mention]], roles: bool = True) -> None:
    """One document's (key, name, kind, mention) into nodes by key: `_add` unrolled, the hot loop of a graph
    build. A node is named by its first mention's name (else its key), of its kind (else "party")."""
    for key, name, kind, mention in mentions:
        node = into.get(key)
        if node is None:
            node = into[key] = Node(key, name or key, kind or "party")
        if roles and mention.role and mention.role != "other":
            node.roles.add(mention.role)
        node.mentions.append(mention)


_WORDS = re.compile(r"[^\W\d_]+")


def collapse_running_lines(events: list[Event]) -> list[Event]:
    """One event for a dated line a document repeats on many pages, listed at its first page with the
    others named: a running header or footer ("Source: EBIX INC, 10-Q, 5/15/2001" on all eight pages,
    "Date Filed: 01/19/2023 ... Page: 1" and "Page: 2") would otherwise fill a timeline with copies.
    Only the same date, event and words (numbers and punctuation aside) on different pages
    merge; two mentions on one page stay two events. `events` must be sorted by date, then page."""
    first: dict[tuple[str, str, str, str], int] = {}
    out: list[Event] = []
    for e in events:
        key = (e.mention.document_id, e.iso, e.event, " ".join(_WORDS.findall(e.description.casefold())))
        at = first.get(key)
        if at is None:
            first[key] = len(out)
            out.append(e)
            continue
        kept = out[at]
        if e.mention.page == kept.mention.page or e.mention.page in kept.also_on_pages:
            out.append(e)
        else:
            out[at] = replace(kept, also_on_pages=(*kept.also_on_pages, e.mention.page))
    return out


def _add(into: dict[str, Node], key: str, name: str, kind: str, role: str | None, mention: Mention) -> None:
    node = into.get(key)
    if node is None:
        node = into[key] = Node(key, name, kind)
    if role and role != "other":
        node.roles.add(role)
    node.mentions.append(mention)


def normalise(text: str) -> str:
    return re.sub(r"[^\w]+", " ", text.casefold()).strip()


def match_nodes(pool: list[Node], name: str, kind: str, hint: str) -> list[Node]:
    wanted = normalise(name or "")
    if not wanted:
        raise InvalidInput(f"Give a name to look for. {hint}")
    exact = [n for n in pool if normalise(n.name) == wanted or normalise(n.key.split(":", 1)[-1]) == wanted]
    if exact:
        return exact
    defined = defined_term_matches(pool, wanted)  # before word containment: "Company" is the defined
    if defined:                                    # party, not "The Butler Company"
        return defined
    words = set(wanted.split())
    contained = [n for n in pool if wanted in normalise(n.name) or words <= set(normalise(n.name).split())]
    if contained:
        return sorted(contained, key=lambda n: -len(n.mentions))
    names = {normalise(n.name): n for n in pool}
    close = difflib.get_close_matches(wanted, list(names), n=3, cutoff=0.75)
    if close:
        return [names[c] for c in close]
    # Below ~0.6 difflib pairs unrelated words ("Agent" and "Damages" share "age"): no suggestion
    # beats a wrong one, and the hint then points to the list.
    suggestions = difflib.get_close_matches(wanted, list(names), n=3, cutoff=0.6)
    raise NotFound(kind, name, [(names[s].name, names[s].key) for s in suggestions], hint=hint)



_ARTICLE = re.compile(r"^(?:the|a|an)\s+")


def defined_term_matches(pool: list[Node], wanted: str) -> list[Node]:
    """Parties a contract names by a defined term: "Distributor" or "the Company" finds the party the
    document defines it as, because the term's uses are recorded as that party's mentions. Several
    documents may define the same term, so several parties can match; most mentioned first."""
    term = _ARTICLE.sub("", wanted)
    if not term:
        return []
    matched = [n for n in pool if n.roles and any(normalise(m.text) == term for m in n.mentions)]
    return sorted(matched, key=lambda n: -len(n.mentions))


def _mention_place(document: str, m: Mention, layout: PageLayout, cited_page: str,
                   bates: str | None) -> tuple[int, int, str]:
    """The paragraph and line the mention itself sits on, and their citation, counted as the chunk citations
    count them (chunk.layout): a chunk's range ("ll. 1-46") cannot tell a letter's eight citations of one case
    apart, and the user has to find each one on the page."""
    paragraph, line = layout.paragraph_at(m.char_start), layout.line_at(m.char_start)
    citation = f"{document}, {cited_page}, para. {paragraph}, {line_citation(line, line, layout.wraps)}"
    return paragraph, line, f"{citation} ({bates})" if bates else citation


class GraphReader:
    """Turns mentions into passages a user can cite: snippet, chunk citation, provenance."""

    SNIPPET = 160  # characters either side of a mention

    def __init__(self, cases: CaseService) -> None:
        self._cases = cases

    def locate(self, case: Case, mentions: list[Mention]) -> list[LocatedMention]:
        """Each mention with its passage, in the order given; a mention of a document no longer stored is left out."""
        out: list[LocatedMention] = []
        docs: dict[str, Document | None] = {}
        pages: dict[tuple[str, int], tuple[str, PageLayout, str]] = {}  # text, layout, "p. 3" as cited
        with self._cases.store(case).reader() as db:
            for m in mentions:
                if m.document_id not in docs:
                    docs[m.document_id] = docstore.get_document(db, m.document_id)
                doc = docs[m.document_id]
                if doc is None:
                    continue
                key = (m.document_id, m.page)
                if key not in pages:
                    page = docstore.page(db, m.document_id, m.page)
                    page_text = page.text if page else ""
                    cited = page_citation(m.page, page.approximate, page.attachment, page.attachment_page) if page \
                        else page_citation(m.page)
                    pages[key] = page_text, PageLayout.of(page_text, page.line_width if page else None), cited
                text, layout, cited_page = pages[key]
                start, end = max(0, m.char_start - self.SNIPPET), min(len(text), m.char_end + self.SNIPPET)
                chunk = docstore.load_chunk(db, m.chunk_id, doc) if m.chunk_id else None
                passage = chunk.provenance if chunk else None
                paragraph, line, mention_citation = _mention_place(doc.name, m, layout, cited_page,
                                                                   passage.bates_number if passage else None)
                where = f"{doc.name}, {cited_page}"
                out.append(LocatedMention(
                    m, doc, " ".join(text[start:end].split()), paragraph, line, mention_citation,
                    citation=passage.cite() if passage else where,
                    citation_short=passage.cite_short() if passage else where, passage=passage))
        return out

    def embedder_coverage(self, case: Case) -> dict[str, int]:
        """How many chunks each embedder covers (from the documents' records)."""
        coverage: dict[str, int] = {}
        with self._cases.store(case).reader() as db:
            for doc in docstore.list_documents(db):
                for embedder in doc.embedders:
                    coverage[embedder] = coverage.get(embedder, 0) + doc.chunk_count
        return coverage
