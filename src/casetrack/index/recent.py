"""The last few answers of one computation over an index view, by what was asked.

One search asks the same view the same question more than once: BM25 scores the query at recall and
again for the fusion's candidates (and for the reference-only and unnamed variants of the query), and
every signal maps the same candidate chunk ids to rows. Each answer costs a pass over postings or a
binary search over chunk ids, so a view keeps its last few. Views are rebuilt on every change to the
index (`CaseIndex.views`), so an answer kept here never outlives the rows it was computed on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

import numpy as np

KEEP = 6  # a search asks a handful of questions; concurrent searches each ask their own


class Recent:
    """The last `keep` arrays computed, by key; arrays are handed out read-only (they are shared)."""

    def __init__(self, keep: int = KEEP) -> None:
        self._keep = keep
        self._answers: OrderedDict[Hashable, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()  # concurrent searches share a view

    def get(self, key: Hashable, compute: Callable[[], np.ndarray]) -> np.ndarray:
        with self._lock:
            if key in self._answers:
                self._answers.move_to_end(key)
                return self._answers[key]
        answer = compute()
        answer.flags.writeable = False
        with self._lock:
            self._answers[key] = answer
            while len(self._answers) > self._keep:
                self._answers.popitem(last=False)
        return answer
