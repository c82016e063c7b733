"""Headers and footers of DOCX and RTF pleadings: the case number, short title, confidentiality
legend and Bates stamp they carry are read once, at the start of the first page of their
section, never repeated on every page, and page-number fields leave no "Page of" behind.

Real files: DOCX built with python-docx (plus the field XML Word writes), RTF written as text."""

from __future__ import annotations

from pathlib import Path

import docx
from docx.enum.section import WD_SECTION
from docx.oxml import parse_xml
from docx.text.paragraph import Paragraph

from casetrack.chunk.bates import find_bates_number
from casetrack.config import load_settings
from casetrack.parse import parse_file
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import Ingestor, IngestRequest
from casetrack.service.ingest.entries import Indexer
from casetrack.store import documents as docstore

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
CASE_NUMBER = "Case No. 1:23-cv-04567"
LEGEND = "CONFIDENTIAL \u2014 SUBJECT TO PROTECTIVE ORDER"
BODY = [
    f"{number}. Plaintiff alleges that the defendant breached the supply agreement in month {number} "
    "by failing to deliver the goods ordered and by refusing to cure the breach after notice."
    for number in range(1, 121)
]


def add_page_x_of_y(paragraph: Paragraph) -> None:
    """ "Page {PAGE} of {NUMPAGES}": PAGE as a simple field, NUMPAGES as a complex one, both with
    the stored results Word leaves ("1", "7")."""
    paragraph.add_run("Page ")
    paragraph._p.append(parse_xml(f'<w:fldSimple {W} w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple>'))
    paragraph.add_run(" of ")
    for run in (
        '<w:fldChar w:fldCharType="begin"/>',
        '<w:instrText xml:space="preserve"> NUMPAGES \\* MERGEFORMAT </w:instrText>',
        '<w:fldChar w:fldCharType="separate"/>',
        "<w:t>7</w:t>",
        '<w:fldChar w:fldCharType="end"/>',
    ):
        paragraph._p.append(parse_xml(f"<w:r {W}>{run}</w:r>"))


def build_pleading(path: Path) -> Path:
    """A long complaint without page breaks (pages are estimated), a header with the case number
    repeated word for word in the first-page header, a footer with page numbering and a Bates stamp."""
    document = docx.Document()
    section = document.sections[0]
    section.different_first_page_header_footer = True
    section.header.paragraphs[0].text = f"{CASE_NUMBER}\tSmith v. Jones"
    section.first_page_header.paragraphs[0].text = f"{CASE_NUMBER}\tSmith v. Jones"
    section.first_page_header.add_paragraph(LEGEND)
    add_page_x_of_y(section.footer.paragraphs[0])
    section.footer.add_paragraph("ABC 000123")
    document.add_paragraph("COMPLAINT FOR BREACH OF CONTRACT")
    for paragraph in BODY:
        document.add_paragraph(paragraph)
    document.save(path)
    return path


def test_docx_headers_and_footers_are_read_once_at_the_start(tmp_path: Path) -> None:
    parsed = parse_file(build_pleading(tmp_path / "complaint.docx"))
    assert len(parsed.pages) > 5 and all(page.approximate for page in parsed.pages)
    assert parsed.pages[0].text.startswith(
        f"{CASE_NUMBER} Smith v. Jones\n\n{LEGEND}\n\nABC 000123\n\nCOMPLAINT FOR BREACH OF CONTRACT\n\n1. Plaintiff"
    )
    # once in the whole document, not once per page; no "Page of" scaffolding, no stored page numbers
    assert parsed.text.count("1:23-cv-04567") == 1
    assert parsed.text.count("ABC 000123") == 1
    assert "Page" not in parsed.text and "\n7\n" not in parsed.text
    # the body itself is untouched and complete
    assert " ".join(parsed.text.split()).endswith(" ".join(BODY[-1].split()))


def test_a_footer_bates_stamp_is_found_on_its_section_first_page_only(tmp_path: Path) -> None:
    parsed = parse_file(build_pleading(tmp_path / "complaint.docx"))
    assert find_bates_number(parsed.pages[0].text) == "ABC 000123"
    assert find_bates_number(parsed.pages[1].text) is None


