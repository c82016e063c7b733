"""The dense index against brute-force numpy, through adds, removals and filters."""

from __future__ import annotations

import numpy as np
import pytest

from casetrack.index.dense import DenseIndex, l2_normalize


def unit(rng: np.random.Generator, n: int, dim: int = 16) -> np.ndarray:
    return l2_normalize(rng.standard_normal((n, dim)).astype(np.float32))


def brute_force(store: dict[int, np.ndarray], query: np.ndarray, top_n: int, allowed=None) -> list[int]:
    keys = [k for k in store if allowed is None or k in allowed]
    scores = np.array([store[k] @ l2_normalize(query) for k in keys])
    order = sorted(range(len(keys)), key=lambda i: -scores[i])
    return [keys[i] for i in order[:top_n]]


def test_search_equals_brute_force_through_adds_and_removals() -> None:
    rng = np.random.default_rng(3)
    index = DenseIndex(16)
    store: dict[int, np.ndarray] = {}
    next_key = 0
    for _ in range(30):
        vecs = unit(rng, int(rng.integers(1, 40)))
        keys = list(range(next_key, next_key + len(vecs)))
        next_key += len(vecs)
        index.add(keys, vecs)
        store.update(zip(keys, vecs, strict=True))
        gone = [int(k) for k in rng.choice(sorted(store), size=min(len(store), 10), replace=False)]
        assert index.remove([*gone, -1]) == len(gone)  # an unknown key is ignored
        for k in gone:
            del store[k]
        query = rng.standard_normal(16).astype(np.float32)
        keys_found, scores = index.search(query, top_n=7)
        assert keys_found == brute_force(store, query, 7)
        np.testing.assert_allclose(scores, [store[k] @ l2_normalize(query) for k in keys_found], rtol=1e-5)
        assert len(index) == len(store) and sorted(index.keys()) == sorted(store)


@pytest.mark.parametrize("share", [0.05, 0.9])  # gathered rows and masked scan paths
def test_allowed_keys_restrict_the_result(share: float) -> None:
    rng = np.random.default_rng(5)
    vecs = unit(rng, 200)
    index = DenseIndex(16)
    index.add(list(range(200)), vecs)
    allowed = {int(k) for k in rng.choice(200, size=int(200 * share), replace=False)} | {999}
    query = rng.standard_normal(16).astype(np.float32)
    keys, _ = index.search(query, top_n=5, allowed=allowed)
    assert keys == brute_force(dict(enumerate(vecs)), query, 5, allowed)
    assert index.search(query, top_n=5, allowed=set())[0] == []


def test_re_adding_a_key_overwrites_its_vector_in_place() -> None:
    index = DenseIndex(3)
    index.add(["a", "b"], np.array([[1, 0, 0], [0, 1, 0]], dtype=np.float32))
    index.add(["a"], np.array([[0, 0, 5]], dtype=np.float32))  # stored normalised
    assert len(index) == 2
    np.testing.assert_allclose(index.vectors(["a"]), [[0, 0, 1]])
    assert index.search(np.array([0, 0, 1.0]), top_n=1)[0] == ["a"]


def test_score_keys_gives_cosines_and_nan_for_missing_keys() -> None:
    index = DenseIndex(2)
    index.add([1, 2], np.array([[1, 0], [1, 1]], dtype=np.float32))
    scores = index.score_keys(np.array([2.0, 0.0]), [2, 7, 1])
    np.testing.assert_allclose(scores, [np.sqrt(0.5), np.nan, 1.0], rtol=1e-6)


def test_bad_input_is_rejected() -> None:
    index = DenseIndex(4)
    with pytest.raises(ValueError, match="dimension"):
        index.search(np.ones(3), top_n=1)
    with pytest.raises(ValueError, match="distinct"):
        index.add(["a", "a"], np.ones((2, 4)))
    with pytest.raises(ValueError, match="NaN"):
        index.add(["a"], np.full((1, 4), np.nan))
    with pytest.raises(ValueError):
        index.add(["a", "b"], np.ones((3, 4)))


def test_memory_is_returned_after_mass_removal() -> None:
    index = DenseIndex(8)
    index.add(list(range(1000)), np.ones((1000, 8), dtype=np.float32))
    full = index.nbytes
    index.remove(list(range(990)))
    assert index.nbytes <= full // 4
    assert index.matrix.shape == (10, 8)
    assert sorted(index.keys()) == list(range(990, 1000))
    assert sorted(index.search(np.ones(8), top_n=20)[0]) == list(range(990, 1000))
