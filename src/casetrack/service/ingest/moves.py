"""A document whose file moved or was renamed: the same content at a new path.

Its chunks and embeddings stay. The path changes, and the name with it when the name was the old
file's own (`unique_name` of the old path); a name the user gave at ingest stays. A document is asked
for and cited by its name, so a renamed file must answer to its new one. The name also heads what is
indexed for each chunk (`entries.chunk_headers`): each chunk's stored keyword terms lose the old
header's and gain the new one's (no model runs, and the terms an ingest added from the context graph,
references and legal roles, stay; the vectors, which took the old name in, are kept) and the commit records the
document as written, so every search index re-reads it and every cache keyed by generation moves on."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from casetrack.domain import Case, Document
from casetrack.errors import InvalidInput
from casetrack.index.tokenize import tokenize
from casetrack.service.cases.cases import CaseService
from casetrack.service.ingest.document import Commit, Ingestor, named_after_file, unique_name
from casetrack.service.ingest.entries import chunk_headers, heading_paths
from casetrack.store import documents as docstore
from casetrack.store.rocks import RocksStore
from casetrack.store.stats import bump_generation


@dataclass(frozen=True, slots=True)
class Moved:
    previous: Document
    document: Document

    @property
    def renamed(self) -> bool:
        return self.document.name != self.previous.name


def move_document(cases: CaseService, ingestor: Ingestor, case: Case, doc_id: str, path: Path) -> Moved:
    """Point the document `doc_id` at `path`, renaming it when it was named after its old file.
    Raises CaseReadOnly, CaseBusy, or InvalidInput when the document was deleted meanwhile."""
    cases.require_writable(cases.get(case.id))
    with cases.store(case).writer("updating the path of a moved file") as db:
        current = docstore.get_document(db, doc_id)
        if current is None:
            raise InvalidInput("the document was deleted meanwhile; sync the folder again to ingest the file")
        name = current.name
        if current.original_path and named_after_file(name, Path(current.original_path)):
            name = unique_name([d for d in docstore.list_documents(db) if d.id != doc_id], path, None)
        moved = cases.seals.sealed(case.id, replace(current, name=name), str(path))  # walked in the user's folder
        batch = db.batch()
        docstore.update_document(batch, moved)
        if name == current.name:
            db.write(batch)  # the path is not searched: indexes and caches need not move
            return Moved(current, moved)
        terms = _terms_under_name(db, current, moved)
        docstore.put_terms(batch, terms)
        before = bump_generation(db, batch, doc_id, list(terms))
        db.write(batch)
    ingestor.notify(Commit(case.id, before, before + 1, doc_id, terms, {}, list(terms)))
    return Moved(current, moved)


def _terms_under_name(db: RocksStore, previous: Document, moved: Document) -> dict[str, dict[str, int]]:
    """Each chunk's stored keyword terms with the header of `previous.name` swapped for that of `moved.name`."""
    chunks = list(docstore.document_chunks(db, moved))
    paths = heading_paths([c.span for c in chunks], docstore.structure(db, moved.id))
    out: dict[str, dict[str, int]] = {}
    for chunk, old, new in zip(chunks, chunk_headers(previous.name, paths), chunk_headers(moved.name, paths),
                               strict=True):
        counts = Counter(docstore.chunk_terms(db, chunk.id))
        counts.subtract(tokenize(old))
        counts.update(tokenize(new))
        out[chunk.id] = {term: n for term, n in counts.items() if n > 0}
    return out
