"""OCR isolated: Tesseract over page images (deskewed, margins read apart), and its punctuation mended."""
