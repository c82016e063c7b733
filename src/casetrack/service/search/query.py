"""Searching a case (PRD 08, with the issue's corrections): hybrid recall, rank-based RRF, optional boosts and
ColBERT rerank, each stage run with whatever embedders are ready; the scores shown calibrated (scoring.py)."""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from casetrack.chunk.pinpoints import query_pin_terms
from casetrack.chunk.roles.tagging import resolve_role, role_term
from casetrack.domain import ATTACHMENT_LABEL, MAX_TOP_K, Case, Chunk, Document
from casetrack.embed import MODELS, EmbedderPool, Kind
from casetrack.errors import CaseTrackError, InvalidInput, Step
from casetrack.index.references import query_reference_terms, query_references
from casetrack.index.sparse import SparseVector
from casetrack.index.tokenize import tokenize
from casetrack.parse.formats import MAIL_FORMATS
from casetrack.search.calibration import Evidence
from casetrack.search.correspondents import asked_terms
from casetrack.search.evidence import evidence
from casetrack.search.pipeline import (
    DEFAULT_PIPELINE,
    Hit,
    PipelineConfig,
    Query,
    QueryInput,
    SearchRequest,
    search,
    signal,
)
from casetrack.search.scope import STAGE_NAMED, DocumentNames, document_name_tokens, named_documents
from casetrack.service.cases.cases import CaseService
from casetrack.service.cases.documents import DocumentReader
from casetrack.service.search import index_status, scoring
from casetrack.service.search.asked_roles import AskedRoles
from casetrack.service.search.index_cache import DENSE_ORDER, CaseIndex, IndexCache
from casetrack.service.search.index_status import IndexFilesStatus
from casetrack.service.search.loaders import colbert_loader, window_loader
from casetrack.service.search.mail_index import (
    EmailThread,
    MailIndex,
    ThreadPlace,
    mail_index,
    thread_of,
    written_passage,
)
from casetrack.service.search.transcripts import TranscriptPlace, Transcripts
from casetrack.store import documents as docstore
from casetrack.store.case_store import CaseStore
from casetrack.store.rocks import RocksStore
from casetrack.store.search_index.files import IndexDamaged
from casetrack.store.stats import generation

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 2000
# A passage in the case more than once (a file on its own and attached to e-mails) is one result that names its
# copies; the pipeline is asked for this many more results so that the copies do not leave places empty.
COPIES_RESERVE = 10
_LABEL_OPENING = ATTACHMENT_LABEL.partition("{")[0]


@dataclass(frozen=True, slots=True)
class SearchHit:
    chunk: Chunk
    score: float
    ranks: Mapping[str, int]
    context_before: str | None = None
    context_after: str | None = None
    copies: tuple[Chunk, ...] = ()  # the same passage elsewhere in the case, ranked lower (see _assemble)
    thread: ThreadPlace | None = None  # where its e-mail stands in its thread
    transcript: TranscriptPlace | None = None  # a transcript's rows that hold the answer ("Smith Dep. 6:16")
    evidence: Evidence | None = None  # what its calibrated `score` was computed from (search.calibration)


@dataclass(frozen=True, slots=True)
class SearchResponse:
    query: str
    case: Case
    documents_searched: int
    chunks_searched: int
    hits: list[SearchHit]
    elapsed_ms: float
    stages_used: tuple[str, ...]
    signals: tuple[str, ...]
    document_filter: Document | None = None
    named_documents: tuple[str, ...] = ()  # the documents the query names best (evidence for their passages)
    roles_asked: tuple[str, ...] = ()  # the legal roles the query asks for (search.roles), best first
    clause_type: str | None = None  # the role the results were restricted to (search_case's clause_type)
    min_score: float | None = None  # the score floor asked for (a calibrated chance of answering: scoring)


