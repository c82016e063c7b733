"""A long passage ranked by its best window (a rank-fusion list of its own beside its model's).

E7 reads 256 tokens at a time: a longer passage is read in overlapping windows and its vector is their mean, so
one sentence that answers a question is diluted by the rest of the passage; its own window is not. A model whose
spec gives `best_window_share` > 0 therefore ranks twice ("e7" and "e7_window"), its weight split between the
two lists. Until `best_windows` runs, the window list ranks every passage by its vector (the same scores as the
model's list: computed once); it then puts in the best window of each passage of the fused first few that has
stored windows. A passage without windows (read in one, or indexed before they were stored) keeps its vector's
score, so a case without windows ranks exactly as the model's one list did. Pure: the caller loads the windows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from casetrack.index.dense import l2_normalize
from casetrack.index.postings import Key
from casetrack.search.fuse import ranking_from_scores

BEST_WINDOW = "_window"  # "e7" -> "e7_window"
STAGE_WINDOWS = "windows"
WindowLoader = Callable[[str, Sequence[Key]], Mapping[Key, np.ndarray]]  # (signal, keys) -> window matrices


def window_list(name: str) -> str | None:
    """The model's signal a window list belongs to ("e7_window" -> "e7"); None for any other signal."""
    return name[: -len(BEST_WINDOW)] if name.endswith(BEST_WINDOW) else None


def best_windows(
    vectors: Mapping[str, object], candidates: Sequence[Key], head: Sequence[Key],
    scores: Mapping[str, np.ndarray], loader: WindowLoader,
) -> dict[str, list[Key]]:
    """Each window list ranked again, the passages of `head` with stored windows by their best one, the rest by the
    scores their vectors have (`scores`, by list, over `candidates`); only the lists some passage's windows moved."""
    out: dict[str, list[Key]] = {}
    position: dict[Key, int] | None = None
    for name, by_vector in scores.items():
        base = window_list(name)
        if base is None:
            continue
        question = vectors.get(base)
        if not isinstance(question, np.ndarray):
            continue
        found = loader(base, head)
        if not found:
            continue
        position = position or {key: i for i, key in enumerate(candidates)}
        best = by_vector.copy()
        q = l2_normalize(question)
        for key, matrix in found.items():
            if key in position:
                best[position[key]] = float(np.max(matrix @ q))
        out[name] = ranking_from_scores(candidates, best)
    return out
