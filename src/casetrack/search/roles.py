"""Which legal role a question asks for, by meaning: the question's embedding against each role's description.

"Can they walk away without giving a reason?" shares no word with "terminate for convenience", and "which
judge disagreed with the result?" none with "dissenting"; both are close in meaning to the description of
the role (chunk.role_taxonomy). A question whose embedding is within `margin` of its best role and at least
`threshold` similar to it asks for that role, the more strongly the closer; the passages tagged with it at
ingest (chunk.roles) then get the pipeline's role prior times that strength. Pure numpy; the service embeds
the descriptions once per process.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from casetrack.chunk.roles.taxonomy import ASKS, ROLES, Role

# Chosen on eval-dev, heldout and heldout_court together (docs/benchmarks.md, issue 21).
THRESHOLD = 0.55
MARGIN = 0.03


def description_texts(roles: Sequence[Role] = ROLES) -> list[tuple[str, str]]:
    """(role id, text) for every text embedded for the roles: each role's description (with its label) and
    the ways questions ask for it (chunk.role_taxonomy.ASKS)."""
    out = []
    for role in roles:
        out.append((role.id, f"{role.label}. {role.description}"))
        out += [(role.id, text) for text in ASKS.get(role.id, ())]
    return out


@dataclass(frozen=True, slots=True)
class RoleMatcher:
    """The roles' text vectors (one unit-length row per text), each row's role in `owners`."""

    ids: tuple[str, ...]
    owners: np.ndarray  # row -> index into ids
    vectors: np.ndarray

    @classmethod
    def of(cls, vectors: np.ndarray, texts: Sequence[tuple[str, str]] | None = None) -> RoleMatcher:
        """Raises ValueError when there is not one vector per text of `description_texts`."""
        texts = description_texts() if texts is None else texts
        matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[0] != len(texts):
            raise ValueError(f"{len(texts)} role texts but vectors of shape {matrix.shape}")
        ids = tuple(dict.fromkeys(role for role, _ in texts))
        owners = np.array([ids.index(role) for role, _ in texts], dtype=np.int32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return cls(ids, owners, matrix / np.where(norms > 0, norms, 1.0))

    def similarities(self, query: np.ndarray) -> dict[str, float]:
        """Per role, the best similarity of the question to any of its texts."""
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        norm = float(np.linalg.norm(q))
        if norm == 0 or q.shape[0] != self.vectors.shape[1]:
            return {}
        best = np.full(len(self.ids), -1.0, dtype=np.float32)
        np.maximum.at(best, self.owners, self.vectors @ (q / norm))
        return dict(zip(self.ids, best.tolist(), strict=True))

    def asked(self, query: np.ndarray, threshold: float = THRESHOLD, margin: float = MARGIN) -> dict[str, float]:
        """The roles the question asks for, best first, each with how strongly: 0 at `threshold`, 1 at identity
        ((similarity - threshold) / (1 - threshold)); {} when none is close enough. A role within `margin` of the
        best is asked too ("which judges disagreed": dissent, and concurrence close behind)."""
        sims = self.similarities(query)
        if not sims:
            return {}
        best = max(sims.values())
        if best < threshold:
            return {}
        chosen = sorted((r for r, s in sims.items() if s >= max(best - margin, threshold)), key=lambda r: -sims[r])
        return {r: (sims[r] - threshold) / (1.0 - threshold) for r in chosen}
