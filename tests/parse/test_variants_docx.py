"""DOCX variants a paralegal meets: tracked moves, content controls, customXml, footnotes.

Each file is built with python-docx plus the raw WordprocessingML Word itself writes for
the feature, then parsed by the real parser."""

from __future__ import annotations

from pathlib import Path

import docx
from docx.oxml import parse_xml

from casetrack.parse import parse_file

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
REVISION = 'w:author="Opposing Counsel" w:date="2025-03-04T10:00:00Z"'


def test_text_moved_by_tracked_changes_appears_once_at_its_new_place(tmp_path: Path) -> None:
    document = docx.Document()
    first = document.add_paragraph()
    first._p.append(
        parse_xml(f'<w:moveFrom {W} w:id="1" {REVISION}><w:r><w:t>The deposit is refundable.</w:t></w:r></w:moveFrom>')
    )
    first._p.append(parse_xml(f"<w:r {W}><w:t>Rent is due monthly.</w:t></w:r>"))
    second = document.add_paragraph()
    second._p.append(
        parse_xml(f'<w:moveTo {W} w:id="2" {REVISION}><w:r><w:t>The deposit is refundable.</w:t></w:r></w:moveTo>')
    )
    document.save(tmp_path / "moved.docx")
    assert parse_file(tmp_path / "moved.docx").pages[0].text == "Rent is due monthly.\n\nThe deposit is refundable."


def test_paragraphs_and_table_rows_inside_content_controls_and_custom_xml_are_kept(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("Recitals.")
    body = document.element.body
    end = len(body) - 1  # before the final section properties
    body.insert(
        end,
        parse_xml(
            f'<w:customXml {W} w:element="clause"><w:p><w:r><w:t>Clause held in customXml.</w:t></w:r></w:p>'
            "</w:customXml>"
        ),
    )
    body.insert(
        end + 1,
        parse_xml(
            f"<w:tbl {W}><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>"
            "<w:tr><w:tc><w:p><w:r><w:t>Party</w:t></w:r></w:p></w:tc>"
            "<w:tc><w:p><w:r><w:t>Role</w:t></w:r></w:p></w:tc></w:tr>"
            "<w:sdt><w:sdtPr/><w:sdtContent><w:tr><w:tc><w:p><w:r><w:t>Acme Corp.</w:t></w:r></w:p></w:tc>"
            "<w:tc><w:p><w:r><w:t>Supplier</w:t></w:r></w:p></w:tc></w:tr></w:sdtContent></w:sdt>"
            "<w:tr><w:tc><w:p><w:r><w:t>Beta LLC</w:t></w:r></w:p></w:tc>"
            "<w:sdt><w:sdtPr/><w:sdtContent><w:tc><w:p><w:r><w:t>Buyer</w:t></w:r></w:p></w:tc></w:sdtContent>"
            "</w:sdt></w:tr></w:tbl>"
        ),
    )
    document.add_paragraph("Signatures follow.")
    document.save(tmp_path / "template.docx")
    assert parse_file(tmp_path / "template.docx").pages[0].text == (
        "Recitals.\n\nClause held in customXml.\n\nParty | Role\nAcme Corp. | Supplier\nBeta LLC | Buyer\n\n"
        "Signatures follow."
    )
