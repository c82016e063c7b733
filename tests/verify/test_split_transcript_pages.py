"""verify_draft on a filed deposition whose PDF pages do not begin where its transcript pages do: a PDF page opens
with rows 9-25 of transcript page 9 (its "Page 9" and rows 1-8 are on the PDF page before), then "Page 10" and its
rows. A brief quotes those first rows without their numbers; the numbers are taken out of what is compared there
too, as everywhere else on a transcript page, so the quotation is `verified` (it was `differs`, the row numbers
reported as words the quotation left out). Those rows are cited by their page and line too: they are page 9's
(the "Page 10" below them says so), where they had no pinpoint at all. A real case: the PDF parsed and stored by
the service, searched through a real MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.service.verify.drafts import read_draft
from casetrack.verify.model import Status
from tests.badfiles import text_pdf_bytes
from tests.mcp_helpers import call_ok, mcp_session

PAGE_9_TAIL = [  # rows 9-25 of transcript page 9
    "A. Twelve dollars an hour.", "Q. Was anybody else with Ms. Ortiz", "when you first met her?",
    "A. There was another driver with her. I don't", "recall his name or what he looked like.",
    "Q. And what happened next?", "A. She asked me if I would be", "interested in driving for her company.",
    "Q. Did you agree?", "A. I said I would think about it.", "Q. When did you start?", "A. The next Monday.",
    "Q. Where did you report?", "A. To the depot on Harbor Road.", "Q. Who met you there?",
    "A. The dispatcher, Mr. Lane.", "Q. And did he give you a route"]
PAGE_10 = [f"Q. Question {n} about the depot schedule that week?" for n in range(1, 26)]


def _deposition(path: Path) -> Path:
    first_sheet = [(60, 760 - 14 * row, f"{row:>2}  Q. Opening question {row} about the witness's work history?")
                   for row in range(1, 26)]
    first_sheet.insert(0, (260, 780, "Page 8"))
    second = [(60, 770 - 14 * i, f"{row:>2}  {text}") for i, (row, text) in enumerate(zip(range(9, 26), PAGE_9_TAIL,
                                                                                           strict=True))]
    second += [(60, 520, "FILED 01/03/24 Page 12 of 40"), (260, 500, "Page 10")]
    second += [(60, 486 - 14 * row, f"{row:>2}  {text}") for row, text in enumerate(PAGE_10, start=1)]
    path.write_bytes(text_pdf_bytes([first_sheet, second], font_size=8))
    return path


def test_a_quotation_of_the_rows_a_pdf_page_opens_with_is_verified(tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(tmp_path / "data", environ={}))
    case = app.create_case("Depot")
    app.ingestor.ingest(case, IngestRequest(str(_deposition(tmp_path / "Lane Deposition.pdf"))))
    draft = ('She testified: "Q. Was anybody else with Ms. Ortiz when you first met her? A. There was another driver '
             'with her." (Lane Deposition at 2). And: "Q. Was anybody else with Ms. Ortiz when you first met him? A. '
             'There was another driver with her." (Lane Deposition at 2).')
    right, changed = app.verifier.verify(case, read_draft(text=draft)).report.quotes
    assert right.status is Status.VERIFIED, right
    assert changed.status is Status.DIFFERS and [(d.quote, d.source) for d in changed.differences] == [("him", "her")]
    app.jobs.shutdown()


@pytest.mark.anyio
async def test_rows_a_pdf_page_opens_with_are_cited_by_page_and_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    app = CaseTrack.open(load_settings(data, environ={}))
    case = app.create_case("Depot")
    app.ingestor.ingest(case, IngestRequest(str(_deposition(tmp_path / "Lane Deposition.pdf"))))
    app.jobs.shutdown()
    async with mcp_session(data) as session:
        found = await call_ok(session, "search_case", case_name="Depot", top_k=3,
                              query="Was anybody else with Ms. Ortiz when you first met her?")
        assert found.structured_content is not None
        first = found.structured_content["results"][0]
        assert "Was anybody else with Ms. Ortiz" in first["text"]
        assert first.get("transcript") is not None, first  # before: no page:line for these rows
        assert first["transcript"]["pin"].startswith("9:10"), first["transcript"]
        assert first["transcript"]["lines"].startswith("9:9"), first["transcript"]
        assert first["transcript"]["citation"].endswith(" 9:10-13"), first["transcript"]
