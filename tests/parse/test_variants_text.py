"""Plain-text and RTF variants a paralegal meets: legacy Windows encodings, short files,
footnotes and tables in RTF. Real files through the real parser."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.parse import parse_file


@pytest.mark.parametrize(
    "text",
    [
        "Le locataire doit payer tr\u00e8s vite apr\u00e8s la r\u00e9union, o\u00f9 il d\u00e9clare "
        "\u00eatre \u00e9lu. Voil\u00e0.",  # scored as Polish cp1257 by the detector alone
        "Der Mieter mu\u00df die Wohnung \u00fcbergeben. Gr\u00f6\u00dfe: 50 m\u00b2.",
        "The \u201cTenant\u201d shall pay \u2013 caf\u00e9 \u00a7 12.",
        "\u201cOK\u201d",  # a short note: four bytes the detector alone calls UTF-16
        "Caf\u00e9",
    ],
)
def test_windows_1252_text_is_read_as_windows_1252(tmp_path: Path, text: str) -> None:
    (tmp_path / "note.txt").write_bytes(text.encode("cp1252"))
    document = parse_file(tmp_path / "note.txt")
    assert document.pages[0].text == text
    assert document.metadata["encoding"] == "cp1252"


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("\u041f\u0440\u0438\u0432\u0435\u0442, \u044d\u0442\u043e \u0434\u043e\u0433\u043e\u0432\u043e\u0440 "
         "\u0430\u0440\u0435\u043d\u0434\u044b \u043a\u0432\u0430\u0440\u0442\u0438\u0440\u044b \u043d\u0430 "
         "\u0433\u043e\u0434.", "cp1251"),
        ("Za\u017c\u00f3\u0142\u0107 g\u0119\u015bl\u0105 ja\u017a\u0144. Umowa najmu lokalu mieszkalnego "
         "w \u0141odzi.", "cp1250"),
        ("\u0397 \u03c3\u03cd\u03bc\u03b2\u03b1\u03c3\u03b7 \u03bc\u03af\u03c3\u03b8\u03c9\u03c3\u03b7\u03c2 "
         "\u03c5\u03c0\u03bf\u03b3\u03c1\u03ac\u03c6\u03b5\u03c4\u03b1\u03b9 \u03c3\u03ae\u03bc\u03b5\u03c1\u03b1.",
         "cp1253"),
    ],
)  # fmt: skip
def test_other_legacy_code_pages_are_still_recognised(tmp_path: Path, text: str, encoding: str) -> None:
    (tmp_path / "note.txt").write_bytes(text.encode(encoding))
    assert parse_file(tmp_path / "note.txt").pages[0].text == text


def test_rtf_footnotes_follow_the_paragraph_citing_them(tmp_path: Path) -> None:
    rtf = (
        r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Times New Roman;}}"
        r"{\header\pard CONFIDENTIAL\par}"
        r"\pard The claim is time-barred{\super\chftn}{\footnote\pard\plain{\super\chftn} See "
        r"{\i Smith v. Jones}, 123 F.3d 456 (2d Cir. 1997).\par} and must be dismissed.\par "
        r"Costs follow the event.{\super\chftn}{\footnote\pard\plain{\super\chftn} 28 U.S.C. \'a7 1920.}\par\page "
        r"Page two.\par}"
    )
    (tmp_path / "brief.rtf").write_text(rtf, encoding="ascii")
    assert [page.text for page in parse_file(tmp_path / "brief.rtf").pages] == [
        "CONFIDENTIAL\n\n"  # the header, once, where its section starts (test_headers_footers.py)
        "The claim is time-barred and must be dismissed.\n\n"
        "[1] See Smith v. Jones, 123 F.3d 456 (2d Cir. 1997).\n\n"
        "Costs follow the event.\n\n[2] 28 U.S.C. \u00a7 1920.",
        "Page two.",
    ]
