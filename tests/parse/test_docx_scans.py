"""Scans pasted into a Word document that has text of its own (a declaration with its exhibits, a letter
with a signed page): each picture shown at the size of a page is read by OCR as a page where it stands."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.oxml.ns import qn
from docx.shared import Inches
from lxml import etree

from casetrack.domain import ExtractionMethod
from casetrack.parse import ocr_available, parse_file
from casetrack.parse.options import ParseOptions
from casetrack.parse.word.pictures import IMAGE_DATA, shown_page_sized
from tests.parse.evaldev import EVAL_DEV

SCAN = EVAL_DEV / "docs" / "scan_cuad_ominto_reseller_agreement_p1.png"
ONE_SCAN = ("This Word document shows a picture the size of a page (a pasted scan). It is a page of its own where it "
            "stands, read by OCR. Page numbers from there on are estimated.")
needs_ocr = pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")


@pytest.fixture(scope="module")
def scan_text() -> str:
    return parse_file(SCAN).pages[0].text if ocr_available() else ""


def declaration(path: Path, *, thumbnail: bool = False) -> Path:
    document = docx.Document()
    document.add_paragraph("DECLARATION OF JANE ROE. I attach as Exhibit A the first page of the reseller agreement.")
    if thumbnail:  # the same image part shown small first: a figure there, the page where it is shown full size
        document.add_picture(str(SCAN), width=Inches(3))
    document.add_paragraph("Exhibit A follows.")
    document.add_picture(str(SCAN), width=Inches(6.5))
    document.add_paragraph("I declare under penalty of perjury that the foregoing is true.")
    document.save(path)
    return path


@needs_ocr
def test_a_pasted_scan_is_read_by_ocr_as_a_page_of_its_own_where_it_stands(tmp_path: Path, scan_text: str) -> None:
    parsed = parse_file(declaration(tmp_path / "declaration.docx"))

    assert [page.text for page in parsed.pages] == [
        "DECLARATION OF JANE ROE. I attach as Exhibit A the first page of the reseller agreement.\n\n"
        "Exhibit A follows.",
        scan_text,
        "I declare under penalty of perjury that the foregoing is true.",
    ]
    scan_page = parsed.pages[1]
    assert scan_page.method is ExtractionMethod.OCR and (scan_page.ocr_confidence or 0) > 80
    assert [page.method for page in parsed.pages] == [ExtractionMethod.NATIVE, ExtractionMethod.OCR,
                                                      ExtractionMethod.NATIVE]
    assert all(page.approximate for page in parsed.pages)  # the document records no page break at all
    assert parsed.warnings == (ONE_SCAN,)


@needs_ocr
def test_an_image_shown_as_a_thumbnail_and_as_a_page_is_read_once_where_it_is_a_page(
    tmp_path: Path, scan_text: str
) -> None:
    parsed = parse_file(declaration(tmp_path / "declaration.docx", thumbnail=True))
    assert [page.text for page in parsed.pages][1:] == [
        scan_text, "I declare under penalty of perjury that the foregoing is true."
    ]
    assert parsed.pages[0].text.endswith("Exhibit A follows.")


@needs_ocr
def test_page_numbers_before_the_scan_stay_exact_when_the_document_records_its_breaks(
    tmp_path: Path, scan_text: str
) -> None:
    document = docx.Document()
    document.add_paragraph("Page one of the motion.")
    document.add_page_break()
    document.add_paragraph("Page two of the motion.")
    document.add_picture(str(SCAN), width=Inches(6))
    document.add_paragraph("After the exhibit.")
    document.save(tmp_path / "motion.docx")

    parsed = parse_file(tmp_path / "motion.docx")
    assert [(page.number, page.text, page.approximate) for page in parsed.pages] == [
        (1, "Page one of the motion.", False),
        (2, "Page two of the motion.", False),
        (3, scan_text, True),
        (4, "After the exhibit.", True),  # whether Word printed the scan on a page of its own is not recorded
    ]


@needs_ocr
def test_a_scan_in_a_table_cell_becomes_a_page_after_the_table(tmp_path: Path, scan_text: str) -> None:
    document = docx.Document()
    document.add_paragraph("Exhibit list.")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Exhibit A"
    table.cell(0, 1).paragraphs[0].add_run().add_picture(str(SCAN), width=Inches(6))
    document.add_paragraph("End of exhibits.")
    document.save(tmp_path / "exhibits.docx")

    parsed = parse_file(tmp_path / "exhibits.docx")
    assert [page.text for page in parsed.pages] == ["Exhibit list.\n\nExhibit A |", scan_text, "End of exhibits."]


def test_figures_logos_and_a_letterhead_behind_the_text_are_not_read(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("Dear Counsel, please find the agreement enclosed.")
    document.add_picture(str(SCAN), width=Inches(3.5))  # a figure: 3.5 x 4.5 in
    letterhead = document.add_paragraph().add_run().add_picture(str(SCAN), width=Inches(6.5))
    inline = letterhead._inline
    inline.tag = qn("wp:anchor")  # the same picture, full page but anchored behind the text: letterhead art
    inline.set("behindDoc", "1")
    document.add_paragraph("Sincerely, Jane Roe")
    document.save(tmp_path / "letter.docx")

    parsed = parse_file(tmp_path / "letter.docx")
    assert parsed.text == "Dear Counsel, please find the agreement enclosed.\n\nSincerely, Jane Roe"
    assert parsed.warnings == ()
    assert [page.method for page in parsed.pages] == [ExtractionMethod.NATIVE]


def test_without_ocr_the_scan_is_a_skipped_page_that_says_why(tmp_path: Path) -> None:
    parsed = parse_file(declaration(tmp_path / "declaration.docx"), ParseOptions(tesseract_cmd=str(tmp_path / "none")))
    scan_page = parsed.pages[1]
    assert scan_page.method is ExtractionMethod.SKIPPED and scan_page.text == ""
    [reason] = scan_page.warnings
    assert reason.startswith("Pasted scan 1: This page is a scanned image and OCR is off:")
    assert parsed.pages[2].text == "I declare under penalty of perjury that the foregoing is true."
    assert parsed.warnings == (ONE_SCAN.replace("read by OCR", "but OCR could not read it (the page says why)"),)


@pytest.mark.parametrize(("style", "page_sized"), [
    ("width:468pt;height:606pt", True),  # Word 2003: a scan at the page's width
    ("width:6.5in;height:8.4in", True),
    ("position:absolute;mso-width-percent:0;width:180pt;height:60pt", False),  # a logo
    ("width:468pt", False),  # size not recorded: not taken for a page
    ("width:624;height:808", True),  # no unit: pixels (6.5 x 8.4 in)
    ("width:1.2.3pt;height:606pt", False),  # a malformed length never breaks the parse
    ("mso-width-percent:900;width:100pt;height:100pt", False),  # only width and height themselves count
])
def test_word_2003_pictures_are_sized_from_their_vml_style(style: str, page_sized: bool) -> None:
    vml = f'<v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="{style}"><v:imagedata/></v:shape>'
    shape = etree.fromstring(vml)
    [imagedata] = shape.iter(IMAGE_DATA)
    assert shown_page_sized(imagedata) is page_sized
