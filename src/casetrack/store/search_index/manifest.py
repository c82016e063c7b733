"""Which segments make up a case's search index, and at which store generation.

`cases/<id>/index/manifest.json` names the segments in order, each with its row count and
the bitmap of its deleted rows (`<segment>.dead-<generation>.npy`, packed bits, CRC-32 in the
manifest), plus the case id, the store generation all of it reflects and the live chunk
count. It is replaced atomically, after the files it names are durable, so a reader sees the
old index or the new one. Files no manifest names (an interrupted write, segments merged
away) are removed by `remove_unused`, through the case folder's removal gate.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from casetrack.store.paths import remove_tree
from casetrack.store.search_index.files import (
    FORMAT,
    SEGMENT_NAME,
    IndexDamaged,
    file_crc,
    fsync_dir,
    read_json,
    write_json,
)

INDEX_DIR = "index"
MANIFEST = "manifest.json"
LOCK = "writer.lock"
DEAD_NAME = re.compile(r"^(seg-\d{12}-[0-9a-f]{8})\.dead-\d{12}-[0-9a-f]{4}\.npy$")


@dataclass(frozen=True, slots=True)
class SegmentEntry:
    name: str
    rows: int
    dead_file: str | None = None
    dead_rows: int = 0
    dead_crc: int | None = None


@dataclass(frozen=True, slots=True)
class Manifest:
    case_id: str
    generation: int
    chunks: int
    segments: tuple[SegmentEntry, ...]
    stats_drift: int = 0  # chunks indexed minus the store's own chunk count, when it was built


def read_manifest(index_dir: Path) -> Manifest | None:
    """The manifest, or None when there is none. Raises IndexDamaged for one that does not check out."""
    path = index_dir / MANIFEST
    if not path.exists():
        return None
    body = read_json(path)
    try:
        if body["format"] != FORMAT:
            raise IndexDamaged(f"index format {body['format']} is not {FORMAT}")
        segments = tuple(_entry(raw) for raw in body["segments"])
        return Manifest(str(body["case"]), int(body["generation"]), int(body["chunks"]), segments,
                        int(body.get("stats_drift", 0)))
    except (KeyError, TypeError, ValueError) as exc:
        raise IndexDamaged(f"{MANIFEST}: {exc}") from None


def _entry(raw: Mapping[str, object]) -> SegmentEntry:
    name, dead = str(raw["name"]), raw.get("dead")
    if not SEGMENT_NAME.match(name) or (dead is not None and not DEAD_NAME.match(str(dead))):
        raise ValueError(f"bad file name in the manifest: {name!r}, {dead!r}")
    crc = raw.get("dead_crc")
    return SegmentEntry(name, int(raw["rows"]), None if dead is None else str(dead),  # type: ignore[call-overload]
                        int(raw.get("dead_rows", 0)), None if crc is None else int(crc))  # type: ignore[call-overload]


def write_manifest(index_dir: Path, case_id: str, generation: int, chunks: int,
                   segments: list[tuple[str, int, np.ndarray | None]], stats_drift: int = 0) -> Manifest:
    """Write each segment's dead-row bitmap (alive: bool per row, None when all are alive), then the
    manifest naming them; returns it."""
    entries = []
    for name, rows, alive in segments:
        if alive is None or bool(alive.all()):
            entries.append(SegmentEntry(name, rows))
            continue
        dead_file = f"{name}.dead-{generation:012d}-{secrets.token_hex(2)}.npy"
        path = index_dir / dead_file
        with path.open("wb") as handle:
            np.save(handle, np.packbits(~alive.astype(bool)), allow_pickle=False)
            handle.flush()
            os.fsync(handle.fileno())
        entries.append(SegmentEntry(name, rows, dead_file, int(rows - alive.sum()), file_crc(path)))
    fsync_dir(index_dir)
    write_json(index_dir / MANIFEST, {
        "format": FORMAT, "case": case_id, "generation": generation, "chunks": chunks, "stats_drift": stats_drift,
        "segments": [{"name": e.name, "rows": e.rows, "dead": e.dead_file, "dead_rows": e.dead_rows,
                      "dead_crc": e.dead_crc} for e in entries]})
    fsync_dir(index_dir)
    return Manifest(case_id, generation, chunks, tuple(entries), stats_drift)


def read_alive(index_dir: Path, entry: SegmentEntry) -> np.ndarray | None:
    """The segment's live rows (None when none is deleted). Raises IndexDamaged."""
    if entry.dead_file is None:
        return None
    path = index_dir / entry.dead_file
    try:
        if file_crc(path) != entry.dead_crc:
            raise IndexDamaged(f"{entry.dead_file} does not match its checksum")
        packed = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise IndexDamaged(f"{entry.dead_file}: {exc}") from None
    if packed.dtype != np.uint8 or packed.shape != ((entry.rows + 7) // 8,):
        raise IndexDamaged(f"{entry.dead_file} is not a bitmap of {entry.rows} rows")
    alive = ~np.unpackbits(packed, count=entry.rows).astype(bool)
    if entry.rows - int(alive.sum()) != entry.dead_rows:
        raise IndexDamaged(f"{entry.dead_file} does not hold {entry.dead_rows} deleted rows")
    return alive


def remove_unused(index_dir: Path, manifest: Manifest | None) -> list[str]:
    """Remove what the manifest does not name: segments merged away, old bitmaps, interrupted writes.
    Call only while holding the index's writer lock. Returns the names removed."""
    keep = {MANIFEST, LOCK}
    if manifest is not None:
        keep |= {e.name for e in manifest.segments} | {e.dead_file for e in manifest.segments if e.dead_file}
    removed = []
    for path in sorted(index_dir.iterdir()) if index_dir.is_dir() else []:
        if path.name in keep:
            continue
        try:
            remove_tree(index_dir, path, "remove an unused search-index file")
        except OSError:  # still mapped by a search on a system that forbids that (Windows): next time
            continue
        removed.append(path.name)
    return removed


def folder_bytes(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.iterdir() if p.is_file()) if path.is_dir() else 0
