"""Landscape pages: /Rotate with the content drawn turned, so the page reads upright on screen.

PDFium places characters in the unrotated page's space, where such text runs up, down or
right to left; the page must still read exactly like the same text on a portrait page:
same lines, same order, same paragraph breaks, and so the same paragraph numbers in chunks.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter, Transformation

from casetrack.chunk import chunk_pages
from casetrack.domain import DocumentType
from casetrack.parse import parse_file
from tests.badfiles import text_pdf_bytes

# A schedule: a heading, a table whose rows are two cells on one line (PDFium joins them), a paragraph
# after a gap, and one that starts with a first-line indent only (no larger gap).
SCHEDULE = [
    (72, 560, "Schedule 2: payments due under the settlement"),
    (72, 532, "Instalment one"),
    (300, 532, "USD 12,500 on signing"),
    (72, 518, "Instalment two"),
    (300, 518, "USD 7,500 by 30 June"),
    (72, 490, "Each payment is made by wire transfer to the account"),
    (72, 476, "named in clause 4, without set-off or deduction."),
    (90, 462, "Late payments carry interest at the statutory rate"),
    (72, 448, "from the day after the due date until paid."),
]
PORTRAIT_TEXT = (
    "Schedule 2: payments due under the settlement\n\n"
    "Instalment one USD 12,500 on signing\nInstalment two USD 7,500 by 30 June\n\n"
    "Each payment is made by wire transfer to the account\nnamed in clause 4, without set-off or deduction.\n\n"
    "Late payments carry interest at the statutory rate\nfrom the day after the due date until paid."
)
# Content turned by the page's own rotation reads upright on screen: /Rotate 90 turns the page
# a quarter clockwise, so its content is drawn a quarter anticlockwise (then moved back onto the page).
UPRIGHT_ON_SCREEN = {
    90: Transformation().rotate(90).translate(612, 0),
    180: Transformation().rotate(180).translate(612, 792),
    270: Transformation().rotate(270).translate(0, 792),
}


def rotated_pdf(path: Path, rotations: list[int], lines: list[tuple[float, float, str]] = SCHEDULE) -> Path:
    """One page per rotation, each with `lines`, drawn so that it reads upright on screen."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(text_pdf_bytes([lines] * len(rotations)))))
    for page, rotation in zip(writer.pages, rotations, strict=True):
        if rotation:
            page.add_transformation(UPRIGHT_ON_SCREEN[rotation])
            page.rotate(rotation)
    with path.open("wb") as out:
        writer.write(out)
    return path


def test_the_portrait_schedule_reads_as_expected(tmp_path: Path) -> None:
    [page] = parse_file(rotated_pdf(tmp_path / "portrait.pdf", [0])).pages
    assert page.text == PORTRAIT_TEXT


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_a_rotated_page_with_upright_content_reads_like_the_portrait_page(tmp_path: Path, rotation: int) -> None:
    [page] = parse_file(rotated_pdf(tmp_path / f"rotate{rotation}.pdf", [rotation])).pages
    assert page.text == PORTRAIT_TEXT


def test_rotated_and_portrait_pages_of_one_document_give_the_same_chunk_provenance(tmp_path: Path) -> None:
    # Long enough for several chunks per page, so paragraph numbers past the first are checked.
    paragraphs = [
        [
            f"Paragraph {number} sets out term {number} of the schedule of payments agreed by the parties, "
            f"line {line} of three."
            for line in (1, 2, 3)
        ]
        for number in range(1, 9)
    ]
    lines, y = [], 560.0
    for paragraph in paragraphs:
        for text in paragraph:
            lines.append((72.0, y, text))
            y -= 14
        y -= 14
    document = parse_file(rotated_pdf(tmp_path / "mixed.pdf", [0, 90, 180, 270], lines))
    assert document.pages[0].text == "\n\n".join("\n".join(paragraph) for paragraph in paragraphs)
    assert [page.text for page in document.pages] == [document.pages[0].text] * 4

    chunks = chunk_pages(document.pages, DocumentType.PLEADING)
    by_page = {
        number: [
            (chunk.text, chunk.paragraph_start, chunk.paragraph_end, chunk.line_start, chunk.line_end)
            for chunk in chunks
            if chunk.page == number
        ]
        for number in (1, 2, 3, 4)
    }
    assert len(by_page[1]) > 1 and by_page[1][-1][2] == len(paragraphs)
    assert by_page[2] == by_page[3] == by_page[4] == by_page[1]


# Lines without same-line pieces: a gap paragraph, then an indent-only paragraph.
CLAUSES = [
    (72, 560, "1. Payment"),
    (72, 532, "The buyer pays the price within thirty days"),
    (72, 518, "of the invoice date."),
    (90, 504, "Interest runs on late payments at the"),
    (72, 490, "statutory rate."),
]
CLAUSES_TEXT = (
    "1. Payment\n\nThe buyer pays the price within thirty days\nof the invoice date.\n\n"
    "Interest runs on late payments at the\nstatutory rate."
)


@pytest.mark.parametrize("content_turn", [0, 90, 180, 270])
@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_a_rotated_page_keeps_line_order_and_paragraphs_however_its_content_is_turned(
    tmp_path: Path, rotation: int, content_turn: int
) -> None:
    """Content drawn unturned (a portrait page turned in a viewer and saved) or turned some other
    way reads sideways or upside down on screen; it must still read top to bottom as drawn.
    PDFium orders the lines of text running down the screen bottom first, when they start at one
    left edge (content_turn == rotation - 90)."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(text_pdf_bytes([CLAUSES]))))
    if content_turn:
        writer.pages[0].add_transformation(UPRIGHT_ON_SCREEN[content_turn])
    writer.pages[0].rotate(rotation)
    path = tmp_path / f"rotate{rotation}_turn{content_turn}.pdf"
    with path.open("wb") as out:
        writer.write(out)
    [page] = parse_file(path).pages
    assert page.text == CLAUSES_TEXT
