"""The composition root: builds every service from `Settings` and holds the session state
(the active case). The MCP server and the CLI both drive CaseTrack through this class."""

from __future__ import annotations

import logging
from dataclasses import replace

from casetrack.config import Settings
from casetrack.domain import Case, CaseStatus
from casetrack.errors import CaseTrackError, NoCaseActive, NotFound
from casetrack.service import recovery, status
from casetrack.service.cases import CaseService
from casetrack.service.status import EmbedderState, StatusReport
from casetrack.store.registry import Registry

log = logging.getLogger(__name__)


class CaseTrack:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        settings.cases_dir.mkdir(exist_ok=True)
        settings.models_dir.mkdir(exist_ok=True)
        self.registry = Registry(settings.registry_path, settings.lock_timeout_s)
        self.cases = CaseService(settings, self.registry)
        try:
            self.recovered = recovery.repair(settings, self.registry)
        except CaseTrackError as exc:
            # Keep serving: each tool then answers with this same actionable message,
            # which the user sees in Claude, instead of a server that silently fails to start.
            log.error("Start-up check failed: %s", exc.message)
            self.recovered = [f"start-up check failed: {exc.message}"]
        # PRD 09 §4: the active case lives for this session only; a new server starts with none.
        self._active_id: str | None = None

    # --- active case ---------------------------------------------------------

    @property
    def active_case_id(self) -> str | None:
        return self._active_id

    def active_case(self) -> Case:
        """The active case, freshly read. Raises NoCaseActive, or NotFound if it was deleted elsewhere."""
        if self._active_id is None:
            raise NoCaseActive()
        try:
            return self.cases.get(self._active_id)
        except NotFound:
            self._active_id = None
            hint = "It was deleted, perhaps from another window. Use list_cases and switch_case."
            raise NotFound("Case", "(the active case)", hint=hint) from None

    def active_case_or_none(self) -> Case | None:
        try:
            return self.active_case()
        except (NoCaseActive, NotFound):
            return None

    # --- case use cases ------------------------------------------------------

    def create_case(self, name: str, case_number: str | None = None, case_type: str | None = None) -> Case:
        case = self.cases.create(name, case_number, case_type)
        self._active_id = case.id
        return case

    def list_cases(self, status_filter: str = "active") -> list[Case]:
        return self.cases.list(status_filter)

    def switch_case(self, ref: str) -> Case:
        case = self.cases.resolve(ref)
        self._active_id = case.id
        return case

    def case_info(self, ref: str | None = None) -> Case:
        case = self.cases.resolve(ref) if ref else self.active_case()
        store = self.cases.store(case)
        return replace(case, stats=replace(case.stats, storage_bytes=store.storage_bytes()))

    def close_case(self, ref: str | None = None) -> Case:
        return self.cases.set_status(ref or self.active_case().id, CaseStatus.CLOSED)

    def reopen_case(self, ref: str | None = None) -> Case:
        return self.cases.set_status(ref or self.active_case().id, CaseStatus.ACTIVE)

    def archive_case(self, ref: str | None = None) -> Case:
        return self.cases.set_status(ref or self.active_case().id, CaseStatus.ARCHIVED)

    def delete_case(self, ref: str, confirm: bool) -> Case:
        case = self.cases.delete(ref, confirm)
        if self._active_id == case.id:
            self._active_id = None
        return case

    def writable_active_case(self) -> Case:
        """The active case, if it accepts new documents. Raises NoCaseActive or CaseReadOnly."""
        case = self.active_case()
        self.cases.require_writable(case)
        return case

    # --- status --------------------------------------------------------------

    def status(self) -> StatusReport:
        rss, total, available = status.process_memory()
        active = self.active_case_or_none()
        cases = self.registry.list()
        return StatusReport(
            version=status.version(),
            data_dir=str(self.settings.data_dir),
            active_case=active.name if active else None,
            tier="Free",
            memory_mode=self.settings.memory_mode.value,
            memory_mode_reason="set by --memory-mode" if self.settings.memory_mode.value != "auto"
            else "chosen from installed RAM",
            embedders=tuple(self.embedder_states()),
            models_bytes=status.directory_bytes(self.settings.models_dir),
            case_count=len(cases),
            cases_bytes=status.directory_bytes(self.settings.cases_dir),
            process_rss_bytes=rss,
            system_total_bytes=total,
            system_available_bytes=available,
            os=status.os_description(),
            ocr="not checked",
            recovered=tuple(self.recovered),
        )

    def embedder_states(self) -> list[EmbedderState]:
        return [EmbedderState("E13", "E13 (BM25)", "algorithmic")]

    def embedders_summary(self) -> str:
        ready = [e.id for e in self.embedder_states() if e.state in ("ready", "loaded", "algorithmic")]
        return ", ".join(ready) or "none ready"

    def describe_documents(self, case: Case) -> tuple[str, list[dict[str, object]]]:
        return "Documents (0): none yet. Add files with ingest_document or ingest_folder.", []
