"""A file in the case twice, once on its own and once attached to an e-mail, is kept twice and the
user is told so, whichever came first: real ingestion into a real case store."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from casetrack.chunk import chunk_pages, infer_document_type
from casetrack.config import load_settings
from casetrack.mcp.outputs_search import SearchResult
from casetrack.parse import parse_file
from casetrack.render import search as render
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import Ingestor, IngestRequest
from casetrack.service.ingest.entries import Indexer
from casetrack.service.search.query import passage_words
from tests.parse.test_eml_attachments import LETTER, message, write


def test_a_file_stored_alone_and_as_an_attachment_is_named_both_ways(tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(tmp_path / "data"))
    ingestor = Ingestor(app.settings, app.cases, Indexer(None))
    m = message("The filed letter is attached.\n")
    m.add_attachment(LETTER.read_bytes(), maintype="application", subtype="pdf", filename="28j letter.pdf")
    mail = write(tmp_path, m, "Filed.eml")

    letter_first = app.create_case("Letter first")
    alone = ingestor.ingest(letter_first, IngestRequest(str(LETTER))).document
    assert alone.warnings == ()
    carried = ingestor.ingest(letter_first, IngestRequest(str(mail))).document
    assert carried.metadata["attachment_sha256"] == f"{hashlib.sha256(LETTER.read_bytes()).hexdigest()}  28j letter.pdf"
    assert carried.warnings == (f"Attachment 28j letter.pdf is also in this case as {LETTER.name} (the same file): "
                                "its passages are in the case twice, and search gives each once, citing both.",)

    mail_first = app.create_case("Mail first")
    assert ingestor.ingest(mail_first, IngestRequest(str(mail))).document.warnings == ()
    later = ingestor.ingest(mail_first, IngestRequest(str(LETTER))).document
    assert later.warnings == ("This file is also in this case as attachment 28j letter.pdf of Filed.eml: its "
                              "passages are in the case twice, and search gives each once, citing both.",)


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_search_gives_a_passage_the_case_holds_twice_once_citing_its_copy(tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(tmp_path / "data"))
    case = app.create_case("Copies")
    m = message("The filed letter is attached.\n")
    m.add_attachment(LETTER.read_bytes(), maintype="application", subtype="pdf", filename="28j letter.pdf")
    app.ingestor.ingest(case, IngestRequest(str(LETTER)))
    app.ingestor.ingest(case, IngestRequest(str(write(tmp_path, m, "Filed.eml"))))
    letter = parse_file(LETTER)
    inside = chunk_pages(letter.pages, infer_document_type(LETTER.name, letter.text)[0])[1]
    query = " ".join(inside.text.split()[20:34])  # words of a passage both copies chunk alike (page 2)

    response = app.search.search(case, query, top_k=3)
    passages = [passage_words(hit.chunk) for hit in response.hits]
    assert len(set(passages)) == len(passages) == 3  # three different passages: the copy left no place empty
    top = response.hits[0]
    assert passage_words(top.chunk) == " ".join(inside.text.split())
    [copy] = top.copies
    assert {top.chunk.provenance.document_name, copy.provenance.document_name} == {LETTER.name, "Filed.eml"}
    mail_chunk = copy if copy.provenance.document_name == "Filed.eml" else top.chunk
    assert mail_chunk.provenance.attachment == "28j letter.pdf"

    also_in = SearchResult.of(response, "free").results[0].also_in
    assert [(a.chunk_id, a.citation, a.source.document) for a in also_in] == [
        (copy.id, copy.provenance.cite(), copy.provenance.document_name)]
    assert f"The same passage is also in: {copy.provenance.cite()}" in render.response_text(response, "free")
