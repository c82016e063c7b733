"""The case registry (`registry.db`): one record per case, the index `list_cases` reads."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path

from casetrack.domain import Case, is_own_id
from casetrack.store import keys, migrations
from casetrack.store.records import decode_case, encode_case, encode_u32
from casetrack.store.rocks import DEFAULT_CF, Batch, RocksStore, existing_column_families, open_write
from casetrack.store.shared_reads import shared_read

log = logging.getLogger(__name__)

_WHAT = "The case registry"
SOURCE_KEY_BYTES = 32


class Registry:
    def __init__(self, path: Path, lock_timeout_s: float) -> None:
        self.path = path
        self._timeout = lock_timeout_s
        self._checked = False

    def _ensure_schema(self) -> None:
        # Once per process: refuse a newer store, migrate an older one (with a backup).
        if not self._checked:
            migrations.ensure_current(self.path, migrations.REGISTRY, self._timeout, _WHAT)
            self._checked = True

    def list(self) -> list[Case]:
        self._ensure_schema()
        if not existing_column_families(self.path):
            return []
        with shared_read(self.path, [DEFAULT_CF]) as store:
            cases = [decode_case(raw) for _, raw in store.scan(DEFAULT_CF, keys.CASE_PREFIX)]
        # A case's id names its folder; a record with any other id (a damaged store) is not a case.
        for case in cases:
            if not is_own_id(case.id):
                log.warning("The case registry holds a record with the malformed id %r; it is ignored", case.id)
        return [c for c in cases if is_own_id(c.id)]

    def get(self, case_id: str) -> Case | None:
        self._ensure_schema()
        if not existing_column_families(self.path):
            return None
        if not is_own_id(case_id):
            return None
        with shared_read(self.path, [DEFAULT_CF]) as store:
            raw = store.get(DEFAULT_CF, keys.case(case_id))
        case = None if raw is None else decode_case(raw)
        return case if case is not None and case.id == case_id else None

    def source_key(self) -> bytes:
        """This data folder's key for sealing source paths: made once (under the write lock, so two processes
        agree), kept in registry.db, which no export carries. A copied data folder keeps it."""
        self._ensure_schema()
        if existing_column_families(self.path):
            with shared_read(self.path, [DEFAULT_CF]) as store:
                raw = store.get(DEFAULT_CF, keys.SOURCE_KEY)
            if raw is not None and len(raw) == SOURCE_KEY_BYTES:
                return bytes(raw)
        kept: list[bytes] = []

        def fill(store: RocksStore, batch: Batch) -> None:
            raw = store.get(DEFAULT_CF, keys.SOURCE_KEY)
            if raw is not None and len(raw) == SOURCE_KEY_BYTES:
                kept.append(bytes(raw))
            else:
                kept.append(secrets.token_bytes(SOURCE_KEY_BYTES))
                batch.put(DEFAULT_CF, keys.SOURCE_KEY, kept[0])

        self._write_with(fill, "making the data folder's key")
        return kept[0]

    def put(self, case: Case) -> None:
        self._write(lambda batch: batch.put(DEFAULT_CF, keys.case(case.id), encode_case(case)), "saving a case")

    def add(self, case: Case, admit: Callable[[Sequence[Case]], None]) -> None:
        """Register a new case if `admit(existing cases)` does not raise, both under the write
        lock, so two processes creating cases at the same moment cannot both pass a check
        (a name already taken, the Free tier's case limit) that only one of them should."""

        def fill(store: RocksStore, batch: Batch) -> None:
            admit([decode_case(raw) for _, raw in store.scan(DEFAULT_CF, keys.CASE_PREFIX)])
            batch.put(DEFAULT_CF, keys.case(case.id), encode_case(case))

        self._write_with(fill, "registering a case")

    def remove(self, case_id: str) -> None:
        self._write(lambda batch: batch.delete(DEFAULT_CF, keys.case(case_id)), "removing a case")

    def _write(self, fill: Callable[[Batch], None], purpose: str) -> None:
        self._write_with(lambda _store, batch: fill(batch), purpose)

    def _write_with(self, fill: Callable[[RocksStore, Batch], None], purpose: str) -> None:
        self._ensure_schema()
        with open_write(self.path, [DEFAULT_CF], purpose, self._timeout, _WHAT) as store:
            found = migrations.stored_version(store, migrations.REGISTRY)
            migrations.check_version(found, migrations.REGISTRY)
            batch = store.batch()
            if found is None:
                batch.put(DEFAULT_CF, keys.REGISTRY_SCHEMA_VERSION,
                          encode_u32(migrations.REGISTRY.current))
            fill(store, batch)
            store.write(batch)
