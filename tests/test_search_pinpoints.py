"""A deposition cited by page and line ("Smith Dep. 4:12") and a complaint by paragraph ("¶ 24") find the passage
cited, though the transcript prints "Page 4" above rows numbered 1-25 and the complaint "24." at a line's start:
neither shares a word with the citation, and their bare numbers are on every page (issue 21, chunk.pinpoints).
A real case on disk, the text parser, chunking, BM25 and the packaged E7 embedder."""

from __future__ import annotations

import pytest

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.service.verify.drafts import read_draft
from casetrack.verify.model import Status
from tests.badfiles import text_pdf_bytes

ANSWERS = ["I do not recall the exact date of that meeting.", "We discussed the shipment schedule for the spring.",
           "The invoices were sent to the accounting office.", "I believe it was in the second quarter of the year."]
TARGET = "I never read the supply contract before I signed it."
EXCERPTED = "The forklift was parked across the loading bay door all morning."
PARAGRAPH = "24. In March 2019 the Defendant shipped the nonconforming goods to the Plaintiff's warehouse."


def _transcript(pages: range = range(1, 7), said: str = TARGET, at: tuple[int, int] = (4, 12), feed: str = "") -> str:
    """A deposition as a text file: each page's number printed above its 25 numbered rows, `said` at page:row `at`;
    the pages end with `feed` (a form feed, in a file exported page by page)."""
    out = []
    for page in pages:
        out.append(f"Page {page}")
        for row in range(1, 26):
            if (page, row) == at:
                out.append(f"{row:>2}   A. {said}")
            elif row % 2:
                out.append(f"{row:>2}   Q. Can you tell me what happened on page {row} of the exhibit?")
            else:
                out.append(f"{row:>2}   A. {ANSWERS[(page + row) % len(ANSWERS)]}")
        out[-1] += feed
    return "\n".join(out) + "\n"


def _exhibit_pdf() -> bytes:
    """A deposition filed as an exhibit: a cover page, then one transcript page per page of the file, each under the
    court's filing stamp and its own number 10 higher than the file's ("Page 12" on the file's page 3)."""
    pages = [[(72, 700, "EXHIBIT 5")]]
    for n in range(2, 6):
        printed = n + 9
        lines = [(72, 750, f"Case 1:19-cv-00001 Document 55-5 Filed 01/03/24 Page {n} of 5"),
                 (480, 725, f"Page {printed}")]
        for row in range(1, 26):
            said = ("A. The pallets sat in the rain for three days before anyone moved them."
                    if (printed, row) == (12, 7) else f"Q. What did the receiving log show for entry {row}?")
            lines.append((40, 700 - row * 24, f"{row}   {said}"))
        pages.append(lines)
    return text_pdf_bytes(pages)


def _complaint(paragraphs: int = 40) -> str:
    """A complaint whose paragraphs print their numbers ("24. In March ..."), never "¶"; other paragraphs mention
    24 hours and 24 pallets, as real ones mention numbers."""
    lines = ["UNITED STATES DISTRICT COURT", "COMPLAINT", ""]
    for n in range(1, paragraphs + 1):
        lines.append(PARAGRAPH if n == 24 else f"{n}. The Plaintiff inspected the {n * 3} pallets within 24 hours of "
                     "delivery, recorded each defect in its receiving log, notified the Defendant's sales office in "
                     "writing, and held the 24 rejected pallets at the Defendant's disposal for the period the "
                     "contract allows, at the Plaintiff's own expense for storage and insurance.")
        lines.append("")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def app_and_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[CaseTrack, object]:
    folder = tmp_path_factory.mktemp("pinpoints")
    app = CaseTrack.open(load_settings(folder / "data"))
    if "E7" not in app.pool.available():
        pytest.skip("the packaged E7 model is not installed")
    case = app.create_case("Pinpoints")
    files = {"Smith Deposition 2019-05-02.txt": _transcript(), "Complaint.txt": _complaint(),
             "Brown Deposition excerpt.txt": _transcript(range(17, 21), EXCERPTED, (18, 4), "\f"),
             "Exhibit 12 - page 4 shipment log.txt": "Shipment log, page 4 of 12: the spring shipment. " * 5}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
        app.ingestor.ingest(case, IngestRequest(str(folder / name)))
    (folder / "Jones Deposition - Exhibit 5.pdf").write_bytes(_exhibit_pdf())
    app.ingestor.ingest(case, IngestRequest(str(folder / "Jones Deposition - Exhibit 5.pdf")))
    return app, case


