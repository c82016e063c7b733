"""The segmented indexes answer exactly as the in-memory ones they replace: same keys, same
scores, same order, across several segments and with deleted rows."""

from __future__ import annotations

import numpy as np
import pytest

from casetrack.index.bm25 import index_state_from_entries
from casetrack.index.dense import DenseIndex
from casetrack.index.merge import merge
from casetrack.index.quantized import EXACT_ROWS, top_rows
from casetrack.index.segment import ChunkEntry, SegmentBuilder, dense_part
from casetrack.index.segment_set import SegmentSet
from casetrack.index.segmented import SegmentedIndexes
from casetrack.index.sparse import SparseIndex, SparseVector

RNG = np.random.default_rng(7)
WORDS = [f"w{i}" for i in range(300)]


def corpus(n: int) -> list[ChunkEntry]:
    entries = []
    for i in range(n):
        picked = RNG.choice(len(WORDS), size=int(RNG.integers(1, 30)), p=_zipf(len(WORDS)))
        terms: dict[str, int] = {}
        for w in picked.tolist():
            terms[WORDS[w]] = terms.get(WORDS[w], 0) + 1
        ids = np.unique(RNG.integers(0, 500, size=12))
        entries.append(ChunkEntry(f"c{i:05d}", f"d{i // 7:04d}", terms, {"e7": RNG.standard_normal(16)},
                                  {"e6": (ids, RNG.random(ids.size).astype(np.float32) + 0.01)}))
    return entries


def _zipf(n: int) -> np.ndarray:
    p = 1.0 / np.arange(1, n + 1)
    return p / p.sum()


def segments_of(entries: list[ChunkEntry], cuts: list[int]) -> list:
    out = []
    for lo, hi in zip([0, *cuts], [*cuts, len(entries)], strict=True):
        builder = SegmentBuilder()
        for entry in entries[lo:hi]:
            builder.add(entry)
        out.append(builder.build())
    return out


def test_bm25_dense_and_sparse_match_the_in_memory_indexes_with_deleted_rows() -> None:
    entries = corpus(400)
    deleted = {f"c{i:05d}" for i in RNG.choice(400, size=60, replace=False).tolist()}
    segments = segments_of(entries, [150, 330])
    alive = [np.array([bytes(k).decode() not in deleted for k in s.chunk_ids]) for s in segments]
    ours = SegmentedIndexes.over(SegmentSet(segments, alive))
    kept = [e for e in entries if e.chunk_id not in deleted]
    bm25 = index_state_from_entries((e.chunk_id, e.terms) for e in kept)
    dense = DenseIndex(16)
    dense.add([e.chunk_id for e in kept], np.stack([e.dense["e7"] for e in kept]))
    sparse = SparseIndex.from_entries([e.chunk_id for e in kept],
                                      [SparseVector(*e.sparse["e6"]) for e in kept])

    assert len(ours.bm25) == len(bm25) == 340 and len(ours.dense["e7"]) == 340 and len(ours.sparse["e6"]) == 340
    for query in (["w1", "w5", "w5", "w40"], ["w299", "w0"], ["nothing"]):
        keys, scores = ours.bm25.score(query, 25)
        ref_keys, ref_scores = bm25.score(query, 25)
        assert keys == ref_keys and np.array_equal(scores, ref_scores)
        probe = [e.chunk_id for e in entries[::9]]
        assert np.array_equal(ours.bm25.score_keys(query, probe), bm25.score_keys(query, probe), equal_nan=True)
        allowed = set(probe[:20])
        assert ours.bm25.score(query, 5, allowed)[0] == bm25.score(query, 5, allowed)[0]
        assert ours.bm25.df(query[0]) == bm25.df(query[0])
    q = RNG.standard_normal(16)
    keys, scores = ours.dense["e7"].search(q, 30)
    ref_keys, ref_scores = dense.search(q, 30)
    assert keys == ref_keys and np.allclose(scores, ref_scores, atol=1e-6)
    allowed = {e.chunk_id for e in entries[:50]}
    assert ours.dense["e7"].search(q, 5, allowed)[0] == dense.search(q, 5, allowed)[0]
    probe = [e.chunk_id for e in entries[::5]]
    assert np.allclose(ours.dense["e7"].score_keys(q, probe), dense.score_keys(q, probe), equal_nan=True, atol=1e-6)
    sq = SparseVector(np.arange(0, 500, 7), np.ones(72, dtype=np.float32))
    keys, scores = ours.sparse["e6"].search(sq, 20)
    ref_keys, ref_scores = sparse.search(sq, 20)
    assert keys == ref_keys and np.allclose(scores, ref_scores)


