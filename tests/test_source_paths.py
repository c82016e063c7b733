"""A document's source path is opened only when this data folder recorded it (issue 33 §2).

An archive's record can name any file on the disk as a document's source; reindex used to read it into
the case (and a later export carried it out). Each test here builds the hostile record for real (an
archive re-packed with valid checksums, or a store written behind CaseTrack's back), reindexes, and
watches every file the process opens (an audit hook): the named file is never opened, its words never
become searchable, and the user is told which documents need their file given again (`relink`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from casetrack.cli.app import app as cli_app
from casetrack.config import load_settings
from casetrack.errors import InvalidInput, SourceNotHere
from casetrack.mcp.outputs import DocumentOut
from casetrack.render import documents as render
from casetrack.service.app import CaseTrack
from casetrack.service.cases import portability
from casetrack.service.distribution import licensing
from casetrack.service.ingest.document import IngestRequest
from casetrack.service.ingest.reindex import NEEDS_RELINK
from casetrack.store import documents as docstore
from casetrack.store import keys
from tests.mcp_helpers import call_ok, mcp_session, text_of
from tests.test_hostile_records import TEXTS, exported_case, poisoned_archive, set_fields

SECRET = "Zanzibar quartermaster ledger: the vault code is 4417."

_WATCHED: set[str] = set()
_OPENED: list[str] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and _WATCHED and isinstance(args[0], str | bytes | os.PathLike):
        name = os.fsdecode(args[0])
        if name in _WATCHED or os.path.realpath(name) in _WATCHED:
            _OPENED.append(name)


sys.addaudithook(_audit)  # audit hooks cannot be removed: it watches only while `opened_files` runs


@contextmanager
def opened_files(*paths: Path) -> Iterator[list[str]]:
    """Every open() of `paths` by this process (its threads included) while the block runs."""
    _OPENED.clear()
    _WATCHED.update(str(p) for p in paths)
    _WATCHED.update(os.path.realpath(p) for p in paths)
    try:
        yield _OPENED
    finally:
        _WATCHED.clear()


def secret_file(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "secret.txt").write_text(SECRET)
    return folder / "secret.txt"


def case_texts(app: CaseTrack, case_name: str) -> str:
    case = app.cases.resolve(case_name)
    return "\n".join(c.text for d in app.documents.all(case) for c in app.documents.chunks(case, d.id)[1])


@pytest.fixture(scope="module")
def uncopied_archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A real export of a two-document case whose originals were not copied, and the folder of its sources."""
    root = tmp_path_factory.mktemp("uncopied")
    exported = exported_case(root, copy_original=False, with_originals=False)  # names its sources, carries none
    return exported.path, root / "sources"


def test_an_archive_source_path_is_never_opened_and_reindex_names_the_documents_to_relink(
        uncopied_archive: tuple[Path, Path], tmp_path: Path) -> None:
    clean, sources = uncopied_archive
    secret = secret_file(tmp_path / "elsewhere")
    archive = poisoned_archive(clean, tmp_path / "poisoned.ctcase", set_fields(original_path="{outside}/secret.txt"),
                               {"outside": secret.parent})
    data = tmp_path / "CaseTrack"
    app = CaseTrack.open(load_settings(data, environ={}))
    case = portability.import_case(app.settings, app.registry, licensing.UNLIMITED, archive).case
    before = {d.id: [c.id for c in app.documents.chunks(case, d.id)[1]] for d in app.documents.all(case)}

    with opened_files(secret) as opened:
        results = app.reindexer.reindex_case(app.cases.get(case.id))
        for name in TEXTS:
            with pytest.raises(SourceNotHere) as refused:
                app.reindexer.reindex_named(app.cases.get(case.id), name, force=True)
            assert "relink_document" in refused.value.message and "unchanged" in refused.value.message
    assert opened == []
    assert sorted((name, action) for name, action, _ in results) == sorted((n, NEEDS_RELINK) for n in TEXTS)
    assert all("relink_document" in detail for _, _, detail in results)
    assert {d.id: [c.id for c in app.documents.chunks(case, d.id)[1]] for d in app.documents.all(case)} == before
    assert "Zanzibar" not in case_texts(app, case.name)
    assert not any("Zanzibar" in h.chunk.text for h in app.search.search(case, "Zanzibar quartermaster vault").hits)

    shown = app.documents.all(case)
    assert all(d.original_path is None and DocumentOut.of(d).file_path is None for d in shown)
    poisoned = next(d for d in shown if d.archived_path == str(secret))  # named, only shown
    other = next(d for d in shown if d is not poisoned)
    assert other.archived_path == str(sources / other.name)
    detail = render.document_detail(poisoned)
    assert "File: source not on this computer" in detail and "never opened" in detail

    # The user gives the file: the same bytes, through the command line; reindex then reads it.
    said = CliRunner().invoke(cli_app, ["--data-dir", str(data), "relink", poisoned.name,
                                        str(sources / poisoned.name), "--case", case.name])
    assert said.exit_code == 0, (said.stdout, said.stderr)
    assert "same bytes" in said.stdout
    app = CaseTrack.open(load_settings(data, environ={}))
    done = app.reindexer.reindex_named(app.cases.get(case.id), poisoned.name, force=True)
    assert done.action == "reparsed" and done.document.original_path == str(sources / poisoned.name)
    assert "Zanzibar" not in case_texts(app, case.name)
    app.jobs.shutdown()


def _walk(folder: Path) -> Any:
    from casetrack.service.ingest.folders import walk

    return walk(folder, True, None)


