"""The benchmarks' embedding cache (benchmarks/embed_cache.py) gives what the model gives, on a fresh cache and a
warm one: the labelled-set runs that choose ranking changes read their vectors and window vectors from it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from casetrack.embed.engine import OnnxEmbedder
from casetrack.embed.pool import EmbedderPool
from casetrack.embed.specs import LicenseTier

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
TEXTS = ["The tenant shall pay rent on the first day of each month.",
         "Either party may terminate this Agreement on thirty days' written notice. " * 40]  # several windows


def test_cached_vectors_and_windows_are_the_models_on_a_fresh_and_a_warm_cache(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    pool = EmbedderPool(tmp_path / "models", tier=LicenseTier.FREE)
    if "E7" not in pool.available():
        pytest.skip("the packaged E7 is not installed")
    vectors, windows = pool.get("E7").embed_windows(TEXTS)
    assert windows[0] is None and windows[1] is not None and len(windows[1]) >= 2
    for name in ("embed_documents", "embed_windows", "embed_query"):  # put back after the test
        monkeypatch.setattr(OnnxEmbedder, name, getattr(OnnxEmbedder, name))
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    from embed_cache import cache_embeddings  # type: ignore[import-not-found]

    cache_embeddings(tmp_path / "cache")
    for _ in ("fresh", "warm"):  # the first call embeds and writes, the second only reads
        assert np.allclose(pool.get("E7").embed_documents(TEXTS), vectors, atol=1e-6)
        cached, cached_windows = pool.get("E7").embed_windows(TEXTS)
        assert np.allclose(cached, vectors, atol=1e-6) and cached_windows[0] is None
        assert np.allclose(cached_windows[1], windows[1], atol=1e-6)
    assert len(list((tmp_path / "cache" / "E7-windows").rglob("*.npy"))) == len(TEXTS)
    sys.modules.pop("embed_cache", None)
