"""PDF: the text layer read by PDFium into lines and pages; pages without usable text go to OCR."""
