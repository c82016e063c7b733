"""Which recorded source paths CaseTrack may open (issue 33 §2).

A document record names the file it was made from (`original_path`), and reindex, sync and moves
read or probe that path. A record that came from anywhere else (an imported archive, a case folder
copied in by hand, a store an older version imported) could name any file on the disk, and reading
it would pull that file into the case and out with the next export. So a path is trusted only when
the record carries a seal that this data folder made: an HMAC of (case id, document id, path) under a
random key kept in `registry.db`, which no export carries. Ingest, sync and relink seal what they
record; import drops every seal (and the path with it), and a forged seal cannot be made without
the key. A copied data folder keeps its key, and its documents their sources."""

from __future__ import annotations

import hashlib
import hmac
import threading
from dataclasses import replace
from pathlib import Path

from casetrack.domain import Document, clean_name
from casetrack.store.registry import Registry


class SourceSeals:
    def __init__(self, registry: Registry) -> None:
        self._registry = registry
        self._key: bytes | None = None
        self._lock = threading.Lock()

    def _secret(self) -> bytes:
        with self._lock:  # read (or made) once per process: it never changes
            if self._key is None:
                self._key = self._registry.source_key()
            return self._key

    def seal(self, case_id: str, doc_id: str, path: str) -> str:
        message = "\0".join((case_id, doc_id, path)).encode("utf-8", "surrogatepass")
        return hmac.new(self._secret(), message, hashlib.sha256).hexdigest()

    def sealed(self, case_id: str, doc: Document, path: str) -> Document:
        """`doc` recorded as made from `path` on this machine (a path the user gave, or found in a folder they gave)."""
        return replace(doc, original_path=path, source_seal=self.seal(case_id, doc.id, path), archived_path=None)

    def trusted(self, case_id: str, doc: Document) -> Path | None:
        """The document's source path if this data folder recorded it, else None (never to be opened)."""
        if not doc.original_path or not doc.source_seal:
            return None
        expected = self.seal(case_id, doc.id, doc.original_path).encode()
        given = doc.source_seal.encode("utf-8", "surrogatepass")  # bytes: a crafted seal may be any text
        return Path(doc.original_path) if hmac.compare_digest(expected, given) else None

    def as_trusted(self, case_id: str, doc: Document) -> Document:
        """`doc` with an unproven source path moved to `archived_path` (shown, never opened): what is shown and
        what sync compares and probes is only ever a source this machine recorded."""
        if doc.original_path is None or self.trusted(case_id, doc):
            return doc
        return replace(doc, original_path=None, source_seal=None, archived_path=archived_path(doc))


MAX_ARCHIVED_PATH = 1000


def archived_path(doc: Document) -> str | None:
    """The source path a record names without proof (an archive's), cleaned and bounded for display."""
    named = doc.original_path if isinstance(doc.original_path, str) else doc.archived_path
    shown = clean_name(named)[:MAX_ARCHIVED_PATH] if isinstance(named, str) else ""
    return shown or None
