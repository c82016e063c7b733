"""The score a search result shows: the calibrated chance that its passage answers the question
(search.calibration, docs/scores.md), from evidence read here for the few passages a search returns."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from casetrack.index.dense import l2_normalize
from casetrack.index.postings import Key
from casetrack.search.calibration import Calibration, Evidence, coverage, descending, idf, load
from casetrack.search.pipeline import Hit, QueryInput, SearchIndexes, signal
from casetrack.search.windows import WindowLoader

_CALIBRATION: Calibration | None = None


def calibration() -> Calibration:
    """The shipped calibration, read once."""
    global _CALIBRATION
    if _CALIBRATION is None:
        _CALIBRATION = load()
    return _CALIBRATION


def evidence(hits: Sequence[Hit], tokens: Sequence[str], vectors: Mapping[str, QueryInput],
             indexes: SearchIndexes, windows: WindowLoader, model: str) -> list[Evidence]:
    """Each hit's evidence (search.calibration.Evidence); its `fused` is the pipeline's score."""
    keys = [hit.key for hit in hits]
    cosines = _cosines(keys, vectors, indexes, windows, signal(model))
    terms = list(dict.fromkeys(tokens))
    bm25 = indexes.bm25
    if bm25 is None or not len(bm25) or not terms:
        covered = [0.0] * len(keys)
    else:
        weights = [idf(bm25.df(t), len(bm25)) for t in terms]
        held = np.array([bm25.holds(t, keys) for t in terms]).reshape(len(terms), len(keys))
        covered = [coverage(weights, held[:, i].tolist()) for i in range(len(keys))]
    return [Evidence(None if cosines is None else float(cosines[i]), covered[i], hit.score, 1.0 / (i + 1))
            for i, hit in enumerate(hits)]


def _cosines(keys: Sequence[Key], vectors: Mapping[str, QueryInput], indexes: SearchIndexes,
             windows: WindowLoader, name: str) -> np.ndarray | None:
    """Each passage's cosine to the question under `name`: its best window's or its vector's, the higher; None when
    the model's index or the question's vector is missing."""
    dense, question = indexes.dense.get(name), vectors.get(name)
    if dense is None or not len(dense) or not isinstance(question, np.ndarray) or question.ndim != 1:
        return None
    scores = np.nan_to_num(np.asarray(dense.score_keys(question, keys), dtype=np.float64), nan=0.0)
    q = l2_normalize(question)
    found = windows(name, keys)
    for i, key in enumerate(keys):
        matrix = found.get(key)
        if matrix is not None and len(matrix):
            scores[i] = max(scores[i], float(np.max(matrix @ q)))
    return scores


def calibrated(hits: Sequence[Hit], found: Sequence[Evidence],
               min_score: float | None) -> tuple[list[Hit], dict[Key, Evidence]]:
    """The hits, in their ranking order, each scored by the calibration, the scores made to descend with that
    order (search.calibration.descending); with `min_score`, only those scoring at least that (none, when none
    does: a question no passage answers is told so, not shown the least bad passages). Returns the evidence by
    key too."""
    model = calibration()
    scores = descending([model.score(e) for e in found])
    scored = [replace(hit, score=score) for hit, score in zip(hits, scores, strict=True)]
    by_key = {hit.key: e for hit, e in zip(hits, found, strict=True)}
    if min_score is None or min_score <= 0:
        return scored, by_key
    return [hit for hit in scored if hit.score >= min_score or math.isclose(hit.score, min_score)], by_key
