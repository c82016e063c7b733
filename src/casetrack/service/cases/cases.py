"""Case use cases (PRD 07 §1-3, §5): create, list, resolve, lifecycle, delete."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Sequence
from dataclasses import replace

from casetrack.config import Settings
from casetrack.domain import Case, CaseStatus, CaseType, clean_name
from casetrack.errors import CaseReadOnly, ConfirmationRequired, InvalidInput, NotFound, Step, quoted
from casetrack.service.cases import naming
from casetrack.service.cases.sources import SourceSeals
from casetrack.service.distribution import licensing
from casetrack.store.case_store import CaseStore
from casetrack.store.registry import Registry

log = logging.getLogger(__name__)

MAX_NAME_LENGTH = 200
STATUS_FILTERS = ("active", "closed", "archived", "all")


class CaseService:
    def __init__(self, settings: Settings, registry: Registry, limits: licensing.Limits = licensing.UNLIMITED) -> None:
        self._settings = settings
        self._registry = registry
        self.seals = SourceSeals(registry)  # which recorded source paths may be opened (issue 33 §2)
        self.limits = limits  # the licence tier's

    def store(self, case: Case) -> CaseStore:
        return CaseStore(self._settings.case_dir(case.id), self._settings.lock_timeout_s, case.name)

    def create(self, name: str, case_number: str | None = None, case_type: str | None = None) -> Case:
        """Raises InvalidInput for an empty, overlong or already-used name, or an unknown type."""
        clean = checked_case_name(name)
        kind = parse_case_type(case_type)

        def admit(existing: Sequence[Case]) -> None:
            for other in existing:
                if other.name.casefold() == clean.casefold():
                    raise InvalidInput(f'A case named "{other.name}" already exists (ID: {other.short_id}).',
                                       [Step("work_in_case", {"case_name": other.name})])
            licensing.check_case_limit(self.limits, len(existing))

        admit(self._registry.list())  # refuse early, before any folder is made
        now = time.time()
        case = Case(id=str(uuid.uuid4()), name=clean, case_type=kind, status=CaseStatus.ACTIVE,
                    created_at=now, updated_at=now, case_number=(case_number or "").strip() or None)
        # Case store first, registry second: a crash in between is re-registered at next start.
        store = self.store(case)
        store.initialise(case)
        try:
            self._registry.add(case, admit)  # checked again under the registry's write lock
        except BaseException:
            store.remove()
            raise
        log.info("Created case %s (%s)", case.name, case.id)
        return case

    def list(self, status_filter: str = "active") -> list[Case]:
        wanted = (status_filter or "active").lower()
        if wanted not in STATUS_FILTERS:
            raise InvalidInput(f"Unknown status filter {quoted(repr(status_filter))}: "
                               f"choose one of {', '.join(STATUS_FILTERS)}.")
        cases = self._registry.list()
        if wanted != "all":
            cases = [c for c in cases if c.status.value == wanted]
        return sorted(cases, key=lambda c: c.updated_at, reverse=True)

    def get(self, case_id: str) -> Case:
        case = self._registry.get(case_id)
        if case is None:
            raise NotFound("Case", case_id, hint="It may have been deleted.", step=Step("list_cases"))
        return case

    def resolve(self, ref: str) -> Case:
        """Find a case by ID, name, unique name prefix or unique ID prefix, ignoring case.

        Raises NotFound with the closest names when nothing (or more than one case) matches.
        """
        return naming.resolve(self._registry.list(), ref, "Case", lambda c: c.name, lambda c: c.id,
                              Step("list_all_cases"))

    def require_writable(self, case: Case) -> None:
        if not case.writable:
            raise CaseReadOnly(case.name, case.status.value)

    def set_status(self, ref: str, status: CaseStatus) -> Case:
        case = self.resolve(ref)
        if case.status is status:
            return case
        updated = replace(case, status=status, updated_at=time.time())
        self.store(case).write_info(updated)
        self._registry.put(updated)
        log.info("Case %s is now %s", case.name, status.value)
        return updated

    def save_stats(self, case: Case) -> None:
        """Refresh the registry's copy after the case store changed."""
        self._registry.put(case)

    def delete(self, ref: str, confirm: bool) -> Case:
        """Raises ConfirmationRequired unless confirm is true. Removes the case folder entirely."""
        case = self.resolve(ref)
        if confirm is not True:  # only a real true: "yes" or 1 is no confirmation (issue 33 §4)
            docs = case.stats.document_count
            raise ConfirmationRequired(f'case "{case.name}" and all {docs} document{"s" if docs != 1 else ""}')
        store = self.store(case)
        store.mark_deleting()  # from here on, other processes treat the case as gone
        self._registry.remove(case.id)
        store.remove()
        log.info("Deleted case %s (%s)", case.name, case.id)
        return case


def checked_case_name(name: str | None) -> str:
    """A case name as stored: control characters (NUL, newlines) and runs of spaces become one
    space. Raises InvalidInput for an empty or overlong name (create and import alike)."""
    clean = clean_name(name or "")
    if not clean:
        raise InvalidInput("A case needs a name, e.g. \"Smith v. Jones\".")
    if len(clean) > MAX_NAME_LENGTH:
        raise InvalidInput(f"Case names are limited to {MAX_NAME_LENGTH} characters; this one has {len(clean)}.")
    return clean


def parse_case_type(value: str | None) -> CaseType:
    if value is None or not str(value).strip():
        return CaseType.OTHER
    text = str(value).strip().lower().replace(" ", "_").replace("-", "_")
    if text == "ip":
        return CaseType.INTELLECTUAL_PROPERTY
    try:
        return CaseType(text)
    except ValueError as exc:
        choices = ", ".join(t.value for t in CaseType)
        raise InvalidInput(f"Unknown case type {quoted(repr(value))}: choose one of {choices}.") from exc
