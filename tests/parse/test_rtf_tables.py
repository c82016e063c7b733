"""RTF tables read as DOCX tables do: one line per row, cells separated by " | ", no separator
after the last cell, the rows of one table one paragraph. Real files through the real parser."""

from __future__ import annotations

from pathlib import Path

import docx

from casetrack.parse import parse_file

ROWS = [("Party", "Role"), ("Acme Corp.", "Supplier"), ("Beta LLC", "")]


def rtf_row(cells: tuple[str, ...]) -> str:
    """A row as Word writes it: row properties, then each cell's paragraph marked \\intbl."""
    return (
        r"\trowd\trgaph108\cellx3000\cellx6000"
        + "".join(rf"\pard\plain\intbl {cell}\cell " for cell in cells)
        + r"\pard\plain\intbl\row "
    )


def test_rtf_table_rows_read_like_docx_table_rows(tmp_path: Path) -> None:
    rtf = (
        r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Times New Roman;}}"
        r"\pard\plain The parties are:\par " + "".join(rtf_row(row) for row in ROWS) + r"\pard\plain Signed.\par}"
    )
    (tmp_path / "parties.rtf").write_text(rtf, encoding="ascii")
    document = docx.Document()
    document.add_paragraph("The parties are:")
    table = document.add_table(rows=len(ROWS), cols=2)
    for index, (party, role) in enumerate(ROWS):
        table.cell(index, 0).text = party
        table.cell(index, 1).text = role
    document.add_paragraph("Signed.")
    document.save(tmp_path / "parties.docx")
    expected = "The parties are:\n\nParty | Role\nAcme Corp. | Supplier\nBeta LLC |\n\nSigned."
    assert parse_file(tmp_path / "parties.docx").pages[0].text == expected
    assert parse_file(tmp_path / "parties.rtf").pages[0].text == expected


def test_rtf_cell_with_two_paragraphs_stays_on_its_row_and_a_literal_bar_is_text(tmp_path: Path) -> None:
    rtf = (
        r"{\rtf1\ansi\deff0{\fonttbl{\f0 Times New Roman;}}"
        r"\pard\plain Either party | both parties.\par "
        r"\trowd\cellx3000\cellx6000\pard\plain\intbl Acme Corp.\par 12 Main St.\cell "
        r"\pard\plain\intbl Supplier\cell\row "
        r"\trowd\cellx3000\cellx6000\pard\plain\intbl \cell \pard\plain\intbl \cell\row "  # an empty row
        r"\pard\plain After.\par}"
    )
    (tmp_path / "table.rtf").write_text(rtf, encoding="ascii")
    assert parse_file(tmp_path / "table.rtf").pages[0].text == (
        "Either party | both parties.\n\nAcme Corp. 12 Main St. | Supplier\n\nAfter."
    )
