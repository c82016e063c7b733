"""The clause types of a document's passages by the learned classifier (chunk.clause_model), fitted to the
kind of document: an agreement's passages by the artefact's decision (`ClauseRule`, chosen by nested
cross-validation: benchmarks/clause_rules.py; or, when the artefact has one, its learned second stage,
service.ingest.clause_stage, benchmarks/clause_stage.py, which also reads each passage's E7 vector when ingest
computed them), a contract clause quoted in any other document only when the
classifier is nearly sure (QUOTED), a decision's none (its passages take the parts of a decision, chunk.roles).
The artefact is read once per process."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from casetrack.chunk.roles.clause_model import ClauseModel, PassageScores
from casetrack.chunk.roles.clause_spans import clause_spans
from casetrack.chunk.roles.tagging import chunk_roles
from casetrack.chunk.roles.taxonomy import CONTRACT, DECISION
from casetrack.domain import ChunkSpan, DocumentType
from casetrack.embed.clause_artefact import read_artefact
from casetrack.graph.records import RoleRecord
from casetrack.service.ingest.clause_stage import WITH_VECTORS, ClauseStage, documents
from casetrack.store.vectors import VectorValue

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


@dataclass(frozen=True, slots=True)
class ClauseRule:
    """How an agreement's passages are tagged from their probabilities, seeing the whole agreement at once:
    a type at or above `threshold`; also, from `best_from` up, the agreement's likeliest passage for a type and
    any passage at least `near_best` times as likely as that one (most clause types occur once or a few times in
    a contract, so its best candidates are likely the clause even below the threshold); `parties` only on the
    agreement's first `parties_within` passages (its preamble names them; elsewhere a name is a mention). None:
    no such rule (an artefact whose meta.json has no key for it: the threshold alone, as before). `stage`: a
    learned second stage that, when the artefact has one, decides instead of the threshold and `best_from`
    (`parties_within` still holds, unless `parties_listed_anywhere`: then the stage's `parties` tags are listed
    wherever it puts them, and `parties_within` bounds only what search's role prior reads: `allowed`)."""

    threshold: float
    best_from: float | None = None
    near_best: float = 1.0
    parties_within: int | None = None
    # the stage's threshold was chosen listing `parties` anywhere (meta.json `parties_listed_anywhere`): the
    # library lists a signature block or a recital naming the parties; search still reads only the preamble's
    parties_listed_anywhere: bool = False
    stage: ClauseStage | None = field(default=None, compare=False, repr=False)
    # the stage that also reads each passage's vector; it decides instead of `stage` when they are given
    vector_stage: ClauseStage | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, meta: Mapping[str, Any], arrays: Mapping[str, np.ndarray] | None = None) -> ClauseRule:
        """The rule in an artefact's meta.json (`threshold`, optional `best_from`, `near_best`, `parties_within`)
        and its second stages, when `arrays` (the artefact's) hold them."""
        best, within = meta.get("best_from"), meta.get("parties_within")
        stage = None if arrays is None else ClauseStage.of(arrays, meta)
        with_vectors = None if arrays is None or stage is None else ClauseStage.of(arrays, meta, WITH_VECTORS)
        return cls(float(meta["threshold"]), None if best is None else float(best), float(meta.get("near_best", 1.0)),
                   None if within is None else int(within), meta.get("parties_listed_anywhere") is True, stage,
                   with_vectors)

    def stage_for(self, vectors: np.ndarray | None, passages: int) -> ClauseStage | None:
        """The stage that decides `passages` passages with these vectors (None: the rule decides alone)."""
        if self.vector_stage is not None and self.vector_stage.reads(vectors, passages):
            return self.vector_stage
        return self.stage

    def embedder(self) -> str | None:
        """The embedder whose vectors the decision reads, when it reads any."""
        return None if self.vector_stage is None else self.vector_stage.embedder


