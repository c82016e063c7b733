"""The bundle: every finder's output on every eval-dev document, located exactly; statutes, cases, dates as entities."""

from __future__ import annotations

import pytest

from casetrack.chunk.structure import extract_structure
from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import EntityKind, extract, find_issues
from tests.graph.graph_evaldev import all_docs, pages_of


@pytest.mark.parametrize("doc", all_docs())
def test_every_mention_of_every_kind_is_an_exact_slice_of_its_page(doc: str) -> None:
    pages = pages_of(doc)
    g = extract(pages, extract_structure(pages))
    texts = {p.number: p.text for p in pages}
    for m in (*g.authorities, *g.entities, *g.dates):
        assert texts[m.page][m.char_start : m.char_end] == m.text
    for i in g.issues:
        assert i.text in texts[i.page][i.char_start : i.char_end]
    for p in g.parties:
        assert texts[p.page][p.char_start : p.char_end].split()[0] == p.name.split()[0]


def test_authorities_and_dates_also_appear_as_entities() -> None:
    text = "On January 15, 2022, Plaintiff sued under 42 USC 1983. See Monroe v. Pape, 365 U.S. 167 (1961)."
    g = extract([ParsedPage(1, text, ExtractionMethod.NATIVE)])
    kinds = {(e.kind, e.key) for e in g.entities}
    assert (EntityKind.STATUTE, "statute:42 U.S.C. § 1983") in kinds
    assert (EntityKind.CASE_CITATION, "case_citation:365 U.S. 167") in kinds
    assert (EntityKind.DATE, "date:2022-01-15") in kinds
    assert [e.page for e in g.entities] == sorted(e.page for e in g.entities)


@pytest.mark.parametrize("doc", all_docs())
def test_extract_gives_the_same_issues_as_find_issues(doc: str) -> None:
    pages = pages_of(doc)
    headings = extract_structure(pages)
    assert list(extract(pages, headings).issues) == find_issues(pages, headings)


def test_an_empty_or_blank_document_yields_nothing() -> None:
    g = extract([ParsedPage(1, "", ExtractionMethod.NATIVE), ParsedPage(2, "  \n\n ", ExtractionMethod.NATIVE)])
    assert (g.authorities, g.entities, g.parties, g.dates, g.issues) == ((), (), (), (), ())
