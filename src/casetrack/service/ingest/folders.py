"""Folders of case files: walking them safely, ingesting every file with a per-file
outcome, and syncing a folder against what the case already holds."""

from __future__ import annotations

import fnmatch
import logging
import os
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from casetrack import cancel
from casetrack.domain import Case, Document
from casetrack.errors import CaseTrackError, DuplicateDocument, InvalidInput, quoted
from casetrack.files import kind_of, relative_note, user_path
from casetrack.parse import CONVERSION_HINTS, SUPPORTED_EXTENSIONS
from casetrack.service.cases.cases import CaseService
from casetrack.service.infra.jobs import UNCHANGED, Progress
from casetrack.service.ingest.document import Ingested, Ingestor, IngestRequest, ingested_from
from casetrack.service.ingest.moves import move_document
from casetrack.service.ingest.source_file import check_file, file_sha256
from casetrack.store import documents as docstore

log = logging.getLogger(__name__)

# Editors, sync clients and operating systems leave these beside real documents.
IGNORED_PATTERNS = ("~$*", ".~lock*", "*.part", "*.partial", "*.crdownload", "*.tmp", "*.temp", "*.swp",
                    ".DS_Store", "Thumbs.db", "desktop.ini", "*.download", ".*")


@dataclass(frozen=True, slots=True)
class FileOutcome:
    path: str  # relative to the folder
    status: str  # ingested | skipped | failed | updated | moved | removed | missing | refused | would_ingest | ...
    message: str = ""
    document_id: str | None = None
    pages: int = 0
    chunks: int = 0
    warnings: tuple[str, ...] = ()  # an ingested document's: skipped scanned pages, unread attachments, ...


@dataclass(frozen=True, slots=True)
class FileSync:
    earlier: Document | None  # what the case held from this file before
    done: Ingested | None  # the new ingest; None when the file was unchanged


@dataclass(frozen=True, slots=True)
class Walk:
    files: list[Path]
    problems: list[FileOutcome]
    subfolders: list[str]


@dataclass(slots=True)
class FolderReport:
    folder: str
    kind: str  # "ingest" | "sync"
    dry_run: bool = False
    found: int = 0
    subfolders: list[str] = field(default_factory=list)
    outcomes: list[FileOutcome] = field(default_factory=list)
    started_at: float = field(default_factory=time.time)
    duration_s: float = 0.0

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)




def check_folder(raw: str) -> Path:
    if not raw or not str(raw).strip():
        raise InvalidInput("Give the path of a folder, e.g. /Users/sarah/Cases/Smith/Documents")
    path = user_path(str(raw))
    if not path.exists():
        raise InvalidInput(f"Folder not found: {quoted(path, 300)}\n\n"
                           "Check that the path is correct and the folder exists."
                           + relative_note(str(raw), "/Users/sarah/Cases/Smith"))
    if not path.is_dir():
        raise InvalidInput(f"{quoted(path, 300)} is a file, not a folder. Use ingest_document for a single file.")
    return path.resolve()


def normalise_extensions(extensions: Sequence[str] | None) -> frozenset[str] | None:
    """The user's extension filter as `.ext` strings; None means every supported format."""
    if not extensions:
        return None
    wanted = frozenset("." + e.strip().lower().lstrip(".") for e in extensions if e.strip())
    unknown = sorted(wanted - set(SUPPORTED_EXTENSIONS))
    if unknown:
        raise InvalidInput(f"Unsupported extension(s): {', '.join(unknown)}. Supported: "
                           f"{', '.join(SUPPORTED_EXTENSIONS)}.")
    return wanted


def is_ignored(name: str) -> bool:
    return any(fnmatch.fnmatch(name, pattern) for pattern in IGNORED_PATTERNS)


