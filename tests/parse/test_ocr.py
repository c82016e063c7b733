"""OCR against the eval-dev scans (word recall vs. ground truth), and OCR's failure modes."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.domain import ExtractionMethod
from casetrack.parse import ParseOptions, ocr_available, ocr_status, parse_file
from casetrack.parse.ocr.engine import INSTALL_TESSERACT, text_from_tsv

from .evaldev import DOCS, bag_of_words_scores, parsed, reference_text

needs_tesseract = pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")
NO_TESSERACT = ParseOptions(tesseract_cmd="/nonexistent/bin/tesseract")

# Accuracy is bag-of-words recall: the share of ground-truth word occurrences (lower-cased
# \w+ tokens, counted with multiplicity) found in the OCR text. Order-insensitive on purpose:
# the FedEx order has a two-column caption whose reading order is a matter of taste, which
# makes word-sequence edit distance measure layout, not recognition. Precision is checked too,
# so a page of noise cannot pass. Measured: PNG 0.984/0.987, TIFF 0.984/0.976, PDF 0.957/0.976.
SCANS = [
    "scan_cuad_ominto_reseller_agreement_p1.png",
    "scan_ca7_order_fedex_ground_2017.tiff",
    "scan_ca10_order_in_re_liebowitz_2021.pdf",
]


@needs_tesseract
@pytest.mark.parametrize("name", SCANS)
def test_scans_are_read_with_high_word_recall(name: str) -> None:
    document = parsed(name)
    recall, precision = bag_of_words_scores(document.text, reference_text(name))
    assert recall >= 0.85, f"recall {recall:.4f}"
    assert precision >= 0.85, f"precision {precision:.4f}"
    for page in document.pages:
        assert page.method is ExtractionMethod.OCR
        assert page.ocr_confidence is not None and 60 <= page.ocr_confidence <= 100
        assert "\n\n" in page.text  # paragraphs reconstructed from Tesseract's blocks


def test_without_tesseract_a_scan_is_skipped_with_the_fix_named() -> None:
    document = parse_file(DOCS / "scan_cuad_ominto_reseller_agreement_p1.png", NO_TESSERACT)
    [page] = document.pages
    assert page.method is ExtractionMethod.SKIPPED
    assert page.text == ""
    assert page.ocr_confidence is None
    assert any(INSTALL_TESSERACT in warning for warning in page.warnings)
    assert any(INSTALL_TESSERACT in warning for warning in document.warnings)


def test_without_tesseract_a_scanned_pdf_keeps_its_page_count() -> None:
    document = parse_file(DOCS / "scan_ca10_order_in_re_liebowitz_2021.pdf", NO_TESSERACT)
    assert [page.method for page in document.pages] == [ExtractionMethod.SKIPPED]
    assert "1 scanned page(s) have no text (page 1)" in document.warnings[0]


@needs_tesseract
def test_a_page_that_times_out_twice_is_skipped_not_hung() -> None:
    document = parse_file(DOCS / "scan_ca7_order_fedex_ground_2017.tiff", ParseOptions(ocr_timeout_s=0.05))
    [page] = document.pages
    assert page.method is ExtractionMethod.SKIPPED
    assert "OCR timed out twice" in page.warnings[0]


def test_status_names_the_version_or_the_fix() -> None:
    status = ocr_status()
    if status.available:
        assert status.version and status.detail.startswith(f"Tesseract {status.version}")
        assert "eng" in status.languages
    else:
        assert INSTALL_TESSERACT in status.detail
    missing = ocr_status(NO_TESSERACT)
    assert not missing.available and INSTALL_TESSERACT in missing.detail


@needs_tesseract
def test_a_missing_language_is_reported_with_its_package() -> None:
    status = ocr_status(ParseOptions(ocr_language="eng+zzz"))
    assert not status.available
    assert "tesseract-ocr-zzz" in status.detail


TSV = "\n".join(
    [
        "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
        "1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t",
        "5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t96.5\tORDER",
        "5\t1\t2\t1\t1\t1\t0\t0\t10\t10\t90\tThe",
        "5\t1\t2\t1\t1\t2\t0\t0\t10\t10\t80\tcourt,",
        "5\t1\t2\t1\t2\t1\t0\t0\t10\t10\t70\tORDERS",
        "5\t1\t2\t2\t1\t1\t0\t0\t10\t10\t-1\t ",
        "5\t1\t3\t1\t1\t1\t0\t0\t10\t10\t93.5\tEntered",
    ]
)


def test_tsv_words_become_lines_and_paragraphs() -> None:
    text, confidence = text_from_tsv(TSV)
    assert text == "ORDER\n\nThe court,\nORDERS\n\nEntered"
    assert confidence == pytest.approx((96.5 + 90 + 80 + 70 + 93.5) / 5)
    assert text_from_tsv("") == ("", None)


def test_options_are_bounded() -> None:
    from casetrack.errors import InvalidInput

    for bad in ({"ocr_dpi": 600}, {"ocr_workers": 0}, {"ocr_timeout_s": 0}, {"ocr_language": "eng; rm -rf"}):
        with pytest.raises(InvalidInput):
            ParseOptions(**bad)  # type: ignore[arg-type]


@needs_tesseract
def test_ocr_confidence_is_recorded_for_a_synthetic_image(tmp_path: Path) -> None:
    from .synthetic import text_image

    text_image(["Exhibit 7: the signed lease agreement"]).save(tmp_path / "exhibit.png", dpi=(200, 200))
    [page] = parse_file(tmp_path / "exhibit.png").pages
    assert "signed lease agreement" in page.text
    assert page.ocr_confidence is not None and page.ocr_confidence > 80