class SearchService:
    def __init__(self, cases: CaseService, documents: DocumentReader, pool: EmbedderPool, cache: IndexCache,
                 pipeline: PipelineConfig = DEFAULT_PIPELINE) -> None:
        self._cases = cases
        self._documents = documents
        self._pool = pool
        self.cache = cache
        self.pipeline = pipeline
        self._stores: dict[str, CaseStore] = {}  # one a case: a fresh one re-runs the schema check (a database open)
        # case -> (generation, each document's name tokens by id, the same by (id, name) for the next generation)
        self._name_tokens: dict[str, tuple[int, DocumentNames, dict[tuple[str, str], frozenset[str]]]] = {}
        self._mail: dict[str, MailIndex] = {}  # case -> its e-mails as messages and threads
        self._roles = AskedRoles(pool)  # the legal roles a question asks for (search.roles)
        self.transcripts = Transcripts()  # the case's transcripts by page and line (issue 37)

    def forget(self, case_id: str) -> None:
        """Drop everything held for a case (it was deleted)."""
        self.cache.forget(case_id)
        self._stores.pop(case_id, None)
        self._name_tokens.pop(case_id, None)
        self._mail.pop(case_id, None)

    def index(self, case: Case) -> CaseIndex:
        return self.cache.get(case.id, self._store(case))

    def warm(self, case: Case) -> threading.Thread:
        """Build the case's in-memory indexes on a background thread, so that the first search after
        switching to a big case does not wait for them (100,000 chunks take ~20 s to load)."""

        def build() -> None:
            try:
                self.index(case)
                self._roles.matcher()  # the legal roles' description vectors (~1 s of E7)
                query_reference_terms("See 1 U.S. 1 and 1 U.S.C. § 1.")  # loads eyecite (~2 s the first time)
            except CaseTrackError as exc:  # e.g. the case was deleted meanwhile: the search will say so
                log.info("Index of %s not preloaded: %s", case.name, exc.message)
            except Exception:
                log.warning("Preloading the index of %s failed", case.name, exc_info=True)

        thread = threading.Thread(target=build, name=f"casetrack-warm-{case.id[:8]}", daemon=True)
        thread.start()
        return thread

    def index_files(self, case: Case) -> IndexFilesStatus:
        """The case's search-index files and their state (get_index_status)."""
        return index_status.describe(self._store(case), self.cache)

    def document_terms(self, case: Case) -> dict[str, Counter[str]]:
        """Every document's BM25 term counts, summed over its chunks, read from the store (the index
        files keep postings by term, not terms by chunk)."""
        out: dict[str, Counter[str]] = {}
        with self._store(case).reader() as db:
            document_of = docstore.chunk_document_ids(db)
            for chunk_id, counts in docstore.all_terms(db):
                doc_id = document_of.get(chunk_id)
                if doc_id is not None:
                    out.setdefault(doc_id, Counter()).update(counts)
        return out

    def _store(self, case: Case) -> CaseStore:
        store = self._stores.get(case.id)
        if store is None:
            store = self._stores[case.id] = self._cases.store(case)
        return store

    def search(self, case: Case, query: str, top_k: int = 10, document_filter: str | None = None,
               min_score: float | None = None, context_chars: int = 300,
               pipeline: PipelineConfig | None = None, clause_type: str | None = None) -> SearchResponse:
        """`pipeline` overrides the service's stage configuration (benchmarks compare BM25-only,
        dense-only and full runs with it); `clause_type` keeps only the passages tagged with that legal role
        (chunk.role_taxonomy). Raises InvalidInput for an empty query, bad bounds, an unknown clause type or
        an empty case; NotFound for a bad filter."""
        started = time.perf_counter()
        text = " ".join((query or "").split())[:MAX_QUERY_CHARS]
        if not text:
            raise InvalidInput("Give a search query, e.g. \"termination for convenience\".")
        if not 1 <= top_k <= MAX_TOP_K:
            raise InvalidInput(f"top_k must be between 1 and {MAX_TOP_K}.")
        if min_score is not None and not 0.0 <= min_score <= 1.0:
            raise InvalidInput("min_score must be between 0 and 1.")
        doc = self._documents.resolve(case, document_filter) if document_filter else None
        role = resolve_role(clause_type) if clause_type else None
        # The pipeline ranks; the score shown, and min_score, are the calibrated chance of an answer (scoring).
        config = replace(pipeline or self.pipeline, min_score=0.0)
        wanted = min(top_k + COPIES_RESERVE, 2 * top_k)
        store = self._store(case)
        vectors: dict[str, QueryInput] | None = None
        references = query_references(text)
        words = tokenize(text)
        tokens = words + query_pin_terms(text)  # "Dep. 17:19": the chunk holding that line
        for attempt in range(2):
            with store.reader() as db:  # the only read session of a search
                windows = window_loader(db)  # one per search: each passage's windows are read once
                index = self.cache.get(case.id, store, db)
                if index.chunk_count == 0:
                    raise InvalidInput(f'Case "{case.name}" has no documents to search yet.',
                                       [Step("ingest_first", {"case_name": case.name})])
                vectors = self.query_vectors(text, index) if vectors is None else vectors
                for repair in range(2):
                    try:
                        with index.lock:
                            scope = None if doc else named_documents(tokens, self._names(case, db, index),
                                                                     index.documents_holding)
                            asked = self._roles.asked(text, vectors, scope)
                            allowed = set(index.chunks_of_document(doc.id)) if doc else None
                            if role is not None:
                                tagged = {str(key) for key in index.bm25.keys_holding(role_term(role.id))}
                                allowed = tagged if allowed is None else allowed & tagged
                            found = evidence(scope, tokens, references, asked, index.bm25, index.chunks_of_document,
                                             allowed, config, lambda keys: docstore.role_likelihoods(
                                                 db, [str(key) for key in keys]))
                            request = SearchRequest(Query(tokens, vectors, found.unnamed, asked_terms(text)),
                                                    wanted, allowed, found.prior, found.first, found.include,
                                                    names_document=scope is not None)
                            outcome = search(request, index.indexes, config, colbert_tokens=colbert_loader(db),
                                             windows=windows)
                            if scope is not None:
                                outcome = replace(outcome, stages_used=(*outcome.stages_used, STAGE_NAMED))
                            shown, why = scoring.calibrated(
                                outcome.hits, scoring.evidence(outcome.hits, words, vectors, index.indexes,
                                                               windows, scoring.calibration().model),
                                min_score)
                            outcome = replace(outcome, hits=tuple(shown))
                            documents = index.document_count if doc is None else 1
                            chunks = index.chunk_count if allowed is None else len(allowed)
                            moved_on = index.generation != generation(db)
                        break
                    except (IndexDamaged, IndexError) as exc:  # an index file damaged inside a large array
                        if repair:
                            raise
                        index = self.cache.rebuild(case.id, store, db, str(exc))
                named = () if scope is None else tuple(sorted(
                    d.name for d in (docstore.get_document(db, i) for i in scope.documents) if d is not None))
                hits, missing = self._assemble(db, outcome.hits, context_chars, top_k,
                                               self.mail(case, db, index.generation), why)
                hits = [replace(h, transcript=self.transcripts.place(db, h.chunk, text)) for h in hits]
            # A commit of this process (a reindex) updated the in-memory index after this read session began: run again.
            if not (moved_on and missing) or attempt:
                break
        elapsed = (time.perf_counter() - started) * 1000
        log.info("Search: %d results in %.0f ms (stages %s)", len(hits), elapsed, ",".join(outcome.stages_used))
        return SearchResponse(text, case, documents, chunks, hits, elapsed, outcome.stages_used,
                              tuple(s.upper() for s in outcome.signals), doc, named, tuple(asked),
                              role.id if role else None, min_score)

    def _names(self, case: Case, db: RocksStore, index: CaseIndex) -> DocumentNames:
        """The words each document can be named by, as query tokens, kept until the case's index moves on."""
        kept = self._name_tokens.get(case.id)
        if kept is None or kept[0] != index.generation:
            # Metadata never changes under a document's id, its name only when its file is renamed
            # (service/ingest/moves.py): tokenize only new documents and new names.
            known = kept[2] if kept is not None else {}
            by_name = {(d.id, d.name): known.get((d.id, d.name)) or document_name_tokens(d.name, d.metadata)
                       for d in docstore.list_documents(db)}
            names = DocumentNames((i, t) for (i, _), t in by_name.items())
            kept = self._name_tokens[case.id] = (index.generation, names, by_name)
        return kept[1]

    def mail(self, case: Case, db: RocksStore, generation: int) -> MailIndex:
        """The case's e-mails as messages and threads (service.search.mail_index), kept until its index moves on."""
        kept = self._mail.get(case.id)
        if kept is None or kept.generation != generation:
            kept = self._mail[case.id] = mail_index(docstore.list_documents(db), generation)
        return kept

    def email_thread(self, case: Case, document: str) -> EmailThread:
        """The thread of an e-mail, in the order sent. Raises NotFound for an unknown document, InvalidInput for a
        document that is no e-mail."""
        doc = self._documents.resolve(case, document)
        if doc.format not in MAIL_FORMATS:
            raise InvalidInput(f'"{doc.name}" is not an e-mail ({doc.format}): only .eml and .msg files have threads.',
                               [Step("list_documents", {"case_name": case.name})])
        store = self._store(case)
        with store.reader() as db:
            documents = docstore.list_documents(db)
            return thread_of(self.mail(case, db, generation(db)), doc, documents)

    def query_vectors(self, text: str, index: CaseIndex) -> dict[str, QueryInput]:
        """Embed the query with every ready embedder whose vectors the case holds."""
        wanted = set(index.dense) | set(index.sparse) | {"e12"}
        vectors: dict[str, QueryInput] = {}
        for model_id in MODELS:
            name = signal(model_id)
            if name not in wanted or not self._pool.ready(model_id):
                continue
            try:
                value = self._pool.get(model_id).embed_query(text)
            except CaseTrackError as exc:
                log.warning("Query embedding with %s failed: %s", model_id, exc.message)
                continue
            if MODELS[model_id].kind is Kind.SPARSE:
                vectors[name] = SparseVector(np.asarray(value[0]), np.asarray(value[1]))
            else:
                vectors[name] = np.asarray(value, dtype=np.float32)
        return vectors

    def similar(self, case: Case, chunk_id: str, top_k: int = 10, exclude_same_document: bool = True,
                min_similarity: float = 0.0) -> tuple[Chunk, str, list[SearchHit]]:
        """Chunks closest to a given chunk by its stored vector (E1, else the best dense embedder)."""
        source, _, _ = self._documents.chunk(case, chunk_id)
        index = self.index(case)
        with index.lock:
            name = next((n for n in DENSE_ORDER if n in index.dense and source.id in index.dense[n]),
                        None)
            if name is None:
                raise InvalidInput("No embeddings are available for this chunk yet. Run get_status to see which "
                                   "models are ready, then reindex_case with reparse=false.")
            dense = index.dense[name]
            # Ask for as many more as are left out (the document's own chunks, or the chunk itself), then leave them
            # out: the same result as searching all the others, without listing them.
            excluded = set(index.chunks_of_document(source.document_id)) if exclude_same_document else {source.id}
            keys_, scores = dense.search(dense.vectors([source.id])[0], top_k + len(excluded))
        picked = [(str(k), float(s)) for k, s in zip(keys_, scores, strict=True)
                  if k not in excluded and s >= min_similarity][:top_k]
        with self._cases.store(case).reader() as db:
            hits = self._assemble_scored(db, picked)
        return source, name.upper(), hits

    def _assemble(self, db: RocksStore, hits: Sequence[Hit], context_chars: int, top_k: int,
                  mail: MailIndex | None = None,
                  evidence: Mapping[object, Evidence] | None = None) -> tuple[list[SearchHit], int]:
        """The first `top_k` distinct passages of `hits`, each with its copies, and how many hits name a chunk
        this read session cannot see. A passage found where an e-mail quotes an earlier message is cited where
        that message was written (service.search.mail_index), the quotation among its copies. Hits past the
        `top_k`-th passage are read only once a copy has shown up (a case without copies pays nothing): a copy
        ranked below that, with none above it, goes unnamed."""
        docs: dict[str, Document | None] = {}
        found: dict[str, tuple[Hit, Chunk, list[Chunk]]] = {}  # passage words -> best hit, its chunk, copies
        missing = 0
        copied = False
        for hit in hits:
            if len(found) == top_k and not copied:
                break  # no copies among the results: the reserve is not needed (a chunk read is ~0.3 ms)
            chunk = self._load(db, str(hit.key), docs)
            if chunk is None:
                missing += 1
                continue
            passage = self._written(db, chunk, mail, docs) if mail is not None else chunk
            words = passage_words(passage)
            if words in found:
                if chunk.id != found[words][1].id:
                    found[words][2].append(chunk)
                copied = True
            elif len(found) < top_k:
                found[words] = (hit, passage, [] if passage is chunk else [chunk])
                copied = copied or passage is not chunk
        out: list[SearchHit] = []
        for hit, chunk, copies in found.values():
            before, after = _context(db, chunk, context_chars) if context_chars else (None, None)
            place = mail.place(chunk.document_id) if mail is not None else None
            out.append(SearchHit(chunk, round(float(hit.score), 4), dict(hit.ranks), before, after, tuple(copies),
                                 place, evidence=(evidence or {}).get(hit.key)))
        return out, missing

    def _written(self, db: RocksStore, chunk: Chunk, mail: MailIndex, docs: dict[str, Document | None]) -> Chunk:
        """Where a quoted passage was written first (the passage itself when it was written here)."""
        where = mail.origin(chunk)
        if where is None:
            return chunk
        if where.doc_id not in docs:
            docs[where.doc_id] = docstore.get_document(db, where.doc_id)
        doc = docs[where.doc_id]
        return (written_passage(db, chunk, where, doc) if doc is not None else None) or chunk

    def _assemble_scored(self, db: RocksStore, scored: Sequence[tuple[str, float]]) -> list[SearchHit]:
        docs: dict[str, Document | None] = {}
        out = []
        for key, score in scored:
            chunk = self._load(db, key, docs)
            if chunk is not None:
                out.append(SearchHit(chunk, round(score, 4), {}))
        return out

    @staticmethod
    def _load(db: RocksStore, chunk_id: str, docs: dict[str, Document | None]) -> Chunk | None:
        chunk = docstore.load_chunk(db, chunk_id, None)
        if chunk is None:
            return None
        if chunk.document_id not in docs:
            docs[chunk.document_id] = docstore.get_document(db, chunk.document_id)
        return chunk if docs[chunk.document_id] is not None else None


def passage_words(chunk: Chunk) -> str:
    """A chunk's words, by which copies of one passage are known: the same file on its own and attached to an
    e-mail is chunked alike, but each attached page opens with its label ("[Attachment 1: x.pdf, page 2 of 8]")."""
    text = chunk.text
    if chunk.provenance.attachment and chunk.span.char_start == 0 and text.startswith(_LABEL_OPENING):
        text = text.partition("\n")[2]
    return " ".join(text.split())


def _context(db: RocksStore, chunk: Chunk, limit: int) -> tuple[str | None, str | None]:
    def text_at(sequence: int) -> str | None:
        if sequence < 0:
            return None
        neighbour = docstore.chunk_id_at(db, chunk.document_id, sequence)
        return docstore.chunk_text(db, neighbour) if neighbour else None

    before, after = text_at(chunk.span.sequence - 1), text_at(chunk.span.sequence + 1)
    return (before[-limit:] if before else None), (after[:limit] if after else None)
