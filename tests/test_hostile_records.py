"""Hostile records inside a case archive (issue 20 §1).

A `.ctcase` whose zip entries are all clean can still carry a database whose records lie: a
document id of `../../../..`, a copy of the original "at" `/anything/.localized`, ids that are not
CaseTrack's, a checksum index pointing nowhere. Each archive here is built from real export output
with one poisoned record; it is imported (refused, or adopted with every path re-derived), then
every document and the case are deleted. A sentinel tree beside the data directory (as
`~/Documents/.localized` sits beside `~/Documents/CaseTrack`) and another case in the same data
directory must come through byte for byte."""

from __future__ import annotations

import hashlib
import json
import shutil
import uuid
import zipfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.domain import Document
from casetrack.service.app import CaseTrack
from casetrack.service.cases import portability
from casetrack.service.distribution import licensing
from casetrack.service.ingest.document import IngestRequest
from casetrack.store import documents as docstore
from casetrack.store import keys
from casetrack.store.records import dumps, loads
from casetrack.store.rocks import RocksStore, open_write

TEXTS = {
    "Supply Agreement.txt": "SUPPLY AGREEMENT\n\nThe Supplier shall deliver the goods within 30 days of each order.",
    "Letter.txt": "Dear Counsel,\n\nWe write regarding the late delivery of the March order.\n\nRegards",
}


def tree_digest(root: Path, skip: Path | None = None) -> dict[str, str]:
    """Every file and folder under `root` (but not under `skip`) with a digest of its bytes."""
    out = {}
    for path in sorted(root.rglob("*")):
        if skip is not None and (path == skip or skip in path.parents):
            continue
        rel = str(path.relative_to(root))
        if path.is_symlink():
            out[rel] = "link"
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[rel] = "dir"
    return out


def exported_case(root: Path, *, copy_original: bool, with_originals: bool = True) -> portability.Exported:
    """A real export of a two-document case ("Acme v. Widget", `TEXTS`) whose sources are in `root / "sources"`."""
    sources = root / "sources"
    sources.mkdir()
    app = CaseTrack.open(load_settings(root / "CaseTrack", environ={}))
    case = app.create_case("Acme v. Widget")
    for name, text in TEXTS.items():
        (sources / name).write_text(text)
        app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(sources / name), copy_original=copy_original))
    exported = portability.export_case(app.cases, app.settings, app.cases.get(case.id), root / "acme.ctcase",
                                      with_originals=with_originals)
    app.jobs.shutdown()
    return exported


@pytest.fixture(scope="module")
def clean_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real export of a case with two documents, both originals copied into the case."""
    exported = exported_case(tmp_path_factory.mktemp("clean"), copy_original=True)
    assert exported.originals == 2
    return exported.path


Poison = Callable[[RocksStore, list[Document], dict[str, Path]], None]


def poisoned_archive(clean: Path, target: Path, poison: Poison, places: dict[str, Path],
                     manifest_case: dict[str, object] | None = None) -> Path:
    """`clean` with `poison` applied to its database, repacked with a manifest that matches (so only
    the records themselves are hostile; every zip entry passes the archive checks)."""
    work = target.with_suffix(".d")
    with zipfile.ZipFile(clean) as zf:
        zf.extractall(work)
    manifest = json.loads((work / "manifest.json").read_text())
    with open_write(work / "case.db", keys.CASE_COLUMN_FAMILIES, "poisoning", 5, "test") as db:
        poison(db, docstore.list_documents(db), places)
    if manifest_case:
        manifest["case"].update(manifest_case)
    files = {}
    for path in sorted(work.rglob("*")):
        rel = path.relative_to(work).as_posix()
        if path.is_file() and rel != "manifest.json" and not rel.endswith(".writer"):
            files[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest["files"] = files
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("manifest.json", json.dumps(manifest))
        for rel in files:
            out.write(work / rel, rel)
    shutil.rmtree(work)
    return target


def _rekey(db: RocksStore, doc: Document, new_id: str, **changes: object) -> None:
    """Store `doc` under `new_id` with its pages, passages and graph moved along, as a consistent
    (but hostile) store would have it."""
    batch = db.batch()
    moved = replace(doc, id=new_id, **changes)  # type: ignore[arg-type]
    batch.delete(keys.DOCUMENTS, keys.document(doc.id))
    batch.put(keys.DOCUMENTS, keys.document(new_id), docstore.encode_document(moved))
    batch.put(keys.DOCUMENTS, keys.file_hash(doc.file_hash), new_id.encode())
    for key, raw in list(db.scan(keys.CHUNKS, keys.doc_chunks_prefix(doc.id))):
        batch.delete(keys.CHUNKS, key)
        batch.put(keys.CHUNKS, keys.doc_chunks_prefix(new_id) + key.rsplit(b":", 1)[1], raw)
        chunk = loads(db.get(keys.CHUNKS, keys.chunk(raw.decode())) or b"{}")
        batch.put(keys.CHUNKS, keys.chunk(raw.decode()), dumps({**chunk, "document_id": new_id}))
    for key, raw in list(db.scan(keys.PAGES, keys.page_prefix(doc.id))):
        batch.delete(keys.PAGES, key)
        batch.put(keys.PAGES, keys.page_prefix(new_id) + key.rsplit(b":", 1)[1], raw)
    db.write(batch)


def set_fields(**changes: str) -> Poison:
    """Change fields of the first document; `{outside}` and `{data}` name this test's folders."""
    def poison(db: RocksStore, docs: list[Document], places: dict[str, Path]) -> None:
        filled = {k: v.format(**places) for k, v in changes.items()}
        batch = db.batch()
        batch.put(keys.DOCUMENTS, keys.document(docs[0].id), docstore.encode_document(replace(docs[0], **filled)))  # type: ignore[arg-type]
        db.write(batch)
    return poison


