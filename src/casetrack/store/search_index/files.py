"""A segment of a case's search index on disk: `cases/<id>/index/seg-<generation>-<tag>/`, one
`.npy` file per array (memory-mapped when read) and a `segment.json` header naming each file's
dtype, shape, size and, for files up to CHECKED_BYTES, a CRC-32.

Written into a temporary folder (every file fsynced), renamed into place only when complete,
so a crash mid-write leaves a `.tmp-` folder no manifest names, never a half segment. Read
back with every size, header and small-file checksum compared to the header, and the arrays'
shapes checked against each other: anything off raises IndexDamaged and the caller rebuilds
from the store, the source of truth. Large arrays (postings, vectors) are checked by size and
header only; a fault inside one surfaces as an error during a search, which rebuilds too.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import threading
import weakref
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from casetrack.index.quantized import EXACT_ROWS
from casetrack.index.segment import Csr, DensePart, LexicalPart, Segment, Vocabulary

FORMAT = 1
HEADER = "segment.json"
CHECKED_BYTES = 8 * 2**20  # files up to this size carry a CRC-32 (chunk ids, documents, lengths, scales)
SEGMENT_NAME = re.compile(r"^seg-\d{12}-[0-9a-f]{8}$")
SIGNAL_NAME = re.compile(r"^[a-z0-9]{1,16}$")


class IndexDamaged(Exception):
    """An index file is missing, incomplete or not what its header says (rebuild from the store)."""


# --- writing -----------------------------------------------------------------------------------


def segment_arrays(segment: Segment) -> dict[str, np.ndarray]:
    """Every array of a segment under its file name (without `.npy`)."""
    arrays = {
        "chunk_ids": segment.chunk_ids, "doc_ids": segment.doc_ids, "chunk_doc": segment.chunk_doc,
        "doc_indptr": segment.doc_indptr, "doc_rows": segment.doc_rows,
        "terms_blob": segment.lexical.vocabulary.blob, "terms_offsets": segment.lexical.vocabulary.offsets,
        "bm25_indptr": segment.lexical.postings.indptr, "bm25_rows": segment.lexical.postings.rows,
        "bm25_tf": segment.lexical.postings.values, "bm25_lengths": segment.lexical.lengths,
    }
    if segment.order.shape[0]:
        arrays["order"] = segment.order  # absent from segments written before it was kept
    for name, part in segment.dense.items():
        arrays.update({f"dense.{name}.rows": part.rows, f"dense.{name}.floats": part.floats.all(),
                       f"dense.{name}.codes": part.codes, f"dense.{name}.scale": part.scale})
    for name, csr in segment.sparse.items():
        arrays.update({f"sparse.{name}.indptr": csr.indptr, f"sparse.{name}.rows": csr.rows,
                       f"sparse.{name}.values": csr.values})
    return arrays


def write_segment(index_dir: Path, segment: Segment, generation: int) -> str:
    """Write `segment` as a new folder under `index_dir`; returns its name. ValueError for a signal
    name that is not a plain lowercase word."""
    for name in (*segment.dense, *segment.sparse):
        if not SIGNAL_NAME.match(name):
            raise ValueError(f"signal name {name!r} cannot name an index file")
    name = f"seg-{generation:012d}-{secrets.token_hex(4)}"
    index_dir.mkdir(parents=True, exist_ok=True)
    temp = index_dir / f".tmp-{name}"
    temp.mkdir()
    files: dict[str, dict[str, Any]] = {}
    for stem, array in segment_arrays(segment).items():
        files[f"{stem}.npy"] = _write_array(temp / f"{stem}.npy", np.asarray(array))
    header = {"format": FORMAT, "rows": segment.rows, "generation": generation,
              "dense": {n: p.dim for n, p in segment.dense.items()}, "sparse": sorted(segment.sparse), "files": files}
    write_json(temp / HEADER, header)
    fsync_dir(temp)
    os.replace(temp, index_dir / name)
    fsync_dir(index_dir)
    return name


def _write_array(path: Path, array: np.ndarray) -> dict[str, Any]:
    with path.open("wb") as handle:
        np.save(handle, np.ascontiguousarray(array), allow_pickle=False)
        handle.flush()
        os.fsync(handle.fileno())
    size = path.stat().st_size
    return {"dtype": array.dtype.str, "shape": list(array.shape), "bytes": size,
            "crc32": file_crc(path) if size <= CHECKED_BYTES else None}


def write_json(path: Path, record: Mapping[str, Any]) -> None:
    """Write a JSON record with a checksum of itself, atomically (temp file, fsync, rename)."""
    body = dict(record)
    body["checksum"] = zlib.crc32(orjson.dumps(body, option=orjson.OPT_SORT_KEYS))
    temp = path.with_name(f".tmp-{path.name}-{secrets.token_hex(4)}")
    with temp.open("wb") as handle:
        handle.write(orjson.dumps(body, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)


def fsync_dir(path: Path) -> None:
    """Make a rename inside `path` durable (a no-op where folders cannot be opened, i.e. Windows)."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def file_crc(path: Path) -> int:
    crc = 0
    with path.open("rb") as handle:
        while block := handle.read(2**20):
            crc = zlib.crc32(block, crc)
    return crc


