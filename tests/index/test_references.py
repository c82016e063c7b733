"""Citations as one BM25 term per thing cited: a question and a passage that cite the same decision, statute,
regulation or rule share a `ref:` term however each spaces and abbreviates it."""

from __future__ import annotations

import pytest

from casetrack.domain import ChunkSpan, ExtractionMethod, ParsedPage
from casetrack.graph.citations.authorities import find_authorities
from casetrack.graph.records import AuthorityRecord
from casetrack.index.references import chunk_reference_terms, mention_terms, query_reference_terms


def document_terms(text: str) -> set[str]:
    """The reference terms ingest gives a one-chunk document holding `text`."""
    span = ChunkSpan(0, 1, 0, len(text), text, 1, 1, 1, 1, 10)
    records = [AuthorityRecord.of(m) for m in find_authorities([ParsedPage(1, text, ExtractionMethod.NATIVE)])]
    return set(chunk_reference_terms(records, [("c1", span)]).get("c1", []))


@pytest.mark.parametrize(("printed", "typed"), [
    ("Dolan v. Postal Service, 546 U. S. 481, 489 (2006).", "546 U.S. 481"),  # spaced reporter
    ("See Levasseur v. Postal Serv., 543 F. 3d 23, 23–24 (CA1 2008).", "543 F.3d 23"),
    ("Lopez-Valencia v. Lynch, 798 F.3d 863 (9th Cir. 2015).", "798 F. 3d 863"),
    ("652 F. Supp. 3d 721, 731 (ND Tex. 2023).", "652 F.Supp.3d 721"),
    ("reviewed under 8 C.F.R. § 1003.1(d)(3)(ii) (2016).", "8 CFR 1003.1(d)(3)(ii)"),
    ("the postal exception, 28 U. S. C. §2680(b).", "28 USC 2680(b)"),
    ("dismissed under Fed. R. Civ. P. 12(b)(6).", "Rule 12(b)(6)"),
    ("under 5 U.S.C. § 552(b)(6).", "5 U.S.C. 552(b)"),  # a question about the subsection finds the paragraph
])
def test_a_citation_printed_one_way_and_typed_another_shares_a_reference_term(printed: str, typed: str) -> None:
    asked = query_reference_terms(typed)
    assert asked, typed
    assert set(asked) & document_terms(printed), (asked, document_terms(printed))


def test_a_short_form_and_id_cite_the_decision_their_full_citation_names() -> None:
    text = "Dolan v. Postal Service, 546 U. S. 481 (2006). Later: Dolan, 546 U. S., at 489. Id., at 490."
    span = ChunkSpan(0, 1, 0, len(text), text, 1, 1, 1, 1, 30)
    later = text.index("Later")
    second = ChunkSpan(1, 1, later, len(text), text[later:], 1, 1, 1, 1, 10)
    records = [AuthorityRecord.of(m) for m in find_authorities([ParsedPage(1, text, ExtractionMethod.NATIVE)])]
    terms = chunk_reference_terms(records, [("a", span), ("b", second)])
    assert "ref:546 u.s. 481" in terms["b"]  # the chunk with only the short form and Id. still cites Dolan


def test_a_question_gives_its_most_specific_term_and_a_document_every_level() -> None:
    assert mention_terms("5 U.S.C. § 552", "federal_statute", "(b)(6)", levels=False) == ["ref:5 u.s.c. § 552(b)(6)"]
    assert mention_terms("5 U.S.C. § 552", "federal_statute", "(b)(6)", levels=True) == [
        "ref:5 u.s.c. § 552(b)(6)", "ref:5 u.s.c. § 552(b)", "ref:5 u.s.c. § 552"]
    assert "ref:rule 12(b)" in mention_terms("Fed. R. Civ. P. 12(b)(6)", "federal_rule", None, levels=True)
    assert mention_terms("546 U.S. at 489", "case_law", "489", levels=True) == []  # unresolved short form


def test_a_question_without_a_citation_is_not_read_for_one() -> None:
    assert query_reference_terms("Who wrote the opinion of the Court?") == []
    assert query_reference_terms("the 3 reasons the court gave") == []