def test_documents_and_keys_skip_deleted_rows() -> None:
    entries = corpus(40)
    segments = segments_of(entries, [21])
    alive = [np.ones(21, dtype=bool), np.ones(19, dtype=bool)]
    alive[1][0] = False  # c00021, of document d0003
    space = SegmentSet(segments, alive)
    assert len(space) == 39 and "c00021" not in set(space.chunk_ids())
    assert space.rows_of(["c00021", "c00022", "nope"]).tolist() == [-1, 22, -1]
    assert [space.key(int(r)) for r in space.document_rows("d0003")] == ["c00022", "c00023", "c00024",
                                                                          "c00025", "c00026", "c00027"]
    assert space.documents()["d0002"] == [f"c{i:05d}" for i in range(14, 21)]
    assert space.document_count() == 6


def test_a_large_segment_finds_the_exact_top_hundred_through_int8_codes() -> None:
    n, dim = EXACT_ROWS + 5000, 64
    vectors = RNG.standard_normal((n, dim)).astype(np.float32)
    part = dense_part(np.arange(n, dtype=np.int32), vectors)
    assert part.codes.dtype == np.int8 and part.codes.shape == (n, dim)
    normalised = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    hits = 0
    for _ in range(5):
        q = RNG.standard_normal(dim).astype(np.float32)
        q /= np.linalg.norm(q)
        exact = set(np.argsort(-(normalised @ q))[:100].tolist())
        positions, scores = top_rows(part, q, 100)
        hits += len(exact & set(positions.tolist()))
        assert np.allclose(scores, normalised[positions] @ q, atol=1e-6)  # rescored exactly
        assert np.all(np.diff(scores) <= 0)
    assert hits / 500 >= 0.99


def test_a_builder_refuses_chunks_out_of_order() -> None:
    builder = SegmentBuilder()
    builder.add(ChunkEntry("b", "d", {"x": 1}))
    with pytest.raises(ValueError, match="ascending"):
        builder.add(ChunkEntry("a", "d", {"x": 1}))


def test_merging_segments_keeps_every_live_answer_and_drops_deleted_rows() -> None:
    entries = corpus(120)
    segments = segments_of(entries, [50, 90])
    alive = [np.ones(s.rows, dtype=bool) for s in segments]
    alive[0][::3] = False
    alive[2][1] = False
    before = SegmentedIndexes.over(SegmentSet(segments, alive))
    merged = merge(list(zip(segments, alive, strict=True)))
    after = SegmentedIndexes.over(SegmentSet([merged], [None]))
    assert merged.rows == len(before.bm25) == len(after.bm25)
    assert list(after.space.chunk_ids()) == sorted(before.space.chunk_ids())
    for query in (["w1", "w7"], ["w3", "w3", "w120"]):
        keys, scores = before.bm25.score(query, 40)
        merged_keys, merged_scores = after.bm25.score(query, 40)
        assert merged_keys == keys and np.array_equal(merged_scores, scores)
    q = RNG.standard_normal(16)
    keys, scores = before.dense["e7"].search(q, 20)
    merged_keys, merged_scores = after.dense["e7"].search(q, 20)
    assert merged_keys == keys and np.array_equal(merged_scores, scores)
    sq = SparseVector(np.arange(0, 500, 3), np.ones(167, dtype=np.float32))
    assert after.sparse["e6"].search(sq, 15)[0] == before.sparse["e6"].search(sq, 15)[0]
    assert after.space.documents() == {d: sorted(c) for d, c in before.space.documents().items()}


