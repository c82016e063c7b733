"""The case map's embeddings line: per embedder, how many chunks carry its vectors."""

from __future__ import annotations

from pathlib import Path

from casetrack.config import load_settings
from casetrack.render.graph import case_map
from casetrack.service.app import CaseTrack
from casetrack.service.indexing import Indexer
from casetrack.service.ingest import Ingestor, IngestRequest

AGREEMENT = """CONSULTING AGREEMENT

This Consulting Agreement is made and entered into as of May 1, 2019 by and between Driven
Deliveries, Inc. ("Company"), a Nevada corporation, and TruckThat LLC ("Consultant").

1. Services. Consultant shall provide consulting services to the Company.
"""


def test_the_embeddings_line_counts_chunks_per_embedder_and_never_says_none_chunks(tmp_path: Path) -> None:
    app = CaseTrack(load_settings(tmp_path / "data"))
    case = app.create_case("Driven")
    source = tmp_path / "agreement.txt"
    source.write_text(AGREEMENT, encoding="utf-8")
    Ingestor(app.settings, app.cases, Indexer(None)).ingest(case, IngestRequest(str(source)))
    case = app.cases.get(case.id)
    graph = app.graph.graph(case)

    coverage = app.graph_reader.embedder_coverage(case)  # no dense embedder ran: BM25 (E13) only
    text, data = case_map(case, graph, coverage)
    assert data["embedder_coverage"] == {"E13": 1}
    assert "EMBEDDINGS: E13 1/1 chunks embedded" in text
    assert "TruckThat LLC" in text  # the map itself is there

    text, _ = case_map(case, graph, {})
    assert "EMBEDDINGS: none yet (keyword search only; get_index_status says what is missing)" in text
    assert "none chunks" not in text
