"""The incremental BM25 index against bm25s and a plain reference implementation."""

from __future__ import annotations

import math
import random
from collections import Counter

import bm25s
import numpy as np
import pytest

from casetrack.index.bm25 import Bm25Index, Bm25Params, index_state_from_entries
from casetrack.index.tokenize import term_frequencies, tokenize

PASSAGES = {
    "c1": "Either party may terminate this Agreement upon thirty (30) days written notice to the other party.",
    "c2": "In the event of early termination, the non-breaching party shall be entitled to recover all damages.",
    "c3": "Defendant terminated the Agreement without the required thirty days notice, in violation of Section 8.1.",
    "c4": "This Agreement will be governed by the laws of the State of New York without regard to conflict of laws.",
    "c5": "Neither party may assign the Agreement without the written consent of the other party.",
    "c6": "The Company shall pay Consultant a flat fee consulting rate of $18,000 per month.",
    "c7": "Plaintiff brings this action under 42 U.S.C. § 1983 for deprivation of rights under color of law.",
    "c8": "Defendant moves to dismiss the complaint for failure to state a claim under Rule 12(b)(6).",
    "c9": "Notice shall be given in writing and delivered by hand or by certified mail to the party.",
    "c10": "The distributor shall purchase products at the prices set out in Exhibit A, as amended by notice.",
    "c11": "Confidential Information shall not include information that is publicly available.",
    "c12": "The term of this Agreement is two years, renewable by written agreement of both parties.",
}
QUERIES = [
    "terminate agreement notice",
    "written consent of the other party",
    "Section 8.1 violation",
    "42 U.S.C. § 1983",
    "dismiss 12(b)(6)",
    "party party notice notice",  # repeated query tokens count twice, as in bm25s
    "governed laws New York",
]


def tokens_of(texts: dict[str, str]) -> dict[str, list[str]]:
    return {key: tokenize(text) for key, text in texts.items()}


def bm25s_scores(docs: dict[str, list[str]], query: list[str], k1: float = 1.2, b: float = 0.75) -> np.ndarray:
    retriever = bm25s.BM25(k1=k1, b=b, method="lucene")
    retriever.index(list(docs.values()), show_progress=False)
    known = [t for t in query if t in retriever.vocab_dict]
    if not known:
        return np.zeros(len(docs), dtype=np.float32)
    return retriever.get_scores(known)


def reference_scores(
    docs: dict[str, list[str]], query: list[str], method: str = "lucene", k1: float = 1.2, b: float = 0.75
) -> dict[str, float]:
    """BM25 written out term by term, no arrays, no shortcuts."""
    n = len(docs)
    avgdl = sum(len(t) for t in docs.values()) / n
    df = Counter(term for tokens in docs.values() for term in set(tokens))
    out = {}
    for key, tokens in docs.items():
        tf = Counter(tokens)
        total = 0.0
        for term in query:
            if tf[term] == 0:
                continue
            norm = k1 * (1 - b + b * len(tokens) / avgdl)
            if method == "lucene":
                idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
                total += idf * tf[term] / (tf[term] + norm)
            else:  # bm25+, delta = 1
                idf = math.log((n + 1) / df[term])
                total += idf * ((k1 + 1) * tf[term] / (tf[term] + norm) + 1.0)
        out[key] = total
    return out


def build(docs: dict[str, list[str]], params: Bm25Params | None = None) -> Bm25Index:
    index = Bm25Index(params)
    for key, tokens in docs.items():
        index.add(key, tokens)
    return index


def assert_matches_bm25s(index: Bm25Index, docs: dict[str, list[str]]) -> None:
    keys = list(docs)
    for text in QUERIES:
        query = tokenize(text)
        ours = index.score_keys(query, keys)
        np.testing.assert_allclose(ours, bm25s_scores(docs, query), rtol=1e-5, atol=1e-6, err_msg=text)


def test_scores_equal_bm25s_on_the_same_tokens_and_parameters() -> None:
    docs = tokens_of(PASSAGES)
    assert_matches_bm25s(build(docs), docs)


def test_scores_still_equal_bm25s_after_removals_and_re_adds() -> None:
    docs = tokens_of(PASSAGES)
    index = build(docs)
    for key in ("c3", "c7", "c1"):
        assert index.remove(key)
        del docs[key]
    assert_matches_bm25s(index, docs)
    docs["c7"] = tokenize("A new claim under 42 U.S.C. § 1983 and § 1985, filed after notice.")
    index.add("c7", docs["c7"])
    docs["c4"] = tokenize("Replaced: governed by Delaware law.")  # re-adding a key replaces it
    index.add("c4", docs["c4"])
    assert_matches_bm25s(index, docs)


def test_bm25_plus_equals_the_reference_formula() -> None:
    docs = tokens_of(PASSAGES)
    index = build(docs, Bm25Params(method="bm25+", delta=1.0))
    for text in QUERIES:
        query = tokenize(text)
        expected = reference_scores(docs, query, method="bm25+")
        ours = index.score_keys(query, list(docs))
        np.testing.assert_allclose(ours, [expected[k] for k in docs], rtol=1e-5, err_msg=text)


