"""Where inside a passage its clause is: the paragraph (or, in a passage of one paragraph, the sentences) that
holds it, so a citation names those lines rather than the whole passage.

A learned clause type (chunk.clause_model) is placed at the run of consecutive pieces the classifier gives
that type at or above its threshold around the piece it scores highest; a keyword-found role (chunk.roles) at
the piece holding its first anchor. Offsets are into the passage's text. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from casetrack.chunk.roles.clause_model import MIN_PIECES, ClauseModel, pieces
from casetrack.chunk.roles.tagging import role_hits


def clause_spans(text: str, roles: Mapping[str, float | None], model: ClauseModel | None,
                 by_piece: np.ndarray | None = None, parts: Sequence[tuple[int, int]] | None = None
                 ) -> dict[str, tuple[int, int]]:
    """Per role of the passage, the (start, end) of the lines that hold it; a role placed nowhere narrower than
    the passage is left out (the passage's own citation stands). `by_piece` and `parts`: the pieces'
    probabilities and places when the passage was already scored piece by piece (`ClauseModel.scored`), else
    they are found and scored here."""
    parts = list(parts) if parts and by_piece is not None else pieces(text)
    if len(parts) < MIN_PIECES:
        return {}
    out: dict[str, tuple[int, int]] = {}
    learned = [r for r in roles if model is not None and r in model.types]
    if learned and model is not None:
        probs = model.scores([text[s:e] for s, e in parts], model.floor) if by_piece is None else by_piece
        for role in learned:
            out[role] = _run(parts, probs[:, model.types.index(role)], model.threshold)
    worded = [r for r in roles if r not in out]
    # Read once for all of the passage's keyword roles, and for those alone: the other roles' patterns are not run.
    hits = role_hits(text, worded) if worded else []
    for role in worded:
        found = _keyword_piece(role, parts, hits)
        if found is not None:
            out[role] = found
    return {r: span for r, span in out.items() if span != (parts[0][0], parts[-1][1])}


def _run(parts: Sequence[tuple[int, int]], probs: np.ndarray, threshold: float) -> tuple[int, int]:
    best = int(np.argmax(probs))
    first = last = best
    while first > 0 and probs[first - 1] >= threshold:
        first -= 1
    while last + 1 < len(parts) and probs[last + 1] >= threshold:
        last += 1
    return parts[first][0], parts[last][1]


def _keyword_piece(role: str, parts: Sequence[tuple[int, int]], hits: Sequence[tuple[str, int]]
                   ) -> tuple[int, int] | None:
    at = next((offset for role_id, offset in hits if role_id == role), None)
    if at is None:
        return None
    return next(((s, e) for s, e in parts if s <= at < e), None)
