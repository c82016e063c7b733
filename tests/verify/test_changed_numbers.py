"""verify_draft: a quotation with one number (or word) changed is `differs`, showing the two readings, however short
it is. A short quotation keeps few or none of the fingerprints the case is searched by (verify/index.py keeps one
12-letter run in 8), and its changed word takes those: it used to be `not_found`. A real case on disk: a lease as
text and a condensed deposition as a PDF, parsed, stored and verified by the service."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.service.verify.drafts import read_draft
from casetrack.verify.model import QuoteCheck, Status
from tests.transcript_files import condensed_pdf

FILLER = "The parties exchanged routine correspondence about scheduling the next meeting of the committee. " * 3
LEASE = (f"LEASE AGREEMENT\n\n{FILLER}\n\n7.2 Notice. The Tenant shall give written notice of any defect within 30 "
         "days after discovering it, and the Landlord shall repair the defect within 14 days of that notice.\n\n"
         f"{FILLER}\n\n8.1 Rent. The rent is $4,500 per month, payable on the 1st day of each month.\n")


@pytest.fixture(scope="module")
def app_and_case(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[CaseTrack, object]]:
    folder = tmp_path_factory.mktemp("numbers")
    app = CaseTrack.open(load_settings(folder / "data", environ={}))
    case = app.create_case("Harbor Lease")
    lease = folder / "Lease.txt"
    lease.write_text(LEASE, encoding="utf-8")
    for path in (lease, condensed_pdf(folder / "Smith Deposition (condensed).pdf")):
        app.ingestor.ingest(case, IngestRequest(str(path)))
    yield app, case
    app.jobs.shutdown()


def _checked(app_and_case: tuple[CaseTrack, object], draft: str) -> list[QuoteCheck]:
    app, case = app_and_case
    return list(app.verifier.verify(case, read_draft(text=draft)).report.quotes)  # type: ignore[arg-type]


def _shown(check: QuoteCheck) -> list[tuple[str, str]]:
    return [(d.quote, d.source) for d in check.differences]


def test_a_short_quotation_with_a_changed_number_differs_and_shows_both_numbers(
    app_and_case: tuple[CaseTrack, object],
) -> None:
    days, repair, rent, word, exact = _checked(app_and_case, (
        'Section 7.2 requires notice "of any defect within 60 days" (Lease.txt at 1). The Landlord must "repair the '
        'defect within 21 days" (Lease.txt at 1). "The rent is $5,500 per month" (Lease.txt at 1). It must "repair '
        'the problem within 14 days" (Lease.txt at 1). Notice is due "within 30 days after discovering it" '
        "(Lease.txt at 1)."))
    assert days.status is Status.DIFFERS and _shown(days) == [("60", "30")], days
    assert repair.status is Status.DIFFERS and _shown(repair) == [("21", "14")], repair
    assert rent.status is Status.DIFFERS and _shown(rent) == [("5,500", "4,500")], rent  # the amount, whole
    assert word.status is Status.DIFFERS and _shown(word) == [("problem", "defect")], word
    assert exact.status is Status.VERIFIED
    assert days.found is not None and days.found.document_name == "Lease.txt"


def test_a_changed_number_in_a_condensed_deposition_row_differs(app_and_case: tuple[CaseTrack, object]) -> None:
    time, years = _checked(app_and_case, (
        'The videographer said: "Off the record at 10:14 a.m." Smith Dep. 6:15. Smith had worked there "Eleven '
        'years this May." Smith Dep. 4:14.'))
    assert time.status is Status.DIFFERS and _shown(time) == [("10:14", "10:41")], time
    assert time.found is not None and time.found.printed == "6:15"
    assert years.status is Status.DIFFERS and _shown(years) == [("May", "June")], years


def test_a_short_quotation_the_case_does_not_hold_is_still_not_found(app_and_case: tuple[CaseTrack, object]) -> None:
    invented, loose = _checked(app_and_case, (
        'The lease says "the Tenant may sublet the premises freely" (Lease.txt at 1). Smith said "the crane '
        'operator was drunk" Smith Dep. 7:5.'))
    assert invented.status is Status.NOT_FOUND, invented
    assert loose.status is Status.NOT_FOUND, loose
