"""What each commit changed: one small record per store generation, written in the commit's own
WriteBatch, so that a search index saved at generation g (on disk, or in another process's
memory) catches up to the store by re-reading only the documents committed since g.

A record names the document written (if any) and the chunk ids removed. Only the last
KEEP_CHANGES generations are kept: an index further behind, or one behind a store written by a
CaseTrack that kept no log, finds a gap and is rebuilt from the store instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from casetrack.store import keys
from casetrack.store.records import dumps, loads
from casetrack.store.rocks import Batch, RocksStore

KEEP_CHANGES = 4096


@dataclass(frozen=True, slots=True)
class Change:
    generation: int
    document_id: str | None  # written (added or replaced) by this commit
    removed: tuple[str, ...]  # chunk ids deleted by this commit


def record(batch: Batch, after: int, document_id: str | None, removed: Sequence[str]) -> None:
    """Queue the change record of generation `after` (and drop the one that falls out of the log). The
    caller writes the generation itself; a batch of several commits records each (a bulk import)."""
    batch.put(keys.METADATA, keys.change(after), dumps({"document": document_id, "removed": list(removed)}))
    if after > KEEP_CHANGES:
        batch.delete(keys.METADATA, keys.change(after - KEEP_CHANGES))


def since(db: RocksStore, known: int, current: int) -> list[Change] | None:
    """The changes of generations known+1 .. current in order, or None when any is missing."""
    if current < known:
        return None
    out: list[Change] = []
    for key, raw in db.scan(keys.METADATA, keys.CHANGE_PREFIX, keys.change(known + 1)):
        number = int(key[len(keys.CHANGE_PREFIX):])
        if number > current:
            break
        if number != known + 1 + len(out):
            return None
        try:
            record = loads(raw)
            doc, removed = record.get("document"), record.get("removed", [])
        except (ValueError, AttributeError):
            return None
        if not (doc is None or isinstance(doc, str)) or not isinstance(removed, list):
            return None
        out.append(Change(number, doc, tuple(str(r) for r in removed)))
    return out if len(out) == current - known else None
