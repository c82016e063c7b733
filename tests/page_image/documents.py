"""Documents the page-image tests ingest: a three-page lease PDF with one distinctive clause on page 2."""

from __future__ import annotations

from tests.badfiles import text_pdf_bytes

FILLER = "The parties exchanged routine correspondence about scheduling the next meeting of the committee."
CLAUSE = "Section 9.4. The Tenant shall indemnify the Landlord against flood damage."


def lease_pdf_bytes() -> bytes:
    """Three pages of 50 lines each, in paragraphs of five (several passages a page); CLAUSE on page 2."""
    pages = []
    for page in range(1, 4):
        lines = [(50, 760 - 14 * row - 6 * (row // 5), f"P{page}.{row} {FILLER}") for row in range(50)]
        if page == 2:
            lines[27] = (50, lines[27][1], CLAUSE)
        pages.append(lines)
    return text_pdf_bytes(pages, font_size=9)


ANSWER = "A. The forklift struck the loading dock door at about four in the afternoon."


def condensed_transcript_bytes() -> bytes:
    """One sheet printing four deposition pages (two columns of two), each under its own page number with
    rows 1-25; ANSWER is row 12 of the third page (the right column's top)."""
    lines = []
    for index, number in enumerate(range(31, 35)):
        left = 40 if index < 2 else 320
        top = 760 if index % 2 == 0 else 390
        lines.append((left + 200, top, f"Page {number}"))
        for row in range(1, 26):
            text = ANSWER if (number, row) == (33, 12) else \
                f"Q. Question {number}-{row} about the warehouse schedule that week?"
            lines.append((left, top - 13 * row, f"{row:>2}  {text}"))
    return text_pdf_bytes([lines], font_size=6)
