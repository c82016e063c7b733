"""Sparse (SPLADE) dot products against a dense numpy reference."""

from __future__ import annotations

import numpy as np
import pytest

from casetrack.index.sparse import SparseIndex, SparseVector

VOCAB = 300


def random_sparse(rng: np.random.Generator, nnz: int) -> SparseVector:
    ids = rng.choice(VOCAB, size=nnz, replace=False)
    return SparseVector(ids, rng.random(nnz).astype(np.float32) + 0.01)


def test_dot_products_equal_the_dense_reference_through_adds_and_removals() -> None:
    rng = np.random.default_rng(11)
    index = SparseIndex()
    store: dict[int, SparseVector] = {}
    for round_ in range(20):
        keys = list(range(round_ * 30, round_ * 30 + 30))
        vecs = [random_sparse(rng, int(rng.integers(1, 40))) for _ in keys]
        index.add(keys, vecs)
        store.update(zip(keys, vecs, strict=True))
        gone = [int(k) for k in rng.choice(sorted(store), size=12, replace=False)]
        assert index.remove(gone) == 12
        for k in gone:
            del store[k]
        replaced = int(rng.choice(sorted(store)))
        store[replaced] = random_sparse(rng, 5)
        index.add([replaced], [store[replaced]])
        query = random_sparse(rng, 8)
        keys_all = sorted(store)
        dense = np.stack([store[k].to_dense(VOCAB) for k in keys_all])
        expected = dense @ query.to_dense(VOCAB)
        np.testing.assert_allclose(index.score_keys(query, keys_all), expected, rtol=1e-5)
        found, scores = index.search(query, top_n=10)
        positive = [keys_all[i] for i in np.argsort(-expected, kind="stable") if expected[i] > 0]
        assert found == positive[:10]
        np.testing.assert_allclose(scores, np.sort(expected[expected > 0])[::-1][:10], rtol=1e-5)


def test_search_respects_the_allowed_keys_and_stored_vectors_round_trip() -> None:
    index = SparseIndex()
    a = SparseVector.from_mapping({1: 0.5, 7: 2.0})
    b = SparseVector.from_mapping({7: 1.0, 9: 1.0})
    index.add(["a", "b"], [a, b])
    query = SparseVector.from_mapping({7: 1.0})
    assert index.search(query, top_n=5)[0] == ["a", "b"]
    assert index.search(query, top_n=5, allowed={"b"})[0] == ["b"]
    assert index.search(SparseVector.from_mapping({2: 1.0}), top_n=5)[0] == []
    np.testing.assert_allclose(index.vector("a").to_dense(10), a.to_dense(10))
    assert np.isnan(index.score_keys(query, ["zzz"])[0])


def test_sparse_vectors_are_validated_and_zeros_dropped() -> None:
    v = SparseVector(np.array([3, 4]), np.array([0.0, 1.5]))
    assert v.indices.tolist() == [4] and v.values.tolist() == [1.5]
    with pytest.raises(ValueError, match="distinct"):
        SparseVector(np.array([1, 1]), np.array([1.0, 2.0]))
    with pytest.raises(ValueError):
        SparseVector(np.array([1, 2]), np.array([1.0]))


def test_bulk_build_equals_incremental_adds_and_stays_incremental() -> None:
    rng = np.random.default_rng(4)
    keys = [f"k{i}" for i in range(80)]
    vecs = [random_sparse(rng, int(rng.integers(0, 30))) for _ in keys]
    bulk, incremental = SparseIndex.from_entries(keys, vecs), SparseIndex()
    incremental.add(keys, vecs)
    for index in (bulk, incremental):
        index.remove(keys[::3])
        index.add(["new"], [random_sparse(np.random.default_rng(9), 12)])
    query = random_sparse(rng, 20)
    remaining = [*keys, "new"]
    np.testing.assert_allclose(bulk.score_keys(query, remaining), incremental.score_keys(query, remaining))
    assert bulk.search(query, top_n=10)[0] == incremental.search(query, top_n=10)[0]
