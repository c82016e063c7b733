"""How parsing may behave: OCR language, resolution, time limits, external tool paths and where temporary
files go."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from casetrack.errors import InvalidInput

MIN_OCR_DPI = 72
# Above 300 dpi Tesseract gets slower without reading better, and a 600-dpi letter page is ~34 MP in memory.
MAX_OCR_DPI = 300
MAX_OCR_WORKERS = 16


@dataclass(frozen=True, slots=True)
class ParseOptions:
    ocr_language: str = "eng"  # Tesseract language code(s), e.g. "eng" or "eng+deu"
    ocr_dpi: int = 200  # upper bound for rendering scanned PDF pages
    ocr_timeout_s: float = 60.0  # per Tesseract call; a timed-out page is retried once, then skipped
    ocr_workers: int = 2  # Tesseract processes running at once
    max_file_bytes_warn: int = 100 * 1024 * 1024
    tesseract_cmd: str | None = None  # None: look for `tesseract` on PATH
    soffice_cmd: str | None = None  # None: look for `soffice` / `libreoffice` on PATH
    attachment_depth: int = 0  # how many e-mails this file is attached inside (parse_eml bounds the nesting)
    scratch_dir: Path | None = None  # temporary copies of client content (parse/scratch.py); None: the system's

    def __post_init__(self) -> None:
        if not MIN_OCR_DPI <= self.ocr_dpi <= MAX_OCR_DPI:
            raise InvalidInput(f"ocr_dpi must be between {MIN_OCR_DPI} and {MAX_OCR_DPI} (got {self.ocr_dpi}).")
        if not 1 <= self.ocr_workers <= MAX_OCR_WORKERS:
            raise InvalidInput(f"ocr_workers must be between 1 and {MAX_OCR_WORKERS} (got {self.ocr_workers}).")
        if not self.ocr_timeout_s > 0:
            raise InvalidInput(f"ocr_timeout_s must be a positive number of seconds (got {self.ocr_timeout_s}).")
        if not self.ocr_language or not all(part.replace("_", "").isalnum() for part in self.ocr_language.split("+")):
            raise InvalidInput(
                f'ocr_language must be Tesseract language codes such as "eng" or "eng+deu" (got "{self.ocr_language}").'
            )
        if self.max_file_bytes_warn < 0:
            raise InvalidInput("max_file_bytes_warn must not be negative.")
