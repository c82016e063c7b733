"""verify_draft on a deposition whose row 11 had its number blacked out by a redaction (Maxwell's deposition in
benchmarks/heldout_lit prints "10 Q. Were you in the house when", then row 11's words without their number). The
rows after it were read as no transcript rows, so their numbers stayed in what a quotation is compared with, and a
quotation running over them, as a brief quotes it (no row numbers), read `differs` with "12" and "13" as words it
left out. The rows after a hidden number go on: the quotation is `verified`, and its rows are cited by page and
line. A real case: the PDF parsed and stored by the service."""

from __future__ import annotations

from pathlib import Path

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.service.verify.drafts import read_draft
from casetrack.verify.model import Status
from tests.badfiles import text_pdf_bytes

ROWS = {
    1: "G. Lane - Confidential", 2: "A. No.", 3: "Q. Were you aware that the driver was",
    4: "working for the company when", 5: "she was sixteen years old?", 6: "MR. PAGE: Object to the form",
    7: "and foundation.", 8: "A. I would be very shocked and", 9: "surprised if that were true.",
    10: "Q. Were you in the house when", 11: "was in the house in a private area",
    12: "with the dispatcher?", 13: "MR. PAGE: Object to the form", 14: "and foundation.",
    15: "A. Can you repeat the question.", 16: "Q. Were you ever in the Harbor Road",
    17: "depot when the dispatcher was in the depot", 18: "with the driver?", 19: "MR. PAGE: Object to the form",
    20: "and foundation.", 21: "A. I have already testified that I have", 22: "no recollection of that.",
    23: "Q. Did you ever see the dispatcher", 24: "give the driver a route sheet?", 25: "A. Not that I recall.",
}  # fmt: skip
REDACTED = 11  # its number blacked out: the words stay, the number is gone


def _deposition(path: Path) -> Path:
    cover = [(200, 700, "DEPOSITION OF GRETA LANE"), (200, 680, "Taken March 3, 2021")]
    cover += [(60, 640 - 14 * n, f"{n:>2}  Q. Opening question {n} about the witness's work history?")
              for n in range(1, 26)]
    page = [(260, 780, "Page 39")]
    page += [(60 if n != REDACTED else 74, 760 - 14 * n, f"{n:>2}  {text}" if n != REDACTED else text)
             for n, text in ROWS.items()]
    path.write_bytes(text_pdf_bytes([cover, page], font_size=8))
    return path


def test_a_quotation_of_rows_after_a_redacted_row_number_is_verified(tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(tmp_path / "data", environ={}))
    case = app.create_case("Depot")
    app.ingestor.ingest(case, IngestRequest(str(_deposition(tmp_path / "Lane Deposition.pdf"))))
    draft = ('She was asked: "Q. Were you in the house when was in the house in a private area with the dispatcher? '
             'MR. PAGE: Object to the form and foundation. A. Can you repeat the question." (Lane Deposition at 2). '
             'And: "Q. [W]ere you ever in the Harbor Road depot when the dispatcher was in the depot with the '
             'driver?" (Lane Deposition at 2). Not: "A. I have already testified that I have some recollection '
             'of that." (Lane Deposition at 2).')
    across, after, changed = app.verifier.verify(case, read_draft(text=draft)).report.quotes
    assert across.status is Status.VERIFIED, across
    assert across.found is not None and across.found.printed == "39:10-15", across.found  # cited by page:line
    assert after.status is Status.VERIFIED, after
    assert changed.status is Status.DIFFERS and [(d.quote, d.source) for d in changed.differences] == [
        ("some", "no")], changed
    app.jobs.shutdown()
