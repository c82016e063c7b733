"""A quote from a scan reads as the page reads: a period Tesseract put where the scan has a space
("the 19 day.of March", "within.20 days") is mended, and real abbreviations, decimals, section
numbers and addresses are left as printed. Real Tesseract on the eval-dev scans and on a
rendered page."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.parse.dispatch import parse_file
from casetrack.parse.ocr.engine import ocr_available
from casetrack.parse.ocr.punctuation import mend
from tests.parse.evaldev import DOCS
from tests.parse.synthetic import text_image

needs_ocr = pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")


@pytest.mark.parametrize(("read", "meant"), [
    ("day.of", "day of"), ("within.20", "within 20"), ("alliance.between", "alliance between"),
    ("19th.day", "19th day"), ("day.of,", "day of,"),
    ("No.20", "No. 20"), ("Inc.and", "Inc. and"), ("Agreement.The", "Agreement. The"),  # the space was lost
    ("U.S.", "U.S."), ("U.S.C.", "U.S.C."), ("e.g.,", "e.g.,"), ("p.12", "p.12"), ("1.5", "1.5"),
    ("§2.1", "§2.1"), ("10.25", "10.25"), ("6.1-CONFIDENTIALITY", "6.1-CONFIDENTIALITY"), ("$4.50", "$4.50"),
    ("www.x.com", "www.x.com"), ("www.ca10.uscourts.gov", "www.ca10.uscourts.gov"),
    ("j.doe@firm.com", "j.doe@firm.com"), ("Agreement.pdf", "Agreement.pdf"), ("3.5mm", "3.5mm"),
])
def test_a_period_read_for_a_space_is_mended_and_nothing_else(read: str, meant: str) -> None:
    assert mend(read) == meant


@needs_ocr
def test_the_eval_dev_scans_read_as_printed() -> None:
    ominto = parse_file(DOCS / "scan_cuad_ominto_reseller_agreement_p1.png").pages[0].text
    for printed in ("the 19 day of March, 2004", "who may include", "alliance between the parties",
                    "if such information were disclosed"):
        assert printed in " ".join(ominto.split()), printed
    assert "10.25" in ominto and "5.1" in ominto  # an exhibit number and a section number, as printed
    liebowitz = " ".join(page.text for page in parse_file(DOCS / "scan_ca10_order_in_re_liebowitz_2021.pdf").pages)
    assert "within 20 days of the date of this" in " ".join(liebowitz.split())
    assert "uscourts.gov" in liebowitz  # the court's web address keeps its periods


@needs_ocr
def test_a_rendered_page_keeps_abbreviations_decimals_sections_and_addresses(tmp_path: Path) -> None:
    text_image([
        "Filed in the U.S. District Court on the 19 day.of March, 2021,",
        "and answered within.20 days of service, as Rule 5.1 requires.",
        "Interest accrues at 1.5 percent under § 2.1 of the Agreement;",
        "see www.example.com, e.g., the notice at No. 5, 42 U.S.C. § 1983.",
    ]).save(tmp_path / "scan.png", dpi=(200, 200))
    read = " ".join(parse_file(tmp_path / "scan.png").pages[0].text.split())
    assert read == ("Filed in the U.S. District Court on the 19 day of March, 2021, and answered within 20 days of "
                    "service, as Rule 5.1 requires. Interest accrues at 1.5 percent under § 2.1 of the Agreement; "
                    "see www.example.com, e.g., the notice at No. 5, 42 U.S.C. § 1983.")