# --- reading -----------------------------------------------------------------------------------


def read_json(path: Path) -> dict[str, Any]:
    """A record `write_json` wrote, its checksum verified. Raises IndexDamaged."""
    try:
        body = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError) as exc:
        raise IndexDamaged(f"{path.name}: {exc}") from None
    if not isinstance(body, dict):
        raise IndexDamaged(f"{path.name} is not a record")
    checksum = body.pop("checksum", None)
    if checksum != zlib.crc32(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)):
        raise IndexDamaged(f"{path.name} does not match its checksum")
    return body


def read_segment(index_dir: Path, name: str, rows: int) -> Segment:
    """Open a segment's arrays as read-only memory maps, after checking them against its header and
    the `rows` the manifest expects. Raises IndexDamaged."""
    if not SEGMENT_NAME.match(name):
        raise IndexDamaged(f"{name!r} is not a segment name")
    folder = index_dir / name
    header = read_json(folder / HEADER)
    if header.get("format") != FORMAT or header.get("rows") != rows:
        raise IndexDamaged(f"{name}: format or row count differs from the manifest")
    files = header.get("files")
    if not isinstance(files, dict):
        raise IndexDamaged(f"{name}: no file list")

    def load(stem: str) -> np.ndarray:
        return _load_checked(folder, f"{stem}.npy", files.get(f"{stem}.npy"))

    try:
        segment = _assemble(load, header, folder)
    except (KeyError, TypeError, ValueError) as exc:
        raise IndexDamaged(f"{name}: {exc}") from None
    _check_shapes(segment, rows, name)
    return segment


def _assemble(load: Any, header: dict[str, Any], folder: Path) -> Segment:
    lexical = LexicalPart(Vocabulary(load("terms_blob"), load("terms_offsets")),
                          Csr(load("bm25_indptr"), load("bm25_rows"), load("bm25_tf")), load("bm25_lengths"))
    dense = {}
    for name, dim in dict(header.get("dense", {})).items():
        if not SIGNAL_NAME.match(name):
            raise ValueError(f"bad signal name {name!r}")
        floats = load(f"dense.{name}.floats")
        if floats.ndim != 2 or floats.shape[1] != int(dim):
            raise ValueError(f"{name} vectors are not of dimension {dim}")
        dense[name] = DensePart(load(f"dense.{name}.rows"), FileRows(folder / f"dense.{name}.floats.npy", floats),
                                load(f"dense.{name}.codes"), load(f"dense.{name}.scale"))
    sparse = {}
    for name in list(header.get("sparse", [])):
        if not SIGNAL_NAME.match(str(name)):
            raise ValueError(f"bad signal name {name!r}")
        sparse[name] = Csr(load(f"sparse.{name}.indptr"), load(f"sparse.{name}.rows"), load(f"sparse.{name}.values"))
    order = load("order") if "order.npy" in header.get("files", {}) else np.empty(0, dtype=np.uint64)
    return Segment(load("chunk_ids"), load("doc_ids"), load("chunk_doc"), load("doc_indptr"), load("doc_rows"),
                   lexical, dense, sparse, order)


def _load_checked(folder: Path, file_name: str, expected: Any) -> np.ndarray:
    path = folder / file_name
    if not isinstance(expected, dict):
        raise IndexDamaged(f"{folder.name}/{file_name} is not in its header")
    try:
        if path.stat().st_size != expected["bytes"]:
            raise IndexDamaged(f"{folder.name}/{file_name} has the wrong size")
        shape = tuple(expected["shape"])
        array = np.load(path, allow_pickle=False) if 0 in shape else np.load(path, mmap_mode="r", allow_pickle=False)
        if array.dtype.str != expected["dtype"] or array.shape != shape:
            raise IndexDamaged(f"{folder.name}/{file_name} is not the array its header names")
        if expected.get("crc32") is not None and file_crc(path) != expected["crc32"]:
            raise IndexDamaged(f"{folder.name}/{file_name} does not match its checksum")
    except (OSError, ValueError, KeyError) as exc:  # OSError: also a file removed while it is read
        raise IndexDamaged(f"{folder.name}/{file_name}: {exc}") from None
    return array


