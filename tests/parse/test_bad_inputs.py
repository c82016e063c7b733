"""Every bad input fails with its own clear, actionable error (table in tests/badfiles.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.errors import DocumentUnreadable, FileNotFound, InvalidInput, ToolUnavailable, UnsupportedFormat
from casetrack.parse import SUPPORTED_EXTENSIONS, ParseOptions, parse_file
from tests.badfiles import WRITERS, BadFile


@pytest.mark.parametrize("write", WRITERS, ids=[write.__name__.removeprefix("write_") for write in WRITERS])
def test_bad_file_outcome(write, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    row: BadFile = write(tmp_path)
    path = tmp_path / row.filename
    if row.expected_error is None:
        assert row.message_fragment in parse_file(path).text
        return
    with pytest.raises(row.expected_error) as raised:
        parse_file(path)
    message = str(raised.value)
    assert row.message_fragment in message
    if isinstance(raised.value, DocumentUnreadable):
        assert str(path) in message
        # every message ends with what to do next
        assert any(verb in message for verb in ("Check", "Re-", "Remove", "Rename", "Open", "Do not", "Split"))


def test_a_missing_file() -> None:
    with pytest.raises(FileNotFound, match="Check that the path is correct"):
        parse_file(Path("/nonexistent/contract.pdf"))


def test_a_folder_is_not_a_document(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="is a folder, not a file"):
        parse_file(tmp_path)


def test_unsupported_extensions_list_the_supported_ones(tmp_path: Path) -> None:
    (tmp_path / "archive").write_text("no extension")
    with pytest.raises(UnsupportedFormat) as raised:
        parse_file(tmp_path / "archive")
    assert "(no extension)" in str(raised.value)
    assert ", ".join(SUPPORTED_EXTENSIONS) in str(raised.value)


def test_extensions_are_case_insensitive_and_content_is_checked(tmp_path: Path) -> None:
    (tmp_path / "NOTES.TXT").write_text("Call opposing counsel.")
    assert parse_file(tmp_path / "NOTES.TXT").text == "Call opposing counsel."
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01\x02\x03" * 100)
    with pytest.raises(DocumentUnreadable, match="looks like binary data"):
        parse_file(tmp_path / "binary.txt")


def test_a_large_file_warns_and_still_parses(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("Deposition transcript. " * 10)
    document = parse_file(tmp_path / "big.txt", ParseOptions(max_file_bytes_warn=100))
    assert document.warnings and document.warnings[0].startswith("Large file:")
    assert "Deposition transcript." in document.text


def test_a_doc_without_libreoffice_names_the_install_command(tmp_path: Path) -> None:
    (tmp_path / "old.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(512))
    with pytest.raises(ToolUnavailable, match=r"LibreOffice is not installed.*apt install libreoffice-writer"):
        parse_file(tmp_path / "old.doc", ParseOptions(soffice_cmd="/nonexistent/bin/soffice"))


