"""A document's page as a picture, with a passage's lines marked: the PDF's own page (PDFium's
character boxes), a scan (Tesseract's word boxes) or, for formats without pages of their own, a
rendering of the page as CaseTrack paged it. Reads one page of the source file, never the whole
document; every picture stays within a bounded pixel size."""

from casetrack.page_image.model import Box, PageDrawing

__all__ = ["Box", "PageDrawing"]
