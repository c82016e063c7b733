"""Case export and import (PRD 04 §8): a round trip through a .ctcase with real eval-dev
documents, and a table of hostile archives, each refused with nothing written."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from casetrack.cli.app import app as cli_app
from casetrack.config import load_settings
from casetrack.errors import FreeTierLimit
from casetrack.service.app import CaseTrack
from casetrack.service.cases import portability
from casetrack.service.distribution import licensing
from casetrack.service.ingest.document import IngestRequest
from casetrack.store import migrations
from tests.conftest import EVAL_DEV

DOCS = ["common_paper_mutual_nda_v1.docx", "cuad_lucid_distributor_agreement.pdf", "ca2_docketing_notice_nfl_2017.pdf"]
QUERIES = ["termination of the agreement", "confidential information must not be disclosed", "governing law"]


def answers(app: CaseTrack, case_name: str) -> list[list[tuple[str, str, str, str]]]:
    case = app.cases.resolve(case_name)
    out = []
    for query in QUERIES:
        hits = app.search.search(case, query, 5).hits
        out.append([(h.chunk.id, h.chunk.provenance.cite(), h.chunk.text, f"{h.score:.4f}") for h in hits])
    return out


def cli(data_dir: Path, *args: str) -> str:
    result = CliRunner().invoke(cli_app, ["--data-dir", str(data_dir), *args])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, object]]:
    """A case with three native eval-dev documents (one original copied at ingest), exported to a .ctcase: with
    all three originals (the copy, and the two source files, unchanged)."""
    root = tmp_path_factory.mktemp("export")
    data = root / "CaseTrack"
    app = CaseTrack.open(load_settings(data, environ={}))
    case = app.create_case("Smith v. Jones", "1:24-cv-00123", "contract")
    for n, name in enumerate(DOCS):
        app.ingestor.ingest(case, IngestRequest(str(EVAL_DEV / "docs" / name), copy_original=n == 0))
    before = {"id": case.id, "answers": answers(app, "Smith v. Jones"),
              "documents": sorted((d.name, d.file_hash, d.chunk_count) for d in
                                  app.documents.listing(app.cases.resolve(case.id), "name", 50, 0).documents)}
    archive = root / "smith.ctcase"
    out = cli(data, "export", "--case", "smith", "--output", str(archive))
    assert f'Exported case "Smith v. Jones" (3 documents, 3 originals) to {archive}' in out
    return data, archive, before


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_export_delete_import_round_trips_documents_and_search_with_a_new_id(
        exported: tuple[Path, Path, dict[str, object]]) -> None:
    data, archive, before = exported
    with zipfile.ZipFile(archive) as zf:
        manifest = json.loads(zf.read("manifest.json"))
        names = zf.namelist()
    assert manifest["schema_version"] == migrations.CASE.current and manifest["case"]["documents"] == 3
    assert "E7" in manifest["embedders"] and manifest["embedders"]["E7"]["revision"]
    assert any(n.startswith("case.db/") for n in names) and any(n.startswith("originals/") for n in names)

    cli(data, "cases", "delete", "Smith v. Jones", "--yes")
    assert CaseTrack.open(load_settings(data, environ={})).list_cases("all") == []
    out = cli(data, "import", str(archive))
    assert 'Imported case "Smith v. Jones"' in out and "with 3 documents" in out

    app = CaseTrack.open(load_settings(data, environ={}))
    (case,) = app.list_cases("all")
    assert case.id != before["id"] and case.name == "Smith v. Jones" and case.case_number == "1:24-cv-00123"
    assert app.cases.store(case).read_info() == case  # the store's own record has the new ID
    docs = app.documents.listing(case, "name", 50, 0).documents
    assert sorted((d.name, d.file_hash, d.chunk_count) for d in docs) == before["documents"]
    copied = [d for d in docs if d.copied_original]
    assert len(copied) == 3 and all(Path(d.copied_original or "").is_file() for d in copied)
    assert all(str(data / "cases" / case.id) in (d.copied_original or "") for d in copied)
    assert answers(app, case.name) == before["answers"]
    assert not list((data / "cases").glob(".import-*")) and not list((data / "cases").glob(".export-*"))


def test_importing_beside_the_original_adds_imported_to_the_name(exported: tuple[Path, Path, dict[str, object]],
                                                                 tmp_path: Path) -> None:
    _, archive, _ = exported
    data = tmp_path / "CaseTrack"
    app = CaseTrack.open(load_settings(data, environ={}))
    app.create_case("smith v. jones")
    out = cli(data, "import", str(archive))
    assert 'so the import is called "Smith v. Jones (imported)"' in out
    cli(data, "import", str(archive))
    names = sorted(c.name for c in CaseTrack.open(load_settings(data, environ={})).list_cases("all"))
    assert names == ["Smith v. Jones (imported 2)", "Smith v. Jones (imported)", "smith v. jones"]


# --- hostile archives ---------------------------------------------------------------------------

Entries = list[tuple[zipfile.ZipInfo, bytes]]


def rebuild(valid: Path, target: Path, mutate: Callable[[Entries, dict[str, object]], None],
            patch: Callable[[zipfile.ZipFile], None] | None = None) -> Path:
    with zipfile.ZipFile(valid) as zf:
        manifest = json.loads(zf.read("manifest.json"))
        entries = [(i, zf.read(i)) for i in zf.infolist() if i.filename != "manifest.json"]
    mutate(entries, manifest)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("manifest.json", json.dumps(manifest))
        for info, data in entries:
            out.writestr(info, data)
        if patch:
            patch(out)
    return target


def add(name: str, data: bytes = b"pwned", listed: bool = True, mode: int | None = None) -> Callable[..., None]:
    def mutate(entries: Entries, manifest: dict[str, object]) -> None:
        info = zipfile.ZipInfo(name)
        info.compress_type = zipfile.ZIP_DEFLATED
        if mode is not None:
            info.external_attr = mode << 16
        entries.append((info, data))
        if listed:
            manifest["files"][name] = hashlib.sha256(data).hexdigest()  # type: ignore[index]
    return mutate


def set_manifest(**values: object) -> Callable[..., None]:
    def mutate(entries: Entries, manifest: dict[str, object]) -> None:
        manifest.update(values)
    return mutate


def alter_a_database_file(entries: Entries, manifest: dict[str, object]) -> None:
    index = next(i for i, (info, _) in enumerate(entries) if info.filename.endswith(".sst"))
    info, data = entries[index]
    entries[index] = (info, data[:-1] + bytes([data[-1] ^ 0xFF]))


def claim_a_huge_size(out: zipfile.ZipFile) -> None:
    out.filelist[-1].file_size = 10**13  # the central directory now promises 10 TB


def write_raw(target: Path) -> Path:
    target.write_bytes(b"%PDF-1.7 not a zip at all")
    return target


HOSTILE: dict[str, tuple[Callable[[Path, Path], Path], str]] = {
    "parent path": (lambda v, t: rebuild(v, t, add("../evil.txt")), 'unsafe path "../evil.txt"'),
    "nested parent path": (lambda v, t: rebuild(v, t, add("case.db/../../../evil.txt")), "unsafe path"),
    "absolute path": (lambda v, t: rebuild(v, t, add("/tmp/casetrack-evil.txt")), 'unsafe path "/tmp/'),
    "windows path": (lambda v, t: rebuild(v, t, add("originals\\..\\..\\evil.txt")), "unsafe path"),
    "drive letter": (lambda v, t: rebuild(v, t, add("C:/evil.txt")), "unsafe path"),
    "symlink": (lambda v, t: rebuild(v, t, add("originals/x/link", b"/etc/passwd", mode=stat.S_IFLNK | 0o777)),
                'symbolic link "originals/x/link"'),
    "device": (lambda v, t: rebuild(v, t, add("originals/x/fifo", b"", mode=stat.S_IFIFO | 0o644)),
               "not a regular file"),
    "unexpected top level": (lambda v, t: rebuild(v, t, add("run-me.sh")), 'contains "run-me.sh", which is not'),
    "zip bomb ratio": (lambda v, t: rebuild(v, t, add("originals/x/zeros.bin", bytes(30 * 1024 * 1024))),
                       "zip bomb"),
    "declared size bomb": (lambda v, t: rebuild(v, t, add("originals/x/big.bin", b"abc"), claim_a_huge_size),
                           "would unpack to more than"),
    "future schema": (lambda v, t: rebuild(v, t, set_manifest(schema_version=99)),
                      "written by a newer CaseTrack (case schema 99"),
    "wrong schema": (lambda v, t: rebuild(v, t, set_manifest(schema_version="one")), "schema version 'one' is not"),
    "future format": (lambda v, t: rebuild(v, t, set_manifest(format_version=7)), "uses export format 7"),
    "not a case": (lambda v, t: rebuild(v, t, set_manifest(format="something-else")), "does not describe a Case"),
    "unlisted file": (lambda v, t: rebuild(v, t, add("originals/x/extra.pdf", listed=False)),
                      "do not match its manifest"),
    "altered database": (lambda v, t: rebuild(v, t, alter_a_database_file), "does not match its checksum"),
    "no manifest": (lambda v, t: _without_manifest(v, t), "has no manifest.json"),
    "not a zip": (lambda v, t: write_raw(t), "not a CaseTrack export (.ctcase files are ZIP archives)"),
}


def _without_manifest(valid: Path, target: Path) -> Path:
    with zipfile.ZipFile(valid) as zf, zipfile.ZipFile(target, "w") as out:
        for info in zf.infolist():
            if info.filename != "manifest.json":
                out.writestr(info, zf.read(info))
    return target


def snapshot(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_size for p in root.rglob("*")} if root.exists() else {}


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_a_hostile_archive_is_refused_and_nothing_is_written(kind: str, exported: tuple[Path, Path, dict[str, object]],
                                                             tmp_path: Path) -> None:
    _, valid, _ = exported
    build, reason = HOSTILE[kind]
    archive = build(valid, tmp_path / f"{kind.replace(' ', '-')}.ctcase")
    data = tmp_path / "CaseTrack"
    app = CaseTrack.open(load_settings(data, environ={}))
    app.create_case("Existing")
    before = snapshot(data)
    outside = [tmp_path / "evil.txt", Path("/tmp/casetrack-evil.txt")]
    with pytest.raises(portability.BadArchive) as refused:
        portability.import_case(app.settings, app.registry, app.cases.limits, archive)
    assert reason in refused.value.message, refused.value.message
    assert "Nothing was imported or changed." in refused.value.message
    assert snapshot(data) == before
    assert not any(p.exists() for p in outside)
    assert [c.name for c in app.list_cases("all")] == ["Existing"]


def test_limits_on_total_size_and_the_free_tier_apply_to_imports(exported: tuple[Path, Path, dict[str, object]],
                                                                 tmp_path: Path) -> None:
    _, valid, _ = exported
    data = tmp_path / "CaseTrack"
    app = CaseTrack.open(load_settings(data, environ={}))
    small = portability.ImportLimits(max_total_bytes=10_000)
    with pytest.raises(portability.BadArchive, match="would unpack to more than 10,000 bytes"):
        portability.import_case(app.settings, app.registry, app.cases.limits, valid, small)
    for n in range(3):
        app.create_case(f"Matter {n}")
    before = snapshot(data)
    with pytest.raises(FreeTierLimit, match=r"Free tier allows 3 cases \(you have 3\)"):
        portability.import_case(app.settings, app.registry, app.cases.limits, valid)
    assert snapshot(data) == before
    portability.import_case(app.settings, app.registry, licensing.UNLIMITED, valid)  # Pro: fine
    assert len(app.list_cases("all")) == 4


def test_a_zip_entry_cannot_claim_fewer_bytes_than_it_holds(exported: tuple[Path, Path, dict[str, object]],
                                                          tmp_path: Path) -> None:
    """The central directory under-states a size: extraction counts real bytes and stops."""
    _, valid, _ = exported

    def understate(out: zipfile.ZipFile) -> None:
        sst = next(i for i in out.filelist if i.filename.endswith(".sst"))
        assert sst.file_size > 10
        sst.file_size = 10  # the central directory lies: the entry really holds more

    archive = rebuild(valid, tmp_path / "liar.ctcase", lambda entries, manifest: None, understate)
    data = tmp_path / "CaseTrack"
    app = CaseTrack.open(load_settings(data, environ={}))
    before = snapshot(data)
    declared = r"\.sst.* (is larger than the archive declares|cannot be unpacked)"
    with pytest.raises(portability.BadArchive, match=declared):
        portability.import_case(app.settings, app.registry, app.cases.limits, archive)
    assert snapshot(data) == before
    assert os.listdir(data / "cases") == []
