"""Rebuilding a document's index (tool spec 2.14-2.16). A rebuild is prepared completely
before anything is replaced, then swapped in with one commit, so the old index stays
searchable until the new one is ready and a crash leaves one or the other."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from casetrack.domain import Case, Document
from casetrack.errors import CaseTrackError, InvalidInput, SourceNotHere, Step
from casetrack.service.cases.cases import CaseService
from casetrack.service.cases.documents import DocumentReader
from casetrack.service.cases.page_images import sweep_prints
from casetrack.service.infra.jobs import Progress
from casetrack.service.ingest.document import Commit, Ingestor, IngestRequest
from casetrack.service.ingest.entries import BM25, Indexer, chunk_headers, heading_paths
from casetrack.service.ingest.mail_context import stored_parts, with_mail
from casetrack.service.ingest.source_file import file_sha256
from casetrack.store import documents as docstore
from casetrack.store.stats import bump_generation

log = logging.getLogger(__name__)

NOT_HERE = "not on this computer"
NEEDS_RELINK = "needs_relink"  # reindex_case: not read again (no source here, no kept copy), unchanged


@dataclass(frozen=True, slots=True)
class Reindexed:
    document: Document
    action: str  # "reparsed" | "re-embedded" | "unchanged"
    detail: str = ""


@dataclass(frozen=True, slots=True)
class DocumentHealth:
    document: Document
    source: str  # "unchanged" | "changed" | "missing" | "kept copy" | NOT_HERE
    missing_embedders: tuple[str, ...]
    skipped_pages: int

    @property
    def healthy(self) -> bool:
        return self.source in ("unchanged", "kept copy") and not self.missing_embedders and not self.skipped_pages


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
            trusted = self._cases.seals.trusted(case.id, doc)
            state = source_state(doc, trusted)
            if trusted is None:  # imported (or never proven): re-read from the kept copy, else relink it
                state = "kept copy" if self._cases.store(case).copy_of(doc.id) else NOT_HERE
            report.documents.append(DocumentHealth(doc, state, missing, doc.skipped_pages))
        return report

    def reindex_named(self, case: Case, ref: str, force: bool = False, reparse: bool = True) -> Reindexed:
        """reindex_document for the document `ref` names. Raises NotFound, and as `reindex_document`."""
        return self.reindex_document(case, self._documents.resolve(case, ref), force, reparse)

    def reindex_document(self, case: Case, doc: Document, force: bool = False, reparse: bool = True) -> Reindexed:
        """Raises CaseReadOnly; SourceNotHere when reparse is asked and the document can be read neither from a
        source this machine recorded nor from the copy kept in the case (nothing about it changes)."""
        self._cases.require_writable(case)
        if reparse:
            source, state, kept = self._source(case, doc)
            missing = [e for e in self.ready_embedders() if e not in doc.embedders]
            if state == "unchanged" and not missing and not force:
                return Reindexed(doc, "unchanged", "source file unchanged and embeddings complete (use force=true "
                                                   "to rebuild anyway)")
            request = IngestRequest(str(source), document_name=doc.name, kept_copy=kept,
                                    document_type=doc.document_type.value if doc.type_source == "user" else None)
            done = self._ingestor.ingest(case, request, replace_doc=doc)
            where = "the copy kept in the case" if kept else f"source {state}"
            return Reindexed(done.document, "reparsed", f"{where}; {done.document.chunk_count} chunks")
        return self._reembed(case, doc, force)

    def _source(self, case: Case, doc: Document) -> tuple[Path, str, bool]:
        """The file a reparse reads, its state, and whether it is the kept copy: the source this machine recorded
        when it is there, else the copy kept in the case. A path no seal proves is never opened (an archive's)."""
        trusted = self._cases.seals.trusted(case.id, doc)
        state = source_state(doc, trusted)
        if state != "missing" and trusted is not None:
            return trusted, state, False
        copy = self._cases.store(case).copy_of(doc.id)
        if copy is not None:
            return copy, source_state(doc, copy), True
        raise SourceNotHere(doc.name, doc.original_path if trusted is not None else None,
                            [Step("relink_document", {"document": doc.name})])

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
            headings = docstore.structure(db, doc.id)
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
        """Every document, one commit each. Returns (name, action, detail) per document; the action is "failed", or
        NEEDS_RELINK for one that has no file to read here (left unchanged)."""
        results = []
        docs = self._documents.all(case)
        for n, doc in enumerate(docs):
            if progress:
                progress(n, len(docs), doc.name)
            try:
                done = self.reindex_document(self._cases.get(case.id), doc, force=not skip_unchanged, reparse=reparse)
                results.append((doc.name, done.action, done.detail))
            except SourceNotHere as exc:  # left as it was; the report lists it with the step that fixes it
                results.append((doc.name, NEEDS_RELINK, exc.message))
            except CaseTrackError as exc:
                results.append((doc.name, "failed", exc.message))
        try:  # each replaced document's print went with it; this also clears what an earlier crash left
            sweep_prints(self._cases.store(case))
        except CaseTrackError as exc:
            log.warning("The printed pages of replaced documents stay until the next start: %s", exc.message)
        return results


def source_state(doc: Document, path: Path | None) -> str:
    """unchanged | changed | missing for the file at `path` (None: no source this machine recorded), hashing only
    when size or modification time moved."""
    if path is None or not path.is_file():
        return "missing"
    stat = path.stat()
    if stat.st_size == doc.file_size and abs(stat.st_mtime - doc.file_mtime) < 1e-6:
        return "unchanged"
    try:
        return "unchanged" if file_sha256(path) == doc.file_hash else "changed"
    except CaseTrackError:  # stalled or unreadable: re-ingesting it says exactly what is wrong
        return "changed"
