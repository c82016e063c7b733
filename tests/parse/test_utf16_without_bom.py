"""UTF-16 text saved without a byte-order mark (some Windows exports write it so) is read, not
refused as binary; binary data with NULs is still refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.errors import CaseTrackError
from casetrack.parse import parse_file
from casetrack.parse.sniff import bomless_utf16

LETTER = ("Dear Counsel,\r\n\r\nPursuant to \u00a7 4.2(a) of the Agreement, Licensee gives notice of termination "
          "effective March 1, 2024. The \u201cConfidential Information\u201d must be returned.\r\n")


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_is_read_as_written(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "notice.txt"
    path.write_bytes(LETTER.encode(encoding))
    document = parse_file(path)
    assert document.metadata["encoding"] == encoding
    assert "Pursuant to \u00a7 4.2(a) of the Agreement" in document.text
    assert "\u201cConfidential Information\u201d" in document.text
    assert not document.warnings


def test_binary_data_with_nuls_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "export.txt"
    path.write_bytes(bytes(range(256)) * 8)  # NULs, but on no one side of the byte pairs
    with pytest.raises(CaseTrackError, match="binary data"):
        parse_file(path)


def test_the_check_wants_nuls_on_one_side_only() -> None:
    assert bomless_utf16("Notice".encode("utf-16-le")) == "utf-16-le"
    assert bomless_utf16(b"\x00\x01\x00\x02\x03\x00\x04\x00" * 4) is None  # NULs on both sides
    assert bomless_utf16(b"ab\x00") is None  # too short to judge
    assert bomless_utf16("\x01\x02\x03\x04\x05\x06".encode("utf-16-le")) is None  # control characters