def decided(best: np.ndarray, types: Sequence[str], rule: ClauseRule, document: np.ndarray | None = None,
            vectors: np.ndarray | None = None) -> np.ndarray:
    """Which passage takes which type (passages x types, bool) from its probabilities (`best`, passages x
    types, ClauseModel.scored), by `rule`. `document` names each row's document (a document's rows together,
    in order; the benchmarks decide many contracts at once); None: the rows are one document's. `vectors`
    (passages x dims), each passage's vector from the embedder `rule.embedder()` names, when it has one."""
    if not len(best):
        return np.zeros(best.shape, dtype=bool)
    stage = rule.stage_for(vectors, len(best))
    if stage is not None:
        return (stage.probability(best, document, vectors) >= stage.threshold) & allowed(
            best.shape, types, rule, document, parties_anywhere=rule.parties_listed_anywhere)
    tagged = best >= rule.threshold
    starts, group = documents(len(best), document)
    if rule.best_from is not None:
        top = np.maximum.reduceat(best, starts, axis=0)[group]
        tagged |= (best >= rule.near_best * top) & (best >= rule.best_from)
    return tagged & allowed(best.shape, types, rule, document)


def allowed(shape: tuple[int, ...], types: Sequence[str], rule: ClauseRule, document: np.ndarray | None = None,
            parties_anywhere: bool = False) -> np.ndarray:
    """Which passage may take which type at all (passages x types, bool): `parties` only in a document's first
    `parties_within` passages (unless `parties_anywhere`); every other type anywhere."""
    out = np.ones(shape, dtype=bool)
    if not parties_anywhere and rule.parties_within is not None and "parties" in types and shape[0]:
        starts, group = documents(shape[0], document)
        out[:, list(types).index("parties")] = np.arange(shape[0]) - starts[group] < rule.parties_within
    return out


@lru_cache(maxsize=1)
def _loaded() -> tuple[ClauseModel, ClauseRule] | None:
    try:
        arrays, meta = read_artefact()
        return ClauseModel.of(arrays, meta), ClauseRule.of(meta, arrays)
    except (OSError, ValueError, KeyError, TypeError):
        log.exception("The clause classifier could not be read; clause types are left out")
        return None


def clause_model() -> ClauseModel | None:
    """The shipped classifier; None (and a logged error) when its files cannot be read: passages are then
    stored without learned clause types rather than not at all."""
    loaded = _loaded()
    return None if loaded is None else loaded[0]


def clause_rule() -> ClauseRule | None:
    """The shipped artefact's decision rule (None when the artefact cannot be read)."""
    loaded = _loaded()
    return None if loaded is None else loaded[1]


def learned_types(texts: Sequence[str], document_type: DocumentType) -> list[dict[str, float]]:
    """Per passage, the clause types the classifier gives it with their probabilities ({} for a decision)."""
    return _learned(texts, document_type).tags


@dataclass(frozen=True, slots=True)
class Learned:
    """What the classifier gives a document's passages, each list per passage."""

    tags: list[dict[str, float]]  # the clause types it is tagged with (listed), with their probabilities
    likely: list[dict[str, float]]  # an agreement's passages: every type from LIKELY up search may read
    unsearched: list[frozenset[str]]  # tags search's role prior must not read (`parties` past the preamble)
    scored: PassageScores | None  # pieces' probabilities and places, by which chunk.clause_spans places a clause


