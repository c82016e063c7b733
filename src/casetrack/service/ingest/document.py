"""Ingesting one file into a case: parse -> chunk -> index entries -> one atomic commit.

All slow work (parsing, OCR, embedding) happens before the case store is opened for writing; the commit itself
holds the write lock for milliseconds. The commit re-checks for a duplicate under the lock, so two processes
ingesting the same file at once still store it once."""

from __future__ import annotations

import logging
import os
import re
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from casetrack import cancel
from casetrack.chunk import chunk_pages, extract_structure, find_bates_number, infer_document_type
from casetrack.chunk.pinpoints import chunk_place_terms, printed_lines
from casetrack.chunk.roles.tagging import role_term
from casetrack.config import Settings
from casetrack.domain import (
    Case,
    CaseStats,
    Document,
    DocumentType,
    ExtractionMethod,
    ParsedDocument,
    StoredPage,
    clean_name,
)
from casetrack.errors import CaseTrackError, DocumentUnreadable, DuplicateDocument, UnsafePath
from casetrack.graph.records import ExtractRecord
from casetrack.index.references import chunk_reference_terms
from casetrack.parse import ParseOptions, parse_file
from casetrack.search.scope import opening
from casetrack.service.cases.cases import CaseService
from casetrack.service.cases.documents import parse_document_type
from casetrack.service.cases.page_images import forget_print
from casetrack.service.distribution import licensing
from casetrack.service.ingest.clauses import tag_chunks
from casetrack.service.ingest.document_warnings import document_warnings, unsearchable
from casetrack.service.ingest.entries import Indexer, chunk_headers, heading_paths, with_extra_terms
from casetrack.service.ingest.graph_extract import PendingExtract
from casetrack.service.ingest.mail_context import with_correspondents, with_mail, with_mail_dates
from casetrack.service.ingest.source_file import check_file, file_sha256
from casetrack.store import documents as docstore
from casetrack.store.case_store import CaseStore
from casetrack.store.stats import adjusted_stats, bump_generation, put_stats, read_stats
from casetrack.store.vectors import VectorValue

log = logging.getLogger(__name__)

MAX_PARTIES = 8  # a caption with dozens of plaintiffs is named by its first few


@dataclass(frozen=True, slots=True)
class IngestRequest:
    path: str
    document_name: str | None = None
    document_type: str | None = None
    copy_original: bool = False
    # `path` is the copy kept inside the case of the document being replaced (a reindex): the document keeps the
    # source it records (sealed again if this machine recorded it, else still "not on this computer").
    kept_copy: bool = False


@dataclass(frozen=True, slots=True)
class Commit:
    """What one commit changed, for keeping in-memory search indexes in step."""

    case_id: str
    generation_before: int
    generation_after: int
    document_id: str | None
    terms: Mapping[str, Mapping[str, int]]  # the commit's own records: listeners read them, never change them
    vectors: Mapping[str, Mapping[str, VectorValue]]
    removed_chunks: list[str]


CommitListener = Callable[[Commit], None]


@dataclass(frozen=True, slots=True)
class Ingested:
    document: Document
    duration_s: float
    replaced: Document | None = None
    earlier: Document | None = None  # ingested from the same path before the file changed; both are kept


@dataclass(frozen=True, slots=True)
class Admitted:
    """A file accepted for ingest, with what was read about it before parsing."""

    path: Path
    doc_type: DocumentType | None
    before: os.stat_result
    sha256: str
    name: str
    stored: list[Document]  # the case's documents (empty when replacing)
    earlier: Document | None  # ingested from this same path before


@dataclass(frozen=True, slots=True)
class Deleted:
    stats: CaseStats
    note: str | None = None  # why a file was left in place (a copy path outside the case), else None