def test_relinking_checks_the_file_and_says_when_its_content_differs(uncopied_archive: tuple[Path, Path],
                                                                     tmp_path: Path) -> None:
    clean, _sources = uncopied_archive
    app = CaseTrack.open(load_settings(tmp_path / "CaseTrack", environ={}))
    case = portability.import_case(app.settings, app.registry, licensing.UNLIMITED, clean).case
    name = next(iter(TEXTS))
    other = tmp_path / "other.txt"
    other.write_text("Another text altogether.\n\nIt is not the supply agreement.")

    differs = app.relinker.relink(app.cases.get(case.id), name, str(other))
    assert not differs.same_content and "DIFFERS" in render.relinked_text(differs.document, False)
    assert app.documents.resolve(case, name).original_path == str(other)
    inside = tmp_path / "CaseTrack" / "stray.txt"
    inside.write_text("a file in the data folder")
    with pytest.raises(InvalidInput, match="inside CaseTrack's data folder"):
        app.relinker.relink(app.cases.get(case.id), name, str(inside))
    with pytest.raises(InvalidInput, match="regular files"):
        os.mkfifo(tmp_path / "pipe.txt")
        app.relinker.relink(app.cases.get(case.id), name, str(tmp_path / "pipe.txt"))
    done = app.reindexer.reindex_named(app.cases.get(case.id), name)  # the new file's content replaces the old
    assert done.action == "reparsed" and "Another text altogether" in case_texts(app, case.name)
    app.jobs.shutdown()


@pytest.mark.parametrize("seal_of", ["its own", "another document's", "no one (text that is not a digest)"])
def test_a_source_path_written_into_a_record_is_not_opened_whatever_seal_it_carries(seal_of: str,
                                                                                    tmp_path: Path) -> None:
    """A store changed behind CaseTrack's back (a case folder copied in, an older version's import): the seal
    binds the path, so a record cannot point a sealed document elsewhere, nor borrow another's seal."""
    app = CaseTrack.open(load_settings(tmp_path / "CaseTrack", environ={}))
    case = app.create_case("Local")
    for name, text in TEXTS.items():
        (tmp_path / name).write_text(text)
        app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(tmp_path / name)))
    secret = secret_file(tmp_path / "elsewhere")
    first, second = app.documents.all(case)
    seal = {"its own": first.source_seal, "another document's": second.source_seal}.get(seal_of, "\u00e9" * 64)
    with app.cases.store(case).writer("poisoning") as db:
        record = docstore.get_document(db, first.id)
        assert record is not None and record.source_seal
        batch = db.batch()
        batch.put(keys.DOCUMENTS, keys.document(first.id),
                  docstore.encode_document(replace(record, original_path=str(secret), source_seal=seal)))
        db.write(batch)

    with opened_files(secret) as opened, pytest.raises(SourceNotHere):
        app.reindexer.reindex_named(app.cases.get(case.id), first.id, force=True)
    assert opened == [] and "Zanzibar" not in case_texts(app, case.name)
    assert app.reindexer.reindex_named(app.cases.get(case.id), second.id, force=True).action == "reparsed"
    shown = app.documents.resolve(case, first.id)
    assert shown.original_path is None and shown.archived_path == str(secret)
    app.jobs.shutdown()


def test_syncing_the_folder_that_holds_an_imported_documents_file_links_it(uncopied_archive: tuple[Path, Path],
                                                                           tmp_path: Path) -> None:
    clean, sources = uncopied_archive
    app = CaseTrack.open(load_settings(tmp_path / "CaseTrack", environ={}))
    case = portability.import_case(app.settings, app.registry, licensing.UNLIMITED, clean).case
    report = app.folders.sync_folder(app.cases.get(case.id), sources, _walk(sources))
    assert sorted(o.status for o in report.outcomes) == ["moved", "moved"]
    assert {d.original_path for d in app.documents.all(case)} == {str(sources / n) for n in TEXTS}
    results = app.reindexer.reindex_case(app.cases.get(case.id))
    assert {action for _, action, _ in results} == {"reparsed"}
    app.jobs.shutdown()


@pytest.mark.anyio
async def test_over_mcp_imported_documents_are_named_for_relinking_and_relink_document_links_one(
        uncopied_archive: tuple[Path, Path], tmp_path: Path) -> None:
    clean, sources = uncopied_archive
    data = tmp_path / "CaseTrack"
    imported = CliRunner().invoke(cli_app, ["--data-dir", str(data), "import", str(clean)])
    assert imported.exit_code == 0, imported.stderr
    async with mcp_session(data) as client:
        await call_ok(client, "switch_case", case_name="Acme v. Widget")
        shown = (await call_ok(client, "get_document", document_name="Letter.txt")).structured_content
        assert shown is not None and shown["document"]["file_path"] is None
        assert shown["document"]["archived_path"] == str(sources / "Letter.txt")
        answer = await call_ok(client, "reindex_case", confirm=True, wait_seconds=120)
        said = text_of(answer)
        assert "relink_document" in said and all(f"- {name}:" in said for name in TEXTS), said
        assert answer.structured_content is not None
        assert {f["status"] for f in answer.structured_content["report"]["files"]} == {NEEDS_RELINK}
        assert "not on this computer (relink_document" in text_of(await call_ok(client, "get_index_status"))
        linked = await call_ok(client, "relink_document", document_name="Letter.txt",
                               file_path=str(sources / "Letter.txt"))
        assert linked.structured_content is not None and linked.structured_content["same_content"] is True
        assert linked.structured_content["document"]["file_path"] == str(sources / "Letter.txt")
        again = await call_ok(client, "reindex_document", document_name="Letter.txt", force=True)
        assert again.structured_content is not None and again.structured_content["action"] == "reparsed"
