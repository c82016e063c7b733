"""What get_index_status says about a case's search-index files: each file (path inside the case
folder), the store generation it reflects, its size and its state, and the whole index's state:
current, behind (caught up at the next search), being rebuilt (with progress), damaged or not
built yet (rebuilt from the store at the next search: nothing for the user to do)."""

from __future__ import annotations

from dataclasses import dataclass, field

from casetrack.service.search.index_cache import IndexCache
from casetrack.store import stats
from casetrack.store.case_store import CaseStore
from casetrack.store.search_index.files import HEADER, IndexDamaged, read_json, read_segment
from casetrack.store.search_index.manifest import INDEX_DIR, MANIFEST, folder_bytes, read_alive, read_manifest


@dataclass(frozen=True, slots=True)
class IndexFile:
    path: str  # relative to the case folder, e.g. "index/seg-000000000042-1a2b3c4d/"
    generation: int
    size_bytes: int
    chunks: int
    deleted_chunks: int
    state: str  # current | behind | damaged


@dataclass(frozen=True, slots=True)
class IndexFilesStatus:
    state: str  # current | behind | rebuilding | damaged | not built
    store_generation: int
    files_generation: int | None
    files: list[IndexFile] = field(default_factory=list)
    unwritten_chunks: int = 0  # committed, searchable, held in memory until written as a segment
    rebuilt: tuple[int, int] | None = None  # (chunks done, total) of a rebuild under way
    problem: str | None = None

    @property
    def size_bytes(self) -> int:
        return sum(f.size_bytes for f in self.files)


def describe(store: CaseStore, cache: IndexCache) -> IndexFilesStatus:
    """The state of a case's index files, checked as an open would check them (headers, sizes, checksums)."""
    index_dir = store.case_dir / INDEX_DIR
    case_id = store.case_dir.name
    with store.reader() as db:
        current = stats.generation(db)
    kept = cache.peek(case_id)
    unwritten = kept.pending_rows if kept is not None else 0
    progress = cache.progress.get(case_id)
    rebuilding = None if progress is None else (progress.done, progress.total)
    try:
        manifest = read_manifest(index_dir)
    except IndexDamaged as exc:
        return IndexFilesStatus("rebuilding" if rebuilding else "damaged", current, None, [], unwritten, rebuilding,
                                str(exc))
    if manifest is None or manifest.case_id != case_id:
        return IndexFilesStatus("rebuilding" if rebuilding else "not built", current, None, [], unwritten, rebuilding)
    state = "current" if manifest.generation == current else "behind"
    files = [IndexFile(f"{INDEX_DIR}/{MANIFEST}", manifest.generation, (index_dir / MANIFEST).stat().st_size,
                       manifest.chunks, 0, state)]
    problem = None
    for entry in manifest.segments:
        try:
            read_segment(index_dir, entry.name, entry.rows)
            read_alive(index_dir, entry)
            generation = int(read_json(index_dir / entry.name / HEADER).get("generation", 0))
            segment_state = state
        except IndexDamaged as exc:
            generation, segment_state, problem = 0, "damaged", str(exc)
        size = folder_bytes(index_dir / entry.name) + (folder_bytes(index_dir / entry.dead_file) if entry.dead_file
                                                       else 0)
        files.append(IndexFile(f"{INDEX_DIR}/{entry.name}/", generation, size, entry.rows, entry.dead_rows,
                               segment_state))
    overall = "rebuilding" if rebuilding else "damaged" if problem else state
    return IndexFilesStatus(overall, current, manifest.generation, files, unwritten, rebuilding, problem)