@pytest.mark.parametrize("start", ["empty", "rebuilt"])
def test_random_adds_and_removes_keep_scores_equal_to_the_reference(start: str) -> None:
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(40)]
    docs: dict[int, list[str]] = {}
    if start == "rebuilt":  # postings begin as views into shared arrays, then grow apart
        docs = {k: [rng.choice(vocab) for _ in range(rng.randint(0, 20))] for k in range(60)}
    index = index_state_from_entries((k, term_frequencies(d)) for k, d in docs.items())
    for step in range(600):
        if docs and rng.random() < 0.4:
            key = rng.choice(sorted(docs))
            index.remove(key)
            del docs[key]
        else:
            key = rng.randrange(120)
            docs[key] = [rng.choice(vocab[: rng.randint(3, 40)]) for _ in range(rng.randint(1, 25))]
            index.add(key, docs[key])
        if step % 50 == 49:
            query = rng.sample(vocab, 4)
            expected = reference_scores(docs, query)
            keys = sorted(docs)
            np.testing.assert_allclose(index.score_keys(query, keys), [expected[k] for k in keys], rtol=1e-5)
            stats = index.stats()
            assert stats.n_docs == len(docs)
            assert stats.total_tokens == sum(map(len, docs.values()))
            assert stats.vocab_size == len({t for d in docs.values() for t in d})
            for term in query:
                assert index.df(term) == sum(term in d for d in docs.values())


def test_adding_a_chunk_changes_only_the_postings_of_its_own_terms() -> None:
    docs = tokens_of(PASSAGES)
    index = build(docs)
    vocabulary = {t for tokens in docs.values() for t in tokens}
    before = {term: index.postings(term) for term in vocabulary}
    new_tokens = tokenize("The distributor shall give written notice of termination under Section 8.1.")
    index.add("new", new_tokens)
    new_tf = term_frequencies(new_tokens)
    for term in vocabulary | set(new_tf):
        after = index.postings(term)
        if term in new_tf:
            assert after == {**before.get(term, {}), "new": new_tf[term]}
        else:
            assert after == before[term]
    index.remove("new")
    assert {term: index.postings(term) for term in vocabulary} == before
    assert index.df("distributor") == 1


def test_after_removal_a_term_only_that_chunk_had_finds_nothing() -> None:
    docs = tokens_of(PASSAGES)
    index = build(docs)
    keys, scores = index.score(tokenize("Consultant consulting fee"), top_n=5)
    assert keys == ["c6"] and scores[0] > 0
    vocab_before = index.stats().vocab_size
    assert index.remove("c6")
    assert index.score(tokenize("Consultant consulting fee"), top_n=5)[0] == []
    assert index.df("consultant") == 0 and index.postings("consultant") == {}
    assert index.stats().vocab_size < vocab_before
    assert not index.remove("c6")  # removing twice is a no-op


def test_rebuild_from_persisted_entries_equals_the_incremental_index() -> None:
    docs = tokens_of(PASSAGES)
    incremental = build(docs)
    incremental.remove("c2")
    incremental.add("empty", [])
    keys = incremental.keys()
    entries = [(key, incremental.entry(key)) for key in keys]
    rebuilt = index_state_from_entries(entries)
    assert rebuilt.stats() == incremental.stats()
    for key in keys:
        assert rebuilt.entry(key) == incremental.entry(key)
    for text in QUERIES:
        query = tokenize(text)
        np.testing.assert_allclose(rebuilt.score_keys(query, keys), incremental.score_keys(query, keys), rtol=1e-6)
    # the rebuilt index keeps working incrementally
    assert rebuilt.remove("empty") and rebuilt.remove("c8")
    rebuilt.add("c8", docs["c8"])
    assert rebuilt.score(tokenize("12(b)(6)"), top_n=1)[0] == ["c8"]


def test_rebuild_rejects_a_key_given_twice_and_non_positive_counts() -> None:
    with pytest.raises(KeyError):
        index_state_from_entries([("a", {"x": 1}), ("a", {"y": 1})])
    with pytest.raises(ValueError, match="positive"):
        index_state_from_entries([("a", {"x": 0})])


def test_score_respects_top_n_the_allowed_set_and_orders_best_first() -> None:
    docs = tokens_of(PASSAGES)
    index = build(docs)
    query = tokenize("party agreement notice written")
    keys, scores = index.score(query, top_n=100)
    expected = reference_scores(docs, query)
    assert keys == sorted((k for k in expected if expected[k] > 0), key=lambda k: -expected[k])
    assert list(scores) == sorted(scores, reverse=True)
    top3, _ = index.score(query, top_n=3)
    assert top3 == keys[:3]
    allowed = {"c5", "c9", "c11", "unknown"}
    filtered, _ = index.score(query, top_n=100, allowed=allowed)
    assert filtered == [k for k in keys if k in allowed]
    none, no_scores = index.score(query, top_n=0)
    assert none == [] and no_scores.size == 0


def test_unknown_method_is_rejected_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="lucene, bm25\\+"):
        Bm25Params(method="okapi2")
