"""The search response (PRD 08 §8, tool spec 2.12): readable text plus structured JSON in
which every result carries its citation and full source provenance."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from casetrack.chunk.roles.taxonomy import BY_ID
from casetrack.embed.specs import MODELS
from casetrack.render.formats import plural
from casetrack.search.pipeline import (
    BM25,
    EXACT,
    STAGE_BOOST,
    STAGE_COLBERT,
    STAGE_FIRSTS,
    STAGE_LEAD,
    STAGE_PRIOR,
    STAGE_RECALL,
    STAGE_REFERENCES,
    STAGE_RRF,
    UNNAMED,
    signal,
)
from casetrack.search.scope import STAGE_NAMED
from casetrack.search.windows import BEST_WINDOW, STAGE_WINDOWS
from casetrack.service.app import IndexStatus
from casetrack.service.graph.find_entity import EntityPassages
from casetrack.service.ingest.reindex import Reindexed
from casetrack.service.search.compare import Comparison
from casetrack.service.search.index_status import IndexFilesStatus
from casetrack.service.search.query import SearchHit, SearchResponse

# What a lawyer reads for each signal and stage of a search; the structured fields keep the ids.
SIGNAL_WORDS = {BM25: "keywords", EXACT: "exact numbers and citations", UNNAMED: "keywords besides the document's name",
                **{signal(m.id): m.matches_by or m.purpose for m in MODELS.values()},
                # a long passage's best window is the same model's meaning, read closer: one wording for both
                **{signal(m.id) + BEST_WINDOW: m.matches_by or m.purpose for m in MODELS.values()}}
STAGE_WORDS = {STAGE_RECALL: "keywords and meaning", STAGE_RRF: "rankings combined",
               STAGE_BOOST: "citations and legal names weighed", STAGE_COLBERT: "top passages read closely",
               STAGE_NAMED: "the named document's passages first", STAGE_WINDOWS: "long passages read part by part",
               STAGE_PRIOR: "what the question names and asks for", STAGE_REFERENCES: "cited references first",
               STAGE_FIRSTS: "the best match of each kind kept", STAGE_LEAD: "a clear keyword match first"}


def in_words(ids: Iterable[str], table: Mapping[str, str]) -> str:
    """Ids as a lawyer reads them, each wording once ("keywords, meaning")."""
    return ", ".join(dict.fromkeys(table.get(i.lower(), i) for i in ids))


def response_text(r: SearchResponse, tier: str) -> str:
    scope = f"{r.document_filter.name} | " if r.document_filter else ""
    stages = " -> ".join(STAGE_WORDS.get(s, s) for s in r.stages_used)
    head = [
        f'Search: "{r.query}"',
        f"Case: {r.case.name} | {scope}{plural(r.documents_searched, 'document')}, "
        f"{plural(r.chunks_searched, 'chunk')} searched",
        f"Time: {r.elapsed_ms:.0f}ms | Tier: {tier} ({len(r.stages_used)}-step search: {stages}) | "
        f"Matched by: {in_words(r.signals, SIGNAL_WORDS)}",
    ]
    if r.named_documents:
        head.append(f"Named in the query: {'; '.join(r.named_documents)} (its passages weigh more; pass "
                    "document_filter to search one document only)")
    if r.roles_asked or r.clause_type:
        asked = ", ".join(BY_ID[role].label for role in ((r.clause_type,) if r.clause_type else r.roles_asked))
        head.append(f"{'Only' if r.clause_type else 'Asks for'}: {asked} (clause types and parts of decisions tagged "
                    "at ingest; list_clauses shows a document's)")
    if not r.hits and r.min_score:
        return "\n".join([*head, "", f"No passage scores {r.min_score:.2f} or more (the chance that it answers the "
                                    "question). Lower min_score, or try other words."])
    if not r.hits:
        return "\n".join([*head, "", "No matching passages. Try other words, or check list_documents."])
    body = []
    for i, hit in enumerate(r.hits, start=1):
        body += ["", f"--- Result {i} (score: {hit.score:.2f}) ---", hit.chunk.provenance.cite()]
        if hit.transcript is not None:
            body.append(f"Transcript: {hit.transcript.citation} (the passage holds {hit.transcript.lines})")
        body.append(f"[chunk {hit.chunk.id} | file: {hit.chunk.provenance.document_path}]")
        if hit.thread is not None:
            body.append(f'Message {hit.thread.position} of {hit.thread.messages} in the thread "{hit.thread.subject}" '
                        "(get_email_thread lists them)")
        if hit.copies:
            body.append(f"The same passage is also in: {'; '.join(c.provenance.cite() for c in hit.copies)}")
        body += ["", f'"{hit.chunk.text}"']
    return "\n".join(head + body)


def similar_text(source_cite: str, hits: list[SearchHit]) -> str:
    if not hits:
        return f"No passages close enough in meaning to {source_cite}. Lower min_similarity to see weaker matches."
    lines = [f"Passages similar in meaning to {source_cite}:"]
    for i, hit in enumerate(hits, start=1):
        lines += ["", f"--- {i}. similarity {hit.score:.2f} ---", hit.chunk.provenance.cite(),
                  f"[chunk {hit.chunk.id}]", f'"{hit.chunk.text}"']
    return "\n".join(lines)


def entity_text(entity: str, entity_type: str, found: EntityPassages) -> str:
    matched = f" (matched: {'; '.join(n.name for n in found.matched[:5])})" if found.matched else ""
    verb = "names" if len(found.mentions) == 1 and found.naming <= 1 else "name"
    # top_k cuts the list, not the count: "3 passages name it" when 20 do would mislead.
    shown = plural(len(found.mentions), "passage") if found.naming <= len(found.mentions) else \
        f"{len(found.mentions)} of {found.naming} passages"
    lines = [f'Entity: "{entity}" ({entity_type}){matched} - {shown} {verb} it, {len(found.related)} related']
    if not found.mentions and not found.related:
        lines.append("Nothing in this case names it. list_entities and list_authorities show what was found.")
    for i, (kind, hit) in enumerate(entity_rows(found), start=1):
        score = f"score {hit.score:.2f}" if hit.chunk.id in found.searched else "named in the text"
        lines += ["", f"--- {i}. {kind} ({score}) ---", hit.chunk.provenance.cite(), f"[chunk {hit.chunk.id}]",
                  f'"{hit.chunk.text}"']
    if found.naming > len(found.mentions):
        rest = found.naming - len(found.mentions)
        lines += ["", f"... {plural(rest, 'more passage')} {'names' if rest == 1 else 'name'} it (raise top_k to see "
                      f"{'it' if rest == 1 else 'them'})"]
    return "\n".join(lines)


def entity_rows(found: EntityPassages) -> list[tuple[str, SearchHit]]:
    return [("mention", h) for h in found.mentions] + [("related", h) for h in found.related]


def reindexed_text(done: Reindexed) -> str:
    return f'"{done.document.name}": {done.action} - {done.detail}.\nEmbedders: {", ".join(done.document.embedders)}'


def comparison_text(found: Comparison) -> str:
    text = [f'Comparing "{found.topic}"', ""]
    for label, side in zip("AB", found.sides, strict=True):
        doc = side.document_filter
        text.append(f"=== Document {label}: {doc.name if doc else ''} ({plural(len(side.hits), 'passage')}) ===")
        for i, hit in enumerate(side.hits, start=1):
            text += [f"{i}. (score {hit.score:.2f}) {hit.chunk.provenance.cite()} [chunk {hit.chunk.id}]",
                     f'   "{hit.chunk.text}"']
        if not side.hits:
            text.append("   (nothing in this document addresses the topic)")
        text.append("")
    return "\n".join(text).rstrip()


def index_status_text(status: IndexStatus) -> str:
    health, attention = status.health, status.health.needs_attention
    lines = [f"Index status for {status.case.name}: {plural(len(health.documents), 'document')}, "
             f"{len(health.documents) - len(attention)} healthy, {len(attention)} need attention",
             f"Ready embedders: {', '.join(health.ready_embedders)}"]
    lines += [f"Running: {job.kind} job {job.short_id}, {job.done}/{job.total}" for job in status.running]
    lines += status.watches
    for d in attention:
        problems = []
        if d.source == "not on this computer":  # imported: reindex reads no file until one is given
            problems.append("source file not on this computer (relink_document gives it one)")
        elif d.source not in ("unchanged", "kept copy"):
            problems.append(f"source file {d.source}")
        if d.missing_embedders:
            problems.append(f"missing embeddings: {', '.join(d.missing_embedders)} "
                            "(reindex_document with reparse=false)")
        if d.skipped_pages:
            problems.append(f"{plural(d.skipped_pages, 'page')} not OCR'd (install Tesseract, then reindex)")
        lines.append(f"  - {d.document.name}: {'; '.join(problems)}")
    if not attention and health.documents:
        lines.append("Every document is fully indexed.")
    return "\n".join(lines + index_files_lines(status.files))


_INDEX_STATES = {
    "current": "current",
    "behind": "behind the case by a few commits (caught up from the case store at the next search)",
    "rebuilding": "being rebuilt from the case store",
    "damaged": "damaged; it is rebuilt from the case store at the next search (nothing to do)",
    "not built": "not built yet; it is built from the case store at the next search",
}


def index_files_lines(status: IndexFilesStatus) -> list[str]:
    """get_index_status: the search-index files of the case, one line each."""
    state = _INDEX_STATES.get(status.state, status.state)
    if status.rebuilt is not None:
        state += f" ({status.rebuilt[0]:,} of {status.rebuilt[1]:,} passages)"
    lines = [f"Search index files: {state}; {status.size_bytes / 2**20:.1f} MB, case generation "
             f"{status.store_generation}" + (f", files at {status.files_generation}" if status.files_generation
                                               is not None else "")]
    if status.unwritten_chunks:
        lines.append(f"  {plural(status.unwritten_chunks, 'passage')} committed since are searchable and will be "
                     "written as a new segment")
    for f in status.files:
        deleted = f", {f.deleted_chunks:,} deleted" if f.deleted_chunks else ""
        lines.append(f"  {f.path}: {f.chunks:,} passages{deleted}, generation {f.generation}, "
                     f"{f.size_bytes / 2**20:.1f} MB, {f.state}")
    if status.problem:
        lines.append(f"  Problem found: {status.problem}")
    return lines
