"""What a search weighs beside each passage's matches (search.evidence), on a real BM25 index."""

from __future__ import annotations

from casetrack.chunk.roles.tagging import role_term
from casetrack.index.bm25 import index_state_from_entries
from casetrack.index.references import query_references
from casetrack.index.tokenize import tokenize
from casetrack.search.evidence import REFERENCE_HOLDERS, evidence
from casetrack.search.pipeline import DEFAULT_PIPELINE

CITED = "410 U.S. 113"


def counts(text: str, *extra: str) -> dict[str, int]:
    tokens = [*tokenize(text), *extra]
    return {t: tokens.count(t) for t in tokens}


def test_a_reference_a_big_case_cites_everywhere_brings_only_its_best_holders() -> None:
    """A precedent cited on thousands of pages: the passages the question's other words favour are the candidates
    ranked first, not every holder (each would cost every signal a score)."""
    (reference,) = query_references(f"viability under {CITED}")
    texts = {f"p{i:05d}": f"As held in Roe, {CITED}, the state's interest. " + "viability " * (i % 7)
             for i in range(2 * REFERENCE_HOLDERS + 37)}
    bm25 = index_state_from_entries([*((key, counts(text, reference.term)) for key, text in texts.items()),
                                     ("other", counts("The state's interest in viability, citing nothing."))])
    tokens = tokenize(f"viability under {CITED}")
    found = evidence(None, tokens, [reference], {}, bm25, lambda doc: [], None, DEFAULT_PIPELINE)
    ranked, _ = bm25.score(tokens, len(texts) + 1)
    assert found.first == set([key for key in ranked if key != "other"][:REFERENCE_HOLDERS])
    assert min(int(key[1:]) % 7 for key in found.first) >= 3  # the ones repeating "viability" most
    within = set(list(texts)[:40])
    assert evidence(None, tokens, [reference], {}, bm25, lambda doc: [], within, DEFAULT_PIPELINE).first == within


def test_a_reference_the_graph_could_not_read_is_held_by_the_passages_holding_all_its_words() -> None:
    (reference,) = query_references(f"viability under {CITED}")
    bm25 = index_state_from_entries([("split", counts("Roe, 410\nU.S. 113, on viability")),
                                     ("partial", counts("410 pages, 113 of them on viability"))])
    found = evidence(None, tokenize(f"viability under {CITED}"), [reference], {}, bm25, lambda doc: [], None,
                     DEFAULT_PIPELINE)
    assert found.first == {"split"}


def test_a_role_prior_lifts_the_passages_playing_the_role_and_a_role_no_passage_plays_adds_no_stage() -> None:
    texts = {"a": "This Agreement is governed by the laws of Delaware.", "b": "Payment is due in thirty days."}
    bm25 = index_state_from_entries((key, counts(text, *([role_term("governing_law")] if key == "a" else [])))
                                    for key, text in texts.items())
    found = evidence(None, tokenize("which law applies"), [], {"governing_law": 0.8, "audit_rights": 1.0}, bm25,
                     lambda doc: [], None, DEFAULT_PIPELINE)
    assert found.prior is not None
    lifts = found.prior(["b", "a", "unknown"])
    assert lifts[0] == 0.0 and lifts[2] == 0.0 and lifts[1] == DEFAULT_PIPELINE.role_weight * 0.8
    unplayed = evidence(None, tokenize("which law applies"), [], {"audit_rights": 1.0}, bm25, lambda doc: [], None,
                        DEFAULT_PIPELINE)
    assert unplayed.prior is None  # no passage is tagged with it: the search runs without a prior stage


def test_a_passage_plays_the_role_asked_by_its_probability_and_less_outside_the_document_named() -> None:
    from casetrack.search.evidence import OUTSIDE, likely
    from casetrack.search.scope import Scope

    tagged = role_term("non_compete")
    texts = {"lucid": "The Distributor shall not sell competing products.", "other": "Consultant shall not compete.",
             "weak": "Consultant represents and warrants its skills."}
    bm25 = index_state_from_entries((key, counts(text, tagged)) for key, text in texts.items())
    probability = {"lucid": 0.6, "other": 0.6, "weak": 0.03}
    scope = Scope(frozenset({"doc-lucid"}), frozenset({"lucid"}), {"doc-lucid": 1.0})
    chunks = {"doc-lucid": ["lucid"]}
    found = evidence(scope, tokenize("non-compete in the Lucid agreement"), [], {"non_compete": 1.0}, bm25,
                     lambda doc: chunks.get(doc, []), None, DEFAULT_PIPELINE,
                     lambda keys: [{"non_compete": probability[str(k)]} for k in keys])
    assert found.prior is not None
    lucid, other, weak = found.prior(["lucid", "other", "weak"])
    role, name = DEFAULT_PIPELINE.role_weight, DEFAULT_PIPELINE.name_weight
    assert lucid == name + role and other == role * OUTSIDE < role  # the same clause, in a document not named
    assert weak == role * OUTSIDE * likely(0.03) < other  # tagged (a keyword hit) but hardly likely: lifted less
