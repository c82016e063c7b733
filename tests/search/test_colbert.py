"""ColBERT MaxSim against an explicit double loop."""

from __future__ import annotations

import numpy as np
import pytest

from casetrack.search.colbert import maxsim, maxsim_many


def loop_maxsim(q: np.ndarray, d: np.ndarray) -> float:
    total = 0.0
    for qv in q:
        best = -np.inf
        for dv in d:
            best = max(best, float(qv @ dv / (np.linalg.norm(qv) * np.linalg.norm(dv))))
        total += best
    return total / len(q)


def test_maxsim_equals_the_loop_definition() -> None:
    rng = np.random.default_rng(2)
    for _ in range(20):
        q = rng.standard_normal((int(rng.integers(1, 9)), 64))
        d = rng.standard_normal((int(rng.integers(1, 40)), 64))
        assert maxsim(q, d) == pytest.approx(loop_maxsim(q, d), abs=1e-5)


def test_maxsim_hand_example_and_batch() -> None:
    q = np.array([[1.0, 0.0], [0.0, 1.0]])
    d = np.array([[1.0, 0.0], [0.6, 0.8]])
    assert maxsim(q, d) == pytest.approx((1.0 + 0.8) / 2)
    np.testing.assert_allclose(maxsim_many(q, [d, np.array([[0.0, 2.0]])]), [0.9, 0.5])


def test_maxsim_edge_cases() -> None:
    assert maxsim(np.ones((2, 4)), np.zeros((0, 4))) == 0.0
    with pytest.raises(ValueError, match="dimension"):
        maxsim(np.ones((2, 4)), np.ones((3, 5)))
    with pytest.raises(ValueError, match="no token"):
        maxsim(np.zeros((0, 4)), np.ones((3, 4)))
    with pytest.raises(ValueError, match="matrix"):
        maxsim(np.ones(4), np.ones((3, 4)))
