"""Quotations of opinions the case holds, by reporter pin cite, and the draft's authorities in or out of the case:
a reporter's copy with page markers (Democracy N.C., 590 F. Supp. 3d 850) and a slip opinion without them
(Fisher, 570 U.S. 297), both real."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.domain import Case
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.service.verify.drafts import read_draft
from casetrack.verify.draft import DraftReport
from casetrack.verify.model import Status

pytestmark = pytest.mark.slow  # its fixture ingests real opinions (one of the default run's slowest): CI runs -m slow

COURT = Path(__file__).resolve().parents[2] / "benchmarks" / "heldout_court" / "docs"
DEMOCRACY = "Democracy North Carolina v. NC State Board of Elections - MDNC opinion and order 2022-03-10.pdf"
FISHER = "Fisher v. University of Texas at Austin - US Supreme Court slip opinion (2013).pdf"
STATUTE = "NC Gen Stat 163-230.2 absentee ballot requests.txt"


@dataclass(frozen=True, slots=True)
class Opinions:
    app: CaseTrack
    case: Case


@pytest.fixture(scope="module")
def opinions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Opinions]:
    app = CaseTrack.open(load_settings(tmp_path_factory.mktemp("opinions") / "CaseTrack", log_level="WARNING"))
    case = app.create_case("Voting cases")
    for name in (DEMOCRACY, FISHER, STATUTE):
        app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(COURT / name)))
    yield Opinions(app, case)
    app.jobs.shutdown()


ENACTED = ("In November 2019, the North Carolina General Assembly enacted Senate Bill 683, An Act to Amend the "
           "Laws Governing Mail-In Absentee Ballots")  # under the marker [590 F.Supp.3d 857]
APPLYING = "Applying that standard, the court upheld the University\u2019s admissions plan"  # Fisher, syllabus, p. 1


def test_a_pin_cite_is_checked_against_the_reporter_pages_of_the_copy_in_the_case(
        opinions: Opinions, tmp_path: Path) -> None:
    report = _verify(
        opinions, tmp_path,
        f"The legislature acted first. \u201c{ENACTED}.\u201d Democracy N.C. v. N.C. State Bd. of Elections, "
        "590 F. Supp. 3d 850, 857 (M.D.N.C. 2022).\n\n"
        f"Then again: \u201c{ENACTED}.\u201d Democracy N.C., 590 F. Supp. 3d at 860.\n\n"
        f"Once more: \u201c{ENACTED}.\u201d Id. at 857.\n\n"
        "This matters under 42 U.S.C. \u00a7 1983, 26 U.S.C. \u00a7 2013, Fed. R. Civ. P. 12(b)(6) and "
        "N.C. Gen. Stat. \u00a7 163-230.2(e).\n")
    first, wrong_pin, again = report.quotes
    assert first.status is Status.VERIFIED
    assert first.cited is not None and first.cited.document_name == DEMOCRACY
    assert first.cited.resolved is not None and first.cited.resolved.endswith("(reporter p. 857)")
    assert wrong_pin.status is Status.WRONG_LOCATION
    assert wrong_pin.found is not None and wrong_pin.found.document_name == DEMOCRACY
    assert again.status is Status.VERIFIED
    by_key = {a.key: a for a in report.authorities}
    democracy = by_key["590 F. Supp. 3d 850"]
    assert democracy.in_case and democracy.document_name == DEMOCRACY
    assert {p.pin: p.inside for p in democracy.pins} == {"857": True, "860": True}
    assert all(p.passage is not None and p.passage.document_name == DEMOCRACY for p in democracy.pins)
    # Fisher's file name ends "(2013)": a section number alone names no statute.
    for outside in ("42 U.S.C. \u00a7 1983", "26 U.S.C. \u00a7 2013", "Fed. R. Civ. P. 12(b)(6)"):
        assert not by_key[outside].in_case and "cannot be checked locally" in by_key[outside].note
    statute = by_key["N.C. Gen. Stat. \u00a7 163-230.2"]
    assert statute.in_case and statute.document_name == STATUTE


def test_a_slip_opinion_without_reporter_pages_leaves_the_pin_unchecked_never_verified(
        opinions: Opinions, tmp_path: Path) -> None:
    report = _verify(
        opinions, tmp_path,
        f"The Court remanded. \u201c{APPLYING}.\u201d Fisher v. Univ. of Tex. at Austin, 570 U.S. 297, 310 (2013).\n\n"
        "It did not say \u201cApplying that standard, the court did not uphold the University\u2019s admissions "
        "plan.\u201d Fisher, 570 U.S. at 310.\n\n"
        "Compare Fisher, 570 U.S. at 5000.\n")
    unchecked, altered = report.quotes
    assert unchecked.status is Status.LOCATION_UNCHECKED
    assert unchecked.found is not None and unchecked.found.document_name == FISHER
    assert "does not show the reporter's page numbers" in unchecked.note
    assert altered.status is Status.DIFFERS
    assert [(d.quote, d.source) for d in altered.differences] == [("did not uphold", "upheld")]
    [fisher] = [a for a in report.authorities if a.key == "570 U.S. 297"]
    assert fisher.in_case and fisher.document_name == FISHER
    assert {p.inside for p in fisher.pins} == {None}  # the slip opinion cannot say where U.S. page 310 is


def _verify(opinions: Opinions, tmp_path: Path, text: str) -> DraftReport:
    """The report on a draft of `text`, read from a file as a user's draft would be."""
    draft = tmp_path / "brief.txt"
    draft.write_text(text, encoding="utf-8")
    return opinions.app.verifier.verify(opinions.case, read_draft(file_path=str(draft))).report
