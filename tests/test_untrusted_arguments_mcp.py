"""Arguments a user (or a document prompting Claude) could give the real server (issue 33 §4): a path part
no file can have, inputs of a megabyte, names carrying Unicode direction controls, and confirmations
that are not a real true."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import anyio
import pytest

from tests.mcp_helpers import CASETRACK, call_error, call_ok, mcp_session, text_of

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: what follows it displays reversed
BIDI = ("\u202e", "\u202d", "\u202a", "\u202b", "\u202c", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f")
MEGABYTE = "x" * 1_000_000


def _document(folder: Path, name: str = "lease.txt") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("The tenant shall pay rent of 2,400 dollars on the first day of each month.\n", encoding="utf-8")
    return path


def test_a_path_with_a_part_over_255_characters_is_a_clear_error_not_an_internal_one(tmp_path: Path) -> None:
    long_part = "a" * 300

    async def scenario() -> list[str]:
        async with mcp_session(tmp_path / "data") as client:
            await call_ok(client, "create_case", name="Paths")
            return [await call_error(client, "ingest_document", file_path=str(tmp_path / f"{long_part}.pdf")),
                    await call_error(client, "ingest_folder", folder_path=str(tmp_path / long_part / "inner")),
                    await call_error(client, "watch_folder", folder_path=str(tmp_path / long_part))]

    for message in anyio.run(scenario):
        assert "Internal error" not in message and "Errno" not in message, message
        assert "longer than a file or folder name can be" in message and len(message) < 1_000, message


def test_an_error_quotes_at_most_a_short_prefix_of_a_megabyte_input(tmp_path: Path) -> None:
    async def scenario() -> list[str]:
        async with mcp_session(tmp_path / "data") as client:
            await call_ok(client, "create_case", name="Long inputs")
            await call_ok(client, "ingest_document", file_path=str(_document(tmp_path / "docs")), wait_seconds=300)
            return [await call_error(client, "switch_case", case_name=MEGABYTE),
                    await call_error(client, "search_case", query="rent", case_name=MEGABYTE),
                    await call_error(client, "get_chunk", chunk_id=MEGABYTE),
                    await call_error(client, "get_document", document_name=MEGABYTE),
                    await call_error(client, "ingest_document", file_path=str(tmp_path / MEGABYTE[:200] / "x.pdf")),
                    await call_error(client, "list_cases", status_filter=MEGABYTE)]

    for message in anyio.run(scenario):
        assert len(message) < 1_000, (len(message), message[:300])
        assert "xxxxxxxxxx" in message  # it still says what it was given


def test_direction_controls_never_reach_a_case_name_a_document_name_or_a_citation(tmp_path: Path) -> None:
    # "Contract<RLO>txt.exe" would display as "Contractexe.txt": a citation pointing somewhere it does not.
    path = _document(tmp_path / "docs", f"Contract{RLO}fdp.exe{BIDI[5]}.txt")

    async def scenario() -> list[str]:
        async with mcp_session(tmp_path / "data") as client:
            created = await call_ok(client, "create_case", name=f"Smith {RLO}v. Jones{BIDI[1]}")
            ingested = await call_ok(client, "ingest_document", file_path=str(path), wait_seconds=300)
            found = await call_ok(client, "search_case", query="rent of 2,400 dollars")
            listed = await call_ok(client, "list_cases")
            documents = await call_ok(client, "list_documents")
            hit = found.structured_content["results"][0]
            # The file's path stays as it is on disk (it must find the file); every name and citation is clean.
            return [text_of(created), text_of(listed), text_of(ingested).splitlines()[0], hit["citation"],
                    hit["citation_short"], hit["source"]["document"], found.structured_content["case"],
                    *(c["name"] for c in listed.structured_content["cases"]),
                    *(line for line in text_of(documents).splitlines() if "Contract" in line and "/" not in line)]

    shown = anyio.run(scenario)
    for text in shown:
        assert not any(control in text for control in BIDI), repr(text)
    assert "Smith v. Jones" in shown[1] and shown[5] == "Contractfdp.exe.txt"


@pytest.mark.parametrize("given", ["yes", "true", 1])
def test_destructive_tools_take_only_a_real_true_as_confirmation(tmp_path: Path, given: object) -> None:
    async def scenario() -> tuple[list[str], str, str]:
        async with mcp_session(tmp_path / "data") as client:
            await call_ok(client, "create_case", name="Kept")
            await call_ok(client, "ingest_document", file_path=str(_document(tmp_path / "docs")), wait_seconds=300)
            refused = [await call_error(client, "delete_document", document_name="lease.txt", confirm=given),
                       await call_error(client, "reindex_case", confirm=given),
                       await call_error(client, "delete_case", case_name="Kept", confirm=given)]
            documents = text_of(await call_ok(client, "list_documents"))
            cases = text_of(await call_ok(client, "list_cases"))
            return refused, documents, cases

    refused, documents, cases = anyio.run(scenario)
    for message in refused:
        assert "confirm" in message and "boolean" in message, message
    assert "lease.txt" in documents and "Kept" in cases


def test_a_table_of_authorities_is_written_where_asked_or_in_the_data_folder_never_beside_the_draft(
        tmp_path: Path) -> None:
    # A draft in a folder CaseTrack only reads (a client's share, a watched folder): no file appears there unasked.
    drafts = tmp_path / "client share"
    drafts.mkdir()
    draft = drafts / "brief.txt"
    draft.write_text("As held in Miranda v. Arizona, 384 U.S. 436 (1966), and under 42 U.S.C. \u00a7 1983.\n",
                     encoding="utf-8")
    asked = tmp_path / "Desktop" / "brief table.docx"
    asked.parent.mkdir()

    async def scenario() -> tuple[str | None, str | None, str]:
        async with mcp_session(tmp_path / "data") as client:
            unasked = await call_ok(client, "table_of_authorities", file_path=str(draft), write_docx=True)
            where = await call_ok(client, "table_of_authorities", file_path=str(draft), output_path=str(asked))
            nowhere = await call_error(client, "table_of_authorities", file_path=str(draft),
                                       output_path=str(tmp_path / "no such folder" / "t.docx"))
            return unasked.structured_content["docx_path"], where.structured_content["docx_path"], nowhere

    unasked, where, nowhere = anyio.run(scenario)
    assert sorted(p.name for p in drafts.iterdir()) == ["brief.txt"]
    assert unasked == str(tmp_path / "data" / "tables" / "brief - Table of Authorities.docx")
    assert Path(unasked).is_file()
    assert where == str(asked) and asked.is_file()
    assert "does not exist" in nowhere and not (tmp_path / "no such folder").exists()


def test_the_command_line_says_the_same_of_a_path_part_over_255_characters(tmp_path: Path) -> None:
    env = {**os.environ, "CASETRACK_HOME": str(tmp_path / "data")}
    subprocess.run([CASETRACK, "cases", "create", "Paths"], env=env, check=True, capture_output=True, timeout=120)
    done = subprocess.run([CASETRACK, "ingest", str(tmp_path / ("a" * 300 + ".pdf")), "--case", "Paths"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "longer than a file or folder name can be" in done.stderr and "unexpected problem" not in done.stderr