def _learned(texts: Sequence[str], document_type: DocumentType, paths: Sequence[str] | None = None,
             vectors: Mapping[str, Sequence[VectorValue]] | None = None) -> Learned:
    """The passages scored once for all of `Learned`. `vectors`: the passages' vectors by embedder, as ingest
    computed them (the decision reads one embedder's when the artefact says so)."""
    loaded = _loaded()
    family = family_of(document_type)
    none: list[frozenset[str]] = [frozenset()] * len(texts)
    if loaded is None or family == DECISION:
        return Learned([{} for _ in texts], [{} for _ in texts], none, None)
    model, rule = loaded
    scored = model.scored(texts, paths=paths)
    if family != CONTRACT:
        cut = max(QUOTED, rule.threshold)
        return Learned([model.above(p, cut) for p in scored.best], [{} for _ in texts], none, scored)
    tagged = decided(scored.best, model.types, rule, vectors=dense(vectors, rule.embedder(), len(texts)))
    # a type the rule rules out for search (parties outside the preamble) is not likely there either
    searched = allowed(scored.best.shape, model.types, rule)
    likely = np.where(searched, scored.best, 0.0)
    unsearched = [frozenset(model.types[j] for j in np.flatnonzero(row)) for row in tagged & ~searched]
    return Learned([model.above(p, 1e-9) for p in np.where(tagged, scored.best, 0.0)],
                   [model.above(p, LIKELY) for p in likely], unsearched, scored)


def dense(vectors: Mapping[str, Sequence[VectorValue]] | None, embedder: str | None, passages: int
          ) -> np.ndarray | None:
    """One embedder's vectors of `passages` passages as one array (passages x dims); None when that embedder
    did not embed them all (not installed, skipped for this document) or its vectors are not dense."""
    rows = None if vectors is None or embedder is None else vectors.get(embedder)
    if not rows or len(rows) != passages or not all(isinstance(r, np.ndarray) and r.ndim == 1 for r in rows):
        return None
    return np.stack(rows) if len({len(r) for r in rows}) == 1 else None


@dataclass(frozen=True, slots=True)
class ChunkTags:
    """A document's chunks' roles as ingest stores them."""

    roles: list[tuple[str, ...]]  # per chunk, in taxonomy order
    confidence: dict[str, dict[str, float]]  # chunk id -> role -> the classifier's probability
    places: dict[str, dict[str, tuple[int, int]]]  # chunk id -> role -> where in its text the clause is
    # chunk id -> clause type -> probability, for the types from LIKELY up that it is not tagged with
    likelihood: dict[str, dict[str, float]] = field(default_factory=dict)
    # chunk id -> the tags search's role prior must not read (Learned.unsearched), though the library lists them
    unsearched: dict[str, frozenset[str]] = field(default_factory=dict)


def tag_chunks(chunk_ids: Sequence[str], spans: Sequence[ChunkSpan], paths: Sequence[str],
               located: Iterable[RoleRecord], document_type: DocumentType,
               vectors: Mapping[str, Sequence[VectorValue]] | None = None) -> ChunkTags:
    """Each chunk's roles (chunk.roles.chunk_roles: keyword hits `located` by the graph extract, heading
    paths, the classifier's types), their confidences and where in the chunk each clause is. `vectors`: the
    chunks' vectors by embedder, as ingest computed them (IndexEntries.vectors)."""
    texts = [s.text for s in spans]
    worded = ((r.role, r.chunk_id) for r in located)
    learned = _learned(texts, document_type, paths, vectors)
    scored = learned.scored
    by_piece = scored.by_piece if scored is not None else (None,) * len(texts)
    parts = scored.spans if scored is not None and scored.spans else ((),) * len(texts)
    tagged = chunk_roles(chunk_ids, paths, worded, family_of(document_type), learned.tags)
    model = clause_model()
    confidence = {cid: sure for cid, found in zip(chunk_ids, tagged, strict=True)
                  if (sure := {r: p for r, p in found.items() if p is not None})}
    places = {cid: where for cid, text, found, probs, cut in zip(chunk_ids, texts, tagged, by_piece, parts, strict=True)
              if found and (where := clause_spans(text, found, model, probs, cut))}
    likelihood = {cid: below for cid, found, types in zip(chunk_ids, tagged, learned.likely, strict=True)
                  if (below := {t: p for t, p in types.items() if t not in found})}
    unsearched = {cid: unread for cid, unread in zip(chunk_ids, learned.unsearched, strict=True) if unread}
    return ChunkTags([tuple(found) for found in tagged], confidence, places, likelihood, unsearched)
