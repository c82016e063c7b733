"""Rank fusion and score filtering: pure functions over rankings and scored lists.

RRF is rank-based (Cormack et al. 2009): score(d) = sum_i w_i / (k + rank_i(d)), with
ranks counted from 1 and a signal that did not rank d contributing nothing. Raw
similarity scores never enter the sum, so signals with different scales (BM25, cosine,
SPLADE dot products) combine without calibration.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence

import numpy as np

Key = Hashable
Scored = tuple[Key, float]

RRF_K = 60


def rrf(rankings: Mapping[str, Sequence[Key]], weights: Mapping[str, float], k: int = RRF_K) -> list[Scored]:
    """Weighted reciprocal rank fusion, best first; ties keep first-seen order.

    Raises ValueError for a ranking without a weight, a key ranked twice by one signal,
    a negative weight or k < 0."""
    if k < 0:
        raise ValueError(f"k must be non-negative, got {k}")
    missing = [name for name in rankings if name not in weights]
    if missing:
        raise ValueError(f"no weight for {', '.join(missing)}; weights are given for {', '.join(weights) or 'nothing'}")
    fused: dict[Key, float] = {}
    for name, ranking in rankings.items():
        w = weights[name]
        if w < 0:
            raise ValueError(f"weight of {name} must be non-negative, got {w}")
        if len(set(ranking)) != len(ranking):
            raise ValueError(f"ranking {name} lists a key twice")
        for rank, key in enumerate(ranking, start=1):
            fused[key] = fused.get(key, 0.0) + w / (k + rank)
    return sorted(fused.items(), key=lambda item: -item[1])


def rrf_ceiling(signals: Iterable[str], weights: Mapping[str, float], k: int = RRF_K) -> float:
    """The largest fused score possible: ranked first by every signal, sum w / (k + 1)."""
    return sum(weights[name] for name in signals) / (k + 1)


def normalize(results: Sequence[Scored], ceiling: float) -> list[Scored]:
    """Scores divided by `ceiling` (see `rrf_ceiling`), so they lie in 0..1.

    Dividing by the ceiling rather than min-max scaling keeps the scale absolute: 1.0 means
    "ranked first by every signal that ran" on every query, so one `min_score` threshold
    means the same thing everywhere. Min-max would give every query's best hit 1.0 and its
    last 0.0 however good or bad they are. Raises ValueError for a ceiling <= 0."""
    if ceiling <= 0:
        raise ValueError(f"ceiling must be positive, got {ceiling}")
    return [(key, min(1.0, score / ceiling)) for key, score in results]


def ranking_from_scores(keys: Sequence[Key], scores: np.ndarray) -> list[Key]:
    """Keys ordered by descending score; NaN means "not ranked" and is left out.

    Ties keep the input order, so the result is deterministic."""
    s = np.asarray(scores, dtype=np.float64)
    if s.shape != (len(keys),):
        raise ValueError(f"{len(keys)} keys but {s.size} scores")
    valid = np.flatnonzero(~np.isnan(s))
    order = valid[np.argsort(-s[valid], kind="stable")]
    return [keys[i] for i in order.tolist()]


def apply_min_score(results: Sequence[Scored], min_score: float, guarantee: int = 3) -> list[Scored]:
    """Results scoring at least `min_score`, topped up from the best of the rest so that at
    least `guarantee` come back (when that many exist): a weak answer beats an empty one.
    Returned best first."""
    ranked = sorted(results, key=lambda item: -item[1])
    kept = [item for item in ranked if item[1] >= min_score or math.isclose(item[1], min_score)]
    if len(kept) >= guarantee:
        return kept
    return ranked[: max(guarantee, len(kept))]


def keep_firsts(results: Sequence[Scored], rankings: Mapping[str, Sequence[Key]], shown: int,
                fixed: Iterable[Key] = (), depth: Mapping[str, int] | None = None) -> tuple[list[Scored], list[Key]]:
    """`results` (best first) with each ranking's first key (its first `depth[name]`, where given) among the first
    `shown`: a passage that one signal ranks above every other is worth a look even when the others rank it low (RRF
    sums ranks, so one signal's first place is outvoted by two lists that never saw the passage). A missing first
    takes the place of the lowest results of the lower half, never one of the first half or of `fixed` (passages
    placed first on purpose), and keeps its own score (the missing ones go in by that score); the results it
    displaces come next, in their order. Returns the new order and the keys placed."""
    head = [key for key, _ in results[:shown]]
    firsts = list(dict.fromkeys(key for name, ranking in rankings.items()
                                for key in ranking[: max(1, (depth or {}).get(name, 1))]))
    by_key = dict(results)
    missing = sorted((key for key in firsts if key in by_key and key not in head), key=lambda key: -by_key[key])
    spare = {*fixed, *firsts}
    replaceable = [key for key in reversed(head[(shown + 1) // 2:]) if key not in spare]  # the lowest first
    added = missing[: len(replaceable)]
    if not added:
        return list(results), []
    out = set(replaceable[: len(added)])
    order = [key for key in head if key not in out] + added
    placed = set(order)
    return [(key, by_key[key]) for key in order] + [item for item in results if item[0] not in placed], added


def firsts_alone(ranking: Sequence[Key], evidence: Mapping[Key, float], count: int, k: int = RRF_K) -> list[Key]:
    """The first `count` keys of `ranking` as a search by that signal alone would order them, given the same
    `evidence` about each passage (the prior lift added to the fused score; 0 where none): by the signal's own
    fused score over its best possible, (k + 1) / (k + rank), plus the evidence; ties in the ranking's order.
    Without evidence, the ranking's own first `count`."""
    if not evidence or count <= 0:
        return list(ranking[: max(count, 0)])
    # Past the rank whose score plus the largest lift is below the least the first `count` can score, none enters.
    floor = (k + 1) / (k + count) + min(0.0, *evidence.values()) - max(evidence.values())
    head = ranking if floor <= 0 else ranking[: max(count, int((k + 1) / floor - k) + 1)]
    lifts = np.fromiter((evidence.get(key, 0.0) for key in head), dtype=np.float64, count=len(head))
    alone = (k + 1) / (k + np.arange(1, len(head) + 1, dtype=np.float64)) + lifts
    return [head[i] for i in np.argsort(-alone, kind="stable")[:count].tolist()]  # stable: ties in rank order


def ahead(results: Sequence[Scored], *groups: Iterable[Key]) -> list[Scored]:
    """`results` with the keys of each group ahead of the rest, group by group (a key in two groups goes with the
    first), each part in its own order."""
    rank: dict[Key, int] = {}
    for i, group in enumerate(groups):
        for key in group:
            rank.setdefault(key, i)
    return sorted(results, key=lambda item: rank.get(item[0], len(groups)))  # stable: each part keeps its order


def clear_lead(ranking: Sequence[Key], scores: Sequence[float], ratio: float) -> Key | None:
    """The first key of `ranking` when its score (`scores`, the first two keys' scores, best first) is at least
    `ratio` times the second's; None otherwise, with fewer than two keys, or when `ratio` is 0 (off)."""
    if ratio <= 0 or len(ranking) < 2 or len(scores) < 2:
        return None
    return ranking[0] if scores[0] > 0 and scores[0] >= ratio * scores[1] else None
