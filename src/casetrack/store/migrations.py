"""Numbered, idempotent schema migrations (PRD 04 §6).

Version 0 is the pre-release record format of the Rust prototype: no `schema_version`
key, enum values spelled as Rust variants (`"Active"`, `"PersonalInjury"`), integer
timestamps and no stats. Each migration runs in one WriteBatch that also bumps the
version, so a crash leaves the store at either the old or the new version, never between.
A checkpoint of the store is taken before the first migration.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from casetrack.domain import clean_name
from casetrack.errors import FutureSchemaVersion
from casetrack.store import keys
from casetrack.store.records import decode_u32, dumps, encode_u32, loads
from casetrack.store.rocks import DEFAULT_CF, Batch, RocksStore, existing_column_families, open_read, open_write

log = logging.getLogger(__name__)

Migration = Callable[[RocksStore, Batch], None]


def _snake(value: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", value).lower()


def _normalise_case_record(record: dict[str, Any], fallback_id: str) -> dict[str, Any]:
    """v0 -> v1 for one case record; a v1 record passes through unchanged (idempotent)."""
    out = dict(record)
    # The id is where the record is stored (its registry key, its case folder), never what the
    # record says: the id names a folder that a delete removes.
    out["id"] = fallback_id
    if isinstance(out.get("name"), str):
        out["name"] = clean_name(out["name"]) or "Unnamed case"
    for field in ("status", "case_type"):
        if isinstance(out.get(field), str):
            out[field] = _snake(str(out[field]))
    out.setdefault("status", "active")
    out.setdefault("case_type", "other")
    created = float(out.get("created_at") or 0)
    out["created_at"] = created
    out["updated_at"] = float(out.get("updated_at") or created)
    stats: dict[str, Any] = out["stats"] if isinstance(out.get("stats"), dict) else {}
    out["stats"] = {k: int(stats.get(k, 0)) for k in ("document_count", "page_count", "chunk_count", "storage_bytes")}
    out.setdefault("case_number", None)
    return out


def m001_registry_case_records(store: RocksStore, batch: Batch) -> None:
    for key, raw in store.scan(DEFAULT_CF, keys.CASE_PREFIX):
        case_id = key[len(keys.CASE_PREFIX):].decode()
        batch.put(DEFAULT_CF, key, dumps(_normalise_case_record(loads(raw), case_id)))


def m001_case_info(store: RocksStore, batch: Batch) -> None:
    raw = store.get(keys.METADATA, keys.CASE_INFO)
    if raw is not None:
        case_id = store.path.parent.name
        batch.put(keys.METADATA, keys.CASE_INFO, dumps(_normalise_case_record(loads(raw), case_id)))


@dataclass(frozen=True, slots=True)
class Schema:
    """A kind of store: where its version lives and how to bring it up to date."""

    name: str
    column_families: Sequence[str]
    version_cf: str
    version_key: bytes
    migrations: dict[int, Migration]  # from-version -> step to from-version + 1

    @property
    def current(self) -> int:
        return max(self.migrations) + 1 if self.migrations else 1


REGISTRY = Schema("registry", (DEFAULT_CF,), DEFAULT_CF, keys.REGISTRY_SCHEMA_VERSION, {0: m001_registry_case_records})
CASE = Schema("case", keys.CASE_COLUMN_FAMILIES, keys.METADATA, keys.CASE_SCHEMA_VERSION, {0: m001_case_info})


def stored_version(store: RocksStore, schema: Schema) -> int | None:
    return decode_u32(store.get(schema.version_cf, schema.version_key))


def _is_empty(store: RocksStore, schema: Schema) -> bool:
    return all(next(store.scan(cf, b""), None) is None for cf in schema.column_families)


def check_version(found: int | None, schema: Schema) -> None:
    if found is not None and found > schema.current:
        raise FutureSchemaVersion(found, schema.current)


def initialise(store: RocksStore, schema: Schema) -> None:
    """Stamp a brand-new store with the current version (inside the caller's write session)."""
    if stored_version(store, schema) is None:
        batch = store.batch()
        batch.put(schema.version_cf, schema.version_key, encode_u32(schema.current))
        store.write(batch)


ReadOpener = Callable[[Path, Sequence[str]], AbstractContextManager[RocksStore]]


def ensure_current(path: Path, schema: Schema, timeout_s: float, what: str, read: ReadOpener = open_read) -> int:
    """Bring the store at `path` to the current schema. Returns the version found.

    `read` opens the store for the version check: callers that check on every use pass
    `shared_reads.shared_read`, so the check reuses the handle their next read needs anyway.
    Raises FutureSchemaVersion (store untouched) if it was written by a newer CaseTrack.
    """
    if not existing_column_families(path):
        return schema.current  # nothing there yet; the first write stamps it
    with read(path, schema.column_families) as store:
        found = stored_version(store, schema)
        if found is None and _is_empty(store, schema):
            return schema.current  # created but never written (e.g. killed mid-create): not a v0 store
    check_version(found, schema)
    if found == schema.current:
        return found
    with open_write(path, schema.column_families, f"migrating {schema.name}", timeout_s, what) as store:
        found = stored_version(store, schema)  # another process may have migrated meanwhile
        check_version(found, schema)
        version = 0 if found is None else found
        if version == schema.current:
            return version
        backup = path.with_name(f"{path.name}.bak.v{version}")
        if not backup.exists():
            store.checkpoint(backup)
            log.info("Backed up %s to %s before migrating", path, backup)
        for step in range(version, schema.current):
            batch = store.batch()
            schema.migrations[step](store, batch)
            batch.put(schema.version_cf, schema.version_key, encode_u32(step + 1))
            store.write(batch)
            log.info("Migrated %s %s from v%d to v%d", schema.name, path, step, step + 1)
        return version

