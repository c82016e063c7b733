"""Start-up repair of what a crash (or a kill) can leave between the registry and the case
folders. RocksDB itself guarantees each WriteBatch is all-or-nothing; this covers the few
multi-step operations that span the registry and a case folder."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

from casetrack.config import Settings
from casetrack.domain import Case, is_own_id
from casetrack.errors import CaseTrackError
from casetrack.service.cases.page_images import sweep_prints
from casetrack.store import documents as docstore
from casetrack.store import keys
from casetrack.store.case_store import DELETING_MARKER, CaseStore
from casetrack.store.paths import remove_tree
from casetrack.store.registry import Registry
from casetrack.store.rocks import clear_stale_lease, open_write
from casetrack.store.stats import read_stats

log = logging.getLogger(__name__)


def repair(settings: Settings, registry: Registry) -> list[str]:
    """Finish interrupted deletes, re-register fully created cases. Returns what was done."""
    if not settings.cases_dir.is_dir():
        return []
    clear_stale_lease(settings.registry_path, at_start=True)
    cases = registry.list()
    registered = {case.id for case in cases}
    actions: list[str] = []
    for case_id in sorted(registered):
        if not is_own_id(case_id):  # never a folder name: nothing on disk is touched for it
            actions.append(f"ignored a registry record with the malformed case id {case_id!r}")
            continue
        folder = settings.case_dir(case_id)
        if (folder / DELETING_MARKER).exists():  # killed mid-delete_case: finish it
            registry.remove(case_id)
            registered.discard(case_id)
            remove_tree(settings.cases_dir, folder)
            actions.append(f"finished deleting case {case_id}")
    for case in cases:
        if case.id in registered and is_own_id(case.id):
            actions.extend(_recount_after_kill(case, settings, registry))
            actions.extend(_finish_copies(case, settings))
            actions.extend(_sweep_prints(case, settings))
    # Only folders CaseTrack names (case ids) are its to repair; a link or anything else is left alone.
    for folder in sorted(p for p in settings.cases_dir.iterdir()
                         if is_own_id(p.name) and p.is_dir() and not p.is_symlink()):
        if folder.name in registered:
            continue
        actions.extend(_repair_orphan(folder, settings, registry))
    for action in actions:
        log.warning("Recovery: %s", action)
    return actions


def _recount_after_kill(case: Case, settings: Settings, registry: Registry) -> list[str]:
    """A case whose writer lease names a process that is gone: that process was killed inside a write
    session, perhaps after its commit but before it copied the new counts to the registry (list_cases
    then showed a document too few until the next write). The store's own counts are the truth."""
    store = CaseStore(settings.case_dir(case.id), settings.lock_timeout_s, case.name)
    if not clear_stale_lease(store.db_path, at_start=True):
        return []
    try:
        with store.reader() as db:
            counted = read_stats(db)
    except CaseTrackError as exc:
        return [f'could not recount case "{case.name}" after an interrupted write: {exc.message}']
    if counted == replace(case.stats, storage_bytes=0):
        log.info("Cleared the writer lease a stopped process left on case %s", case.name)
        return []
    registry.put(replace(case, stats=counted))
    return [f'recounted case "{case.name}" after an interrupted write: {counted.document_count} documents '
            f"(the case list said {case.stats.document_count})"]


def _finish_copies(case: Case, settings: Settings) -> list[str]:
    """Copies of originals made for a commit whose process died (`CaseStore.keep_copy`): the commit happened
    (the document is there) -> the replaced document's copy goes, as the ingest would have removed it; it did
    not -> the new copy goes. Either way each document keeps exactly the copy it names. A live process's
    marker is its own business (`CaseStore.abandoned_copies`)."""
    store = CaseStore(settings.case_dir(case.id), settings.lock_timeout_s, case.name)
    actions = []
    for doc_id, replaces in store.abandoned_copies():
        try:
            with store.reader() as db:
                committed = docstore.get_document(db, doc_id) is not None
                replaced = replaces is not None and docstore.get_document(db, replaces) is None
            if committed and replaced and replaces is not None:
                store.remove_copy(replaces)
                actions.append(f'finished moving a copy of an original in case "{case.name}" after an interrupted '
                               "reindex")
            elif not committed:
                store.remove_copy(doc_id)
                actions.append(f'removed a copy of an original made for an interrupted ingest in case "{case.name}"')
            store.finish_copy(doc_id)
        except CaseTrackError as exc:
            actions.append(f'left a copy of an original in case "{case.name}" as it was: {exc.message}')
    return actions


def _sweep_prints(case: Case, settings: Settings) -> list[str]:
    """Printed PDFs of documents a reindex or delete replaced while its process died before removing them
    (`page_images.forget_print`): pages of an old version must not stay in the case. A case another process is
    writing is left for a later start: this never waits for its lock."""
    store = CaseStore(settings.case_dir(case.id), 0.0, case.name)
    try:
        removed = sweep_prints(store)
    except CaseTrackError as exc:
        return [f'left the printed pages of case "{case.name}" for a later start: {exc.message}']
    return [f'removed {removed} printed PDF(s) of replaced or deleted documents in case "{case.name}"'] if removed \
        else []


def _repair_orphan(folder: Path, settings: Settings, registry: Registry) -> list[str]:
    if (folder / DELETING_MARKER).exists():
        remove_tree(settings.cases_dir, folder)
        return [f"finished deleting case folder {folder.name}"]
    store = CaseStore(folder, settings.lock_timeout_s)
    if store.db_path.exists():
        info = None
        if store.exists:
            try:
                info = store.read_info()
            except CaseTrackError as exc:
                return [f"left case folder {folder.name} untouched: {exc.message}"]
        if info is not None and info.id == folder.name:
            registry.put(info)
            return [f're-registered case "{info.name}" whose creation was interrupted']
        # Killed inside create_case, before (or while) RocksDB created the store.
        if info is None and _abandoned_empty_store(store):
            remove_tree(settings.cases_dir, folder)
            return [f"removed case folder {folder.name} of an interrupted create_case (it held no data)"]
        return [f"left unrecognised case folder {folder.name} untouched"]
    if not any(p.is_file() for p in folder.rglob("*")):
        # Killed between mkdir and opening the store. Safe even if a create is in flight:
        # opening the store recreates the folder, and the originals folder is made on demand.
        remove_tree(settings.cases_dir, folder)
        return [f"removed empty folder {folder.name} of an interrupted create_case"]
    return []


def _abandoned_empty_store(store: CaseStore) -> bool:
    """A store with no case_info whose lock is free: its creator died before the first commit.

    create_case holds the lock from opening the new store until its first batch (which
    carries case_info) is committed, so a free lock means nobody is still creating it.
    """
    try:
        with open_write(store.db_path, keys.CASE_COLUMN_FAMILIES, "recovery check", 0.0, "recovery") as db:
            if db.get(keys.METADATA, keys.CASE_INFO) is not None:
                return False
            return all(next(db.scan(cf, b""), None) is None for cf in keys.CASE_COLUMN_FAMILIES)
    except CaseTrackError:
        return False  # locked: a create (or something else) is in progress