def set_raw(**changes: object) -> Poison:
    """Write fields of the first document's record as given (values ingest never writes: numbers, lists)."""
    def poison(db: RocksStore, docs: list[Document], places: dict[str, Path]) -> None:
        record = loads(db.get(keys.DOCUMENTS, keys.document(docs[0].id)) or b"{}")
        batch = db.batch()
        batch.put(keys.DOCUMENTS, keys.document(docs[0].id), dumps({**record, **changes}))
        db.write(batch)
    return poison


def rekey(new_id: str, **changes: object) -> Poison:
    return lambda db, docs, places: _rekey(db, docs[0], new_id, **changes)


def untouched(db: RocksStore, docs: list[Document], places: dict[str, Path]) -> None:
    pass


def duplicate_id(db: RocksStore, docs: list[Document], places: dict[str, Path]) -> None:
    """A second key holding a record that calls itself the first document."""
    batch = db.batch()
    batch.put(keys.DOCUMENTS, keys.document(str(uuid.uuid4())), docstore.encode_document(docs[0]))
    db.write(batch)


def hostile_chunk_id(db: RocksStore, docs: list[Document], places: dict[str, Path]) -> None:
    chunk_id = db.get(keys.CHUNKS, keys.doc_chunk(docs[0].id, 0))
    assert chunk_id is not None
    record = loads(db.get(keys.CHUNKS, keys.chunk(chunk_id.decode())) or b"{}")
    batch = db.batch()
    batch.put(keys.CHUNKS, keys.chunk("../../x"), dumps({**record, "id": "../../x"}))
    batch.put(keys.CHUNKS, keys.doc_chunk(docs[0].id, 0), b"../../x")
    db.write(batch)


def passage_numbered_in_words(db: RocksStore, docs: list[Document], places: dict[str, Path]) -> None:
    """The per-document passage index keyed by a sequence that is no number (the index reads it as one)."""
    key = keys.doc_chunk(docs[0].id, 0)
    chunk_id = db.get(keys.CHUNKS, key)
    assert chunk_id is not None
    batch = db.batch()
    batch.delete(keys.CHUNKS, key)
    batch.put(keys.CHUNKS, keys.doc_chunks_prefix(docs[0].id) + b"first", chunk_id)
    db.write(batch)


def hash_to_nowhere(db: RocksStore, docs: list[Document], places: dict[str, Path]) -> None:
    batch = db.batch()
    batch.put(keys.DOCUMENTS, keys.file_hash("0" * 64), b"../../../..")
    db.write(batch)


def lying_stats(db: RocksStore, docs: list[Document], places: dict[str, Path]) -> None:
    batch = db.batch()
    batch.put(keys.METADATA, keys.CASE_STATS, dumps({"document_count": 0, "page_count": 0, "chunk_count": 0}))
    db.write(batch)


REFUSED = "holds records CaseTrack never writes"
# kind -> (poison, manifest changes, expected refusal or None when the archive is adopted safely)
CATALOGUE: dict[str, tuple[Poison, dict[str, object] | None, str | None]] = {
    "id climbing out, copy at .localized": (rekey("../../../..", copied_original="/anything/.localized"), None,
                                            "'../../../..', which CaseTrack never makes"),
    "id with a slash": (rekey("a/b", copied_original="x"), None, "'a/b', which CaseTrack never makes"),
    "id with a NUL": (rekey("4d1f\x00../..", copied_original="/etc"), None, "which CaseTrack never makes"),
    "absolute copied_original": (set_fields(copied_original="{outside}/.localized"), None, None),
    "relative copied_original": (set_fields(copied_original="../../../../.localized"), None, None),
    "copied_original is the data directory": (set_fields(copied_original="{data}/x"), None, None),
    "name with separators and a newline": (set_fields(name="../../evil\nname.txt"), None, None),
    "duplicate id": (duplicate_id, None, "calls itself"),
    "hostile passage id": (hostile_chunk_id, None, "'../../x', which CaseTrack never makes"),
    "checksum index to nowhere": (hash_to_nowhere, None, "names no document"),
    "passage numbered in words": (passage_numbered_in_words, None, "numbers a passage 'first'"),
    "stats that lie": (lying_stats, None, None),
    "case name with NUL, overlong": (untouched, {"name": "Evil\x00" + "x" * 400}, None),
    # issue 33 §2: reindex read the archive's source path, pulling any file on the disk into the case
    "source path to a file outside the case": (set_fields(original_path="{outside}/secret.txt"), None, None),
    "source path and copy that are not text": (set_raw(original_path=42, copied_original=["x"], source_seal=7),
                                               None, None),
}
SECRET = "Zanzibar quartermaster ledger: the vault code is 4417."


