"""Paths as users paste them: quoted by Windows' "Copy as path", shell-escaped by dragging a
file into a terminal, a file:// URL from an app. Each finds the file; a relative path that
finds nothing says where it was looked for."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casetrack.files import relative_note, user_path
from tests.conftest import EVAL_DEV
from tests.mcp_helpers import call_error, call_ok, mcp_session

LETTER = EVAL_DEV / "docs" / "ca8_rule_28j_letter_us_v_xiang_2023.pdf"


@pytest.fixture
def case_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "Smith v. Jones (2024)"
    folder.mkdir()
    shutil.copy(LETTER, folder / "28j letter.pdf")
    return folder


def test_pasted_forms_of_a_path_find_the_file(case_folder: Path) -> None:
    target = case_folder / "28j letter.pdf"
    escaped = str(target).replace(" ", "\\ ").replace("(", "\\(").replace(")", "\\)")
    for pasted in (f'"{target}"', f"'{target}'", f"  {target}  ", escaped, target.as_uri(),
                   target.as_uri().replace("file:///", "file://localhost/")):
        assert user_path(pasted) == target, pasted


def test_home_and_variables_expand(case_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(case_folder.parent))
    monkeypatch.setenv("CASES", str(case_folder.parent))
    assert user_path("~/Smith v. Jones (2024)/28j letter.pdf") == case_folder / "28j letter.pdf"
    assert user_path("$CASES/Smith v. Jones (2024)") == case_folder


def test_a_backslash_that_belongs_to_the_name_is_kept(tmp_path: Path) -> None:
    odd = tmp_path / "draft\\v2.txt"  # a legal file name on macOS and Linux
    odd.write_text("x")
    assert user_path(str(odd)) == odd


def test_only_a_relative_path_gets_the_note(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    note = relative_note("Cases/notes.pdf", "/Users/sarah/Cases/Smith/Complaint.pdf")
    assert f'"Cases/notes.pdf" is a relative path, so it was looked for in {tmp_path}' in note
    assert "Give the full path, e.g. /Users/sarah/Cases/Smith/Complaint.pdf" in note
    for absolute in ("/tmp/notes.pdf", "~/notes.pdf", '"/tmp/notes.pdf"', "file:///tmp/notes.pdf"):
        assert relative_note(absolute, "x") == "", absolute


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
@pytest.mark.anyio
async def test_ingest_tools_take_pasted_paths(data_dir: Path, case_folder: Path) -> None:
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Pasted")
        quoted = await call_ok(client, "ingest_document", file_path=f'"{case_folder / "28j letter.pdf"}"')
        assert quoted.structured_content["document"]["name"] == "28j letter.pdf"
        again = await call_ok(client, "ingest_folder", folder_path=case_folder.as_uri())  # %20 and all
        assert again.structured_content["report"]["counts"].get("skipped") == 1
        missing = await call_error(client, "ingest_document", file_path="Smith/notes.pdf")
        assert "File not found:" in missing and '"Smith/notes.pdf" is a relative path' in missing
        assert "Give the full path" in missing