@pytest.mark.parametrize("asked", ["Smith Dep. 4:12", "Smith Tr. at 4:12-14",
                                   "page 4, line 12 of the Smith deposition"])
def test_a_deposition_cited_by_page_and_line_finds_that_line(app_and_case: tuple[CaseTrack, object],
                                                             asked: str) -> None:
    app, case = app_and_case
    top = app.search.search(case, asked, top_k=5).hits[0].chunk  # type: ignore[arg-type]
    assert top.provenance.document_name.startswith("Smith Deposition") and TARGET in top.text, top.text[:120]
    assert top.provenance.page == 4  # the citation names the page the transcript prints


def test_an_excerpt_exported_page_by_page_is_cited_by_the_pages_it_prints(
    app_and_case: tuple[CaseTrack, object],
) -> None:
    """A transcript excerpt whose pages end in form feeds, printing "Page 17" to "Page 20": "Brown Dep. 18:4" is its
    second page, and the citation says page 18, as the brief that cites it does."""
    app, case = app_and_case
    top = app.search.search(case, "Brown Dep. 18:4", top_k=5).hits[0].chunk  # type: ignore[arg-type]
    assert top.provenance.document_name.startswith("Brown Deposition") and EXCERPTED in top.text, top.text[:120]
    assert top.provenance.page == 18


@pytest.mark.parametrize("asked", ["¶ 24 of the complaint", "paragraph 24 of the complaint", "Compl. para. 24"])
def test_a_complaint_cited_by_paragraph_finds_the_paragraph_printed_with_that_number(
    app_and_case: tuple[CaseTrack, object], asked: str
) -> None:
    app, case = app_and_case
    top = app.search.search(case, asked, top_k=5).hits[0].chunk  # type: ignore[arg-type]
    assert top.provenance.document_name == "Complaint.txt" and PARAGRAPH in top.text, top.text[:120]


def test_a_filed_transcript_is_found_and_cited_by_the_page_and_line_it_prints(
    app_and_case: tuple[CaseTrack, object],
) -> None:
    """The exhibit's file page 3 prints "Page 12": "Jones Dep. 12:7" finds that row, and the citation gives both
    the file's page and the transcript's own page and lines, as a brief would cite them."""
    app, case = app_and_case
    top = app.search.search(case, "Jones Dep. 12:7", top_k=5).hits[0].chunk  # type: ignore[arg-type]
    assert top.provenance.document_name.startswith("Jones Deposition") and "sat in the rain" in top.text
    assert top.provenance.page == 3
    printed = top.provenance.printed_lines
    assert printed is not None and printed.startswith("12:") and f"printed {printed}" in top.provenance.cite()
    first, last = (int(n) for n in printed.split(":")[1].split("-"))
    assert first <= 7 <= last


def test_verify_draft_finds_a_quotation_at_the_page_and_line_a_filed_transcript_prints(
    app_and_case: tuple[CaseTrack, object],
) -> None:
    """"Jones Dep. 12:7" names the row the exhibit prints as page 12, line 7 (the file's page 3, under a filing
    stamp reading "Page 3 of 5"): before, verify_draft found no page printing 12 and called it misplaced."""
    app, case = app_and_case
    said = "The pallets sat in the rain for three days before anyone moved them."
    draft = read_draft(text=f'Jones admitted that "{said}" Jones Dep. 12:7. He said it again: "{said}" Jones Dep. '
                            "13:7-8.")
    right, wrong = app.verifier.verify(case, draft).report.quotes  # type: ignore[arg-type]
    assert right.status is Status.VERIFIED and right.cited.resolved == "Jones Deposition - Exhibit 5.pdf, printed 12:7"
    assert right.found is not None and right.found.page == 3 and right.found.line_start == 7
    assert wrong.status is Status.WRONG_LOCATION and wrong.found is not None and wrong.found.page == 3