@pytest.mark.parametrize("kind", list(CATALOGUE))
def test_a_poisoned_archive_never_reaches_outside_its_case(kind: str, clean_archive: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    documents = home / "Documents"
    data = documents / "CaseTrack"
    (documents / "Taxes").mkdir(parents=True)
    (documents / ".localized").write_text("")
    (documents / "Taxes" / "2025.pdf").write_bytes(b"%PDF-1.4 the user's own file")
    (home / "anything").mkdir()
    (home / "anything" / ".localized").write_text("")
    (home / "anything" / "secret.txt").write_text(SECRET)
    app = CaseTrack.open(load_settings(data, environ={}))
    other = app.create_case("Another Matter")
    (home / "other.txt").write_text("The other matter's memo.\n\nIt must survive every import and delete.")
    app.ingestor.ingest(app.cases.get(other.id), IngestRequest(str(home / "other.txt"), copy_original=True))
    other_folder = data / "cases" / other.id
    before_outside = tree_digest(home, skip=data)  # the data directory itself changes: it is checked below
    before_other = tree_digest(other_folder / "originals")
    poison, manifest_case, refusal = CATALOGUE[kind]
    places = {"outside": home / "anything", "data": data}
    archive = poisoned_archive(clean_archive, tmp_path / "poisoned.ctcase", poison, places, manifest_case)

    if refusal is not None:
        with pytest.raises(portability.BadArchive) as refused:
            portability.import_case(app.settings, app.registry, licensing.UNLIMITED, archive)
        assert refusal in refused.value.message, refused.value.message
        assert "Nothing was imported or changed." in refused.value.message
        assert [c.name for c in app.list_cases("all")] == ["Another Matter"]
    else:
        imported = portability.import_case(app.settings, app.registry, licensing.UNLIMITED, archive).case
        case_folder = data / "cases" / imported.id
        # Reindexed (each document, then the case) from the copies kept in the case, never from a path it names.
        for doc in app.documents.all(imported):
            assert app.reindexer.reindex_document(app.cases.get(imported.id), doc, force=True).action == "reparsed"
        assert {r[1] for r in app.reindexer.reindex_case(app.cases.get(imported.id))} == {"reparsed"}
        texts = [c.text for d in app.documents.all(imported) for c in app.documents.chunks(imported, d.id)[1]]
        assert texts and not any("Zanzibar" in t for t in texts)
        docs = app.documents.listing(imported, "name", 50, 0).documents
        assert imported.stats.document_count == len(docs) == 2  # counted from the records, not the stats record
        assert len(imported.name) <= 200 and "\x00" not in imported.name
        for doc in docs:
            assert "\n" not in doc.name
            assert doc.copied_original is not None
            copy = Path(doc.copied_original)
            assert copy.parent == case_folder / "originals" / doc.id and copy.is_file()
        for doc in docs:
            app.ingestor.delete(app.cases.get(imported.id), doc)
            assert not (case_folder / "originals" / doc.id).exists()
        app.delete_case(imported.id, confirm=True)
        assert not case_folder.exists()

    assert tree_digest(home, skip=data) == before_outside  # the sentinel tree beside the data directory
    assert tree_digest(other_folder / "originals") == before_other  # the other case's copy of its original
    assert len(app.documents.listing(app.cases.get(other.id), "name", 50, 0).documents) == 1
    assert {p.name for p in data.iterdir()} <= {"cases", "models", "registry.db", "last_case.json"}
    app.jobs.shutdown()


def test_a_record_poisoned_before_this_version_is_deleted_without_touching_outside(tmp_path: Path) -> None:
    """A store that already holds a hostile record (imported by an older CaseTrack): deleting the
    document removes its records, refuses the path outside, and says why."""
    home = tmp_path / "home"
    data = home / "Documents" / "CaseTrack"
    (home / "Documents").mkdir(parents=True)
    (home / "Documents" / ".localized").write_text("")
    (home / "note.txt").write_text("A memo.\n\nWith two paragraphs.")
    app = CaseTrack.open(load_settings(data, environ={}))
    case = app.create_case("Legacy")
    app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(home / "note.txt"), copy_original=True))
    [doc] = app.documents.listing(app.cases.get(case.id), "name", 5, 0).documents
    store = app.cases.store(app.cases.get(case.id))
    with store.writer("poisoning") as db:
        _rekey(db, doc, "../../../..", copied_original=str(home / "Documents" / ".localized"))
    before = tree_digest(home, skip=data)
    [hostile] = app.documents.listing(app.cases.get(case.id), "name", 5, 0).documents
    assert hostile.id == "../../../.."

    deleted = app.ingestor.delete(app.cases.get(case.id), hostile)

    assert deleted.note is not None and "refused to remove the copy of an original" in deleted.note
    assert "Nothing outside that folder was changed" in deleted.note
    assert app.documents.listing(app.cases.get(case.id), "name", 5, 0).documents == []
    assert tree_digest(home, skip=data) == before
    assert (data / "registry.db").is_dir() and (data / "cases" / case.id / "case.db").is_dir()
    app.jobs.shutdown()


