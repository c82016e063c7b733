"""Files on disk -> `ParsedDocument`: one module per format, dispatched by extension;
OCR isolated in `ocr`. Page text follows the conventions in `casetrack.domain`."""

from casetrack.parse.dispatch import CONVERSION_HINTS, SUPPORTED_EXTENSIONS, SUPPORTED_LABEL, parse_file
from casetrack.parse.ocr.engine import OcrStatus, ocr_available, ocr_status
from casetrack.parse.options import ParseOptions
from casetrack.parse.scratch import remove_leftovers

__all__ = [
    "CONVERSION_HINTS",
    "SUPPORTED_EXTENSIONS",
    "SUPPORTED_LABEL",
    "OcrStatus",
    "ParseOptions",
    "ocr_available",
    "ocr_status",
    "parse_file",
    "remove_leftovers",
]