def walk(folder: Path, recursive: bool = True, extensions: frozenset[str] | None = None) -> Walk:
    """Supported files under `folder`, sorted. Never follows folder symlinks (no loops, no escaping
    the tree); unreadable subfolders and broken links become problems, not aborts."""
    wanted = extensions if extensions is not None else frozenset(SUPPORTED_EXTENSIONS)
    files: list[Path] = []
    problems: list[FileOutcome] = []
    subfolders: list[str] = []

    def on_error(exc: OSError) -> None:
        where = Path(exc.filename or folder)
        problems.append(FileOutcome(_relative(where, folder), "failed",
                                    f"could not read this folder ({exc.strerror or exc}); check its permissions"))

    for root, dirs, names in os.walk(folder, onerror=on_error, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not is_ignored(d))
        if Path(root) != folder:
            subfolders.append(_relative(Path(root), folder) + "/")
        if not recursive:
            dirs[:] = []
        for name in sorted(names):
            if is_ignored(name):
                continue
            path = Path(root) / name
            extension = path.suffix.lower()
            if extension not in wanted:
                if extension not in SUPPORTED_EXTENSIONS and extensions is None:
                    hint = CONVERSION_HINTS.get(extension)
                    problems.append(FileOutcome(_relative(path, folder), "unsupported",
                                                f"not a supported format ({extension or 'no extension'}); "
                                                + (f"this is {hint}" if hint else
                                                   f"supported: {', '.join(SUPPORTED_EXTENSIONS)}")))
                continue
            if path.is_symlink() and not path.exists():
                problems.append(FileOutcome(_relative(path, folder), "failed", "broken link: its target is missing"))
                continue
            if (reason := refusal(path, folder)) is not None:
                problems.append(FileOutcome(_relative(path, folder), "refused", reason))
                continue
            files.append(path)
    return Walk(files, problems, [s for s in subfolders if s.count("/") == 1])


def refusal(path: Path, folder: Path) -> str | None:
    """Why a file found in `folder` (resolved) is not read, or None. A link to a file outside the folder is
    not followed: an instruction planted in one document ("link the other client's file here") must not
    bring another matter's file into this case; a file outside is ingested only by its own path. A named
    pipe or a device would hold the ingest forever."""
    try:
        target = path.resolve() if path.is_symlink() else path
        mode = target.stat().st_mode
    except OSError as exc:
        return f"could not be looked at ({exc.strerror or exc})"
    if (kind := kind_of(mode)) is not None:
        return f"{kind}{f' (a link to {target})' if target is not path else ''}; only regular files are read"
    if target is not path and not _inside(str(target), folder.resolve()):
        return (f"a link to {target}, outside this folder: links out of the folder are not followed. If that "
                "file belongs in this case, ingest it by its own path")
    return None


def _relative(path: Path, folder: Path) -> str:
    try:
        return str(path.relative_to(folder)) or "."
    except ValueError:
        return str(path)


ProgressFor = Callable[[int], AbstractContextManager[Progress]]  # given the number of files, where progress goes


def _no_progress(files: int) -> AbstractContextManager[Progress]:
    return nullcontext(lambda done, total, current: None)


