"""verify_draft reads a transcript's record cites as briefs write them (issue 37): "Smith Dep. 4:17-18", "Dep.",
"Hr'g Tr. 12:4", "Trial Tr. vol. II 3:5", "Id. at 4:20-21"; it compares a quotation with the rows cited after
taking out their line numbers and the "Page 5" between two transcript pages of a condensed sheet, and names the
transcript page:line where it found the words. A real case on disk: the PDF and text parsers, the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.service.verify.drafts import read_draft
from casetrack.verify.model import QuoteCheck, Status
from tests.transcript_files import (
    HEARING_LINE,
    TRIAL_LINE,
    condensed_pdf,
    full_page_text,
    hearing_pages,
    smith_with_errata,
    trial_pages,
)


@pytest.fixture(scope="module")
def app_and_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[CaseTrack, object]:
    folder = tmp_path_factory.mktemp("transcripts")
    app = CaseTrack.open(load_settings(folder / "data"))
    case = app.create_case("Harbor Freight")
    files = [condensed_pdf(folder / "Smith Deposition (condensed).pdf"), folder / "Motion hearing 2021-03-10.txt",
             folder / "Jury trial day 2.txt"]
    files[1].write_text(full_page_text(hearing_pages(), "Official Court Reporter"), encoding="utf-8")
    files[2].write_text(full_page_text(trial_pages(), "Official Court Reporter"), encoding="utf-8")
    for path in files:
        app.ingestor.ingest(case, IngestRequest(str(path)))
    return app, case


def _checked(app_and_case: tuple[CaseTrack, object], draft: str) -> list[QuoteCheck]:
    app, case = app_and_case
    return list(app.verifier.verify(case, read_draft(text=draft)).report.quotes)  # type: ignore[arg-type]


def test_a_quotation_over_two_rows_of_a_condensed_deposition_is_verified_at_the_rows_cited(
    app_and_case: tuple[CaseTrack, object],
) -> None:
    said = "I signed it myself, on the morning the load left the yard."
    right, wrong, over_pages = _checked(app_and_case, (
        f'Smith conceded: "{said}" (Smith Dep. 4:17-18). He repeated it: "{said}" (Smith Dep. 6:17-18). '
        '"I told my supervisor, Ms. Kaur. (Smith Exhibit 1 marked for identification.)" Smith Dep. 4:23-5:1.'))
    assert right.status is Status.VERIFIED and right.found is not None and right.found.printed == "4:17-18"
    assert wrong.status is Status.WRONG_LOCATION and wrong.found is not None and wrong.found.printed == "4:17-18"
    assert wrong.found.citation.endswith("printed 4:17-18")
    assert over_pages.status is Status.VERIFIED, over_pages  # over "Page 5" and the blank rows 24-25


def test_hearing_and_trial_transcripts_are_named_as_briefs_name_them(app_and_case: tuple[CaseTrack, object]) -> None:
    ruling = HEARING_LINE.removeprefix("THE COURT: ")
    answer = TRIAL_LINE.removeprefix("A. ")
    checks = _checked(app_and_case, (
        f'The court ruled: "{ruling}" Hr\'g Tr. 12:4. Ms. Kaur said "{answer}" Trial Tr. vol. II 3:5. '
        f'And "No one did." Id. at 3:7. Smith: "Nobody inspected it." Dep. 4:20. "Nobody inspected it." Tr. 4:20.'))
    hearing, trial, same, deposition, bare = checks
    assert hearing.status is Status.VERIFIED and hearing.found is not None and hearing.found.printed == "12:4"
    assert trial.status is Status.VERIFIED and trial.cited.document_name == "Jury trial day 2.txt"
    assert same.status is Status.VERIFIED and same.cited.kind == "id"
    assert deposition.status is Status.VERIFIED  # the case's only deposition
    # "Tr." names every transcript of the case; naming.match_document's tie-break (fewest other words in the file
    # name) picks one, and the quotation is checked there: before, "Tr." named no document at all
    assert bare.cited.document_id is not None and bare.status is Status.VERIFIED


def test_a_quotation_of_a_row_the_errata_sheet_corrects_says_which_reading_it_matches(tmp_path: Path) -> None:
    """Smith's errata sheet changes 5:14 "Four hundred" to "Three hundred": quoting the printed row is verified and
    told of the correction; quoting the corrected reading is verified as the errata sheet's, not "differs"."""
    app = CaseTrack.open(load_settings(tmp_path / "data"))
    case = app.create_case("Errata")
    app.ingestor.ingest(case, IngestRequest(str(condensed_pdf(tmp_path / "Smith Dep.pdf", smith_with_errata()))))
    printed, corrected, untouched = app.verifier.verify(case, read_draft(text=(
        'Smith: "Four hundred, all heat treated." (Smith Dep. 5:14). As corrected: "Three hundred, all heat '
        'treated." (Smith Dep. 5:14). "I signed it myself" Smith Dep. 4:17.'))).report.quotes
    assert printed.status is Status.VERIFIED and "errata sheet changes 5:14" in printed.note
    assert corrected.status is Status.VERIFIED and "matches the reading of the transcript's errata sheet" in \
        corrected.note and corrected.found is not None and corrected.found.printed == "5:14"
    assert untouched.status is Status.VERIFIED and "errata" not in untouched.note
