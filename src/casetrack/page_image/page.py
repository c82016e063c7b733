"""Which drawing a stored page gets: the PDF's own page, the scan, or a rendering of CaseTrack's text."""

from __future__ import annotations

from pathlib import Path

from casetrack.domain import ExtractionMethod, PageWords, StoredPage
from casetrack.errors import DocumentUnreadable
from casetrack.page_image.model import PageDrawing
from casetrack.page_image.pdf_page import draw_pdf_page
from casetrack.page_image.scan_page import draw_scan_page
from casetrack.page_image.text_page import draw_text_page
from casetrack.page_image.word_page import WORD_FORMATS, draw_word_page
from casetrack.parse.formats import IMAGE_ID, PDF
from casetrack.parse.options import ParseOptions

_PAGED_FILES = (PDF.id, IMAGE_ID)  # formats whose pages are the file's own, drawn from it


def draw_page(source: Path | None, file_format: str, page: StoredPage, span: tuple[int, int] | None,
              title: str, options: ParseOptions, words: PageWords | None = None,
              converted: Path | None = None) -> PageDrawing:
    """Stored `page` of a document in `file_format` whose file is at `source` (None or missing: gone),
    `span` (offsets into the page's text) marked; `title` names the page in a rendering's caption
    ("page 3 (est.) of Letter.docx"); `words`: Tesseract's words on a scanned page, as ingest kept them;
    `converted`: where LibreOffice's PDF of a Word file is kept (made there at the first drawing).
    Raises DocumentUnreadable when there is nothing to draw from."""
    passage = page.text[span[0]:span[1]] if span else None
    expected = span[0] / max(len(page.text), 1) if span else 0.0
    present = source is not None and source.is_file()
    own_page = file_format in _PAGED_FILES and page.attachment is None
    if own_page and present:
        assert source is not None
        if file_format == PDF.id and page.method is ExtractionMethod.NATIVE:
            return draw_pdf_page(source, page.number, passage, expected)
        return draw_scan_page(source, file_format, page.number, passage, expected, options, words)
    if file_format in WORD_FORMATS and present and page.attachment is None and converted is not None:
        assert source is not None
        drawn = draw_word_page(source, converted, page.text, page.number, span, options)
        if drawn is not None:
            return drawn
    if own_page:
        caption = f"The file is not at {source}: a rendering of CaseTrack's text of {title}, not the page itself"
    elif page.attachment is not None:
        caption = f"A rendering of CaseTrack's text of {title} (from {page.attachment}), not the original's layout"
    else:
        caption = f"A rendering of CaseTrack's text of {title}, not the original's layout"
    if not page.text.strip():
        where = f"its file is not at {source}" if own_page else "CaseTrack holds no text for it"
        raise DocumentUnreadable(str(source or title), f"{title} cannot be drawn: {where}",
                                 "Put the file back where it was (or sync its folder) and try again.")
    return draw_text_page(page.text, page.line_width, span, caption)
