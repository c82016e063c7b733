"""The composition root: builds every service from `Settings` and holds the session state
(the active case). The MCP server and the CLI both drive CaseTrack through this class."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace

from casetrack import helper_process
from casetrack.config import MemoryMode, Settings
from casetrack.domain import Case, CaseStatus, Document
from casetrack.embed import MODELS, EmbedderPool
from casetrack.errors import CaseTrackError, ConfirmationRequired, NoCaseActive, NotFound
from casetrack.parse import SUPPORTED_LABEL, ocr_status, remove_leftovers
from casetrack.parse.options import ParseOptions
from casetrack.service import status
from casetrack.service.cases import recovery
from casetrack.service.cases.cases import CaseService
from casetrack.service.cases.documents import DocumentReader
from casetrack.service.cases.page_images import PageImages
from casetrack.service.cases.session import Session
from casetrack.service.distribution import licensing
from casetrack.service.graph.case_graph import GraphReader, GraphService
from casetrack.service.graph.find_entity import EntitySearch
from casetrack.service.graph.queries import GraphQueries
from casetrack.service.infra.jobs import Job, JobManager
from casetrack.service.ingest.background import IngestJobs
from casetrack.service.ingest.document import Deleted, Ingestor
from casetrack.service.ingest.entries import BM25, Indexer
from casetrack.service.ingest.folders import FolderService
from casetrack.service.ingest.reindex import CaseHealth, Reindexer
from casetrack.service.ingest.relink import Relinker
from casetrack.service.search.compare import Comparer
from casetrack.service.search.index_cache import IndexCache
from casetrack.service.search.index_status import IndexFilesStatus
from casetrack.service.search.passages import PassageReader
from casetrack.service.search.query import SearchService
from casetrack.service.search.testimony import TestimonyService
from casetrack.service.status import EmbedderState, StatusReport
from casetrack.service.verify.drafts import DraftVerifier
from casetrack.service.watch.service import WatchConfig, WatchService
from casetrack.store.registry import Registry
from casetrack.store.rocks import raise_open_file_limit
from casetrack.store.stats import read_stats

log = logging.getLogger(__name__)

# What the helper process imports before it takes work: the PDF reader and the graph extraction.
HELPER_MODULES = ("casetrack.parse.pdf.document", "casetrack.service.ingest.graph_extract")


@dataclass(frozen=True, slots=True)
class CaseListing:
    cases: list[Case]
    hidden: int  # cases the status filter left out
    active_id: str | None
    status_filter: str


@dataclass(frozen=True, slots=True)
class CaseOverview:
    case: Case
    documents: list[Document]
    total_documents: int
    embedders: str  # "E7 ready, BM25 ready, ..."


@dataclass(frozen=True, slots=True)
class StatusChange:
    case: Case
    before: CaseStatus


@dataclass(frozen=True, slots=True)
class Deletion:
    document: Document
    deleted: Deleted


@dataclass(frozen=True, slots=True)
class IndexStatus:
    case: Case
    health: CaseHealth
    running: list[Job]
    watches: list[str]
    files: IndexFilesStatus  # the search-index files in the case folder and their state


class CaseTrack:
    """The composition root. A process starts one with `CaseTrack.open(settings)`, which does the start-up I/O
    (the data folder, leftovers, the open-file limit, the licence, crash recovery, the last session's case);
    the constructor only wires the services together."""

    def __init__(self, settings: Settings, licence: licensing.Licence) -> None:
        self.settings = settings
        self.licence = licence
        self.tier = licence.tier
        limits = licensing.limits_for(self.tier)
        self.registry = Registry(settings.registry_path, settings.lock_timeout_s)
        self.cases = CaseService(settings, self.registry, limits)
        self.pool = EmbedderPool(
            settings.models_dir, tier=self.tier,
            memory_mode=None if settings.memory_mode is MemoryMode.AUTO else settings.memory_mode,
            threads=settings.inference_threads,
        )
        self.indexer = Indexer(self.pool)
        self.ingestor = Ingestor(settings, self.cases, self.indexer, limits)
        self.documents = DocumentReader(self.cases)
        self.page_images = PageImages(self.cases, self.documents, ParseOptions(
            ocr_language=settings.ocr_language, scratch_dir=settings.scratch_dir))
        self.folders = FolderService(self.cases, self.ingestor)
        self.jobs = JobManager()
        cache = IndexCache()
        self.ingestor.listeners.append(lambda c: cache.applied(c.case_id, c.generation_before, c.generation_after))
        self.search = SearchService(self.cases, self.documents, self.pool, cache)
        self.comparer = Comparer(self.search, self.licence)
        self.testimony = TestimonyService(self.cases, self.documents, self.search.transcripts)  # issue 37
        self.passages = PassageReader(self.documents, self.testimony)
        self.reindexer = Reindexer(self.cases, self.documents, self.ingestor, self.indexer)
        self.relinker = Relinker(self.cases, self.documents, settings.data_dir, settings.read_timeout_s)
        # Built in every process (the tools edit watches.json); only `casetrack serve` calls start().
        self.watches = WatchService(settings.data_dir, self.cases, self.folders, self.ingestor,
                                    WatchConfig.from_settings(settings), settings.lock_timeout_s)
        self.graph = GraphService(self.cases)
        self.entity_search = EntitySearch(self.cases, self.graph, self.search, self.licence)
        self.graph_reader = GraphReader(self.cases)
        self.graph_queries = GraphQueries(self.cases, self.graph, self.graph_reader, self.documents, self.search,
                                          self.licence)
        self.ingest_jobs = IngestJobs(self.jobs, self.ingestor, self.folders, self.reindexer)
        self.verifier = DraftVerifier(self.cases)
        # The active case: this session's own choice, else the last case chosen in any session (see open()).
        self.session = Session(settings.data_dir, self.cases)
        self.recovered: list[str] = []  # what start-up recovery repaired (open())

    @classmethod
    def open(cls, settings: Settings, licence_public_key: bytes | None = None) -> CaseTrack:
        """The application over `settings.data_dir`, ready to serve: the folders made, a killed ingest's
        scratch pages removed, the open-file limit raised, the licence read (`licence_public_key` replaces the
        built-in key: tests only), interrupted creates and deletes finished or rolled back, and the session
        continued in the last case chosen."""
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        settings.cases_dir.mkdir(exist_ok=True)
        settings.models_dir.mkdir(exist_ok=True)
        remove_leftovers(settings.scratch_dir)  # pages a killed ingest left behind
        raise_open_file_limit()
        app = cls(settings, licensing.load(settings, licence_public_key))
        # A second core reads half of a long PDF and extracts the context graph; not in constrained memory
        # (the helper process is ~65 MB), and it only starts when a long document first wants it.
        helper_process.enable(HELPER_MODULES, on=app.pool.plan.mode is not MemoryMode.CONSTRAINED)
        try:
            app.recovered = recovery.repair(settings, app.registry)
        except CaseTrackError as exc:
            # Keep serving: each tool then answers with this same actionable message,
            # which the user sees in Claude, instead of a server that silently fails to start.
            log.error("Start-up check failed: %s", exc.message)
            app.recovered = [f"start-up check failed: {exc.message}"]
        app.session.restore()
        return app

    def stop(self, grace_s: float = 1.0) -> None:
        """End the server's background work, as when it is stopped (Ctrl-C, end of input): jobs and folder
        watches are cancelled, a document in progress is not stored (each is one atomic commit, so nothing is
        half-written; it is ingested again when asked, a watched one at the next start), the helper ends."""
        deadline = time.monotonic() + grace_s
        for job in self.jobs.shutdown(grace_s):
            log.warning("Job %s (%s) was still running when CaseTrack stopped; nothing from it was stored",
                        job.short_id, job.kind)
        self.watches.stop(timeout_s=max(0.2, deadline - time.monotonic()))
        helper_process.stop()

    # --- active case ---------------------------------------------------------

    @property
    def active_case_id(self) -> str | None:
        return self.session.active_id

    def active_case(self) -> Case:
        """The active case, freshly read. Raises NoCaseActive, or NotFound if it was deleted elsewhere."""
        return self.session.active()

    def active_case_or_none(self) -> Case | None:
        try:
            return self.active_case()
        except (NoCaseActive, NotFound):
            return None

    def case(self, ref: str | None = None) -> Case:
        """The case a tool works on: the one `ref` names (the session's active case is left as it
        is), else the active case. Raises NotFound, NoCaseActive."""
        return self.session.case(ref)

    def writable_case(self, ref: str | None = None) -> Case:
        """`case(ref)`, if it accepts new documents. Raises NoCaseActive, NotFound, CaseReadOnly."""
        case = self.case(ref)
        self.cases.require_writable(case)
        return case

    def writable_active_case(self) -> Case:
        return self.writable_case(None)

    # --- case use cases ------------------------------------------------------

    def create_case(self, name: str, case_number: str | None = None, case_type: str | None = None) -> Case:
        case = self.cases.create(name, case_number, case_type)
        self.session.choose(case)
        return case

    def list_cases(self, status_filter: str = "active") -> list[Case]:
        return self.cases.list(status_filter)

    def switch_case(self, ref: str, remember: bool = True) -> Case:
        """Work in the case `ref` names from now on. `remember` (the user's choice) also makes it the
        case the next session starts in; a CLI command's --case does not."""
        case = self.cases.resolve(ref)
        if remember:
            self.session.choose(case)
        else:
            self.session.use(case)
        if case.stats.chunk_count:
            self.search.warm(case)  # the user is about to work in it: load its search index now
        return case

    def case_listing(self, status_filter: str = "active") -> CaseListing:
        cases = self.cases.list(status_filter)
        hidden = 0 if status_filter == "all" else len(self.cases.list("all")) - len(cases)
        return CaseListing(cases, hidden, self.active_case_id, status_filter)

    def case_info(self, ref: str | None = None) -> Case:
        """A case with statistics read from its own store (the registry copy may lag a crash)."""
        case = self.case(ref)
        store = self.cases.store(case)
        with store.reader() as db:
            stats = read_stats(db)
        return replace(case, stats=replace(stats, storage_bytes=store.storage_bytes()))

    def case_overview(self, ref: str | None = None, limit: int = 500) -> CaseOverview:
        """get_case_info: the case, its documents (newest first) and what its search uses."""
        case = self.case_info(ref)
        page = self.documents.listing(case, "date", limit, 0)
        return CaseOverview(case, page.documents, page.total, self.embedders_summary())

    def change_status(self, ref: str | None, wanted: CaseStatus) -> StatusChange:
        """Close, reopen or archive a case (the active one without `ref`)."""
        case = self.case(ref)
        return StatusChange(self.cases.set_status(case.id, wanted), case.status)

    def close_case(self, ref: str | None = None) -> Case:
        return self.change_status(ref, CaseStatus.CLOSED).case

    def reopen_case(self, ref: str | None = None) -> Case:
        return self.change_status(ref, CaseStatus.ACTIVE).case

    def archive_case(self, ref: str | None = None) -> Case:
        return self.change_status(ref, CaseStatus.ARCHIVED).case

    def delete_case(self, ref: str, confirm: bool) -> Case:
        self.search.forget(self.cases.resolve(ref).id)  # release open files before the folder goes
        case = self.cases.delete(ref, confirm)
        self.watches.forget_case(case.id)
        self.graph.forget(case.id)
        self.session.forget(case.id)
        self.verifier.forget(case.id)
        return case

    # --- documents -----------------------------------------------------------

    def delete_document(self, case: Case, ref: str, confirm: bool) -> Deletion:
        """Raises NotFound, CaseReadOnly, ConfirmationRequired (naming what would go) unless `confirm`."""
        self.cases.require_writable(case)
        doc = self.documents.resolve(case, ref)
        if confirm is not True:  # only a real true: "yes" or 1 is no confirmation (issue 33 §4)
            chunks = f"{doc.chunk_count} chunk{'s' if doc.chunk_count != 1 else ''}"
            raise ConfirmationRequired(f'document "{doc.name}" ({chunks}) from case "{case.name}"')
        return Deletion(doc, self.ingestor.delete(case, doc))

    def index_status(self, case: Case, document_filter: str | None = None) -> IndexStatus:
        """get_index_status: each document's health, this case's running jobs, its watches and its search-index
        files."""
        running = [j for j in self.jobs.recent() if j.case_id == case.id and not j.finished.is_set()]
        return IndexStatus(case, self.reindexer.health(case, document_filter), running,
                           self.watches.index_status_lines(case.id), self.search.index_files(case))

    # --- status --------------------------------------------------------------

    @property
    def formats_label(self) -> str:
        """The file formats CaseTrack reads, as users read them: "PDF, DOCX, ..."."""
        return SUPPORTED_LABEL

    def status(self) -> StatusReport:
        rss, total, available = status.process_memory()
        active = self.active_case_or_none()
        try:
            case_count = len(self.registry.list())
        except CaseTrackError:
            case_count = 0
        ocr = ocr_status()
        plan = self.pool.plan
        return StatusReport(
            version=status.version(),
            data_dir=str(self.settings.data_dir),
            data_dir_source=self.settings.data_dir_source,
            active_case=active.name if active else None,
            tier=self.licence.label,
            memory_mode=plan.mode.value,
            memory_mode_reason=plan.reason,
            embedders=tuple(self.embedder_states()),
            models_bytes=status.directory_bytes(self.settings.models_dir),
            case_count=case_count,
            cases_bytes=status.directory_bytes(self.settings.cases_dir),
            process_rss_bytes=rss,
            system_total_bytes=total,
            system_available_bytes=available,
            os=status.os_description(),
            ocr=ocr.detail,
            recovered=tuple(self.recovered),
        )

    def embedder_states(self) -> list[EmbedderState]:
        states = []
        for s in self.pool.status():
            state = "loaded" if s.loaded else s.state.value.replace("_", " ")
            detail = s.detail[len(state):].lstrip(" :-") if s.detail.lower().startswith(state) else s.detail
            fix = f"run: {s.fix}" if s.fix and s.fix.startswith("casetrack") else (s.fix or "")
            label = f"{MODELS[s.model_id].label if s.model_id in MODELS else s.model_id} ({s.name})"
            states.append(EmbedderState(s.model_id, label, state, "; ".join(x for x in (detail, fix) if x)))
        return [*states, EmbedderState(BM25, "E13 (BM25)", "ready", "algorithmic, always available")]

    def embedders_summary(self) -> str:
        ready = [e.label.split(" (")[0] for e in self.embedder_states() if e.state in ("ready", "loaded")]
        return ", ".join(ready) + f" ({self.tier.value.capitalize()} tier)"
