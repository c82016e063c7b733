"""The pipeline's stages and signals under different availability of embedders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from casetrack.index.bm25 import Bm25Index
from casetrack.index.dense import DenseIndex, l2_normalize
from casetrack.index.sparse import SparseIndex, SparseVector
from casetrack.index.tokenize import tokenize
from casetrack.search.pipeline import DEFAULT_PIPELINE, PipelineConfig, Query, SearchIndexes, SearchRequest, search

TEXTS = {
    0: "Either party may terminate this Agreement upon thirty days written notice.",
    1: "In the event of early termination the non-breaching party may recover damages.",
    2: "This Agreement is governed by the laws of the State of New York.",
    3: "Neither party may assign this Agreement without prior written consent.",
    4: "The Consultant shall be paid a monthly fee of $18,000.",
    5: "Confidential information excludes information that is publicly available.",
    6: "Defendant moves to dismiss under Rule 12(b)(6) for failure to state a claim.",
    7: "The distributor shall purchase products at the listed prices.",
    8: "Either side can walk away from the deal early if it gives a month's warning.",  # paraphrase of 0
    9: "Payment is due within thirty days of invoice.",
}
QUERY = "terminate the agreement on written notice"
DIM = 8
RNG = np.random.default_rng(17)
BASE = l2_normalize(RNG.standard_normal((len(TEXTS), DIM)))
QUERY_VEC = BASE[8] * 0.9 + BASE[0] * 0.1  # semantically: the paraphrase first, then chunk 0


def dense(vectors: np.ndarray, keys: Sequence[int] = tuple(TEXTS)) -> DenseIndex:
    index = DenseIndex(DIM)
    index.add(list(keys), vectors[list(keys)])
    return index


def bm25() -> Bm25Index:
    index = Bm25Index()
    for key, text in TEXTS.items():
        index.add(key, tokenize(text))
    return index


def splade() -> SparseIndex:
    index = SparseIndex()
    # pretend vocabulary ids: 1 = terminate, 2 = notice, 3 = walk away
    index.add([0, 8, 9], [SparseVector.from_mapping(m) for m in ({1: 1.0, 2: 1.0}, {1: 0.7, 3: 1.0}, {2: 0.2})])
    return index


def run(indexes: SearchIndexes, vectors: Mapping[str, object], top_k: int = 5, *,  # type: ignore[no-untyped-def]
        config: PipelineConfig = DEFAULT_PIPELINE, colbert_tokens=None, windows=None, **request):
    return search(SearchRequest(Query(tokenize(QUERY), vectors), top_k, **request), indexes,  # type: ignore[arg-type]
                  config, colbert_tokens=colbert_tokens, windows=windows)


def test_bm25_alone_runs_recall_and_rrf_only() -> None:
    out = run(SearchIndexes(bm25=bm25()), {})
    assert out.stages_used == ("recall", "rrf") and out.signals == ("bm25",)
    assert out.hits[0].key == 0 and out.hits[0].score == pytest.approx(1.0)
    assert 8 not in {h.key for h in out.hits}  # the paraphrase shares no term
    assert out.hits[0].ranks == {"bm25": 1}


def test_recall_is_the_union_of_bm25_and_dense_so_a_paraphrase_is_found() -> None:
    out = run(SearchIndexes(bm25=bm25(), dense={"e1": dense(BASE)}), {"e1": QUERY_VEC}, top_k=10)
    assert out.signals == ("bm25", "e1")
    keys = [h.key for h in out.hits]
    assert 8 in keys  # no lexical overlap, recalled by the dense top-N
    assert keys[0] == 0  # ranked 1st by BM25 and 2nd by E1
    assert out.candidates == len(TEXTS)
    hit8 = next(h for h in out.hits if h.key == 8)
    assert "bm25" not in hit8.ranks and hit8.ranks["e1"] == 1


def test_free_tier_signals_rank_with_their_weights() -> None:
    e7 = l2_normalize(RNG.standard_normal((len(TEXTS), DIM)))
    indexes = SearchIndexes(bm25=bm25(), dense={"e1": dense(BASE), "e7": dense(e7)}, sparse={"e6": splade()})
    vectors = {"e1": QUERY_VEC, "e7": e7[0], "e6": SparseVector.from_mapping({1: 1.0, 2: 0.5})}
    out = run(indexes, vectors, config=PipelineConfig(meaning_firsts=1))  # the weights alone; random E7 vectors'
    assert out.stages_used == ("recall", "rrf")  # second and third would be kept among the five shown
    assert out.signals == ("bm25", "e1", "e6", "e7")
    top = out.hits[0]
    assert top.key == 0 and top.ranks == {"bm25": 1, "e1": 2, "e6": 1, "e7": 1}
    expected = (1.0 / 61 + 1.0 / 62 + 0.8 / 61 + 0.6 / 61) / (3.4 / 61)
    assert top.score == pytest.approx(expected)


def test_dense_recall_falls_back_to_e7_when_e1_is_missing() -> None:
    out = run(SearchIndexes(bm25=bm25(), dense={"e7": dense(BASE)}), {"e7": QUERY_VEC}, top_k=10)
    assert out.signals == ("bm25", "e7") and 8 in [h.key for h in out.hits]


def test_a_query_vector_without_its_index_or_an_empty_index_is_not_a_signal() -> None:
    out = run(SearchIndexes(bm25=bm25(), dense={"e1": DenseIndex(DIM)}), {"e1": QUERY_VEC, "e7": QUERY_VEC})
    assert out.signals == ("bm25",)


def test_boost_stage_runs_only_with_citation_or_entity_signals_and_adds_bounded_cosines() -> None:
    base = SearchIndexes(bm25=bm25(), dense={"e1": dense(BASE)})
    plain = run(base, {"e1": QUERY_VEC}, top_k=10, config=PipelineConfig(min_score=0.0))
    assert "boost" not in plain.stages_used
    e8 = l2_normalize(RNG.standard_normal((len(TEXTS), DIM)))
    indexes = SearchIndexes(bm25=base.bm25, dense={**base.dense, "e8": dense(e8)})
    vectors = {"e1": QUERY_VEC, "e8": e8[8]}
    boosted = run(indexes, vectors, top_k=10, config=PipelineConfig(min_score=0.0))
    assert boosted.stages_used == ("recall", "rrf", "boost")
    assert boosted.signals == ("bm25", "e1", "e8")
    cosines = e8 @ e8[8]
    expected = {h.key: (h.score + 0.1 * min(1.0, max(0.0, cosines[h.key]))) / 1.1 for h in plain.hits}
    assert {h.key: h.score for h in boosted.hits} == pytest.approx(expected)
    assert boosted.hits[[h.key for h in boosted.hits].index(8)].ranks["e8"] == 1
    # a strong boost lifts the chunk E8 prefers; the default one only nudges
    strong = run(indexes, vectors, top_k=10, config=PipelineConfig(boost_weights={"e8": 1.0}))
    plain_order, strong_order = [h.key for h in plain.hits], [h.key for h in strong.hits]
    assert strong_order.index(8) < plain_order.index(8)


def test_colbert_stage_reranks_with_maxsim_when_token_vectors_exist() -> None:
    indexes = SearchIndexes(bm25=bm25(), dense={"e1": dense(BASE)})
    q_tokens = np.eye(4, 16)
    exact = np.eye(4, 16)  # every query token matched exactly
    loaded: list[Sequence[int]] = []

    def loader(keys: Sequence[int]) -> dict[int, np.ndarray]:
        loaded.append(list(keys))
        return {k: (exact if k == 9 else np.eye(16)[8:12]) for k in keys if k != 3}

    rerank_alone = PipelineConfig(lead_ratio=0.0)  # BM25's clear first (chunk 0) would otherwise be put back first
    out = run(indexes, {"e1": QUERY_VEC, "e12": q_tokens}, top_k=10, colbert_tokens=loader, config=rerank_alone)
    assert out.stages_used == ("recall", "rrf", "colbert") and out.signals[-1] == "e12"
    assert out.hits[0].key == 9  # weakly fused, but a perfect MaxSim
    assert len(loaded) == 1 and len(loaded[0]) <= 50
    missing = next(h for h in out.hits if h.key == 3) if 3 in [h.key for h in out.hits] else None
    assert missing is None or missing.score <= out.hits[0].score
    no_tokens = run(indexes, {"e1": QUERY_VEC, "e12": q_tokens}, colbert_tokens=lambda keys: {})
    assert "colbert" not in no_tokens.stages_used


def test_allowed_keys_restrict_every_signal() -> None:
    indexes = SearchIndexes(bm25=bm25(), dense={"e1": dense(BASE)}, sparse={"e6": splade()})
    vectors = {"e1": QUERY_VEC, "e6": SparseVector.from_mapping({1: 1.0})}
    out = run(indexes, vectors, top_k=10, allowed={1, 3, 8})
    assert {h.key for h in out.hits} <= {1, 3, 8} and out.hits


def test_min_score_with_guarantee_and_top_k() -> None:
    indexes = SearchIndexes(bm25=bm25(), dense={"e1": dense(BASE)})
    strict = run(indexes, {"e1": QUERY_VEC}, top_k=10, config=PipelineConfig(min_score=0.99))
    assert len(strict.hits) == 3  # nothing reaches 0.99 except perhaps the top; 3 guaranteed
    loose = run(indexes, {"e1": QUERY_VEC}, top_k=4, config=PipelineConfig(min_score=0.0))
    assert len(loose.hits) == 4
    scores = [h.score for h in loose.hits]
    assert scores == sorted(scores, reverse=True) and all(0.0 <= s <= 1.0 for s in scores)


def test_nothing_to_search_returns_no_hits_and_no_stages() -> None:
    out = search(SearchRequest(Query([], {}), 10), SearchIndexes())
    assert out.hits == () and out.stages_used == () and out.signals == ()
    none_match = search(SearchRequest(Query(tokenize("zebra"), {}), 10), SearchIndexes(bm25=bm25()))
    assert none_match.hits == () and none_match.stages_used == ("recall",)


def test_config_rejects_a_recall_signal_without_weight() -> None:
    with pytest.raises(ValueError, match="e5"):
        PipelineConfig(dense_recall=("e5",))
    with pytest.raises(ValueError, match="meaning_firsts"):
        PipelineConfig(meaning_firsts=0)
    with pytest.raises(ValueError, match="firsts_within"):
        PipelineConfig(firsts_within=0)
    with pytest.raises(ValueError, match="lead_ratio"):
        PipelineConfig(lead_ratio=-1.0)


def test_a_prior_lifts_a_passage_by_what_is_known_beside_its_matches() -> None:
    indexes = SearchIndexes(bm25=bm25(), dense={"e7": dense(BASE)})
    prior_alone = PipelineConfig(lead_ratio=0.0)  # BM25's clear first (chunk 0) would otherwise be put back first
    plain = run(indexes, {"e7": QUERY_VEC}, top_k=10, config=prior_alone)
    last = plain.hits[-1].key
    lifted = run(indexes, {"e7": QUERY_VEC}, top_k=10, config=prior_alone,
                 prior=lambda keys: [1.0 if key == last else 0.0 for key in keys])
    assert lifted.hits[0].key == last and lifted.hits[0].score < 1.0  # below what every signal ranking it first gets
    assert "prior" in lifted.stages_used


def test_passages_a_prior_lifts_keep_scores_that_tell_them_apart() -> None:
    """A named document's passages are all lifted: capped at 1 they all showed 1.00, and the reader could not
    see which the signals put first. Shown over the best possible score, they keep their order and their gaps."""
    indexes = SearchIndexes(bm25=bm25(), dense={"e7": dense(BASE)})
    plain = run(indexes, {"e7": QUERY_VEC}, top_k=10)
    lifted = run(indexes, {"e7": QUERY_VEC}, top_k=10, prior=lambda keys: [0.3] * len(keys))
    assert [h.key for h in lifted.hits] == [h.key for h in plain.hits]
    scores = [h.score for h in lifted.hits]
    assert len(set(scores)) == len(scores) and all(0.0 < s <= 1.0 for s in scores)
    assert scores[0] == pytest.approx((plain.hits[0].score + 0.3) / 1.3)


def test_passages_holding_a_cited_reference_come_first_whatever_their_scores() -> None:
    indexes = SearchIndexes(bm25=bm25(), dense={"e7": dense(BASE)})
    out = run(indexes, {"e7": QUERY_VEC}, top_k=5, first={6, 4})  # neither matches the query's words
    assert [hit.key for hit in out.hits[:2]] == [6, 4] or [hit.key for hit in out.hits[:2]] == [4, 6]
    assert "references" in out.stages_used
    off = run(indexes, {"e7": QUERY_VEC}, top_k=5, first={6, 4},
              config=PipelineConfig(dense_recall=("e7",), references_first=False))
    assert off.hits[0].key not in {4, 6}


def test_an_included_passage_is_a_candidate_though_recall_missed_it() -> None:
    only_bm25 = SearchIndexes(bm25=bm25())
    out = run(only_bm25, {}, top_k=10, include=[7], prior=lambda keys: [0.5 if key == 7 else 0.0 for key in keys])
    assert 7 in [hit.key for hit in out.hits]  # "distributor ... prices" shares no word with the query


def _windowed() -> tuple[SearchIndexes, dict[int, np.ndarray], np.ndarray]:
    """Three passages and a question along axis 0. B's vector is the closest (0.80); A's two windows are the
    question itself and something else, so A's vector, their mean, is 0.71; C's best window is 0.90, its vector
    0.64. By vectors: B, A, C; by best windows: A, C, B."""
    axes = np.eye(DIM, dtype=np.float32)
    windows = {0: axes[[0, 1]], 2: l2_normalize(np.stack([0.9 * axes[0] + 0.4359 * axes[3], axes[4]]))}
    vectors = np.stack([l2_normalize(windows[0].mean(axis=0)), 0.8 * axes[0] + 0.6 * axes[2],
                        l2_normalize(windows[2].mean(axis=0))])
    return SearchIndexes(dense={"e7": dense(vectors, (0, 1, 2))}), windows, axes[0]


def test_a_passage_whose_one_window_answers_is_ranked_by_that_window_beside_its_vector() -> None:
    indexes, windows, question = _windowed()
    asked: list[list[int]] = []

    def load(name: str, keys: Sequence[int]) -> dict[int, np.ndarray]:
        asked.append(list(keys))
        return {key: windows[key] for key in keys if key in windows} if name == "e7" else {}

    plain = run(indexes, {"e7": question}, top_k=3)
    assert [h.key for h in plain.hits] == [1, 0, 2] and "windows" not in plain.stages_used
    assert plain.signals == ("e7",)  # the window list ranked as E7's own: not shown apart
    out = run(indexes, {"e7": question}, top_k=3, windows=load)
    assert out.stages_used == ("recall", "rrf", "windows") and out.signals == ("e7", "e7_window")
    assert [h.key for h in out.hits] == [0, 1, 2]
    assert out.hits[0].ranks == {"e7": 2, "e7_window": 1} and out.hits[1].ranks == {"e7": 1, "e7_window": 3}
    assert asked == [[1, 0, 2]]  # read once, for the fused first passages

    run(indexes, {"e7": question}, top_k=3, windows=load, config=PipelineConfig(window_keep=2))
    assert asked[-1] == [1, 0]  # only the first `window_keep`: a big case reads a few, not every candidate


def test_without_stored_windows_the_two_lists_rank_as_the_models_one_list_did() -> None:
    """A case indexed before windows were stored, or of short passages only, ranks exactly as E7 alone at its full
    weight (0.6): same passages, same scores."""
    e7 = l2_normalize(RNG.standard_normal((len(TEXTS), DIM)))
    indexes = SearchIndexes(bm25=bm25(), dense={"e7": dense(e7)})
    weights = dict(PipelineConfig().rrf_weights)
    assert weights["e7"] + weights["e7_window"] == pytest.approx(0.6)
    one_list = PipelineConfig(rrf_weights={**{k: v for k, v in weights.items() if k != "e7_window"}, "e7": 0.6})
    for vector in (e7[0], QUERY_VEC):
        two = run(indexes, {"e7": vector}, top_k=10, windows=lambda name, keys: {})
        one = run(indexes, {"e7": vector}, top_k=10, config=one_list)
        assert [(h.key, h.ranks) for h in two.hits] == [(h.key, h.ranks) for h in one.hits]
        assert [h.score for h in two.hits] == pytest.approx([h.score for h in one.hits])


def test_mail_ranks_only_the_messages_in_the_direction_the_question_asks() -> None:
    """"What did Bob Williams tell Jim Steffes": Williams's message to Steffes, not Dasovich's message to Steffes that
    lists Williams among its readers (it matches "to: Steffes" and, as a reader, "Williams"), nor Steffes's own
    message back to Williams."""
    from casetrack.search.correspondents import asked_terms, recipient_terms, sender_terms

    messages = {
        1: ("jeff.dasovich@enron.com", "d..steffes@enron.com, c..williams@enron.com", "Edison will send a one-pager."),
        2: ("c..williams@enron.com", "d..steffes@enron.com", "Sounds good to me."),
        3: ("d..steffes@enron.com", "c..williams@enron.com", "Thanks Bob, I will call Edison."),
    }
    index = Bm25Index()
    for key, (sender, readers, body) in messages.items():
        index.add(key, [*sender_terms(sender), *recipient_terms(readers), *tokenize(body + " The SCE strategy.")])
    asked = asked_terms("What did Bob Williams tell Jim Steffes about his strategy?")
    assert asked == ["from:bob", "from:william", "to:jim", "to:steffe"]
    out = search(SearchRequest(Query(tokenize("strategy"), {}, correspondents=asked), 3), SearchIndexes(bm25=index))
    assert out.hits[0].key == 2 and [h.ranks.get("mail") for h in out.hits] == [1, None, None]
    writer = asked_terms("What did Steffes write?")  # a writer alone: every message he sent
    sent = search(SearchRequest(Query(tokenize("strategy"), {}, correspondents=writer), 3), SearchIndexes(bm25=index))
    assert sent.hits[0].key == 3 and [h.ranks.get("mail") for h in sent.hits] == [1, None, None]


def test_the_passage_meaning_alone_ranks_first_is_among_the_first_few() -> None:
    """Chunk 5 shares no word with the question, but E7 ranks it first; three passages BM25 and E7 both rank sum
    higher. Kept within the first three, it takes the third place (stage "firsts"), and the passage it displaces
    comes next."""
    indexes = SearchIndexes(bm25=bm25(), dense={"e7": dense(BASE)})
    plain = run(indexes, {"e7": BASE[5]}, top_k=10, config=PipelineConfig(keep_firsts=False))
    assert [h.key for h in plain.hits[:4]] == [0, 3, 2, 5] and "firsts" not in plain.stages_used
    kept = run(indexes, {"e7": BASE[5]}, top_k=10, config=PipelineConfig(firsts_within=3))
    assert [h.key for h in kept.hits[:4]] == [0, 3, 5, 2] and kept.stages_used[-1] == "firsts"
    assert kept.hits[2].ranks == {"e7": 1} and kept.hits[2].score == plain.hits[3].score
    assert [h.key for h in run(indexes, {"e7": BASE[5]}, top_k=10, config=PipelineConfig(firsts_within=1)).hits[:1]
            ] == [0]


def test_asking_for_more_results_never_reorders_the_first_ones() -> None:
    """Each list's firsts are kept within a fixed number of places, not within the number asked for: the first
    three of ten results are the three of a top 3, though E7's first (chunk 5) is placed by the rule."""
    indexes = SearchIndexes(bm25=bm25(), dense={"e7": dense(BASE)})
    config = PipelineConfig(firsts_within=3)
    ten = [h.key for h in run(indexes, {"e7": BASE[5]}, top_k=10, config=config).hits]
    assert ten[:4] == [0, 3, 5, 2]
    for top_k in range(1, 10):
        assert [h.key for h in run(indexes, {"e7": BASE[5]}, top_k=top_k, config=config).hits] == ten[:top_k]


