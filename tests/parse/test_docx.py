"""DOCX: structure, list numbers, tables, real and estimated page breaks."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import docx
import pytest
from docx.enum.section import WD_SECTION
from docx.shared import Inches

from casetrack.domain import ExtractionMethod
from casetrack.errors import DocumentUnreadable
from casetrack.parse import ocr_available, parse_file
from tests.parse.evaldev import EVAL_DEV


def build_agreement(path: Path) -> Path:
    document = docx.Document()
    document.core_properties.title = "Master Services Agreement"
    document.core_properties.author = "Acme Legal"
    document.add_heading("Master Services Agreement", 0)
    document.add_heading("Definitions", level=1)
    document.add_paragraph("The following terms apply.")
    document.add_paragraph("Services means the work in Schedule A.", style="List Number")
    document.add_paragraph("Fees means the amounts in Schedule B.", style="List Number")
    document.add_paragraph("a bulleted note", style="List Bullet")
    table = document.add_table(rows=3, cols=2)
    for row, (party, role) in enumerate([("Party", "Role"), ("Acme Corp.", "Supplier"), ("Beta LLC", "")]):
        table.cell(row, 0).text = party
        table.cell(row, 1).text = role
    paragraph = document.add_paragraph("Signed before the break.")
    paragraph.add_run().add_break()  # a line break inside a paragraph stays a line break
    paragraph.add_run("Second line of the same paragraph.")
    document.add_page_break()
    document.add_paragraph("Schedule A lists the services.")
    document.add_section(WD_SECTION.NEW_PAGE)
    document.add_paragraph("Schedule B lists the fees.")
    document.add_section(WD_SECTION.CONTINUOUS)
    document.add_paragraph("Still on the Schedule B page.")
    document.save(path)
    return path


def test_structure_lists_tables_and_page_breaks(tmp_path: Path) -> None:
    parsed = parse_file(build_agreement(tmp_path / "msa.docx"))
    first, second, third = parsed.pages
    assert first.text == (
        "Master Services Agreement\n\nDefinitions\n\nThe following terms apply.\n\n"
        "1. Services means the work in Schedule A.\n\n2. Fees means the amounts in Schedule B.\n\n"
        "• a bulleted note\n\nParty | Role\nAcme Corp. | Supplier\nBeta LLC |\n\n"
        "Signed before the break.\nSecond line of the same paragraph."
    )
    assert second.text == "Schedule A lists the services."
    assert third.text == "Schedule B lists the fees.\n\nStill on the Schedule B page."
    assert not any(page.approximate for page in parsed.pages)
    assert all(page.method is ExtractionMethod.NATIVE for page in parsed.pages)
    assert parsed.format == "docx"
    assert parsed.metadata == {"title": "Master Services Agreement", "author": "Acme Legal"}


def test_without_page_breaks_pages_are_estimated_without_splitting_words(tmp_path: Path) -> None:
    document = docx.Document()
    sentences = [
        f"Clause {number}. The supplier shall deliver the goods described in order {number}." for number in range(400)
    ]
    for start in range(0, 400, 4):
        document.add_paragraph(" ".join(sentences[start : start + 4]))
    document.save(tmp_path / "long.docx")
    parsed = parse_file(tmp_path / "long.docx")
    assert len(parsed.pages) > 5
    assert all(page.approximate for page in parsed.pages)
    assert all(len(page.text) <= 3000 for page in parsed.pages)
    assert " ".join(" ".join(page.text.split()) for page in parsed.pages) == " ".join(sentences)


def test_rendered_page_break_marks_split_pages_once(tmp_path: Path) -> None:
    """Word writes a manual break and then a lastRenderedPageBreak mark for the same page
    boundary; that must make one new page, not an empty one."""
    document = docx.Document()
    document.add_paragraph("Page one.")
    document.add_page_break()
    paragraph = document.add_paragraph()
    run = paragraph.add_run("Page two, ")
    run._r.insert(
        0, run._r.makeelement("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}lastRenderedPageBreak", {})
    )
    paragraph.add_run("continued.")
    later = document.add_paragraph()
    later_run = later.add_run("Page three, by Word's last layout.")
    later_run._r.insert(
        0,
        later_run._r.makeelement(
            "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}lastRenderedPageBreak", {}
        ),
    )
    document.save(tmp_path / "rendered.docx")
    assert [page.text for page in parse_file(tmp_path / "rendered.docx").pages] == [
        "Page one.",
        "Page two, continued.",
        "Page three, by Word's last layout.",
    ]


def libreoffice_convert(source: Path, extension: str, scratch: Path) -> Path:
    """`source` saved by LibreOffice as `extension` ("doc", "odt") in a folder of `scratch`, as a user would."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    out_dir = scratch / extension
    subprocess.run(
        [str(soffice), f"-env:UserInstallation={(scratch / 'profile').as_uri()}", "--headless",
         "--convert-to", extension, "--outdir", str(out_dir), str(source)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    return out_dir / f"{source.stem}.{extension}"


@pytest.mark.skipif(not (shutil.which("soffice") or shutil.which("libreoffice")), reason="LibreOffice is not installed")
def test_a_legacy_doc_is_converted_and_parsed(tmp_path: Path) -> None:
    parsed = parse_file(libreoffice_convert(build_agreement(tmp_path / "msa.docx"), "doc", tmp_path))
    assert parsed.format == "doc"
    assert "2. Fees means the amounts in Schedule B." in parsed.pages[0].text
    assert "Acme Corp. | Supplier" in parsed.pages[0].text
    assert "Schedule A lists the services." in parsed.text


@pytest.mark.skipif(not (shutil.which("soffice") or shutil.which("libreoffice")), reason="LibreOffice is not installed")
def test_an_opendocument_text_reads_as_the_word_file_it_was_saved_from(tmp_path: Path) -> None:
    source = build_agreement(tmp_path / "msa.docx")
    parsed = parse_file(libreoffice_convert(source, "odt", tmp_path))
    assert parsed.format == "odt"
    assert parsed.text == parse_file(source).text  # numbering, table and paragraphs as the .docx gives them
    (tmp_path / "not-odt.odt").write_bytes(b"%PDF-1.4 not an opendocument")
    with pytest.raises(DocumentUnreadable, match=r"its name says \.odt but its content looks like a PDF document"):
        parse_file(tmp_path / "not-odt.odt")


def test_a_drafts_comments_follow_their_paragraphs_labelled_with_their_authors(tmp_path: Path) -> None:
    document = docx.Document()
    cap = document.add_paragraph("8.1 Liability is capped at $1,000,000.")
    document.add_comment(cap.runs, text="Client to confirm the cap.", author="Jane Harper", initials="JH")
    term = document.add_paragraph("9.1 The term is three years.")
    document.add_comment(term.runs, text="Counterparty wants five.", author="Robert Client", initials="RC")
    document.add_comment(term.runs, text="Agreed to four as a fallback.", author="Jane Harper", initials="JH")
    document.save(tmp_path / "draft.docx")

    parsed = parse_file(tmp_path / "draft.docx")
    assert parsed.pages[0].text == (
        "8.1 Liability is capped at $1,000,000.\n\n[Comment 1 by Jane Harper] Client to confirm the cap.\n\n"
        "9.1 The term is three years.\n\n[Comment 2 by Robert Client] Counterparty wants five.\n\n"
        "[Comment 3 by Jane Harper] Agreed to four as a fallback."
    )
    assert parsed.metadata["comment_authors"] == "Jane Harper, Robert Client"
    assert parsed.warnings == ()


def build_redline(path: Path) -> Path:
    """A draft as Word saves one with a change tracked: "not " deleted, "promptly " inserted."""
    document = docx.Document()
    paragraph = document.add_paragraph("The Supplier shall ")
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    revision = f'w:id="{{}}" w:author="Robert Client" w:date="2025-03-04T10:15:00Z" xmlns:w="{w}"'
    deleted = f'<w:del {revision.format(1)}><w:r><w:delText xml:space="preserve">not </w:delText></w:r></w:del>'
    inserted = f'<w:ins {revision.format(2)}><w:r><w:t xml:space="preserve">promptly </w:t></w:r></w:ins>'
    paragraph._p.append(docx.oxml.parse_xml(deleted))
    paragraph._p.append(docx.oxml.parse_xml(inserted))
    paragraph.add_run("deliver the Goods.")
    document.add_comment(paragraph.runs, text="Confirm the delivery window.", author="Jane Harper", initials="JH")
    document.save(path)
    return path


REDLINE_WARNING = (
    "This document has tracked changes not yet accepted or rejected (1 insertion, 1 deletion). Its text is "
    "read as if every change were accepted: inserted text included, deleted text left out."
)


def test_a_draft_with_pending_tracked_changes_reads_as_accepted_and_says_so(tmp_path: Path) -> None:
    parsed = parse_file(build_redline(tmp_path / "redline.docx"))
    assert parsed.text == (
        "The Supplier shall promptly deliver the Goods.\n\n"  # as if every change were accepted
        "[Comment 1 by Jane Harper] Confirm the delivery window."
    )
    assert parsed.metadata["tracked_changes"] == "1 insertion, 1 deletion"
    assert parsed.warnings == (REDLINE_WARNING,)


@pytest.mark.skipif(not (shutil.which("soffice") or shutil.which("libreoffice")), reason="LibreOffice is not installed")
@pytest.mark.parametrize("extension", ["odt", "doc"])
def test_comments_and_tracked_changes_survive_a_draft_saved_by_libreoffice(tmp_path: Path, extension: str) -> None:
    parsed = parse_file(libreoffice_convert(build_redline(tmp_path / "redline.docx"), extension, tmp_path))
    assert parsed.text == (
        "The Supplier shall promptly deliver the Goods.\n\n[Comment 1 by Jane Harper] Confirm the delivery window."
    )
    assert parsed.metadata["tracked_changes"] == "1 insertion, 1 deletion"
    assert parsed.warnings == (REDLINE_WARNING,)


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
@pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")
def test_a_scan_pasted_into_word_is_read_by_ocr_instead_of_stored_empty(tmp_path: Path) -> None:
    scan = EVAL_DEV / "docs" / "scan_cuad_ominto_reseller_agreement_p1.png"
    document = docx.Document()
    document.add_picture(str(scan), width=Inches(6.5))
    document.add_picture(str(scan), width=Inches(6.5))  # the same picture shown twice is one image part, read once
    document.save(tmp_path / "exhibit.docx")

    parsed = parse_file(tmp_path / "exhibit.docx")
    [page] = parsed.pages
    assert page.text == parse_file(scan).pages[0].text  # what the scan says, as the image parser reads it
    assert page.method is ExtractionMethod.OCR and (page.ocr_confidence or 0) > 80 and page.approximate
    assert parsed.warnings == ("This Word document has no text of its own, only pictures: its picture was read "
                               "by OCR as its page (page numbers are estimated).",)


def test_a_word_document_with_text_keeps_its_pictures_as_figures(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("Exhibit A shows the reseller agreement's first page.")
    document.add_picture(str(EVAL_DEV / "docs" / "scan_cuad_ominto_reseller_agreement_p1.png"), width=Inches(3))
    document.save(tmp_path / "memo.docx")
    parsed = parse_file(tmp_path / "memo.docx")
    assert parsed.text == "Exhibit A shows the reseller agreement's first page."  # no OCR of a figure
    assert parsed.warnings == ()
