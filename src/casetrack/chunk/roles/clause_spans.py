"""Where inside a passage its clause is: the paragraph (or, in a passage of one paragraph, the sentences) that
holds it, so a citation names those lines rather than the whole passage.

A learned clause type (chunk.clause_model) is placed at the run of consecutive pieces the classifier gives
that type at or above its threshold around the piece it scores highest; a keyword-found role (chunk.roles) at
the piece holding its first anchor. Offsets are into the passage's text. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import numpy as np

from casetrack.chunk.roles.clause_model import ClauseModel
from casetrack.chunk.roles.tagging import role_hits

_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_SENTENCE = re.compile(r"(?<=[.;:])\s+(?=[(\"A-Z0-9])")
MIN_PIECES = 2


def pieces(text: str) -> list[tuple[int, int]]:
    """(start, end) of the passage's paragraphs, or of its sentences when it is one paragraph; blank ones
    left out, each trimmed of surrounding whitespace."""
    for splitter in (_PARAGRAPH, _SENTENCE):
        out, start = [], 0
        for m in [*splitter.finditer(text), None]:
            end = len(text) if m is None else m.start()
            chunk = text[start:end]
            if chunk.strip():
                lead = len(chunk) - len(chunk.lstrip())
                out.append((start + lead, start + len(chunk.rstrip())))
            start = end if m is None else m.end()
        if len(out) >= MIN_PIECES:
            return out
    stripped = text.strip()
    return [(text.find(stripped), text.find(stripped) + len(stripped))] if stripped else []


def clause_spans(text: str, roles: Mapping[str, float | None], model: ClauseModel | None) -> dict[str, tuple[int, int]]:
    """Per role of the passage, the (start, end) of the lines that hold it; a role placed nowhere narrower than
    the passage is left out (the passage's own citation stands)."""
    parts = pieces(text)
    if len(parts) < MIN_PIECES:
        return {}
    out: dict[str, tuple[int, int]] = {}
    learned = [r for r in roles if model is not None and r in model.types]
    if learned and model is not None:
        probs = np.stack([model.probabilities(text[s:e]) for s, e in parts])
        for role in learned:
            out[role] = _run(parts, probs[:, model.types.index(role)], model.threshold)
    for role in roles:
        if role not in out:
            found = _keyword_piece(text, role, parts)
            if found is not None:
                out[role] = found
    return {r: span for r, span in out.items() if span != (parts[0][0], parts[-1][1])}


def _run(parts: list[tuple[int, int]], probs: np.ndarray, threshold: float) -> tuple[int, int]:
    best = int(np.argmax(probs))
    first = last = best
    while first > 0 and probs[first - 1] >= threshold:
        first -= 1
    while last + 1 < len(parts) and probs[last + 1] >= threshold:
        last += 1
    return parts[first][0], parts[last][1]


def _keyword_piece(text: str, role: str, parts: list[tuple[int, int]],
                   hits: Callable[[str], list[tuple[str, int]]] = role_hits) -> tuple[int, int] | None:
    at = next((offset for role_id, offset in hits(text) if role_id == role), None)
    if at is None:
        return None
    return next(((s, e) for s, e in parts if s <= at < e), None)