def test_a_case_folder_that_is_a_link_is_unlinked_never_followed(tmp_path: Path) -> None:
    """Start-up repair finishing an interrupted delete removes the link, not what it points at."""
    data = tmp_path / "CaseTrack"
    app = CaseTrack.open(load_settings(data, environ={}))
    app.create_case("Real")
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / ".deleting").write_text("")
    (precious / "brief.docx").write_bytes(b"PK user data")
    link = data / "cases" / str(uuid.uuid4())
    link.symlink_to(precious, target_is_directory=True)
    CaseTrack.open(load_settings(data, environ={})).list_cases("all")  # start-up repair runs
    assert (precious / "brief.docx").read_bytes() == b"PK user data"


@pytest.mark.parametrize(("stored", "shown"), [
    ("12:1-25", "12:1-25"), ("17:24-18:4", "17:24-18:4"), ("3:7", "3:7"),
    ("12:1 — call 555-0100 to verify", None), ("x" * 5000, None), (["12:1"], None), (42, None),
])  # fmt: skip
def test_a_chunk_record_shows_only_a_printed_page_and_line_span_in_its_citation(stored: object,
                                                                               shown: str | None) -> None:
    """A provenance record read from a case (one imported from an archive is data) gives its printed page:line
    span only in the form ingest writes: a crafted record cannot put its words into a citation."""
    from casetrack.domain import Document, DocumentType
    from casetrack.store.document_records import assemble_chunk
    from casetrack.store.records import dumps

    doc = Document("d", "Dep.pdf", None, "0" * 64, 1, 0.0, "pdf", DocumentType.DEPOSITION, 1.0, "user", 1, 1, 0, 0,
                   None, 0.0, None, ("E13",))
    chunk = dumps({"id": "c", "document_id": "d", "sequence": 0, "text": "Q. Where were you?", "token_count": 5})
    provenance = dumps({"page": 3, "paragraph_start": 1, "paragraph_end": 1, "line_start": 1, "line_end": 25,
                        "char_start": 0, "char_end": 18, "extraction_method": "native", "printed_lines": stored})
    cited = assemble_chunk(chunk, provenance, doc).provenance
    assert cited.printed_lines == shown
    assert ("printed" in cited.cite()) is (shown is not None) and "555" not in cited.cite()


def test_a_crafted_outline_record_shows_its_good_headings_and_drops_the_rest(tmp_path: Path) -> None:
    """A document's outline is read back as typed headings; an imported case's record is data: a field it does not
    know is ignored, an entry with a field of the wrong type or that is not an object is left out, and neither
    crashes get_document_structure."""
    good = {"level": 1, "title": "Governing Law", "number": "12", "page": 3, "char_start": 10, "char_end": 28}
    entries = [good, {**good, "extra": 1}, {**good, "page": "3"}, {**good, "level": True}, "heading", None,
               {**good, "number": None, "title": "TERMINATION"}]
    with open_write(tmp_path / "case.db", keys.CASE_COLUMN_FAMILIES, "crafted", 5, "test") as db:
        batch = db.batch()
        batch.put(keys.DOCUMENTS, keys.structure("doc"), dumps({"entries": entries}))
        batch.put(keys.DOCUMENTS, keys.structure("odd"), dumps({"entries": "not a list"}))
        db.write(batch)
        read = docstore.structure(db, "doc")
        assert [(h.title, h.number, h.page) for h in read] == [("Governing Law", "12", 3), ("Governing Law", "12", 3),
                                                               ("TERMINATION", None, 3)]
        assert docstore.structure(db, "odd") == [] and docstore.structure(db, "missing") == []