class Ingestor:
    def __init__(self, settings: Settings, cases: CaseService, indexer: Indexer,
                 limits: licensing.Limits = licensing.UNLIMITED) -> None:
        self._settings = settings
        self._cases = cases
        self._indexer = indexer
        self._parse_options = ParseOptions(ocr_language=settings.ocr_language, scratch_dir=settings.scratch_dir)
        self.read_grace_s = settings.read_timeout_s
        self.listeners: list[CommitListener] = []
        self.limits = limits  # the licence tier's

    def ingest(self, case: Case, request: IngestRequest, replace_doc: Document | None = None,
               stage: Callable[[str], None] | None = None) -> Ingested:
        """Ingest one file. Raises FileNotFound, InvalidInput, UnsupportedFormat, DocumentUnreadable,
        DuplicateDocument, FreeTierLimit, CaseReadOnly, CaseBusy; on any error nothing is stored.
        `stage`, when given, hears what is happening ("reading", "embedding 389 chunks", ...) for progress."""
        heard = stage or (lambda _stage: None)

        def report(now: str) -> None:
            cancel.checkpoint()  # between stages a cancelled job stops, with nothing stored
            heard(now)

        started = time.perf_counter()
        admitted = self._admit(case, request, replace_doc)
        path, doc_type, before, sha256 = admitted.path, admitted.doc_type, admitted.before, admitted.sha256
        name, stored, earlier, store = admitted.name, admitted.stored, admitted.earlier, self._cases.store(case)

        report("reading")
        parsed, after = self._read(path, before)
        # The context graph is extracted in the helper process (when there is one) while this one chunks.
        with PendingExtract(parsed.pages) as graph:
            doc_id = str(uuid.uuid4())
            pages = stored_pages(parsed)
            doc_type, confidence, type_source = _typed(path, parsed, doc_type)
            report(f"chunking {len(parsed.pages)} pages")
            headings = extract_structure(parsed.pages)
            spans = chunk_pages(parsed.pages, doc_type)
            chunk_ids = [str(uuid.uuid4()) for _ in spans]
            if stage is not None and spans and (embedders := self._indexer.document_embedders()):
                report(f"embedding {len(spans)} chunks ({', '.join(embedders)})")  # the long part, ~0.1 s a chunk
            paths = heading_paths(spans, headings)
            headers = with_mail(chunk_headers(name, paths), parsed.messages, spans)
            entries = self._indexer.build([s.text for s in spans], headers=headers)
            ocr_pages = [p for p in pages if p.method is ExtractionMethod.OCR]
            confidences = [p.ocr_confidence for p in ocr_pages if p.ocr_confidence is not None]
            warnings = unsearchable(parsed, spans) + document_warnings(parsed, stored, sha256)
            located = list(zip(chunk_ids, spans, strict=True))
            extract = with_mail_dates(graph.records(headings, located), parsed.pages, parsed.messages, located)
            tags = tag_chunks(chunk_ids, spans, paths, extract.roles, doc_type, entries.vectors)
            roles = tags.roles
            references = chunk_reference_terms(extract.authorities, located)
            places = chunk_place_terms(parsed.pages, spans)  # "¶ 24" of a complaint, "Dep. 17:19"
            terms = with_extra_terms(with_correspondents(entries.terms, parsed.messages, spans), [
                [*references.get(cid, ()), *(role_term(r) for r in tagged), *held]
                for cid, tagged, held in zip(chunk_ids, roles, places, strict=True)])
            now = time.time()
            document = Document(
                id=doc_id, name=name, original_path=str(path), file_hash=sha256, file_size=after.st_size,
                file_mtime=after.st_mtime, format=parsed.format, document_type=doc_type, type_confidence=confidence,
                type_source=type_source, page_count=len(pages), chunk_count=len(spans), ocr_pages=len(ocr_pages),
                skipped_pages=sum(p.method is ExtractionMethod.SKIPPED for p in pages),
                ocr_confidence=round(sum(confidences) / len(confidences), 1) if confidences else None,
                ingested_at=now, embedded_at=entries.embedded_at, embedders=entries.embedders, warnings=warnings,
                metadata=_metadata(parsed, extract),
            )
            document, copied = self._with_copy(store, self._recorded_source(case, document, request, replace_doc),
                                               path, request.copy_original, replace_doc)
            write = docstore.DocumentWrite(
                document=document, pages=pages, chunks=located,
                terms=dict(zip(chunk_ids, terms, strict=True)),
                roles={cid: r for cid, r in zip(chunk_ids, roles, strict=True) if r},
                role_confidence=tags.confidence, role_spans=tags.places, role_likelihood=tags.likelihood,
                role_unsearched=tags.unsearched,
                printed={cid: printed for cid, span, held in zip(chunk_ids, spans, places, strict=True)
                         if (printed := printed_lines(held, span.page))},
                vectors={e: dict(zip(chunk_ids, vs, strict=True)) for e, vs in entries.vectors.items()},
                windows={e: {cid: w for cid, w in zip(chunk_ids, ws, strict=True) if w is not None}
                         for e, ws in entries.windows.items()},
                structure=headings, graph=extract,
                page_words={p.number: p.ocr_words for p in parsed.pages if p.ocr_words is not None},
            )
        report("saving")
        self._commit_with_copy(case, store, write, replace_doc, now, copied)
        duration = time.perf_counter() - started
        log.info("Ingested %s (%d pages, %d chunks, %.0f ms)", name, len(pages), len(spans), duration * 1000)
        return Ingested(store.located(document), duration, replace_doc, earlier and store.located(earlier))

    def _read(self, path: Path, before: os.stat_result) -> tuple[ParsedDocument, os.stat_result]:
        """The file parsed, and its state after. Raises DocumentUnreadable when it changed while it was read
        (and what `parse_file` raises)."""
        parsed = parse_file(path, self._parse_options)
        after = path.stat()
        if (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
            raise DocumentUnreadable(str(path), "the file changed while it was being read",
                                     "Wait until it has finished saving or copying, then ingest it again.")
        return parsed, after

    def _admit(self, case: Case, request: IngestRequest, replace_doc: Document | None) -> Admitted:
        """Everything decided before a file is read: refused here, a document costs nothing."""
        self._cases.require_writable(case)
        path = check_file(request.path)
        doc_type = parse_document_type(request.document_type)
        before = path.stat()
        sha256 = file_sha256(path, self.read_grace_s)
        with self._cases.store(case).reader() as db:  # one read session: duplicate check and the display name
            existing = None if replace_doc is not None else docstore.find_by_hash(db, sha256)
            stored = [] if replace_doc is not None else docstore.list_documents(db)
            name = clean_name(request.document_name or "") or unique_name(stored, path, replace_doc)
            earlier = ingested_from(stored, path)
            count = read_stats(db).document_count
        if existing is not None:
            raise DuplicateDocument(existing.name, existing.id)
        if replace_doc is None:
            licensing.check_document_limit(self.limits, count)
        return Admitted(path, doc_type, before, sha256, name, stored, earlier)

    def _commit(self, case: Case, write: docstore.DocumentWrite, replace_doc: Document | None, now: float) -> None:
        store = self._cases.store(case)
        removed: list[str] = []
        with store.writer(f"ingesting {write.document.name}") as db:
            cancel.checkpoint()  # the last moment a cancelled job can stop: after this, it is stored whole
            batch = db.batch()
            if replace_doc is not None:
                if docstore.get_document(db, replace_doc.id) is not None:
                    removed = docstore.delete_document(db, batch, replace_doc, self._indexer.all_embedder_ids)
            else:
                existing = docstore.find_by_hash(db, write.document.file_hash)
                if existing is not None:  # another process stored it while we were parsing
                    raise DuplicateDocument(existing.name, existing.id)
                licensing.check_document_limit(self.limits, read_stats(db).document_count)
            docstore.put_document(batch, write)
            stats = adjusted_stats(db, write.document, replace_doc)
            put_stats(batch, stats)
            before = bump_generation(db, batch, write.document.id, removed)
            db.write(batch)
            self._copy_stats(case, stats, now)
        # The write's own terms and vectors, not copies: a 3,000-page document's terms are ~16 MB of dicts.
        self.notify(Commit(case.id, before, before + 1, write.document.id, write.terms, write.vectors, removed))

    def delete(self, case: Case, doc: Document) -> Deleted:
        """Remove a document's records in one batch, then its copied original and printed PDF, each inside the case's
        folder (derived from its id; a path outside it is refused and reported in `Deleted.note`)."""
        self._cases.require_writable(case)
        store = self._cases.store(case)
        with store.writer(f"deleting {doc.name}") as db:
            batch = db.batch()
            removed = docstore.delete_document(db, batch, doc, self._indexer.all_embedder_ids)
            stats = adjusted_stats(db, None, doc)
            put_stats(batch, stats)
            before = bump_generation(db, batch, None, removed)
            db.write(batch)
            self._copy_stats(case, stats, time.time())
        self.notify(Commit(case.id, before, before + 1, None, {}, {}, removed))
        note = self._remove_copy(store, doc) if doc.copied_original else None
        forget_print(store.case_dir, doc)
        return Deleted(stats, note)

    def _copy_stats(self, case: Case, stats: CaseStats, now: float) -> None:
        """Copy a commit's new counts to the registry (list_cases) while the writer lease is held: a process killed
        before this leaves the lease, and the next start recounts (service.cases.recovery); busy registry: logged."""
        try:
            self._cases.save_stats(replace(case, stats=stats, updated_at=now))
        except CaseTrackError as exc:
            log.warning("The case list may show old counts for %s until its next change: %s", case.name, exc.message)

    @staticmethod
    def _remove_copy(store: CaseStore, doc: Document) -> str | None:
        """Remove the copy CaseTrack made of `doc`'s original; the refusal's text if its id is foreign."""
        try:
            store.remove_copy(doc.id)
        except UnsafePath as refused:
            log.warning("Deleting %s: %s", doc.name, refused.message)
            return refused.message
        return None

    def notify(self, commit: Commit) -> None:
        for listener in self.listeners:
            listener(commit)

    def _recorded_source(self, case: Case, doc: Document, request: IngestRequest,
                         replacing: Document | None) -> Document:
        """The source `doc` records, sealed as this machine's (`service.cases.sources`): the file read, or, when
        a reindex read the copy kept in the case, the source the replaced document recorded."""
        seals = self._cases.seals
        if not (request.kept_copy and replacing is not None):
            return seals.sealed(case.id, doc, doc.original_path or "")
        trusted = seals.trusted(case.id, replacing)
        if trusted is not None:
            return seals.sealed(case.id, doc, str(trusted))
        return replace(doc, original_path=None, source_seal=None, archived_path=replacing.archived_path)

    def _commit_with_copy(self, case: Case, store: CaseStore, write: docstore.DocumentWrite,
                          replace_doc: Document | None, now: float, copied: Path | None) -> None:
        """The commit, then the replaced document's kept copy and printed PDF removed; a failed commit removes the
        new copy. A crash between leaves only the old files, which the next start removes (service.cases.recovery)."""
        doc_id = write.document.id
        try:
            self._commit(case, write, replace_doc, now)
        except BaseException:
            if copied:
                store.remove_copy(doc_id)
                store.finish_copy(doc_id)
            raise
        if replace_doc is not None:
            forget_print(store.case_dir, replace_doc)
            if replace_doc.copied_original:
                self._remove_copy(store, replace_doc)
        if copied:
            store.finish_copy(doc_id)

    @classmethod
    def _with_copy(cls, store: CaseStore, doc: Document, source: Path, asked: bool,
                   replacing: Document | None) -> tuple[Document, Path | None]:
        """`doc` with the copy of its original it keeps: when asked, or when the document it replaces kept one."""
        if not (asked or (replacing is not None and replacing.copied_original)):
            return doc, None
        copied = cls._keep_copy(store, doc, source, replacing)
        return replace(doc, copied_original=store.recorded_copy(copied)), copied

    @staticmethod
    def _keep_copy(store: CaseStore, doc: Document, source: Path, replacing: Document | None) -> Path:
        """The copy of `doc`'s original kept in `originals/<its id>/`, made before the commit that names it. A
        replaced document's copy of the same bytes moves with it (linked, so that until the commit the old
        document keeps its own; the old folder goes after it); otherwise the file read is copied."""
        kept = store.copy_of(replacing.id) if replacing is not None and replacing.file_hash == doc.file_hash else None
        return store.keep_copy(doc.id, kept or source, replacing.id if replacing else None, link=kept is not None)


def _typed(path: Path, parsed: ParsedDocument, given: DocumentType | None) -> tuple[DocumentType, float, str]:
    """The document's type, its confidence and where it came from: the user's, else inferred."""
    if given is not None:
        return given, 1.0, "user"
    inferred, confidence = infer_document_type(path.name, parsed.own_text)  # an e-mail is not its attachment
    return inferred, confidence, "inferred"


def _metadata(parsed: ParsedDocument, extract: ExtractRecord) -> dict[str, str]:
    """What the parser read, and its opening words and parties: a search names it by them (search.scope)."""
    metadata = dict(parsed.metadata)
    first_page = next((page.text for page in parsed.pages if page.text.strip()), "")
    if first_page:
        metadata.setdefault("opening", opening(first_page))
    if parties := list(dict.fromkeys(party.name for party in extract.parties))[:MAX_PARTIES]:
        metadata.setdefault("parties", "; ".join(parties))
    return metadata


def stored_pages(parsed: ParsedDocument) -> list[StoredPage]:
    return [
        StoredPage(number=p.number, text=p.text, method=p.method, ocr_confidence=p.ocr_confidence,
                   approximate=p.approximate, bates_number=find_bates_number(p.text) if p.text else None,
                   attachment=p.attachment, attachment_page=p.attachment_page, line_width=p.line_width)
        for p in parsed.pages
    ]


def ingested_from(documents: Iterable[Document], path: Path) -> Document | None:
    """The document ingested earlier from the file at `path` (resolved, as `check_file` gives it)."""
    return next((d for d in documents if d.original_path and Path(d.original_path) == path), None)


def named_after_file(name: str, path: Path) -> bool:
    """Whether `name` is one `unique_name` gives the file at `path` (not one the user chose at ingest)."""
    file, folder, stem = clean_name(path.name), clean_name(path.parent.name), clean_name(path.stem)
    return name in (file, f"{folder}/{file}") or re.fullmatch(
        rf"{re.escape(stem)} \(\d+\){re.escape(clean_name(path.suffix))}", name) is not None


def unique_name(stored: list[Document], path: Path, replacing: Document | None) -> str:
    """The file name, or `folder/file name` when another of the `stored` documents already uses that name."""
    if replacing is not None:
        return replacing.name
    taken = {d.name.casefold() for d in stored}
    # A file name may hold a newline or a tab; a citation must not (it is copied into briefs).
    name, folder, stem = clean_name(path.name), clean_name(path.parent.name), clean_name(path.stem)
    for candidate in (name, f"{folder}/{name}"):
        if candidate.casefold() not in taken:
            return candidate
    n = 2
    while f"{stem} ({n}){path.suffix}".casefold() in taken:
        n += 1
    return f"{stem} ({n}){clean_name(path.suffix)}"
