"""One case's isolated store: `cases/<id>/case.db` plus its `originals/` folder.

The case store is the source of truth for a case (its `case_info` record); the registry
holds a copy for listing. Creating writes the case store first and the registry second,
deleting marks the folder first, so a crash at any point is repaired at the next start
(see `service.recovery`)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path, PurePath

import psutil

from casetrack.domain import Case, Document, is_own_id
from casetrack.errors import NotFound, UnsafePath
from casetrack.store import keys, migrations, shared_reads
from casetrack.store.paths import contained, regular_file, remove_tree
from casetrack.store.records import decode_case, encode_case, encode_u32
from casetrack.store.rocks import RocksStore, existing_column_families, open_write

DELETING_MARKER = ".deleting"
PENDING_COPY = ".pending-"  # originals/.pending-<document id>: a copy made for a commit not yet finished


class CaseStore:
    def __init__(self, case_dir: Path, lock_timeout_s: float, label: str | None = None) -> None:
        self.case_dir = case_dir
        self.db_path = case_dir / "case.db"
        self.originals_dir = case_dir / "originals"
        self._timeout = lock_timeout_s
        self._what = f'Case "{label}"' if label else f"Case {case_dir.name}"
        self._checked = False

    @property
    def exists(self) -> bool:
        return bool(existing_column_families(self.db_path))

    @property
    def deleting(self) -> bool:
        return (self.case_dir / DELETING_MARKER).exists()

    def _ensure_schema(self) -> None:
        if not self._checked:
            # A CaseStore lives for one operation, so this runs on every read and write: on the
            # shared handle it costs ~0.1 ms instead of a private read-only open (10-30 ms).
            migrations.ensure_current(self.db_path, migrations.CASE, self._timeout, self._what,
                                      read=shared_reads.shared_read)
            self._checked = True

    def initialise(self, case: Case) -> None:
        """Create the store with every column family, stamped with the current schema."""
        self.originals_dir.mkdir(parents=True, exist_ok=True)
        with open_write(self.db_path, keys.CASE_COLUMN_FAMILIES, "creating the case", self._timeout,
                        self._what) as store:
            batch = store.batch()
            batch.put(keys.METADATA, keys.CASE_SCHEMA_VERSION, encode_u32(migrations.CASE.current))
            batch.put(keys.METADATA, keys.CASE_INFO, encode_case(case))
            store.write(batch)
        self._checked = True

    @contextlib.contextmanager
    def reader(self) -> Iterator[RocksStore]:
        self._ensure_schema()
        self._require_present()
        with shared_reads.shared_read(self.db_path, keys.CASE_COLUMN_FAMILIES) as store:
            yield store

    @contextlib.contextmanager
    def writer(self, purpose: str) -> Iterator[RocksStore]:
        """Open for one short write session. Raises CaseBusy if another process keeps the lock."""
        self._ensure_schema()
        self._require_present()
        with open_write(self.db_path, keys.CASE_COLUMN_FAMILIES, purpose, self._timeout, self._what) as store:
            migrations.check_version(migrations.stored_version(store, migrations.CASE), migrations.CASE)
            if self.deleting:  # deleted by another process while we waited for the lock
                raise NotFound("Case", self.case_dir.name, hint="It was deleted.")
            yield store

    def read_info(self) -> Case | None:
        with self.reader() as store:
            raw = store.get(keys.METADATA, keys.CASE_INFO)
        return None if raw is None else decode_case(raw)

    def write_info(self, case: Case) -> None:
        with self.writer("updating case details") as store:
            batch = store.batch()
            batch.put(keys.METADATA, keys.CASE_INFO, encode_case(case))
            store.write(batch)

    def mark_deleting(self) -> None:
        """Claim the case for deletion: waits for any writer, then leaves a marker others respect."""
        if self.exists:
            with open_write(self.db_path, keys.CASE_COLUMN_FAMILIES, "deleting the case", self._timeout,
                            self._what):
                (self.case_dir / DELETING_MARKER).touch()
            shared_reads.release(self.case_dir)  # no new reader gets past the marker
        else:
            self.case_dir.mkdir(parents=True, exist_ok=True)
            (self.case_dir / DELETING_MARKER).touch()

    def copy_dir(self, document_id: str, action: str = "use the copy folder") -> Path:
        """Where the copy of a document's original lives: `originals/<document id>/`, derived from
        the id (never from a stored path). Raises UnsafePath for an id that is not CaseTrack's own."""
        target = self.originals_dir / document_id
        if not is_own_id(document_id):
            raise UnsafePath(str(target), str(self.originals_dir), action)
        return contained(self.originals_dir, target, action)

    def copy_of(self, document_id: str) -> Path | None:
        """The copied original of a document (the one regular file in its copy folder), if any."""
        try:
            folder = self.copy_dir(document_id)
        except UnsafePath:
            return None
        files = sorted(p for p in folder.iterdir() if regular_file(p)) if folder.is_dir() else []
        return files[0] if len(files) == 1 else None

    def keep_copy(self, document_id: str, source: Path, replaces: str | None, link: bool) -> Path:
        """Make `originals/<document_id>/<source's name>` for a commit about to name it: a second link to
        `source` (a replaced document's copy, moving with it) or a copy of it, flushed to the disk. A marker
        names the process and the document it replaces until `finish_copy`: a crash in between is finished or
        undone at the next start (service.cases.recovery). Raises UnsafePath for a foreign id, OSError."""
        target = self.copy_dir(document_id, "keep a copy of an original at") / source.name
        marker = self.originals_dir / f"{PENDING_COPY}{document_id}"
        target.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "replaces": replaces}))
        _flush(marker)
        if not link:
            shutil.copy2(source, target)
        else:
            try:
                os.link(source, target)
            except OSError:  # a disk without hard links (FAT, some shares): a full copy
                shutil.copy2(source, target)
        _flush(target)
        return target

    def finish_copy(self, document_id: str) -> None:
        """The commit naming the copy is done (or undone, its copy removed): its marker goes."""
        with contextlib.suppress(FileNotFoundError):
            (self.originals_dir / f"{PENDING_COPY}{document_id}").unlink()

    def abandoned_copies(self) -> list[tuple[str, str | None]]:
        """(document id, id of the document it replaces) of each copy whose commit was left unfinished by a process
        of this machine that no longer runs (this process's own count as running: another CaseTrack in it may be
        mid-ingest; a data folder shared with another machine: its processes cannot be seen from here)."""
        found = []
        for marker in sorted(self.originals_dir.glob(PENDING_COPY + "*")) if self.originals_dir.is_dir() else []:
            try:
                record = json.loads(marker.read_text())
                pid, host, replaces = int(record["pid"]), record.get("host"), record.get("replaces")
            except (OSError, ValueError, KeyError, TypeError):
                continue
            if host != socket.gethostname() or pid == os.getpid() or psutil.pid_exists(pid):
                continue
            doc_id = marker.name[len(PENDING_COPY):]
            if is_own_id(doc_id) and (replaces is None or (isinstance(replaces, str) and is_own_id(replaces))):
                found.append((doc_id, replaces))
        return found

    def recorded_copy(self, copy: Path) -> str:
        """How a kept copy is recorded: relative to the case folder, so a copied data folder still finds it."""
        return copy.relative_to(self.case_dir).as_posix()

    def located(self, doc: Document) -> Document:
        """`doc` with its kept copy's path derived from this case folder, whatever the record says (an older
        record holds the absolute path of the data folder it was written in, which may have been copied since).
        A record whose id is not CaseTrack's own keeps what it says (deleting it reports the refusal)."""
        if not doc.copied_original or not is_own_id(doc.id):
            return doc
        name = PurePath(doc.copied_original).name  # no I/O: a listing of thousands of documents derives each one
        return replace(doc, copied_original=str(self.originals_dir / doc.id / name) if name not in ("", ".", "..")
                       else None)

    def remove_copy(self, document_id: str) -> bool:
        """Remove a document's copy folder. Raises UnsafePath (removing nothing) for a foreign id."""
        action = "remove the copy of an original at"
        return remove_tree(self.originals_dir, self.copy_dir(document_id, action), action)

    def remove(self) -> None:
        """Remove the whole case folder (after `mark_deleting`)."""
        if not is_own_id(self.case_dir.name):
            raise UnsafePath(str(self.case_dir), str(self.case_dir.parent), "remove the case folder")
        remove_tree(self.case_dir.parent, self.case_dir, "remove the case folder")

    def storage_bytes(self) -> int:
        total = 0
        for root, _dirs, files in os.walk(self.case_dir):
            for name in files:
                with contextlib.suppress(OSError):
                    total += (Path(root) / name).stat().st_size
        return total

    def _require_present(self) -> None:
        if self.deleting or not self.exists:
            raise NotFound("Case", self.case_dir.name, hint="Its data folder is missing; use list_cases.")


def _flush(path: Path) -> None:
    """A new file and the folder naming it on the disk: a commit that names it must not outlive it (power cut)."""
    with open(path, "rb") as file:
        os.fsync(file.fileno())
    with contextlib.suppress(OSError):  # Windows cannot open a folder to flush it
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
