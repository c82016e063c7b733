"""The clause types of a document's passages by the learned classifier (chunk.clause_model), fitted to the
kind of document: an agreement's passages at the threshold chosen by cross-validation, a contract clause
quoted in any other document only when the classifier is nearly sure (QUOTED), a decision's none (its
passages take the parts of a decision, chunk.roles). The artefact is read once per process."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from casetrack.chunk.roles.clause_model import ClauseModel, PassageScores
from casetrack.chunk.roles.clause_spans import clause_spans
from casetrack.chunk.roles.tagging import chunk_roles
from casetrack.chunk.roles.taxonomy import CONTRACT, DECISION
from casetrack.domain import ChunkSpan, DocumentType
from casetrack.embed.clause_artefact import read_artefact
from casetrack.graph.records import RoleRecord

log = logging.getLogger(__name__)

QUOTED = 0.9  # a contract clause in a document that is not an agreement (a letter quoting the contract)
# An agreement's passages keep every clause type at least this likely (untagged ones too), so that search can
# lift a passage by how likely it is to be the clause asked for rather than by tagged or not (search.evidence).
LIKELY = 0.01
FAMILIES = {DocumentType.CONTRACT: CONTRACT, DocumentType.CASE_LAW: DECISION}


def family_of(document_type: DocumentType) -> str | None:
    """The family of roles a document's passages may take as their own: an agreement's clause types, a
    decision's parts, or None (any other document)."""
    return FAMILIES.get(document_type)


@lru_cache(maxsize=1)
def clause_model() -> ClauseModel | None:
    """The shipped classifier; None (and a logged error) when its files cannot be read: passages are then
    stored without learned clause types rather than not at all."""
    try:
        return ClauseModel.of(*read_artefact())
    except (OSError, ValueError, KeyError):
        log.exception("The clause classifier could not be read; clause types are left out")
        return None


def learned_types(texts: Sequence[str], document_type: DocumentType) -> list[dict[str, float]]:
    """Per passage, the clause types the classifier gives it with their probabilities ({} for a decision)."""
    return _learned(texts, document_type)[0]


def _learned(texts: Sequence[str], document_type: DocumentType,
             paths: Sequence[str] | None = None) -> tuple[list[dict[str, float]], list[dict[str, float]],
                                                          PassageScores | None]:
    """Per passage, the clause types it is tagged with and (an agreement's passages only) every type from LIKELY
    up, each with its probability; and the scores themselves, whose pieces' probabilities and places
    chunk.clause_spans places a clause by. The passages are scored once for all three."""
    model = clause_model()
    family = family_of(document_type)
    if model is None or family == DECISION:
        return [{} for _ in texts], [{} for _ in texts], None
    cut = model.threshold if family == CONTRACT else max(QUOTED, model.threshold)
    scored = model.scored(texts, paths=paths)
    likely = [model.above(p, LIKELY) if family == CONTRACT else {} for p in scored.best]
    return [model.above(p, cut) for p in scored.best], likely, scored


@dataclass(frozen=True, slots=True)
class ChunkTags:
    """A document's chunks' roles as ingest stores them."""

    roles: list[tuple[str, ...]]  # per chunk, in taxonomy order
    confidence: dict[str, dict[str, float]]  # chunk id -> role -> the classifier's probability
    places: dict[str, dict[str, tuple[int, int]]]  # chunk id -> role -> where in its text the clause is
    # chunk id -> clause type -> probability, for the types from LIKELY up that it is not tagged with
    likelihood: dict[str, dict[str, float]] = field(default_factory=dict)


def tag_chunks(chunk_ids: Sequence[str], spans: Sequence[ChunkSpan], paths: Sequence[str],
               located: Iterable[RoleRecord], document_type: DocumentType) -> ChunkTags:
    """Each chunk's roles (chunk.roles.chunk_roles: keyword hits `located` by the graph extract, heading
    paths, the classifier's types), their confidences and where in the chunk each clause is."""
    texts = [s.text for s in spans]
    worded = ((r.role, r.chunk_id) for r in located)
    learned, likely, scored = _learned(texts, document_type, paths)
    by_piece = scored.by_piece if scored is not None else (None,) * len(texts)
    parts = scored.spans if scored is not None and scored.spans else ((),) * len(texts)
    tagged = chunk_roles(chunk_ids, paths, worded, family_of(document_type), learned)
    model = clause_model()
    confidence = {cid: sure for cid, found in zip(chunk_ids, tagged, strict=True)
                  if (sure := {r: p for r, p in found.items() if p is not None})}
    places = {cid: where for cid, text, found, probs, cut in zip(chunk_ids, texts, tagged, by_piece, parts, strict=True)
              if found and (where := clause_spans(text, found, model, probs, cut))}
    likelihood = {cid: below for cid, found, types in zip(chunk_ids, tagged, likely, strict=True)
                  if (below := {t: p for t, p in types.items() if t not in found})}
    return ChunkTags([tuple(found) for found in tagged], confidence, places, likelihood)
