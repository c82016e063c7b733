"""The stored graph extract (graph/records.py): one typed record for the writer, the store and the case graph.

`data/extract_keyed_form.json.gz` holds two eval-dev documents' extracts exactly as ingest stored them before
issue 38 (records keyed by field name), written by that code (commit 8d56b42's `build_extract` and
`store.records.dumps`, chunked as `chunk_pages(pages, CONTRACT)` with chunk ids `c0`, `c1`, ...): a case ingested
then must show the same graph now.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from casetrack.chunk import chunk_pages, extract_structure
from casetrack.chunk.roles.tagging import ANCHORS, role_hits
from casetrack.domain import Document, DocumentType, ExtractionMethod, ParsedPage
from casetrack.graph.records import FORMAT, DateRecord, EntityRecord, ExtractRecord, extract_json, extract_of
from casetrack.service.graph.case_graph import CaseGraph, build_graph
from casetrack.service.ingest.graph_extract import build_extract
from casetrack.store import documents as docstore
from casetrack.store import keys
from casetrack.store.records import dumps, loads
from casetrack.store.rocks import open_read, open_write
from tests.datasets import EVAL_DEV
from tests.parse.evaldev import parsed

KEYED = Path(__file__).with_name("data") / "extract_keyed_form.json.gz"
DOCS = ("ca8_rule_28j_letter_us_v_xiang_2023.pdf.txt", "common_paper_mutual_nda_v1.docx.txt")


def extract_now(name: str) -> ExtractRecord:
    text = (EVAL_DEV / "text" / name).read_text(encoding="utf-8")
    pages = [ParsedPage(i + 1, t, ExtractionMethod.NATIVE) for i, t in enumerate(text.split("\f"))]
    chunks = [(f"c{n}", s) for n, s in enumerate(chunk_pages(pages, DocumentType.CONTRACT))]
    return build_extract(pages, extract_structure(pages), chunks)


def keyed(name: str) -> dict[str, object]:
    stored: dict[str, dict[str, object]] = json.loads(gzip.decompress(KEYED.read_bytes()))
    return stored[name]


def document(doc_id: str) -> Document:
    return Document(id=doc_id, name=f"{doc_id}.pdf", original_path=None, file_hash=doc_id, file_size=1,
                    file_mtime=0.0, format="pdf", document_type=DocumentType.OTHER, type_confidence=1.0,
                    type_source="test", page_count=1, chunk_count=1, ocr_pages=0, skipped_pages=0,
                    ocr_confidence=None, ingested_at=0.0, embedded_at=0.0, embedders=())


def shown(graph: CaseGraph) -> object:
    """What the graph tools show of a case graph: every node with its mentions, the timeline, the issues."""
    def nodes(by_key: dict[str, object]) -> list[object]:
        return sorted((k, n.name, n.kind, sorted(n.roles), n.mentions) for k, n in by_key.items())  # type: ignore[attr-defined]
    return (nodes(graph.entities), nodes(graph.authorities), nodes(graph.parties), nodes(graph.issues),  # type: ignore[arg-type]
            graph.events, graph.failed)


@pytest.mark.parametrize("name", DOCS)
def test_an_extract_stored_in_the_keyed_form_reads_as_the_same_records(name: str) -> None:
    old = extract_of(keyed(name))
    assert old == extract_now(name)
    assert old.entities and (old.authorities or old.roles)  # the sample holds what the test is about
    assert all(r.chunk_id is not None for r in old.entities)


@pytest.mark.parametrize("name", DOCS)
def test_an_extract_reads_back_from_its_stored_rows_unchanged(name: str) -> None:
    extract = extract_now(name)
    stored = loads(dumps(extract_json(extract)))
    assert stored["format"] == FORMAT and isinstance(stored["entities"], list)
    assert extract_of(stored) == extract
    assert len(dumps(extract_json(extract))) < len(dumps(keyed(name)))  # rows repeat no field names


def test_a_case_store_holding_both_forms_shows_the_graph_it_showed_before(tmp_path: Path) -> None:
    """One document stored before issue 38 (keyed), one after (rows), in a real case store: the case graph
    built from the store equals the graph built from the records extracted now."""
    old_doc, new_doc = document("old"), document("new")
    path = tmp_path / "case.db"
    with open_write(path, keys.CASE_COLUMN_FAMILIES, "test", 5.0, "test case") as db:
        batch = db.batch()
        batch.put(keys.GRAPH, keys.graph_entry(old_doc.id, "extract"), dumps(keyed(DOCS[0])))
        batch.put(keys.GRAPH, keys.graph_entry(new_doc.id, "extract"), dumps(extract_json(extract_now(DOCS[1]))))
        db.write(batch)
    docs = {d.id: d for d in (old_doc, new_doc)}
    with open_read(path, keys.CASE_COLUMN_FAMILIES) as db:
        from_store = build_graph(1, docs, docstore.graph_extracts(db))
    # in the store's key order ("g:new:" before "g:old:"): a node is named by its first mention
    now = build_graph(1, docs, [(new_doc.id, extract_now(DOCS[1])), (old_doc.id, extract_now(DOCS[0]))])
    assert shown(from_store) == shown(now)
    assert from_store.entities and from_store.authorities and from_store.events and from_store.issues


def test_a_failed_extraction_and_a_row_from_a_later_version_still_read() -> None:
    failed = extract_of(loads(dumps(extract_json(ExtractRecord(error="extraction failed")))))
    assert failed == ExtractRecord(error="extraction failed")
    assert extract_of({"authorities": [], "error": "extraction failed"}).error == "extraction failed"
    entity = EntityRecord("person:a b", "A B", "person", None, 1, 0, 3, "A B", "c0")
    longer = extract_of({"format": FORMAT, "entities": [[*entity, "a field added later"]]})
    assert longer.entities == (entity,)
    older_date = extract_of({"dates": [{"iso": "2022-01-15", "text": "January 15, 2022", "event": "signed",
                                        "page": 2, "char_start": 5, "char_end": 21}]})
    assert older_date.dates == (DateRecord("2022-01-15", "January 15, 2022", "signed", "January 15, 2022", 2, 5, 21),)


@pytest.mark.parametrize("name", ["cuad_ebix_cobranding_agreement.pdf", "cuad_lucid_distributor_agreement.pdf",
                                  "ca8_rule_28j_letter_us_v_xiang_2023.pdf", "common_paper_mutual_nda_v1.docx"])
def test_the_stored_keyword_role_hits_are_each_pages_own_reading(name: str) -> None:
    """Ingest takes the keyword roles' anchors from the graph's keyword pass over the joined pages, not from a pass
    over each page: the stored hits (role, page, offset, in order) are what reading each page gives."""
    assert not any("\n" in anchor or anchor != anchor.lower() for anchor in ANCHORS)  # none crosses a page break
    pages = parsed(name).pages
    stored = build_extract(pages, extract_structure(pages), []).roles
    each_page = [(role, page.number, start) for page in pages for role, start in role_hits(page.text)]
    assert [(r.role, r.page, r.char_start) for r in stored] == each_page
    assert len(each_page) >= (1 if name.startswith("cuad") else 0)


def test_a_page_whose_lower_case_moves_offsets_keeps_its_own_role_hits() -> None:
    """"İ" lower-cases to two characters: that page's offsets are its own lower case's, as before."""
    text = "İSTANBUL. This Agreement shall be governed by the laws of the State of New York."
    pages = [ParsedPage(1, "Payment shall be made within 30 days of invoice.", ExtractionMethod.NATIVE),
             ParsedPage(2, text, ExtractionMethod.NATIVE)]
    stored = build_extract(pages, [], []).roles
    assert [(r.role, r.page, r.char_start) for r in stored] == [
        (role, page.number, start) for page in pages for role, start in role_hits(page.text)]
    assert ("governing_law", 2) in [(r.role, r.page) for r in stored]
