"""The case map's embeddings line: per embedder, how many chunks carry its vectors."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.mcp.outputs_graph import CaseMap
from casetrack.render.graph import case_map
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import Ingestor, IngestRequest
from casetrack.service.ingest.entries import Indexer

AGREEMENT = """CONSULTING AGREEMENT

This Consulting Agreement is made and entered into as of May 1, 2019 by and between Driven
Deliveries, Inc. ("Company"), a Nevada corporation, and TruckThat LLC ("Consultant").

1. Services. Consultant shall provide consulting services to the Company.
"""


def test_the_embeddings_line_counts_chunks_per_embedder_and_never_says_none_chunks(tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(tmp_path / "data"))
    case = app.create_case("Driven")
    source = tmp_path / "agreement.txt"
    source.write_text(AGREEMENT, encoding="utf-8")
    Ingestor(app.settings, app.cases, Indexer(None)).ingest(case, IngestRequest(str(source)))
    case = app.cases.get(case.id)
    graph = app.graph.graph(case)

    coverage = app.graph_reader.embedder_coverage(case)  # no dense embedder ran: BM25 (E13) only
    text = case_map(case, graph, coverage)
    assert CaseMap.of(case, graph, coverage).embedder_coverage == {"E13": 1}
    assert "EMBEDDINGS: E13 1/1 chunks embedded" in text
    assert "TruckThat LLC" in text  # the map itself is there

    text = case_map(case, graph, {})
    assert "EMBEDDINGS: none yet (keyword search only; get_index_status says what is missing)" in text
    assert "none chunks" not in text


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_a_case_full_of_e_mails_keeps_its_filings_and_hearings_on_the_map(tmp_path: Path) -> None:
    from tests.parse.test_eml_attachments import message, write

    app = CaseTrack.open(load_settings(tmp_path / "data"))
    case = app.create_case("Widget")
    ingestor = Ingestor(app.settings, app.cases, Indexer(None))
    for day in range(1, 21):  # twenty e-mails before the suit: each one's sending is a key date of its own
        m = message(f"Status update number {day} on the Widget shipments.\n")
        m.replace_header("Date", f"Mon, {day:02d} Jan 2024 09:00:00 -0500")
        m.replace_header("Subject", f"Widget shipments, update {day}")
        ingestor.ingest(case, IngestRequest(str(write(tmp_path, m, f"update {day:02d}.eml"))))
    for name, text in (("complaint.txt", "COMPLAINT\n\nFiled: March 3, 2025\n\nPlaintiff alleges breach.\n"),
                       ("order.txt", "ORDER\n\nA hearing on the motion is set for April 10, 2025 at 9:00 a.m.\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
        ingestor.ingest(case, IngestRequest(str(tmp_path / name)))
    case = app.cases.get(case.id)

    graph = app.graph.graph(case)
    text, data = case_map(case, graph, {}), CaseMap.of(case, graph, {}).model_dump()
    key_dates = text[text.index("  KEY DATES:") : text.index("  KEY LEGAL ISSUES:")].splitlines()
    assert "2025-03-03  Filed: " in key_dates[-4] and "2025-04-10  Hearing: " in key_dates[-3]  # still on the map
    # the e-mails fill the rest, the earliest first, all in date order: Jan 1 to Jan 13, then the suit
    assert key_dates[1].startswith("    2024-01-01  Sent: ") and key_dates[13].startswith("    2024-01-13  Sent: ")
    assert key_dates[-2] == "    ... 7 more (get_case_timeline lists every dated event)"
    assert len(key_dates) - 3 == 15  # title, the "more" line and the blank line aside: a screenful
    assert [d["event"] for d in data["key_dates"]].count("sent") == 20  # the data holds all 22 (up to 50)