def test_a_search_asks_each_question_once_and_the_answers_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Recall then fusion ask a view the same questions: BM25 of the query, rows of the candidates, dense
    scores of the passages dense recall just found. They are answered once, the same as when asked afresh."""
    from casetrack.index import segmented

    entries = corpus(300)
    segments = segments_of(entries, [120])
    ours = SegmentedIndexes.over(SegmentSet(segments, [None, None]))
    fresh = SegmentedIndexes.over(SegmentSet(segments, [None, None]))
    scored_rows: list[int] = []
    real_exact = segmented.exact_scores

    def counting(part, q, positions):  # type: ignore[no-untyped-def]
        scored_rows.append(int(positions.size))
        return real_exact(part, q, positions)

    monkeypatch.setattr(segmented, "exact_scores", counting)
    q = RNG.standard_normal(16)
    found, _ = ours.dense["e7"].search(q, 40)
    others = [e.chunk_id for e in entries[::7] if e.chunk_id not in set(found)]
    scored_rows.clear()
    scores = ours.dense["e7"].score_keys(q, [*found, *others])
    assert sum(scored_rows) == len(others)  # the 40 found are not read again
    assert np.allclose(scores, fresh.dense["e7"].score_keys(q, [*found, *others]), atol=1e-6)
    # The score a result shows asks again for the first few the fusion ranked: none is read a second time,
    # and a passage no one asked about yet is.
    scored_rows.clear()
    shown = [others[3], found[0], others[0], entries[1].chunk_id]
    again = ours.dense["e7"].score_keys(q, shown)
    assert sum(scored_rows) == (entries[1].chunk_id not in {*found, *others})
    assert np.allclose(again, fresh.dense["e7"].score_keys(q, shown), atol=1e-6)
    assert np.array_equal(again[:3], scores[[len(found) + 3, 0, len(found)]])
    ours.dense["e7"].search(RNG.standard_normal(16), 40)  # another question: nothing of this one is reused
    scored_rows.clear()
    ours.dense["e7"].score_keys(q, others[:5])
    assert sum(scored_rows) == 5

    query = ["w1", "w5", "w40"]
    first = ours.bm25.score_keys(query, others)
    assert ours.bm25._accumulate(query) is ours.bm25._accumulate(list(query))  # one pass over the postings
    assert np.array_equal(first, fresh.bm25.score_keys(query, others), equal_nan=True)
    with pytest.raises(ValueError):  # shared answers cannot be changed by one caller under another
        ours.bm25._accumulate(query)[0] = 1.0
    assert ours.bm25._accumulate(["w2"]) is not ours.bm25._accumulate(query)


def test_large_segments_choose_their_int8_candidates_together(monkeypatch: pytest.MonkeyPatch) -> None:
    """A case of several large segments rescores as many float rows as one segment would (each positioned
    read costs), not that many per segment, and still finds the exact best rows."""
    from casetrack.index import quantized, segmented

    dim, sizes = 32, [EXACT_ROWS + 2000, EXACT_ROWS + 3000, 500]  # two scanned as int8, one small
    vectors = RNG.standard_normal((sum(sizes), dim)).astype(np.float32)
    entries = [ChunkEntry(f"c{i:06d}", f"d{i // 50:05d}", {"w": 1}, {"e7": vectors[i]}, {})
               for i in range(len(vectors))]
    space = SegmentSet(segments_of(entries, [sizes[0], sizes[0] + sizes[1]]), [None, None, None])
    dense = SegmentedIndexes.over(space).dense["e7"]
    read: list[int] = []
    real_exact = quantized.exact_scores

    def counting(part, q, positions):  # type: ignore[no-untyped-def]
        if len(part.floats) > EXACT_ROWS:  # rows read one by one from a large segment's float file
            read.append(int(positions.size))
        return real_exact(part, q, positions)

    monkeypatch.setattr(segmented, "exact_scores", counting)
    monkeypatch.setattr(quantized, "exact_scores", counting)
    normalised = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    for _ in range(3):
        q = RNG.standard_normal(dim).astype(np.float32)
        read.clear()
        keys, scores = dense.search(q, 100)
        assert sum(read) <= max(2 * 100, 1000) + 2  # ties at the cut may add one or two
        exact = np.argsort(-(normalised @ (q / np.linalg.norm(q))))[:100]
        assert len({f"c{i:06d}" for i in exact.tolist()} & set(keys)) >= 99
        assert np.all(np.diff(scores) <= 0)


def test_the_best_holders_of_a_term_are_the_same_as_the_in_memory_index_finds() -> None:
    entries = corpus(400)
    deleted = {f"c{i:05d}" for i in RNG.choice(400, size=60, replace=False).tolist()}
    segments = segments_of(entries, [150, 330])
    alive = [np.array([bytes(k).decode() not in deleted for k in s.chunk_ids]) for s in segments]
    ours = SegmentedIndexes.over(SegmentSet(segments, alive)).bm25
    kept = [e for e in entries if e.chunk_id not in deleted]
    bm25 = index_state_from_entries((e.chunk_id, e.terms) for e in kept)
    query = ["w3", "w60", "w60", "w7"]
    scores = dict(zip([e.chunk_id for e in kept], bm25.score_keys(query, [e.chunk_id for e in kept]).tolist(),
                      strict=True))
    for terms in (["w3"], ["w3", "w7"], ["w250", "w0"], ["missing"], ["w3", "missing"]):
        holding = [e.chunk_id for e in kept if all(t in e.terms for t in terms)]
        expected = sorted(holding, key=lambda key: (-scores[key], key))[:12]  # best first, ties by chunk id
        assert ours.best_holding(terms, query, 12) == bm25.best_holding(terms, query, 12) == expected
        allowed = set(holding[::3]) | {"c99999"}
        within = sorted(holding[::3], key=lambda key: (-scores[key], key))[:4]
        assert ours.best_holding(terms, query, 4, allowed) == bm25.best_holding(terms, query, 4, allowed) == within
    probe = [e.chunk_id for e in entries[::3]] + ["c99999"]  # dead rows and an unknown key hold nothing
    holds = [key in scores and "w3" in next(e for e in entries if e.chunk_id == key).terms for key in probe]
    assert ours.holds("w3", probe).tolist() == bm25.holds("w3", probe).tolist() == holds
    assert ours.share_holding("w3", probe) == bm25.share_holding("w3", probe) == sum(holds) / len(probe)
