"""An errata sheet's corrections (chunk.errata), as reporters' forms print them."""

from __future__ import annotations

import pytest

from casetrack.chunk.transcripts.errata import corrections
from casetrack.domain import ExtractionMethod, ParsedPage


def _read(text: str) -> list[tuple[str, str | None, str | None, str | None]]:
    return [(c.pin, c.original, c.corrected, c.reason)
            for c in corrections([ParsedPage(9, text, ExtractionMethod.NATIVE)])]


@pytest.mark.parametrize(("row", "read"), [
    ('Page 4, Line 17: "myself" should read "my helper" Reason: misheard', ("4:17", "myself", "my helper", "misheard")),
    ('PAGE 12 LINE 4 CHANGE: "granted" to "denied" REASON: transcription error',
     ("12:4", "granted", "denied", "transcription error")),
    ('5:14 change "Four hundred" to "Three hundred" because misspoke',
     ("5:14", "Four hundred", "Three hundred", "misspoke")),
    ('6     8     "four" should read "five"     Reason: clarification', ("6:8", "four", "five", "clarification")),
    ('3 Page 7, Line 2: add "not" after "did"', ("7:2", None, None, None)),  # a row number before it; no reading
])  # fmt: skip
def test_each_row_of_an_errata_sheet_is_read_with_its_place_and_reading(row: str,
                                                                        read: tuple[str, str, str, str]) -> None:
    assert _read(f"ERRATA SHEET\nPAGE LINE CHANGE REASON\n{row}\nSignature ______") == [read]


def test_rows_like_corrections_outside_an_errata_sheet_are_none() -> None:
    assert _read('Page 4, Line 17: "myself" should read "my helper"') == []
