"""DOCX variants a paralegal meets: tracked moves, content controls, customXml, footnotes.

Each file is built with python-docx plus the raw WordprocessingML Word itself writes for
the feature, then parsed by the real parser."""

from __future__ import annotations

import zipfile
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


NOTES_XML = (
    f'<w:{{kind}}s {W}><w:{{kind}} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{{kind}}>'
    '<w:{kind} w:id="{first}"><w:p><w:r><w:{kind}Ref/></w:r><w:r><w:t xml:space="preserve"> {text}</w:t></w:r></w:p>'
    "</w:{kind}>"
    '<w:{kind} w:id="{second}"><w:p><w:r><w:{kind}Ref/></w:r><w:r><w:t xml:space="preserve"> {text2}</w:t></w:r>'
    "</w:p><w:p><w:r><w:t>{text3}</w:t></w:r></w:p></w:{kind}>"
    "</w:{kind}s>"
)


def add_notes_part(path: Path, kind: str, xml: str) -> None:
    """Add word/<kind>s.xml to a saved DOCX with the relationship and content type Word writes."""
    with zipfile.ZipFile(path) as source:
        entries = {name: source.read(name) for name in source.namelist()}
    entries[f"word/{kind}s.xml"] = xml.encode()
    entries["[Content_Types].xml"] = entries["[Content_Types].xml"].replace(
        b"</Types>",
        f'<Override PartName="/word/{kind}s.xml" ContentType="application/'
        f'vnd.openxmlformats-officedocument.wordprocessingml.{kind}s+xml"/></Types>'.encode(),
    )
    entries["word/_rels/document.xml.rels"] = entries["word/_rels/document.xml.rels"].replace(
        b"</Relationships>",
        f'<Relationship Id="rId{kind}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        f'relationships/{kind}s" Target="{kind}s.xml"/></Relationships>'.encode(),
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in entries.items():
            target.writestr(name, data)


def note_reference(kind: str, note_id: int) -> object:
    return parse_xml(
        f'<w:r {W}><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:{kind}Reference w:id="{note_id}"/></w:r>'
    )


def test_footnotes_follow_the_paragraph_that_cites_them_numbered_in_order(tmp_path: Path) -> None:
    document = docx.Document()
    cited = document.add_paragraph("The claim is time-barred.")
    cited._p.append(note_reference("footnote", 7))
    document.add_paragraph("The motion should be granted.")
    document.add_page_break()
    document.add_paragraph("Costs follow the event.")
    table = document.add_table(rows=1, cols=1)
    table.cell(0, 0).text = "Filing fee"
    table.cell(0, 0).paragraphs[0]._p.append(note_reference("footnote", 3))  # a note cited in a table cell
    path = tmp_path / "brief.docx"
    document.save(path)
    xml = NOTES_XML.format(
        kind="footnote",
        first=7,
        text="See Smith v. Jones, 123 F.3d 456 (2d Cir. 1997).",
        second=3,
        text2="28 U.S.C. \u00a7 1920.",
        text3="Id. at 460.",
    )
    add_notes_part(path, "footnote", xml)
    pages = [page.text for page in parse_file(path).pages]
    assert pages == [
        "The claim is time-barred.\n\n[1] See Smith v. Jones, 123 F.3d 456 (2d Cir. 1997).\n\n"
        "The motion should be granted.",
        "Costs follow the event.\n\nFiling fee\n\n[2] 28 U.S.C. \u00a7 1920.\nId. at 460.",
    ]


def test_endnotes_come_at_the_end_of_the_document(tmp_path: Path) -> None:
    document = docx.Document()
    first = document.add_paragraph("First reference.")
    first._p.append(note_reference("endnote", 1))
    document.add_page_break()
    second = document.add_paragraph("Second reference.")
    second._p.append(note_reference("endnote", 2))
    document.add_paragraph("Closing paragraph.")
    path = tmp_path / "memo.docx"
    document.save(path)
    add_notes_part(path, "endnote", NOTES_XML.format(kind="endnote", first=1, text="Note one.", second=2,
                                                     text2="Note two,", text3="continued."))  # fmt: skip
    assert [page.text for page in parse_file(path).pages] == [
        "First reference.",
        "Second reference.\n\nClosing paragraph.\n\n[i] Note one.\n\n[ii] Note two,\ncontinued.",
    ]
