"""Moving between cases does not keep every case ever opened in memory: search indexes and case
graphs are kept for the three most recently used cases, and a dropped one comes back on demand."""

from __future__ import annotations

from pathlib import Path

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.distribution import licensing
from casetrack.service.ingest.document import Ingestor, IngestRequest
from casetrack.service.ingest.entries import Indexer
from casetrack.service.search.index_cache import KEPT_CASES


def test_only_the_most_recently_used_cases_stay_in_memory(tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(tmp_path / "data"))
    app.cases.limits = licensing.UNLIMITED
    ingestor = Ingestor(app.settings, app.cases, Indexer(None))
    cases = []
    for n in range(KEPT_CASES + 1):
        case = app.create_case(f"Matter {n}")
        letter = tmp_path / f"letter{n}.txt"
        letter.write_text(f"Dear Sir,\n\nThe lease of unit {n} ends on 1 May 2024 (matter {n}).\n", encoding="utf-8")
        ingestor.ingest(case, IngestRequest(str(letter)))
        cases.append(app.cases.get(case.id))

    first_graph = app.graph.graph(cases[0])
    assert app.graph.graph(cases[0]) is first_graph  # cached
    for case in cases:
        assert app.search.search(case, "when does the lease end", top_k=1).hits
        app.graph.graph(case)
    # Matter 0 was used least recently: its index and graph were let go, the others kept.
    assert app.search.cache.peek(cases[0].id) is None
    assert all(app.search.cache.peek(c.id) is not None for c in cases[1:])
    again = app.graph.graph(cases[0])
    assert again is not first_graph and again.parties.keys() == first_graph.parties.keys()
    # Searching it again rebuilds it from the store, with the same answer.
    hit = app.search.search(cases[0], "when does the lease end", top_k=1).hits[0]
    assert "unit 0" in hit.chunk.text
    app.jobs.shutdown()
