"""A long passage is ranked by its best window too (search.pipeline.BEST_WINDOW): E7 reads 256 tokens at a time,
so a passage of 600 is three windows whose mean is its vector, and a question answered by one sentence of it meets
that sentence diluted by the rest. Ingest stores each long passage's window vectors beside its vector; search reads
them for the fused first passages; deleting or re-embedding a document leaves none behind; a crafted record in an
imported case is read as no windows. A real case on disk, the text parser, chunking and the packaged E7 model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.store import documents as docstore
from casetrack.store import keys
from casetrack.store.vectors import encode_vector

DIM, MOST = 384, 4
FILLER = ("The parties met at the warehouse on several occasions to review the shipping records, the invoices and "
          "the correspondence about each delivery, and each side kept its own notes of what was said. ")
ANSWER = "The tenant may end the lease early only by paying three months of rent as a termination fee."


def _memo() -> str:
    """Long paragraphs (each ~400 tokens, read in two or more windows), one holding ANSWER in its middle."""
    paragraphs = [FILLER * 9 for _ in range(4)]
    paragraphs[2] = FILLER * 4 + ANSWER + " " + FILLER * 4
    return "MEMORANDUM\n\n" + "\n\n".join(paragraphs) + "\n"


@pytest.fixture(scope="module")
def app_and_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[CaseTrack, object, Path]:
    folder = tmp_path_factory.mktemp("windows")
    app = CaseTrack.open(load_settings(folder / "data"))
    if "E7" not in app.pool.available():
        pytest.skip("the packaged E7 model is not installed")
    case = app.create_case("Windows")
    files = {"Lease memo.txt": _memo(), "Short note.txt": "Call the landlord about the lease on Monday."}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
        app.ingestor.ingest(case, IngestRequest(str(folder / name)))
    return app, case, folder


def _stored(app: CaseTrack, case: object) -> dict[str, np.ndarray | None]:
    """Every chunk id of the case -> its stored E7 windows (None when it has none)."""
    with app.cases.store(case).reader() as db:  # type: ignore[arg-type]
        ids = [key[len(b"chunk:"):].decode() for key, _ in db.scan(keys.CHUNKS, b"chunk:")]
        found = docstore.windows(db, "E7", ids, DIM, MOST)
        return {cid: found.get(cid) for cid in ids}


def test_long_passages_keep_their_windows_and_short_ones_none(app_and_case: tuple[CaseTrack, object, Path]) -> None:
    app, case, _ = app_and_case
    stored = _stored(app, case)
    found = app.search.search(case, "Call the landlord about the lease on Monday", top_k=10).hits  # type: ignore[arg-type]
    note = next(h.chunk for h in found if h.chunk.provenance.document_name == "Short note.txt")
    assert stored[note.id] is None  # one window: its vector is its window
    long = [m for m in stored.values() if m is not None]
    assert long and all(2 <= m.shape[0] <= MOST and m.shape[1] == DIM for m in long)


def test_a_question_one_sentence_of_a_long_passage_answers_ranks_it_by_that_window(
    app_and_case: tuple[CaseTrack, object, Path],
) -> None:
    app, case, _ = app_and_case
    result = app.search.search(case, "what does it cost the renter to get out of the lease before it ends?",  # type: ignore[arg-type]
                               top_k=5)
    assert "windows" in result.stages_used
    top = result.hits[0]
    assert ANSWER in top.chunk.text and top.ranks["e7_window"] == 1  # type: ignore[attr-defined]


def test_deleting_or_re_embedding_a_document_leaves_no_windows_behind(tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(tmp_path / "data"))
    if "E7" not in app.pool.available():
        pytest.skip("the packaged E7 model is not installed")
    case = app.create_case("Gone")
    (tmp_path / "Lease memo.txt").write_text(_memo(), encoding="utf-8")
    app.ingestor.ingest(case, IngestRequest(str(tmp_path / "Lease memo.txt")))
    before = {cid for cid, m in _stored(app, case).items() if m is not None}
    assert before
    (doc,) = app.documents.all(case)
    assert app.reindexer.reindex_document(case, doc, force=True, reparse=False).action == "re-embedded"
    assert {cid for cid, m in _stored(app, case).items() if m is not None} == before
    app.reindexer.reindex_document(case, doc, force=True, reparse=True)
    assert {cid for cid, m in _stored(app, case).items() if m is not None}
    (doc,) = app.documents.all(case)  # parsed again: a document record of its own
    app.delete_document(case, doc.id, confirm=True)
    with app.cases.store(case).reader() as db:
        assert not list(db.scan(keys.EMBEDDINGS, keys.embedding_prefix(docstore.windows_id("E7"))))


@pytest.mark.parametrize("record", [
    np.ones((3, 10), np.float32),  # another model's width
    np.full((2, DIM), np.nan, np.float32),  # not numbers
    np.ones((1, DIM), np.float32),  # one window is no windows
    np.ones((MOST + 1, DIM), np.float32),  # more windows than ingest reads
    np.zeros((2, DIM), np.float32),  # no direction
    np.ones(DIM, np.float32),  # a vector, not windows
], ids=["width", "nan", "one", "too-many", "zero", "vector"])
def test_a_window_record_ingest_could_not_have_written_is_read_as_none(tmp_path: Path, record: np.ndarray) -> None:
    app = CaseTrack.open(load_settings(tmp_path / "data"))
    case = app.create_case("Crafted")
    with app.cases.store(case).writer("crafting a record") as db:
        batch = db.batch()
        batch.put(keys.EMBEDDINGS, keys.embedding(docstore.windows_id("E7"), "c1"), encode_vector(record))
        batch.put(keys.EMBEDDINGS, keys.embedding(docstore.windows_id("E7"), "c2"), b"T\x05\x00")  # cut short
        batch.put(keys.EMBEDDINGS, keys.embedding(docstore.windows_id("E7"), "c3"), encode_vector(np.ones((2, DIM))))
        db.write(batch)
    with app.cases.store(case).reader() as db:
        found = docstore.windows(db, "E7", ["c1", "c2", "c3"], DIM, MOST)
    assert list(found) == ["c3"]  # read beside them, the record ingest could have written
    np.testing.assert_allclose(np.linalg.norm(found["c3"], axis=1), 1.0, atol=1e-6)