def test_a_lists_firsts_are_those_it_ranks_first_with_the_prior() -> None:
    """E7 ranks chunk 5 first and chunk 6 second; the prior says chunk 6 plays the role asked for. A search by E7
    alone with that prior ranks 6 first (61/62 + 0.05 > 1), so 6, not E7's bare first, is the one kept among the
    first three; without the prior, 5 is."""
    indexes = SearchIndexes(bm25=bm25(), dense={"e7": dense(BASE)})
    meaning = 2.0 * BASE[5] + 1.5 * BASE[6]
    config = PipelineConfig(firsts_within=3, meaning_firsts=1, lead_ratio=0.0)
    bare = run(indexes, {"e7": meaning}, top_k=10, config=config)
    assert bare.hits[2].key == 5 and bare.hits[2].ranks["e7"] == 1 and bare.stages_used[-1] == "firsts"
    lifted = run(indexes, {"e7": meaning}, top_k=10, config=config,
                 prior=lambda keys: [0.05 if key == 6 else 0.0 for key in keys])
    assert lifted.hits[2].key == 6 and lifted.hits[2].ranks["e7"] == 2 and 5 not in [h.key for h in lifted.hits[:3]]


def test_a_clear_keyword_first_place_is_shown_first_though_meaning_ranks_it_last() -> None:
    """Chunk 4 alone holds the words asked for, far above any other passage by BM25, but the meaning model ranks it
    last: RRF counts BM25's margin as one rank and buries it. Shown first (stage "lead") unless the question names a
    document, where the name prior ranks; a first without that margin stays where fusion puts it."""
    indexes = SearchIndexes(bm25=bm25(), dense={"e7": dense(BASE)})
    far = BASE[5] - 2.0 * BASE[4]  # meaning: chunk 5 first, chunk 4 last

    def ask(text: str, **request: object):  # type: ignore[no-untyped-def]
        return search(SearchRequest(Query(tokenize(text), {"e7": far}), 10, **request), indexes)  # type: ignore[arg-type]

    plain = search(SearchRequest(Query(tokenize("consultant monthly fee agreement"), {"e7": far}), 10), indexes,
                   PipelineConfig(lead_ratio=0.0))
    assert [h.key for h in plain.hits].index(4) > 0
    led = ask("consultant monthly fee agreement")
    assert led.hits[0].key == 4 and led.stages_used[-1] == "lead" and led.hits[0].ranks["bm25"] == 1
    assert ask("consultant monthly fee agreement", names_document=True).hits[0].key != 4
    close = ask("agreement party")  # BM25's first and second nearly tie: no lead
    assert "lead" not in close.stages_used


def test_each_meaning_list_keeps_its_first_three_among_those_shown() -> None:
    """The meaning model ranks chunks 5, 6 and 7 first, none of which holds a word of the question: fusion puts them
    below the keyword matches, but all three are among the ten shown (stage "firsts"); with one kept, only 5 is."""
    indexes = SearchIndexes(bm25=bm25(), dense={"e7": dense(BASE)})
    meaning = 3.0 * BASE[5] + 2.0 * BASE[6] + 1.0 * BASE[7]
    query = Query(tokenize("either party agreement terminate notice thirty days written consent"), {"e7": meaning})
    one = search(SearchRequest(query, 10), indexes, PipelineConfig(meaning_firsts=1, lead_ratio=0.0, firsts_within=4))
    three = search(SearchRequest(query, 10), indexes, PipelineConfig(lead_ratio=0.0, firsts_within=4))
    assert 5 in [h.key for h in one.hits[:4]] and not {6, 7} <= {h.key for h in one.hits[:4]}
    assert {5, 6} <= {h.key for h in three.hits[:4]} and three.stages_used[-1] == "firsts"
