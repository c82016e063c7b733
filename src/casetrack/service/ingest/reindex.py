"""Rebuilding a document's index (tool spec 2.14-2.16). A rebuild is prepared completely
before anything is replaced, then swapped in with one commit, so the old index stays
searchable until the new one is ready and a crash leaves one or the other."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from casetrack.chunk import StructureEntry
from casetrack.domain import Case, Document
from casetrack.errors import CaseTrackError, InvalidInput
from casetrack.service.cases.cases import CaseService
from casetrack.service.cases.documents import DocumentReader
from casetrack.service.infra.jobs import Progress
from casetrack.service.ingest.document import Commit, Ingestor, IngestRequest
from casetrack.service.ingest.entries import BM25, Indexer, chunk_headers, heading_paths
from casetrack.service.ingest.mail_context import stored_parts, with_mail
from casetrack.service.ingest.source_file import file_sha256
from casetrack.store import documents as docstore
from casetrack.store.stats import bump_generation


@dataclass(frozen=True, slots=True)
class Reindexed:
    document: Document
    action: str  # "reparsed" | "re-embedded" | "unchanged"
    detail: str = ""


@dataclass(frozen=True, slots=True)
class DocumentHealth:
    document: Document
    source: str  # "unchanged" | "changed" | "missing"
    missing_embedders: tuple[str, ...]
    skipped_pages: int

    @property
    def healthy(self) -> bool:
        return self.source == "unchanged" and not self.missing_embedders and not self.skipped_pages


@dataclass(slots=True)
class CaseHealth:
    documents: list[DocumentHealth] = field(default_factory=list)
    ready_embedders: tuple[str, ...] = ()

    @property
    def needs_attention(self) -> list[DocumentHealth]:
        return [d for d in self.documents if not d.healthy]


class Reindexer:
    def __init__(self, cases: CaseService, documents: DocumentReader, ingestor: Ingestor, indexer: Indexer) -> None:
        self._cases = cases
        self._documents = documents
        self._ingestor = ingestor
        self._indexer = indexer

    def ready_embedders(self) -> tuple[str, ...]:
        return (*self._indexer.document_embedders(), BM25)

    def health(self, case: Case, ref: str | None = None) -> CaseHealth:
        docs = [self._documents.resolve(case, ref)] if ref else self._documents.all(case)
        ready = self.ready_embedders()
        report = CaseHealth(ready_embedders=ready)
        for doc in sorted(docs, key=lambda d: d.name.casefold()):
            missing = tuple(e for e in ready if e not in doc.embedders)
            report.documents.append(DocumentHealth(doc, source_state(doc), missing, doc.skipped_pages))
        return report

    def reindex_named(self, case: Case, ref: str, force: bool = False, reparse: bool = True) -> Reindexed:
        """reindex_document for the document `ref` names. Raises NotFound, and as `reindex_document`."""
        return self.reindex_document(case, self._documents.resolve(case, ref), force, reparse)

    def reindex_document(self, case: Case, doc: Document, force: bool = False, reparse: bool = True) -> Reindexed:
        """Raises CaseReadOnly, FileNotFound-style InvalidInput when the source is gone and reparse is asked."""
        self._cases.require_writable(case)
        if reparse:
            state = source_state(doc)
            if state == "missing":
                raise InvalidInput(f'The source file of "{doc.name}" is no longer at {doc.original_path}. Move it '
                                   "back, or use reparse=false to rebuild its embeddings from the stored text.")
            missing = [e for e in self.ready_embedders() if e not in doc.embedders]
            if state == "unchanged" and not missing and not force:
                return Reindexed(doc, "unchanged", "source file unchanged and embeddings complete (use force=true "
                                                   "to rebuild anyway)")
            request = IngestRequest(str(doc.original_path), document_name=doc.name,
                                    document_type=doc.document_type.value if doc.type_source == "user" else None)
            done = self._ingestor.ingest(case, request, replace_doc=doc)
            return Reindexed(done.document, "reparsed", f"source {state}; {done.document.chunk_count} chunks")
        return self._reembed(case, doc, force)

    def _reembed(self, case: Case, doc: Document, force: bool) -> Reindexed:
        """Keep the chunks; compute the vectors that are missing (or all of them, with force)."""
        ready = self._indexer.document_embedders()
        todo = list(ready) if force else [e for e in ready if e not in doc.embedders]
        if not todo:
            return Reindexed(doc, "unchanged", "embeddings already complete for the ready models")
        store = self._cases.store(case)
        with store.reader() as db:
            chunks = list(docstore.document_chunks(db, doc))
            terms = {c.id: docstore.chunk_terms(db, c.id) for c in chunks}
            headings = [StructureEntry(**entry) for entry in docstore.structure(db, doc.id)]
            messages = stored_parts(doc, docstore.pages(db, doc.id))
        spans = [c.span for c in chunks]
        headers = with_mail(chunk_headers(doc.name, heading_paths(spans, headings)), messages, spans)
        entries = self._indexer.build([c.text for c in chunks], only=todo, headers=headers)
        now = time.time()
        embedders = (*tuple(sorted(set(doc.embedders) - {BM25} | set(entries.vectors))), BM25)
        updated = replace(doc, embedders=embedders, embedded_at=now if entries.vectors else doc.embedded_at)
        with store.writer(f"re-embedding {doc.name}") as db:
            if docstore.get_document(db, doc.id) is None:
                raise InvalidInput(f'"{doc.name}" was deleted while it was being re-embedded.')
            batch = db.batch()
            vectors = {e: dict(zip([c.id for c in chunks], vs, strict=True)) for e, vs in entries.vectors.items()}
            for model_id, by_chunk in vectors.items():
                docstore.put_vectors(batch, model_id, by_chunk)
            for model_id, ws in entries.windows.items():
                docstore.put_windows(batch, model_id, dict(zip([c.id for c in chunks], ws, strict=True)))
            docstore.mark_embedded(db, batch, [c.id for c in chunks], now)
            docstore.update_document(batch, updated)
            before = bump_generation(db, batch, doc.id, [c.id for c in chunks])
            db.write(batch)
        # Re-apply the document to in-memory indexes with its full set of vectors.
        self._ingestor.notify(Commit(case.id, before, before + 1, doc.id, terms, vectors, [c.id for c in chunks]))
        names = ", ".join(entries.vectors) or "none (models failed; see get_status)"
        return Reindexed(updated, "re-embedded", f"embedders rebuilt: {names}")

    def reindex_case(self, case: Case, reparse: bool = True, skip_unchanged: bool = False,
                     progress: Progress | None = None) -> list[tuple[str, str, str]]:
        """Every document, one commit each. Returns (name, action or "failed", detail) per document."""
        results = []
        docs = self._documents.all(case)
        for n, doc in enumerate(docs):
            if progress:
                progress(n, len(docs), doc.name)
            try:
                done = self.reindex_document(self._cases.get(case.id), doc, force=not skip_unchanged, reparse=reparse)
                results.append((doc.name, done.action, done.detail))
            except CaseTrackError as exc:
                results.append((doc.name, "failed", exc.message))
        return results


def source_state(doc: Document) -> str:
    """unchanged | changed | missing, hashing only when size or modification time moved."""
    path = Path(doc.original_path or "")
    if not doc.original_path or not path.is_file():
        return "missing"
    stat = path.stat()
    if stat.st_size == doc.file_size and abs(stat.st_mtime - doc.file_mtime) < 1e-6:
        return "unchanged"
    try:
        return "unchanged" if file_sha256(path) == doc.file_hash else "changed"
    except CaseTrackError:  # stalled or unreadable: re-ingesting it says exactly what is wrong
        return "changed"

