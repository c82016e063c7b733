"""Giving a document its source file on this computer (issue 33 §2).

A document imported from an archive records no source here: the archive's path is only shown, never
opened (`service.cases.sources`). The user gives the file; it is checked like a file to ingest (a
regular file, readable, of a supported format, within the read deadline), refused inside CaseTrack's
own data folder (another case's files are not this document's source), and hashed: the same bytes as
the document was made from, or different ones (then the next reindex reads the new file and replaces
the document's text with it; until then nothing about the document changes but its source)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from casetrack.domain import Case, Document
from casetrack.errors import InvalidInput, NotFound
from casetrack.service.cases.cases import CaseService
from casetrack.service.cases.documents import DocumentReader
from casetrack.service.ingest.source_file import check_file, file_sha256
from casetrack.store import documents as docstore


@dataclass(frozen=True, slots=True)
class Relinked:
    document: Document
    previous: Document
    same_content: bool  # the file holds the bytes the document was made from (its SHA-256 matches)


class Relinker:
    def __init__(self, cases: CaseService, documents: DocumentReader, data_dir: Path, read_grace_s: float) -> None:
        self._cases, self._documents = cases, documents
        self._data_dir = data_dir
        self._grace_s = read_grace_s

    def relink(self, case: Case, ref: str, raw_path: str) -> Relinked:
        """Record the file at `raw_path` as the source of the document `ref` names, sealed as this machine's.
        Raises NotFound, CaseReadOnly, CaseBusy, FileNotFound, UnsupportedFormat, DocumentUnreadable, or
        InvalidInput (not a regular file, or a file inside the data folder)."""
        self._cases.require_writable(case)
        doc = self._documents.resolve(case, ref)
        path = check_file(raw_path)
        data = self._data_dir.resolve()
        if path == data or data in path.parents:
            raise InvalidInput(f"{path} is inside CaseTrack's data folder ({data}), which holds the cases' own "
                               "files. Give the document's own file, where you keep it on this computer.")
        before = path.stat()
        digest = file_sha256(path, self._grace_s)
        same = digest == doc.file_hash
        with self._cases.store(case).writer(f"relinking {doc.name}") as db:
            current = docstore.get_document(db, doc.id)
            if current is None:
                raise NotFound("Document", ref, hint="It was deleted meanwhile.")
            linked = self._cases.seals.sealed(case.id, current, str(path))
            if same:  # its size and time, so that reindex sees it unchanged without reading it again
                linked = replace(linked, file_size=before.st_size, file_mtime=before.st_mtime)
            batch = db.batch()
            docstore.update_document(batch, linked)
            db.write(batch)
        return Relinked(self._cases.store(case).located(linked), current, same)
