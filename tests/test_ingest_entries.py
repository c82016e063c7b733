"""A chunk's index entries are those of its header and text together, however the pair is handed over: the
ingest builds each headed text only when the embedder reads it (`entries.HeadedTexts`), so a long document's
texts do not exist twice at once (issue 20 §2)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from casetrack.config import load_settings
from casetrack.index.tokenize import term_frequencies, tokenize
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.entries import BM25, HeadedTexts, with_extra_terms

TEXTS = ["The Distributor shall pay within thirty (30) days of the invoice date.",
         "This Agreement is governed by the laws of the State of California.",
         "Either party may terminate on ninety days' written notice."]
HEADERS = ["NETGEAR distributor agreement\n4 PAYMENT", "", "NETGEAR distributor agreement\n13 TERMINATION"]
HEADED = [f"{h}\n\n{t}" if h else t for h, t in zip(HEADERS, TEXTS, strict=True)]


def test_headed_texts_read_as_the_header_and_text_joined_one_at_a_time_or_by_slice() -> None:
    headed = HeadedTexts(HEADERS, TEXTS)
    assert len(headed) == 3
    assert list(headed) == HEADED
    assert headed[1:] == HEADED[1:] and headed[-1] == HEADED[-1] and headed[0:3:2] == HEADED[0:3:2]
    with pytest.raises(IndexError):
        headed[3]
    with pytest.raises(ValueError, match="3 chunk texts but 2 headers"):
        HeadedTexts(HEADERS[:2], TEXTS)


def test_terms_and_e7_vectors_of_a_headed_chunk_are_those_of_its_joined_text(data_dir: Path) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    try:
        if "E7" not in app.indexer.document_embedders():
            pytest.skip("the packaged E7 is not installed")
        entries = app.indexer.build(TEXTS, only=["E7"], headers=HEADERS)
        assert entries.terms == [term_frequencies(tokenize(text)) for text in HEADED]
        joined = app.pool.get("E7").embed_documents(HEADED)
        assert np.allclose(np.stack(entries.vectors["E7"]), joined, atol=1e-6)
    finally:
        app.jobs.shutdown()


def test_extra_terms_are_counted_once_each_on_the_chunks_own_counts() -> None:
    counts = [{"pay": 1}, {"law": 2}]
    out = with_extra_terms(counts, [["ref:x", "ref:x", "role:payment"], []])
    assert out is counts
    assert counts == [{"pay": 1, "ref:x": 1, "role:payment": 1}, {"law": 2}]


def test_an_embedder_that_cannot_run_is_skipped_and_the_others_still_embed(data_dir: Path) -> None:
    """Asked for a model this install cannot run (E8 is Pro), the document is still indexed: BM25 terms and the
    ready models' vectors, the other left out (and a warning logged), never a failed ingest."""
    app = CaseTrack.open(load_settings(data_dir))
    try:
        if "E7" not in app.indexer.document_embedders():
            pytest.skip("the packaged E7 is not installed")
        entries = app.indexer.build(TEXTS, only=["E8", "E7"])
        assert set(entries.vectors) == {"E7"} and len(entries.terms) == len(TEXTS)
        assert entries.embedders == ("E7", BM25)
    finally:
        app.jobs.shutdown()