def test_docx_sections_linked_to_previous_add_nothing_and_a_new_header_opens_its_section(tmp_path: Path) -> None:
    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = CASE_NUMBER
    document.add_paragraph("Motion to dismiss.")
    document.add_section(WD_SECTION.NEW_PAGE)  # its header is linked to the previous one
    document.add_paragraph("Argument.")
    exhibits = document.add_section(WD_SECTION.NEW_PAGE)
    exhibits.header.is_linked_to_previous = False
    exhibits.header.paragraphs[0].text = "EXHIBIT A"
    exhibits.footer.paragraphs[0].text = ""  # an empty footer of its own adds nothing
    document.add_paragraph("The supply agreement.")
    document.save(tmp_path / "motion.docx")
    assert [page.text for page in parse_file(tmp_path / "motion.docx").pages] == [
        f"{CASE_NUMBER}\n\nMotion to dismiss.",
        "Argument.",
        "EXHIBIT A\n\nThe supply agreement.",
    ]


def test_docx_header_already_on_the_page_is_not_doubled(tmp_path: Path) -> None:
    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = "DEFENDANT'S MOTION TO DISMISS"
    document.sections[0].header.add_paragraph("Filed 03/04/2024")
    document.sections[0].footer.paragraphs[0].text = CASE_NUMBER
    document.add_paragraph("DEFENDANT'S MOTION TO DISMISS")
    document.add_paragraph(f"UNITED STATES DISTRICT COURT\n{CASE_NUMBER}")
    document.add_paragraph("The complaint fails to state a claim.")
    document.save(tmp_path / "motion.docx")
    assert parse_file(tmp_path / "motion.docx").pages[0].text == (
        f"Filed 03/04/2024\n\nDEFENDANT'S MOTION TO DISMISS\n\nUNITED STATES DISTRICT COURT\n{CASE_NUMBER}\n\n"
        "The complaint fails to state a claim."
    )


def test_docx_shows_first_and_even_page_headers_only_where_word_does(tmp_path: Path) -> None:
    document = docx.Document()
    section = document.sections[0]
    section.header.paragraphs[0].text = "Smith v. Jones"
    section.first_page_header.paragraphs[0].text = "Draft first-page header Word does not show"  # no titlePg
    section.even_page_header.paragraphs[0].text = "Even pages: Smith v. Jones, No. 23-4567"
    document.settings.odd_and_even_pages_header_footer = True
    table = section.footer.add_table(rows=1, cols=2, width=section.page_width)
    add_page_x_of_y(table.cell(0, 0).paragraphs[0])
    table.cell(0, 1).text = "ABC 000124"
    document.add_paragraph("Body.")
    document.save(tmp_path / "brief.docx")
    assert parse_file(tmp_path / "brief.docx").pages[0].text == (
        "Smith v. Jones\n\nEven pages: Smith v. Jones, No. 23-4567\n\nABC 000124\n\nBody."
    )


def test_page_number_scaffolding_is_dropped_but_the_text_beside_it_is_kept(tmp_path: Path) -> None:
    document = docx.Document()
    footer = document.sections[0].footer.paragraphs[0]
    footer.add_run(f"{CASE_NUMBER} | ")
    add_page_x_of_y(footer)
    document.sections[0].footer.add_paragraph("- ")._p.append(
        parse_xml(f'<w:fldSimple {W} w:instr="PAGE"><w:r><w:t>2</w:t></w:r></w:fldSimple>')
    )
    document.add_paragraph("Body.")
    document.save(tmp_path / "order.docx")
    assert parse_file(tmp_path / "order.docx").pages[0].text == f"{CASE_NUMBER}\n\nBody."