class FolderService:
    def __init__(self, cases: CaseService, ingestor: Ingestor) -> None:
        self._cases = cases
        self._ingestor = ingestor

    def ingest_folder(self, case: Case, folder: Path, walked: Walk, skip_existing: bool = True,
                      document_type: str | None = None, progress: Progress | None = None) -> FolderReport:
        report = FolderReport(str(folder), "ingest", found=len(walked.files), subfolders=walked.subfolders)
        report.outcomes.extend(walked.problems)
        held = self._held(case) if skip_existing else {}
        for n, path in enumerate(walked.files):
            rel = _relative(path, folder)
            cancel.checkpoint()  # between files: the finished ones are kept
            try:
                same = self._unchanged(path, held)
            except CaseTrackError as exc:  # stalled (an online-only cloud file), gone: not waited for twice
                report.outcomes.append(FileOutcome(rel, "failed", exc.message))
                continue
            if progress:
                progress(n, len(walked.files), rel + UNCHANGED if same is not None else rel)
            if same is not None:
                report.outcomes.append(FileOutcome(rel, "skipped", "already ingested (matching SHA-256)", same.id))
                continue
            report.outcomes.append(self._ingest_one(case.id, path, rel, document_type, skip_existing))
        report.duration_s = time.time() - report.started_at
        return report

    def _held(self, case: Case) -> dict[str, Document]:
        with self._cases.store(case).reader() as db:
            return {d.file_hash: d for d in docstore.list_documents(db)}

    def _unchanged(self, path: Path, held: dict[str, Document]) -> Document | None:
        """The document the case holds with this file's content, known before the file is announced
        as being ingested; None when there is none. Raises as `file_sha256` (a read that stalls)."""
        return held.get(file_sha256(path, self._ingestor.read_grace_s)) if held else None

    def sync_file(self, case: Case, path_text: str, document_type: str | None = None) -> FileSync:
        """One file brought in step with the case: ingested if new, replaced if the document ingested
        from the same path has changed, left alone if unchanged. Raises as `Ingestor.ingest`."""
        self._cases.require_writable(case)
        path = check_file(path_text)
        with self._cases.store(case).reader() as db:
            earlier = ingested_from(docstore.list_documents(db), path)
        if earlier is not None and earlier.file_hash == file_sha256(path, self._ingestor.read_grace_s):
            return FileSync(earlier, None)
        done = self._ingestor.ingest(case, IngestRequest(str(path), document_type=document_type), replace_doc=earlier)
        return FileSync(earlier, done)

    def ingest_path(self, case: Case, path_text: str, document_type: str | None = None, sync: bool = False,
                    progress_for: ProgressFor | None = None) -> FileSync | FolderReport:
        """`casetrack ingest PATH`: a file ingested (with `sync`, brought in step as `sync_file` does), or every
        supported file of a folder tree ingested (with `sync`, the folder synced, nothing removed). A folder's
        progress goes to `progress_for(number of files)`. Raises InvalidInput for a path that is neither,
        CaseReadOnly, and as `Ingestor.ingest` for a file."""
        if not user_path(path_text).is_dir():
            if sync:
                return self.sync_file(case, path_text, document_type)
            self._cases.require_writable(case)
            return FileSync(None, self._ingestor.ingest(case, IngestRequest(path_text, None, document_type)))
        folder = check_folder(path_text)
        walked = walk(folder)
        self._cases.require_writable(case)
        with (progress_for or _no_progress)(len(walked.files)) as progress:
            if sync:
                return self.sync_folder(case, folder, walked, document_type=document_type, progress=progress)
            return self.ingest_folder(case, folder, walked, document_type=document_type, progress=progress)

    def _ingest_one(self, case_id: str, path: Path, rel: str, document_type: str | None, skip_existing: bool,
                    replace_doc: Document | None = None) -> FileOutcome:
        try:
            case = self._cases.get(case_id)  # re-read: the case may have been closed meanwhile
            done = self._ingestor.ingest(case, IngestRequest(str(path), document_type=document_type),
                                         replace_doc=replace_doc)
        except DuplicateDocument as dup:
            if skip_existing:
                return FileOutcome(rel, "skipped", "already ingested (matching SHA-256)", dup.document_id)
            try:
                existing = self._find(case_id, dup.document_id)
                request = IngestRequest(str(path), document_type=document_type)
                done = self._ingestor.ingest(self._cases.get(case_id), request, replace_doc=existing)
            except CaseTrackError as exc:
                return FileOutcome(rel, "failed", exc.message)
        except CaseTrackError as exc:
            return FileOutcome(rel, "failed", exc.message)
        except Exception as exc:  # one bad file never aborts a folder
            log.exception("Unexpected failure ingesting %s", path)
            return FileOutcome(rel, "failed", f"unexpected error ({type(exc).__name__}: {exc}); please report it")
        status = "updated" if replace_doc is not None else "ingested"
        return FileOutcome(rel, status, "", done.document.id, done.document.page_count, done.document.chunk_count,
                           done.document.warnings)

    def _find(self, case_id: str, doc_id: str) -> Document:
        with self._cases.store(self._cases.get(case_id)).reader() as db:
            doc = docstore.get_document(db, doc_id)
        if doc is None:
            raise InvalidInput("the matching document was deleted meanwhile; run the ingest again")
        return doc

    def sync_folder(self, case: Case, folder: Path, walked: Walk, remove_deleted: bool = False,
                    document_type: str | None = None, dry_run: bool = False,
                    progress: Progress | None = None) -> FolderReport:
        """New files are ingested, changed ones (by SHA-256) replaced, moved ones re-pointed without
        re-embedding, and documents whose files are gone removed only when `remove_deleted`."""
        report = FolderReport(str(folder), "sync", dry_run=dry_run, found=len(walked.files),
                              subfolders=walked.subfolders)
        report.outcomes.extend(walked.problems)
        with self._cases.store(case).reader() as db:  # a path this machine did not record is never probed
            docs = [self._cases.seals.as_trusted(case.id, d) for d in docstore.list_documents(db)]
        by_hash = {d.file_hash: d for d in docs}
        by_path = {d.original_path: d for d in docs if d.original_path}
        on_disk = {str(p) for p in walked.files}
        seen: set[str] = set()
        for n, path in enumerate(walked.files):
            rel = _relative(path, folder)
            cancel.checkpoint()
            try:
                digest = file_sha256(path, self._ingestor.read_grace_s)
            except CaseTrackError as exc:  # stalled (an online-only cloud file), gone, not a regular file
                report.outcomes.append(FileOutcome(rel, "failed", exc.message))
                continue
            same = by_hash.get(digest)
            at_path = by_path.get(str(path))
            if progress:
                progress(n, len(walked.files), rel + UNCHANGED if same is not None else rel)
            if same is not None and same.original_path == str(path):
                seen.add(same.id)
                report.outcomes.append(FileOutcome(rel, "unchanged", "", same.id, same.page_count, same.chunk_count))
            elif same is not None and same.original_path not in on_disk and not _exists(same.original_path):
                seen.add(same.id)
                report.outcomes.append(self._move(case, same, path, rel, dry_run))
            elif same is not None:
                report.outcomes.append(FileOutcome(rel, "skipped", f'identical to "{same.name}", already in the case',
                                                   same.id))
            elif at_path is not None:
                seen.add(at_path.id)
                report.outcomes.append(
                    FileOutcome(rel, "would_update", "changed on disk") if dry_run
                    else self._ingest_one(case.id, path, rel, document_type, True, replace_doc=at_path))
            else:
                report.outcomes.append(FileOutcome(rel, "would_ingest", "new file") if dry_run
                                       else self._ingest_one(case.id, path, rel, document_type, True))
        for doc in docs:
            if doc.id in seen or not doc.original_path or not _inside(doc.original_path, folder):
                continue
            if _exists(doc.original_path) and doc.original_path in on_disk:
                continue
            rel = _relative(Path(doc.original_path), folder)
            if not remove_deleted:
                report.outcomes.append(FileOutcome(rel, "missing", "source file is gone; kept in the case "
                                                   "(use remove_deleted=true to remove it)", doc.id))
            elif dry_run:
                report.outcomes.append(FileOutcome(rel, "would_remove", "source file is gone", doc.id))
            else:
                try:
                    gone = self._ingestor.delete(self._cases.get(case.id), doc)
                    detail = "source file is gone" + (f"; {gone.note}" if gone.note else "")
                    report.outcomes.append(FileOutcome(rel, "removed", detail, doc.id))
                except CaseTrackError as exc:
                    report.outcomes.append(FileOutcome(rel, "failed", exc.message, doc.id))
        report.duration_s = time.time() - report.started_at
        return report

    def _move(self, case: Case, doc: Document, path: Path, rel: str, dry_run: bool) -> FileOutcome:
        """Same content at a new path: re-pointed (and renamed, see `moves`); chunks and embeddings stay."""
        was = doc.original_path or "a source not on this computer (now linked to this file)"
        if dry_run:
            return FileOutcome(rel, "would_move", f"moved from {was}", doc.id)
        try:
            moved = move_document(self._cases, self._ingestor, case, doc.id, path)
        except CaseTrackError as exc:
            return FileOutcome(rel, "failed", exc.message, doc.id)
        renamed = f"; now named {moved.document.name}" if moved.renamed else ""
        return FileOutcome(rel, "moved", f"moved from {was}{renamed}; embeddings kept", doc.id,
                           doc.page_count, doc.chunk_count)


def _exists(path: str | None) -> bool:
    return bool(path) and Path(path).exists()  # type: ignore[arg-type]


def _inside(path: str, folder: Path) -> bool:
    try:
        Path(path).relative_to(folder)
    except ValueError:
        return False
    return True
