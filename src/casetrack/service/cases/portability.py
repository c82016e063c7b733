"""Case export and import (PRD 04 §8): the portable `.ctcase` archive.

A `.ctcase` is a ZIP holding `manifest.json` (format, CaseTrack version, case schema version,
embedders, the case's details and a SHA-256 of every other file), `case.db/` (a RocksDB
checkpoint taken while holding the case's write lock, so it is one consistent moment) and
`originals/<document id>/<file>`: each document's original that could be read (its copy kept in the case,
else its source file if unchanged: `export_originals.py`), unless the export leaves them out.

Import treats the archive as hostile: every entry is checked before anything is extracted
(no absolute or parent paths, no links or devices, only the three expected top-level names,
no encryption, bounded count, total size and compression ratio), extraction counts real
bytes, and every file must match the manifest's digest. Everything is extracted into a
hidden folder inside `cases/` (same disk, ignored by start-up repair), checked, given a new
case ID, and only then renamed into place and registered. Any failure removes that folder:
nothing is written. A name that is already taken gets " (imported)" appended.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import time
import uuid
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from casetrack import __version__
from casetrack.config import Settings
from casetrack.domain import Case, CaseStatus, CaseType, clean_name
from casetrack.embed import MODELS
from casetrack.errors import CaseTrackError, FileNotFound, FreeTierLimit, InvalidInput
from casetrack.files import relative_note, sha256_file, user_path
from casetrack.service.cases.archive import (
    DB_DIR,
    EXPORT_PREFIX,
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    ORIGINALS,
    STAGING_PREFIX,
    SUFFIX,
    BadArchive,
    ImportLimits,
    check_entries,
    extract,
    read_manifest,
)
from casetrack.service.cases.cases import MAX_NAME_LENGTH, CaseService
from casetrack.service.cases.export_originals import PackedOriginals, Unread, pack_originals
from casetrack.service.cases.sources import archived_path
from casetrack.service.distribution import licensing
from casetrack.store import documents as docstore
from casetrack.store import keys, migrations
from casetrack.store.case_store import CaseStore
from casetrack.store.imported import ForeignRecords, check_records
from casetrack.store.paths import regular_file, remove_tree
from casetrack.store.records import encode_case
from casetrack.store.registry import Registry
from casetrack.store.rocks import open_read, open_write
from casetrack.store.stats import put_stats, read_stats

log = logging.getLogger(__name__)

@dataclass(frozen=True, slots=True)
class Exported:
    case: Case
    path: Path
    documents: int
    originals: int
    bytes: int
    unread: tuple[Unread, ...] = ()  # the documents whose originals could not be read, and why
    with_originals: bool = True


@dataclass(frozen=True, slots=True)
class Imported:
    case: Case
    original_name: str
    original_id: str
    renamed: bool
    documents: int


def _files_under(root: Path) -> Iterator[tuple[str, Path]]:
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            yield path.relative_to(root.parent).as_posix(), path


def _remove_stale(cases_dir: Path, prefix: str, older_than_s: float = 3600) -> None:
    """Staging folders left by a killed export or import."""
    if not cases_dir.is_dir():
        return
    for folder in cases_dir.glob(prefix + "*"):
        with contextlib.suppress(OSError):
            if time.time() - folder.lstat().st_mtime > older_than_s:
                remove_tree(cases_dir, folder)


# --- export ------------------------------------------------------------------------


def export_case(cases: CaseService, settings: Settings, case: Case, output: Path, overwrite: bool = False,
                with_originals: bool = True) -> Exported:
    """Write `case` to `output` (.ctcase), with every original it can read unless not `with_originals`
    (service/cases/export_originals.py). Raises InvalidInput if output exists (unless overwrite), CaseBusy."""
    output = user_path(str(output))
    if output.suffix.lower() != SUFFIX:
        output = output.with_name(output.name + SUFFIX)
    if output.exists() and not overwrite:
        raise InvalidInput(f"{output} already exists. Choose another file name, or delete it first.")
    if not output.parent.is_dir():
        raise InvalidInput(f"The folder {output.parent} does not exist. Create it first or choose another.")
    _remove_stale(settings.cases_dir, EXPORT_PREFIX)
    stage = settings.cases_dir / f"{EXPORT_PREFIX}{uuid.uuid4().hex}"
    stage.mkdir(parents=True)
    partial = output.with_name(f".{output.name}.{os.getpid()}.partial")
    try:
        store = cases.store(case)
        snapshot = stage / DB_DIR
        with store.writer("exporting the case") as db:  # no commit can land mid-checkpoint
            db.checkpoint(snapshot)
        with open_read(snapshot, keys.CASE_COLUMN_FAMILIES) as db:
            schema = migrations.stored_version(db, migrations.CASE) or migrations.CASE.current
            documents = docstore.list_documents(db)
            stats = read_stats(db)
        originals = stage / ORIGINALS
        packed = pack_originals(store, documents, originals) if with_originals else PackedOriginals(0, ())
        files = {name: sha256_file(path) for name, path in _files_under(snapshot)}
        if originals.is_dir():
            files.update({name: sha256_file(path) for name, path in _files_under(originals)})
        used = sorted({e for d in documents for e in d.embedders})
        manifest = {
            "format": FORMAT, "format_version": FORMAT_VERSION, "casetrack_version": __version__,
            "schema_version": schema, "exported_at": time.time(),
            "case": {"id": case.id, "name": case.name, "case_type": case.case_type.value,
                     "case_number": case.case_number, "status": case.status.value, "created_at": case.created_at,
                     "documents": stats.document_count, "pages": stats.page_count, "chunks": stats.chunk_count},
            "embedders": {e: _embedder_version(e) for e in used},
            "files": files,
        }
        try:
            with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
                archive.writestr(MANIFEST, json.dumps(manifest, indent=2))
                for name in files:
                    archive.write(stage / name, name)
            os.replace(partial, output)
        except OSError as exc:
            raise InvalidInput(f"Could not write {output} ({exc.strerror or exc}). Check the folder and the free "
                               "space, then try again.") from exc
    finally:
        remove_tree(settings.cases_dir, stage)
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    log.info("Exported case %s to %s", case.name, output)
    return Exported(case, output, stats.document_count, packed.copied, output.stat().st_size, packed.unread,
                    with_originals)


def _embedder_version(embedder_id: str) -> dict[str, str | int | None]:  # the manifest's JSON
    spec = MODELS.get(embedder_id)
    if spec is None:  # E13 (BM25) and anything algorithmic
        return {"name": embedder_id, "kind": "algorithmic"}
    return {"name": spec.name, "repo": spec.repo, "revision": spec.revision, "dim": spec.dim}


# --- import ------------------------------------------------------------------------


def unique_import_name(wanted: str, taken: set[str]) -> str:
    if wanted.casefold() not in taken:
        return wanted
    candidate = f"{wanted} (imported)"
    n = 2
    while candidate.casefold() in taken:
        candidate = f"{wanted} (imported {n})"
        n += 1
    return candidate


def import_case(settings: Settings, registry: Registry, limits: licensing.Limits, archive_path: Path,
                import_limits: ImportLimits | None = None) -> Imported:
    """Import a .ctcase as a new case (new ID). Raises FileNotFound, BadArchive, FreeTierLimit, CaseBusy;
    on any error nothing is written."""
    path = user_path(str(archive_path))
    if not path.is_file():
        raise FileNotFound(str(path), relative_note(str(archive_path), "/Users/sarah/Desktop/smith.ctcase"))
    bounds = import_limits or ImportLimits()
    if not zipfile.is_zipfile(path):
        raise BadArchive(path, "it is not a CaseTrack export (.ctcase files are ZIP archives)")
    existing = registry.list()
    licensing.check_case_limit(limits, len(existing))
    settings.cases_dir.mkdir(parents=True, exist_ok=True)
    _remove_stale(settings.cases_dir, STAGING_PREFIX)
    stage = settings.cases_dir / f"{STAGING_PREFIX}{uuid.uuid4().hex}"
    try:
        with zipfile.ZipFile(path) as archive:
            infos = check_entries(path, archive, bounds)
            manifest = read_manifest(path, archive, bounds)
            free = shutil.disk_usage(settings.cases_dir).free
            needed = sum(i.file_size for i in infos)
            if needed > free:
                raise BadArchive(path, f"it needs {needed:,} bytes but only {free:,} are free on that disk")
            stage.mkdir()
            extract(path, archive, infos, manifest["files"], stage, bounds)
        case = _adopt(path, settings, stage, manifest, existing, limits)
        target = settings.case_dir(case.id)
        os.replace(stage, target)
    except BaseException:
        remove_tree(settings.cases_dir, stage)
        raise
    # Store first, registry second (as create_case): a crash here is re-registered at next start.
    registry.put(case)
    info = manifest["case"]
    log.info("Imported case %s as %s (%s)", info["name"], case.name, case.id)
    return Imported(case, str(info["name"]), str(info.get("id", "")), case.name != info["name"],
                    case.stats.document_count)


def _adopt(path: Path, settings: Settings, stage: Path, manifest: dict[str, Any], existing: list[Case],
           limits: licensing.Limits) -> Case:
    """Check the extracted store and make it a new case: new ID, free name, every record checked,
    every copy of an original re-derived inside the new case folder."""
    db_path = stage / DB_DIR
    try:
        with open_read(db_path, keys.CASE_COLUMN_FAMILIES) as db:
            found = migrations.stored_version(db, migrations.CASE)
    except CaseTrackError as exc:
        raise BadArchive(path, f"its case database cannot be opened ({exc.message})") from None
    if found != manifest["schema_version"]:
        raise BadArchive(path, f"its database has schema {found}, but its manifest says "
                               f"{manifest['schema_version']}")
    migrations.ensure_current(db_path, migrations.CASE, settings.lock_timeout_s, "The imported case")
    info = manifest["case"]
    new_id = str(uuid.uuid4())
    now = time.time()
    # Held to create_case's rules; room is left for " (imported 2)".
    wanted = clean_name(str(info["name"]))[:MAX_NAME_LENGTH - 16].strip() or "Imported case"
    name = unique_import_name(wanted, {c.name.casefold() for c in existing})
    try:
        case_type = CaseType(str(info.get("case_type", "other")))
    except ValueError:
        case_type = CaseType.OTHER
    number = info.get("case_number")
    case = Case(id=new_id, name=name, case_type=case_type, status=CaseStatus.ACTIVE,
                created_at=_timestamp(info.get("created_at"), now), updated_at=now,
                case_number=clean_name(number)[:MAX_NAME_LENGTH] or None if isinstance(number, str) else None)
    with open_write(db_path, keys.CASE_COLUMN_FAMILIES, "importing the case", settings.lock_timeout_s,
                    "The imported case") as db:
        try:
            checked = check_records(db)
        except ForeignRecords as exc:
            raise BadArchive(path, f"its case database holds records CaseTrack never writes: {exc}") from None
        cap = limits.max_documents_per_case
        if cap is not None and checked.stats.document_count > cap:
            raise FreeTierLimit("documents per case", checked.stats.document_count, cap, "Import a smaller case")
        copies = _staged_copies(stage / ORIGINALS, {d.id for d in checked.documents})
        final = CaseStore(settings.case_dir(new_id), settings.lock_timeout_s, name)
        batch = db.batch()
        for doc in checked.documents:
            staged = copies.get(doc.id)
            # The archive's source path is kept only to be shown: this machine never opens it (issue 33 §2).
            adopted = replace(doc, name=clean_name(doc.name), original_path=None, source_seal=None,
                              archived_path=archived_path(doc),
                              copied_original=final.recorded_copy(final.copy_dir(doc.id) / staged.name)
                              if staged else None)
            batch.put(keys.DOCUMENTS, keys.document(doc.id), docstore.encode_document(adopted))
        case = replace(case, stats=checked.stats)
        batch.put(keys.METADATA, keys.CASE_INFO, encode_case(case))
        put_stats(batch, checked.stats)
        db.write(batch)
    (stage / ORIGINALS).mkdir(exist_ok=True)
    return case


def _staged_copies(originals: Path, doc_ids: set[str]) -> dict[str, Path]:
    """document id -> its unpacked copy (`originals/<id>/<one file>`); anything else unpacked under
    originals/ (a folder named for no document, a second file) is removed from the staging folder."""
    copies: dict[str, Path] = {}
    if not originals.is_dir():
        return copies
    for folder in sorted(originals.iterdir()):
        files = sorted(folder.iterdir()) if folder.is_dir() and not folder.is_symlink() else []
        if folder.name in doc_ids and len(files) == 1 and regular_file(files[0]):
            copies[folder.name] = files[0]
        else:
            remove_tree(originals, folder)
    return copies


def _timestamp(value: object, default: float) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
    return number if 0 < number < 1e11 else default
