"""What Claude reads back from a search is worded for a lawyer: no internal signal or model names
("Signals: BM25, UNNAMED, E7", "RRF fusion", "E1 cosine"). The structured fields keep the ids.
A real server over stdio, real text files, BM25 and the bundled model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.mcp_helpers import call_ok, mcp_session, text_of
from tests.test_search_named_documents import ACME, GAMMA

pytestmark = pytest.mark.anyio

# What a lawyer would not know: the pipeline's ids, the models' ids and the ranking jargon.
JARGON = re.compile(r"\b(BM25|UNNAMED|EXACT|E\d{1,2}|RRF|ColBERT|cosine|centroids?|signals?|recall|rerank|"
                    r"pipeline|embedders?)\b", re.IGNORECASE)


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_a_search_naming_a_document_says_what_it_matched_by_in_plain_words(data_dir: Path,
                                                                                 tmp_path: Path) -> None:
    for name, text in [("Acme Supply Agreement.txt", ACME), ("Gamma License Agreement.txt", GAMMA)]:
        (tmp_path / name).write_text(text, encoding="utf-8")
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Beta v. Acme")
        await call_ok(client, "ingest_folder", folder_path=str(tmp_path), wait_seconds=120)
        found = await call_ok(client, "search_case", query="Governing law of the Acme supply agreement")
        chunk_id = found.structured_content["results"][0]["chunk_id"]
        similar = await call_ok(client, "search_similar_chunks", chunk_id=chunk_id, min_similarity=0.1)

    text = text_of(found)
    header = "\n".join(text.split("\n--- Result")[0].splitlines()[:4])  # the lines before the passages
    matched = re.search(r"Matched by: (.+)$", header, re.MULTILINE)
    assert matched and set(matched.group(1).split(", ")) == {"keywords", "meaning",
                                                             "keywords besides the document's name"}, header
    steps = re.search(r"\((\d)-step search: (.+?)\)", header)
    assert steps and steps.group(2).startswith("keywords and meaning -> rankings combined -> "), header
    assert steps.group(2).endswith(" -> the named document's passages first"), header
    assert int(steps.group(1)) == len(steps.group(2).split(" -> ")), header
    assert not JARGON.search(header), header
    # The ids stay in the structured result, for programs.
    assert set(found.structured_content["embedders_used"]) >= {"BM25", "UNNAMED", "E7"}
    assert set(found.structured_content["results"][0]["signal_ranks"]) >= {"bm25", "e7"}

    lines = [line for line in text_of(similar).splitlines() if not line.startswith('"')]  # not the quotes
    assert lines[0].startswith("Passages similar in meaning to Acme Supply Agreement.txt"), lines[0]
    assert not any(JARGON.search(line) for line in lines if not line.startswith("[chunk")), lines