def _check_shapes(segment: Segment, rows: int, name: str) -> None:
    """The cheap cross-checks: lengths agree and the last offsets point where the arrays end."""
    lex = segment.lexical
    problems = [
        segment.chunk_ids.shape != (rows,), segment.chunk_doc.shape != (rows,), segment.doc_rows.shape != (rows,),
        segment.doc_indptr.shape != (segment.doc_ids.shape[0] + 1,), lex.lengths.shape != (rows,),
        int(segment.doc_indptr[-1]) != rows,
        lex.vocabulary.offsets.shape[0] < 1 or int(lex.vocabulary.offsets[-1]) != lex.vocabulary.blob.shape[0],
        lex.postings.indptr.shape[0] != lex.vocabulary.offsets.shape[0],
        int(lex.postings.indptr[-1]) != lex.postings.rows.shape[0],
        lex.postings.rows.shape != lex.postings.values.shape,
        segment.order.shape not in ((0,), (rows,)),
    ]
    for part in segment.dense.values():
        problems += [part.rows.shape[0] != len(part.floats), part.codes.shape != (len(part.floats), part.dim),
                     bool(part.rows.size) and int(part.rows[-1]) >= rows]
    for csr in segment.sparse.values():
        problems += [csr.indptr.shape[0] < 1, int(csr.indptr[-1]) != csr.rows.shape[0]]
    if any(problems):
        raise IndexDamaged(f"{name}: its arrays do not agree with each other")


class FileRows:
    """Float32 vectors in a `.npy` file, read with positioned reads: a search touches a few thousand
    rows, which then do not stay mapped into the process (its RSS) as a memory map's pages would.
    The file stays open, so a segment another process merged away and removed remains readable
    (POSIX); on Windows the removal waits until no process has it open."""

    def __init__(self, path: Path, mapped: np.ndarray) -> None:
        self._mapped = mapped  # a memory map (offset into the file, shape); read whole only by all()
        self._count, self._dim = int(mapped.shape[0]), int(mapped.shape[1])
        self._offset = int(mapped.offset) if isinstance(mapped, np.memmap) else 0
        self._row_bytes = 4 * self._dim
        self._handle = path.open("rb", buffering=0) if isinstance(mapped, np.memmap) else None
        if self._handle is not None:
            weakref.finalize(self, self._handle.close)  # closed with the segment that reads it
        self._name = path.name
        self._seek_lock = threading.Lock()  # the seek + read fallback is not thread-safe

    def __len__(self) -> int:
        return self._count

    def all(self) -> np.ndarray:
        return self._mapped

    def take(self, positions: np.ndarray) -> np.ndarray:
        positions = np.asarray(positions, dtype=np.int64)
        # A small segment is scanned whole by every search (index.quantized.EXACT_ROWS), so its pages are
        # mapped anyway: gather from the map rather than one read per row.
        if self._handle is None or positions.size == 0 or self._count <= EXACT_ROWS:
            return np.asarray(self._mapped[positions], dtype=np.float32).reshape(positions.size, self._dim)
        out = np.empty((positions.size, self._dim), dtype=np.float32)
        view = out.data.cast("B")
        for i, start, count in _runs(positions):
            want = count * self._row_bytes
            target = view[i * self._row_bytes: i * self._row_bytes + want]
            if self._read_at(target, self._offset + start * self._row_bytes) != want:
                raise IndexDamaged(f"{self._name} ends before row {start + count}")
        return out

    def _read_at(self, target: memoryview, offset: int) -> int:
        assert self._handle is not None
        if hasattr(os, "preadv"):
            return os.preadv(self._handle.fileno(), [target], offset)
        with self._seek_lock:  # Windows has no positioned read in `os`
            self._handle.seek(offset)
            return int(self._handle.readinto(target) or 0)


def _runs(positions: np.ndarray) -> Iterator[tuple[int, int, int]]:
    """(index into positions, first row, row count) of each run of consecutive ascending rows."""
    breaks = np.flatnonzero(np.diff(positions) != 1) + 1
    starts = np.concatenate(([0], breaks))
    ends = np.concatenate((breaks, [positions.size]))
    for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
        yield s, int(positions[s]), e - s