def test_a_numbered_header_paragraph_does_not_shift_the_body_list_numbers(tmp_path: Path) -> None:
    document = docx.Document()
    document.sections[0].header.paragraphs[0].style = document.styles["List Number"]
    document.sections[0].header.paragraphs[0].text = "Draft for settlement purposes"
    document.add_paragraph("Services means the work in Schedule A.", style="List Number")
    document.save(tmp_path / "msa.docx")
    assert parse_file(tmp_path / "msa.docx").pages[0].text == (
        "1. Draft for settlement purposes\n\n1. Services means the work in Schedule A."
    )


RTF_PLEADING = (
    r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Times New Roman;}}"
    r"\sectd\titlepg"
    r"{\headerf\pard\plain Case No. 1:23-cv-04567\par}"
    r"{\header\pard\plain Case No. 1:23-cv-04567\par CONFIDENTIAL \emdash  SUBJECT TO PROTECTIVE ORDER\par}"
    r"{\footer\pard\plain Page {\field{\*\fldinst { PAGE }}{\fldrslt {1}}} of "
    r"{\field{\*\fldinst {NUMPAGES \\* MERGEFORMAT}}{\fldrslt {3}}}\par ABC 000123\par}"
    r"{\footerf\pard\plain\qc - \chpgn  -\par}"
    r"\pard\plain COMPLAINT\par The defendant breached the agreement.\par\page "
    r"Page two of the complaint.\par"
    r"\sect\sectd{\header\pard\plain EXHIBIT A\par}{\footer\pard\plain ABC 000123\par}"
    r"\pard\plain\page The supply agreement.\par}"
)


def test_rtf_headers_and_footers_are_read_once_where_their_section_starts(tmp_path: Path) -> None:
    (tmp_path / "complaint.rtf").write_text(RTF_PLEADING, encoding="ascii")
    parsed = parse_file(tmp_path / "complaint.rtf")
    assert [page.text for page in parsed.pages] == [
        f"{CASE_NUMBER}\n\n{LEGEND}\n\nABC 000123\n\nCOMPLAINT\n\nThe defendant breached the agreement.",
        "Page two of the complaint.",
        "EXHIBIT A\n\nThe supply agreement.",
    ]
    assert not any(page.approximate for page in parsed.pages)


def test_rtf_header_already_on_the_page_is_not_doubled(tmp_path: Path) -> None:
    rtf = (
        r"{\rtf1\ansi\deff0{\fonttbl{\f0 Times New Roman;}}{\header\pard\plain DEFENDANT'S MOTION TO DISMISS\par "
        r"Filed 03/04/2024\par}"
        r"\pard\plain DEFENDANT'S MOTION TO DISMISS\par The complaint fails.\par}"
    )
    (tmp_path / "motion.rtf").write_text(rtf, encoding="ascii")
    assert parse_file(tmp_path / "motion.rtf").pages[0].text == (
        "Filed 03/04/2024\n\nDEFENDANT'S MOTION TO DISMISS\n\nThe complaint fails."
    )


def test_a_case_number_in_a_docx_header_is_found_by_search_with_its_page(tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(tmp_path / "data"))
    ingestor = Ingestor(app.settings, app.cases, Indexer(None))  # keyword index only, no embedding models
    case = app.create_case("Smith v. Jones")
    ingestor.ingest(case, IngestRequest(str(build_pleading(tmp_path / "complaint.docx"))))
    case = app.cases.get(case.id)
    hits = app.search.search(case, "1:23-cv-04567", top_k=5).hits
    assert hits, "the case number in the header was not found"
    top = hits[0].chunk
    assert top.provenance.document_name == "complaint.docx"
    assert top.provenance.page == 1 and top.provenance.page_approximate
    assert CASE_NUMBER in top.text
    assert sum(CASE_NUMBER in hit.chunk.text for hit in hits) == 1  # not one hit per page
    with app.cases.store(case).reader() as db:
        [document] = docstore.list_documents(db)
        pages = {page.number: page.text for page in docstore.pages(db, document.id)}
        chunks = list(docstore.document_chunks(db, document))
    assert all(pages[chunk.span.page][chunk.span.char_start : chunk.span.char_end] == chunk.text for chunk in chunks)
    assert chunks[0].provenance.bates_number == "ABC 000123"
    app.jobs.shutdown()
