"""Switching to a case loads its search index in the background, so the first search is quick."""

from __future__ import annotations

import time
from pathlib import Path

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest


def test_switching_to_a_case_preloads_its_index_and_the_first_search_uses_it(data_dir: Path,
                                                                             tmp_path: Path) -> None:
    memo = tmp_path / "memo.txt"
    memo.write_text("The lessee shall repair the roof of the orchard barn before the first frost.")
    first = CaseTrack.open(load_settings(data_dir))
    case = first.create_case("Orchard Lease")
    first.ingestor.ingest(case, IngestRequest(str(memo)))

    later = CaseTrack.open(load_settings(data_dir))  # a new server: nothing loaded yet
    assert later.search.cache.peek(case.id) is None
    later.switch_case("Orchard Lease")
    deadline = time.monotonic() + 60
    while later.search.cache.peek(case.id) is None and time.monotonic() < deadline:
        time.sleep(0.02)
    preloaded = later.search.cache.peek(case.id)
    assert preloaded is not None and preloaded.chunk_count == 1

    response = later.search.search(later.active_case(), "roof repair")
    assert response.hits and "roof" in response.hits[0].chunk.text
    assert later.search.cache.peek(case.id) is preloaded  # not built a second time


def test_switching_to_an_empty_case_loads_nothing(data_dir: Path) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Empty")
    app.switch_case("Empty")
    time.sleep(0.2)
    assert app.search.cache.peek(case.id) is None
