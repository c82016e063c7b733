"""The record citations verify_draft resolves, each to the place it names in a real case: exhibits, sections,
numbered paragraphs and printed lines of a pleading, a transcript's page:line, docket entries, Bates
stamps, `Id.`; and citations it cannot resolve, reported as such."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.domain import Case
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.service.verify.drafts import read_draft
from casetrack.verify.model import QuoteCheck, Status
from tests.badfiles import text_pdf_bytes
from tests.conftest import EVAL_DEV
from tests.parse.test_printed_line_numbers import pleading_pdf

TEXT = EVAL_DEV / "text"


@dataclass(frozen=True, slots=True)
class Record:
    app: CaseTrack
    case: Case
    transcript_lines: list[str]  # lines 1-25 of the transcript's page 45


def _transcript(path: Path) -> list[str]:
    """A deposition transcript as text with form feeds: printed pages 44 and 45, lines 1-25, the testimony's
    words taken from a real document (the Biopure agreement)."""
    words = " ".join((TEXT / "cuad_biopure_agency_agreement.txt.txt").read_text(encoding="utf-8").split()).split()
    lines = [" ".join(words[i:i + 9]) for i in range(400, 400 + 50 * 9, 9)]
    pages = []
    for n, page in enumerate((44, 45)):
        rows = "\n".join(f"{row:>2}   {lines[n * 25 + row - 1]}" for row in range(1, 26))
        pages.append(f"{page:>60}\n{rows}")
    path.write_text("\f".join(pages), encoding="utf-8")
    return lines[25:]


def _ebix_pages() -> list[str]:
    """The Ebix agreement's reference pages, in the characters a PDF's standard font can show."""
    text = (TEXT / "cuad_ebix_cobranding_agreement.pdf.txt").read_text(encoding="utf-8")
    return text.encode("cp1252", "replace").decode("cp1252").replace("?", " ").split("\f")


def _production(path: Path) -> None:
    """Two pages of the Ebix agreement as produced in discovery, stamped ACME000123 and ACME000124."""
    drawn = []
    for n, page in enumerate(_ebix_pages()[1:3]):
        rows = [(54.0, 750.0 - 12 * i, line) for i, line in enumerate(page.split("\n")[:55]) if line.strip()]
        drawn.append([*rows, (480.0, 30.0, f"ACME000{123 + n}")])
    path.write_bytes(text_pdf_bytes(drawn, font_size=9))


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Record]:
    folder = tmp_path_factory.mktemp("record")
    shutil.copy(EVAL_DEV / "docs" / "cuad_netgear_distributor_agreement.pdf",
                folder / "Ex. 4 - NETGEAR Distributor Agreement.pdf")
    shutil.copy(EVAL_DEV / "docs" / "cuad_lucid_distributor_agreement.pdf",
                folder / "Ex. 5 - Lucid Distributor Agreement.pdf")
    shutil.copy(EVAL_DEV / "docs" / "ca2_docketing_notice_nfl_2017.pdf", folder / "Docketing Notice.pdf")
    pleading_pdf(folder / "Complaint - Doe v Acme.pdf")
    transcript = _transcript(folder / "Smith Deposition.txt")
    _production(folder / "Production Volume 1.pdf")
    app = CaseTrack.open(load_settings(folder / "CaseTrack", log_level="WARNING"))
    case = app.create_case("Doe v. Acme")
    for path in sorted(folder.iterdir()):
        if path.is_file():
            app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(path)))
    yield Record(app, case, transcript)
    app.jobs.shutdown()


def checked(record: Record, tmp_path: Path, draft: str) -> tuple[QuoteCheck, ...]:
    path = tmp_path / "brief.txt"
    path.write_text(draft, encoding="utf-8")
    return record.app.verifier.verify(record.case, read_draft(file_path=str(path))).report.quotes


NETGEAR_ORDER = "No order will be effective until accepted by delivery of NETGEAR's order acknowledgment."
TERMINATED = "On January 15, 2021, Defendant terminated Plaintiff without notice."


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_exhibits_sections_and_id_resolve_to_their_places(record: Record, tmp_path: Path) -> None:
    quotes = checked(record, tmp_path, (
        f'Orders bind only once accepted: "{NETGEAR_ORDER}" Ex. 4 at 2. '
        f'Section 3 says so: "{NETGEAR_ORDER}" Ex. 4 \u00a7 3. '
        f'Not section 4: "{NETGEAR_ORDER}" Id. \u00a7 4. '
        f'Nor page 5: "{NETGEAR_ORDER}" Ex. 4 at 5. '
        f'Nor exhibit 9: "{NETGEAR_ORDER}" Ex. 9 at 2.\n'))
    assert [q.status for q in quotes] == [Status.VERIFIED, Status.VERIFIED, Status.WRONG_LOCATION,
                                          Status.WRONG_LOCATION, Status.WRONG_LOCATION]
    at_page, in_section, other_section, other_page, no_exhibit = quotes
    assert at_page.cited is not None and at_page.cited.resolved == "Ex. 4 - NETGEAR Distributor Agreement.pdf, p. 2"
    assert in_section.cited is not None and in_section.cited.resolved is not None
    assert in_section.cited.resolved.endswith("\u00a7 3 (p. 2)")
    assert other_section.cited is not None and other_section.cited.paragraph == "\u00a7 4"
    for wrong in (other_section, other_page, no_exhibit):
        assert wrong.found is not None and wrong.found.page == 2
        assert wrong.found.citation.startswith("Ex. 4 - NETGEAR Distributor Agreement.pdf, p. 2, para. ")
    assert no_exhibit.cited is not None and no_exhibit.cited.resolved is None
    assert "no document in the case is exhibit 9" in no_exhibit.note


def test_a_pleading_is_cited_by_numbered_paragraph_and_printed_line(record: Record, tmp_path: Path) -> None:
    quotes = checked(record, tmp_path, (
        f'The complaint alleges that "{TERMINATED}" Compl. \u00b6 3. '
        f'Again, "{TERMINATED}" Compl. 1:22-23. '
        f'Not in paragraph 2: "{TERMINATED}" Compl. \u00b6 2. '
        f'Nor at lines 17-18: "{TERMINATED}" Compl. 1:17-18.\n'))
    assert [q.status for q in quotes] == [Status.VERIFIED, Status.VERIFIED, Status.WRONG_LOCATION,
                                          Status.WRONG_LOCATION]
    paragraph, lines, _, _ = quotes
    assert paragraph.cited is not None and paragraph.cited.paragraph == "\u00b6 3"
    assert lines.found is not None and (lines.found.line_start, lines.found.line_end) == (22, 23)
    assert lines.cited is not None and lines.cited.lines == (22, 23)
    assert lines.found.citation.startswith("Complaint - Doe v Acme.pdf, p. 1, para. ")
    assert lines.found.citation.endswith("ll. 22-23")


def test_a_transcript_is_cited_by_its_printed_page_and_lines(record: Record, tmp_path: Path) -> None:
    testimony = " ".join(record.transcript_lines[2:5])  # printed lines 3-5 of page 45
    quotes = checked(record, tmp_path, (
        f'Smith testified that "{testimony}" Smith Dep. 45:3-5. '
        f'He did not say it later: "{testimony}" Smith Dep. 45:10-12. '
        f'Nor on page 44: "{testimony}" Smith Dep. 44:3-5.\n'))
    assert [q.status for q in quotes] == [Status.VERIFIED, Status.WRONG_LOCATION, Status.WRONG_LOCATION]
    right = quotes[0]
    assert right.found is not None and right.found.page == 2  # the file's second page prints 45
    assert (right.found.line_start, right.found.line_end) == (3, 5)
    assert quotes[1].found is not None and quotes[1].found.line_start == 3


def test_docket_entries_bates_stamps_and_page_breaks(record: Record, tmp_path: Path) -> None:
    notice = "The Court's records will be updated within 1 business day of a user entering the change in PACER."
    across = ("To update contact information, a Filing User must access PACER's Manage My Appellate Filer "
              "Account")  # runs from page 1 onto page 2, past the ECF header
    stamped = [line for line in _ebix_pages()[2].split("\n")[:55] if len(line.split()) > 8][3]
    quotes = checked(record, tmp_path, (
        f'The notice warns: "{notice}" ECF No. 1 at 2. '
        f'It adds: "{notice}" Dkt. 1 at 1. '
        f'"{across}" ECF No. 1 at 1-2. '
        f'The produced copy reads "{stamped}" ACME000124. '
        f'Not "{stamped}" (ACME000123). '
        f'Nor "{stamped}" (ZZZ000777).\n'))
    assert [q.status for q in quotes] == [Status.VERIFIED, Status.WRONG_LOCATION, Status.VERIFIED,
                                          Status.VERIFIED, Status.WRONG_LOCATION, Status.WRONG_LOCATION]
    assert quotes[0].cited is not None and quotes[0].cited.document_name == "Docketing Notice.pdf"
    crossing = quotes[2].found
    assert crossing is not None and (crossing.page, crossing.page_end) == (1, 2)
    assert "Page2 of 2" not in crossing.citation
    assert quotes[3].cited is not None and quotes[3].cited.document_name == "Production Volume 1.pdf"
    assert quotes[3].found is not None and quotes[3].found.page == 2
    assert quotes[3].found.citation.endswith("(ACME000124)")
    assert "no page in the case is stamped ZZZ000777" in quotes[5].note


def test_an_ambiguous_name_is_reported_never_guessed(record: Record, tmp_path: Path) -> None:
    ambiguous, named = checked(record, tmp_path, f'"{NETGEAR_ORDER}" Distributor Agreement at 2. '
                                                 f'"{NETGEAR_ORDER}" NETGEAR Agmt. at 2.\n')
    assert ambiguous.cited is not None and ambiguous.cited.resolved is None
    assert "could be any of" in ambiguous.note and "Lucid" in ambiguous.note and "NETGEAR" in ambiguous.note
    assert ambiguous.status is Status.WRONG_LOCATION  # found, but the draft's citation names no one place
    assert ambiguous.found is not None and ambiguous.found.document_name.startswith("Ex. 4 - NETGEAR")
    assert named.status is Status.VERIFIED
