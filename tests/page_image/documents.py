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
