"""The 4-stage search pipeline as plain functions over already-computed signals.

  1. recall  - union of BM25 top-N and dense top-N (the first available embedder in
               `dense_recall`): lexical and semantic matches both reach ranking, unlike a
               BM25-only first stage, which loses every paraphrase.
  2. rrf     - each stage-2 signal that is available ranks the candidates; weighted,
               rank-based RRF keeps the best `fuse_keep`. A dense model read in windows
               (E7) ranks twice: by the passage's vector and by its best window
               (search.windows), whose vectors are read for the first `window_keep`.
  3. boost   - citation (E8) and entity (E11) cosine add a bounded boost (0.1 * cosine) to the
               normalised fused score, keeping `boost_keep`, when one of them exists (an RRF term
               would be too flat: at k = 60, ranks 1 and 2 differ by w * 0.00026).
  4. colbert - E12 MaxSim over the first `boost_keep`, blended with the fused score.
               Runs only when the query has E12 tokens and some candidate has them too;
               its output is at most `boost_keep` long (50, the MCP tool's top_k maximum).
Then each signal's first passage (a meaning list's first few), as that signal alone ranks them with the same prior,
is kept among the first `firsts_within` (fuse.firsts_alone, keep_firsts), and a clear keyword first place is shown
first (fuse.clear_lead). No stage depends on `top_k`: the first 10 of 12 results are the 10 of a top 10.

The caller embeds the query and owns the indexes; nothing here does I/O. A signal "ran"
when its query input and a non-empty index both exist; a hit's score is the fused score
over the best possible for the signals that ran (`fuse.normalize`), 0..1, which ranks; the
score a user is shown is calibrated from it and the hit's place afterwards, descending with the order
(service/search/scoring.py, docs/scores.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from casetrack.embed.specs import SearchRole
from casetrack.index.bm25 import Bm25Index
from casetrack.index.dense import DenseIndex
from casetrack.index.postings import Key
from casetrack.index.segmented import SegmentedBm25, SegmentedDense, SegmentedSparse
from casetrack.index.sparse import SparseIndex, SparseVector
from casetrack.search.colbert import maxsim
from casetrack.search.correspondents import mail_scores
from casetrack.search.fuse import (
    Scored,
    ahead,
    apply_min_score,
    clear_lead,
    firsts_alone,
    keep_firsts,
    normalize,
    ranking_from_scores,
    rrf,
    rrf_ceiling,
)
from casetrack.search.signals import (
    BM25,
    EXACT,
    LEXICAL_WEIGHTS,
    MAIL,
    RERANK_MODEL,
    UNNAMED,
    recall_signals,
    reference_tokens,
    signal,
    weights_of,
)
from casetrack.search.windows import STAGE_WINDOWS, WindowLoader, best_windows, window_list

STAGE_RECALL, STAGE_RRF, STAGE_BOOST, STAGE_COLBERT = "recall", "rrf", "boost", "colbert"
STAGE_PRIOR, STAGE_REFERENCES = "prior", "references"
STAGE_FIRSTS = "firsts"  # a passage one signal ranks first was given a place among those shown
STAGE_LEAD = "lead"  # the keyword list's clear first was put first

QueryInput = np.ndarray | SparseVector
TokenLoader = Callable[[Sequence[Key]], Mapping[Key, np.ndarray]]


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    recall_n: int = 500  # per recall source
    dense_recall: tuple[str, ...] = field(default_factory=recall_signals)  # first available one recalls
    rrf_k: int = 60
    rrf_weights: Mapping[str, float] = field(default_factory=lambda: MappingProxyType(
        {**LEXICAL_WEIGHTS, **weights_of(SearchRole.RECALL, SearchRole.RANK)}))
    fuse_keep: int = 100
    # the fused first N whose window vectors are read: as many as a search can return (top_k <= 50, as boost_keep);
    # 200 cost 11-17 ms a search at 20,000 chunks, 50 cost 4-7 (docs/benchmarks.md)
    window_keep: int = 50
    # additive boost per unit of cosine on the 0..1 scale: the PRD's 0.1 citation + 0.1 entity
    boost_weights: Mapping[str, float] = field(
        default_factory=lambda: MappingProxyType(weights_of(SearchRole.BOOST)))
    boost_keep: int = 50
    rerank_signal: str = signal(RERANK_MODEL.id) if RERANK_MODEL else ""
    rerank_weight: float = RERANK_MODEL.weight if RERANK_MODEL else 0.0  # final = (1 - w) * fused + w * MaxSim (PRD)
    min_score: float = 0.15  # peer system's confidence threshold ...
    guarantee: int = 3  # ... and its minimum guarantee
    # Evidence about a passage beyond what it matches, added to its 0..1 fused score (issue 21): the strength
    # with which the query names its document (search.scope) and whether it plays the legal role the query
    # asks for (search.roles). `references_first`: the passages holding a reference the query cites come
    # first (index.references). Chosen on eval-dev, heldout and heldout_court together (docs/benchmarks.md).
    name_weight: float = 0.3
    role_weight: float = 0.6  # 0.3 before the soft role prior (issue 34): 0.6 chosen on all seven sets at once
    references_first: bool = True
    # Each signal's first passage, as a search by it alone with the same prior ranks them (fuse.firsts_alone), is
    # among the first `firsts_within`, in the lower half's last places (fuse.keep_firsts). Judged on every labelled
    # set at once (heldout_court c001 in; eval-dev d013 no longer pushed out by E7's bare first: docs/benchmarks.md).
    keep_firsts: bool = True
    meaning_firsts: int = 3  # a meaning list's (a dense model's, its best window's) first 3 too: paraphrases (issue 34)
    firsts_within: int = 10  # search_case's default top_k; fixed, so asking for more never reorders the first ones
    # RRF counts BM25's first place as one rank however far ahead it scores: a passage only words find (an OCR'd order)
    # sank. BM25's first at `lead_ratio` times its second is shown first (after cited references), unless the query
    # names a document (its name's words inflate BM25). Chosen on all seven sets, each left out in turn; 0 is off.
    lead_ratio: float = 1.3

    def __post_init__(self) -> None:
        unweighted = [name for name in self.dense_recall if self.rrf_weights.get(name, 0.0) <= 0]
        if unweighted:
            raise ValueError(f"recall signals need a positive RRF weight: {', '.join(unweighted)}")
        if not self.bm25_recall and not self.dense_recall:
            raise ValueError("no recall signal: give BM25 an RRF weight or name a dense_recall embedder")
        if any(beta < 0 for beta in self.boost_weights.values()):
            raise ValueError("boost weights must be non-negative")
        sizes = ("recall_n", "fuse_keep", "boost_keep", "window_keep", "meaning_firsts", "firsts_within")
        if min(getattr(self, name) for name in sizes) <= 0:
            raise ValueError(f"{', '.join(sizes)} must be positive")
        if min(self.rrf_k, self.lead_ratio) < 0:
            raise ValueError("rrf_k and lead_ratio must be non-negative")
        if not 0.0 <= self.rerank_weight <= 1.0:
            raise ValueError(f"rerank_weight must be within 0..1, got {self.rerank_weight}")

    @property
    def bm25_recall(self) -> bool:
        """BM25 recalls (and ranks) exactly when it has a positive weight: a config without it
        is a dense-only pipeline, one with only BM25 a lexical-only one."""
        return self.rrf_weights.get(BM25, 0.0) > 0


DEFAULT_PIPELINE = PipelineConfig()


@dataclass(frozen=True, slots=True)
class SearchIndexes:
    """What the caller holds for one case. Names are signal names ("e1", "e6", ...)."""

    bm25: Bm25Index | SegmentedBm25 | None = None
    dense: Mapping[str, DenseIndex | SegmentedDense] = field(default_factory=dict)
    sparse: Mapping[str, SparseIndex | SegmentedSparse] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Hit:
    key: Key
    score: float  # 0..1 for display and thresholds
    ranks: Mapping[str, int]  # signal -> 1-based rank among the candidates it ranked


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    hits: tuple[Hit, ...]
    stages_used: tuple[str, ...]
    signals: tuple[str, ...]  # signals that ran, in pipeline order
    candidates: int  # size of the stage-1 union


@dataclass(frozen=True, slots=True)
class Query:
    """The query as the stages see it: BM25 tokens plus one input per available embedder
    (dense: (dim,) array; E6: SparseVector; E12: (tokens, dim) matrix)."""

    tokens: Sequence[str]
    vectors: Mapping[str, QueryInput]
    unnamed: Sequence[str] = ()  # the tokens without a named document's name words (UNNAMED), if any
    correspondents: Sequence[str] = ()  # from:/to: terms of the writer and reader the question names (MAIL)


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """One search as the pipeline runs it: the query and what the caller knows about the case's passages."""

    query: Query  # the query's tokens and embeddings, and its UNNAMED and MAIL tokens
    top_k: int  # how many hits to return at most (the order does not depend on it)
    allowed: Set[Key] | None = None  # every signal restricted to these passages (a document or clause filter)
    # evidence about each passage beyond what it matches (its document is named, it plays the role asked for),
    # added to its fused score
    prior: Callable[[Sequence[Key]], Sequence[float]] | None = None
    first: Set[Key] = frozenset()  # the passages holding a reference the query cites, ranked ahead of the rest
    include: Sequence[Key] = ()  # candidates whatever recall finds
    names_document: bool = False  # the query names a document (search.scope): no keyword lead (`lead_ratio`)


def search(request: SearchRequest, indexes: SearchIndexes, config: PipelineConfig = DEFAULT_PIPELINE, *,
           colbert_tokens: TokenLoader | None = None, windows: WindowLoader | None = None) -> SearchOutcome:
    """Run all stages. `colbert_tokens` loads E12 token matrices for a few candidate keys; `windows` the window
    vectors of a few (BEST_WINDOW)."""
    query, allowed, first, top_k = request.query, request.allowed, request.first, request.top_k
    candidates, recalled_by = recall(query, indexes, allowed, config)
    extra = [k for k in (*request.include, *first) if allowed is None or k in allowed]
    if extra:
        candidates = list(dict.fromkeys((*candidates, *extra)))
    if not candidates:
        return SearchOutcome((), (STAGE_RECALL,) if recalled_by else (), recalled_by, 0)
    stages = [STAGE_RECALL, STAGE_RRF]
    rankings, scored, unshown = _fused(query, candidates, indexes, config, windows, stages)
    best_possible = 1.0  # what a passage ranked first by every signal and lifted most by its prior scores
    lift: dict[Key, float] = {}  # each passage's prior
    if request.prior is not None:
        ranked = {key for key, _ in scored}
        scored += [(key, 0.0) for key in extra if key not in ranked]  # no signal ranks it; its prior may
        lifts = request.prior([key for key, _ in scored])
        lift = {key: value for (key, _), value in zip(scored, lifts, strict=True) if value}
        best_possible += max(lifts, default=0.0)
        scored = sorted(((key, score + value) for (key, score), value in zip(scored, lifts, strict=True)),
                        key=lambda item: -item[1])
        stages.append(STAGE_PRIOR)
    fixed = first if config.references_first else frozenset()
    if fixed:
        scored = ahead(scored, fixed)
        stages.append(STAGE_REFERENCES)
    scored = scored[: config.fuse_keep]
    boosted = boost(query, scored, indexes, config)
    if boosted is not None:
        scored, boost_rankings = boosted
        rankings = {**rankings, **boost_rankings}
        stages.append(STAGE_BOOST)
    reranked = rerank(query, scored, colbert_tokens, config)
    if reranked is not None:
        scored = reranked
        stages.append(STAGE_COLBERT)
    signals = [name for name in rankings if name not in unshown]
    if reranked is not None:
        signals.append(config.rerank_signal)
    scored = ahead(scored, fixed)
    if config.keep_firsts:
        weighted = {name: ranking for name, ranking in rankings.items()
                    if name not in unshown and config.rrf_weights.get(name, 0.0) > 0}
        depth = {name: config.meaning_firsts for name in weighted if (window_list(name) or name) in indexes.dense}
        alone = {name: firsts_alone(order, lift, depth.get(name, 1), config.rrf_k) for name, order in weighted.items()}
        scored, placed = keep_firsts(scored, alone, config.firsts_within, first, depth)
        if placed:
            stages.append(STAGE_FIRSTS)
    lead = None if request.names_document else _keyword_lead(query, rankings, indexes, config.lead_ratio)
    led = ahead(scored, fixed, [lead]) if lead is not None else scored
    if led != scored:
        scored = led
        stages.append(STAGE_LEAD)
    # Shown over the best possible, as the fused score is: capped at 1 instead, every passage of a named document
    # that the signals agree on would show 1.00, and the scores would no longer tell the reader which is best.
    head = [(key, min(1.0, score / best_possible)) for key, score in scored[: max(top_k, 0)]]
    kept = {key for key, _ in apply_min_score(head, config.min_score, min(config.guarantee, top_k))}
    final = [item for item in head if item[0] in kept]  # in ranking order: references first, then by score
    positions = {name: {key: i for i, key in enumerate(ranking, start=1)} for name, ranking in rankings.items()
                 if name not in unshown}
    hits = tuple(Hit(key, score, _ranks_of(key, positions)) for key, score in final)
    return SearchOutcome(hits, tuple(stages), tuple(signals), len(candidates))


def _fused(query: Query, candidates: list[Key], indexes: SearchIndexes, config: PipelineConfig,
           windows: WindowLoader | None, stages: list[str]) -> tuple[dict[str, list[Key]], list[Scored], set[str]]:
    """Stage 2: the candidates ranked by each signal (and each windowed model's best window, read for the fused
    first `window_keep`), fused by RRF and normalised to 0..1; with the window lists no window reached, which
    rank as their model's list and are not shown as signals of their own. Appends STAGE_WINDOWS to `stages`
    when windows were read."""
    rankings, window_scores = _rankings(query, candidates, indexes, config.rrf_weights)
    fused = rrf(rankings, config.rrf_weights, config.rrf_k)
    first_read = [key for key, _ in fused[: config.window_keep]]  # whose windows are read
    windowed = best_windows(query.vectors, candidates, first_read, window_scores, windows) if windows else {}
    if windowed:
        rankings.update(windowed)
        fused = rrf(rankings, config.rrf_weights, config.rrf_k)
        stages.append(STAGE_WINDOWS)
    unshown = {name for name in rankings if window_list(name)} - set(windowed)
    return rankings, normalize(fused, rrf_ceiling(rankings, config.rrf_weights, config.rrf_k)), unshown


def recall(
    query: Query, indexes: SearchIndexes, allowed: Set[Key] | None, config: PipelineConfig
) -> tuple[list[Key], tuple[str, ...]]:
    """Stage 1: the union of BM25 top-N and dense top-N (BM25 hits first), and the
    signals that recalled."""
    union: dict[Key, None] = {}
    used: list[str] = []
    if config.bm25_recall and indexes.bm25 is not None and len(indexes.bm25) and query.tokens:
        keys, _ = indexes.bm25.score(query.tokens, config.recall_n, allowed)
        union.update(dict.fromkeys(keys))
        used.append(BM25)
    for name in config.dense_recall:
        index, vec = indexes.dense.get(name), query.vectors.get(name)
        if index is not None and len(index) and isinstance(vec, np.ndarray):
            keys, _ = index.search(vec, config.recall_n, allowed)
            union.update(dict.fromkeys(keys))
            used.append(name)
            break
    return list(union), tuple(used)


def boost(
    query: Query, scored: Sequence[Scored], indexes: SearchIndexes, config: PipelineConfig
) -> tuple[list[Scored], dict[str, list[Key]]] | None:
    """Stage 3: score + sum beta_i * clip(cosine_i, 0, 1), over 1 + sum beta_i (so still
    0..1), best `boost_keep` first; None when no boost signal exists. The boost is bounded
    by beta, so a badly calibrated model can move a chunk only a little."""
    keys = [key for key, _ in scored]
    totals = np.array([score for _, score in scored], dtype=np.float64)
    rankings: dict[str, list[Key]] = {}
    betas = 0.0
    for name, beta in config.boost_weights.items():
        sims = _signal_scores(name, query, keys, indexes)
        if sims is None:
            continue
        rankings[name] = ranking_from_scores(keys, sims)
        totals += beta * np.clip(np.nan_to_num(sims, nan=0.0), 0.0, 1.0)
        betas += beta
    if not rankings:
        return None
    boosted = sorted(zip(keys, (totals / (1.0 + betas)).tolist(), strict=True), key=lambda item: -item[1])
    return boosted[: config.boost_keep], rankings


def rerank(
    query: Query, scored: Sequence[Scored], loader: TokenLoader | None, config: PipelineConfig
) -> list[Scored] | None:
    """Stage 4: blend MaxSim into the first `boost_keep` normalised scores; None when the
    query or every candidate lacks E12 tokens. A candidate without tokens gets the lowest
    MaxSim seen, so missing data never lifts a chunk."""
    q = query.vectors.get(config.rerank_signal)
    if loader is None or not isinstance(q, np.ndarray) or q.ndim != 2 or q.shape[0] == 0:
        return None
    head = list(scored[: config.boost_keep])
    tokens = loader([key for key, _ in head])
    sims = {key: maxsim(q, tokens[key]) for key, _ in head if key in tokens}
    if not sims:
        return None
    floor = min(sims.values())
    w = config.rerank_weight
    blended = [(key, (1 - w) * score + w * min(1.0, max(0.0, sims.get(key, floor)))) for key, score in head]
    return sorted(blended, key=lambda item: -item[1])


def _rankings(
    query: Query, keys: Sequence[Key], indexes: SearchIndexes, weights: Mapping[str, float]
) -> tuple[dict[str, list[Key]], dict[str, np.ndarray]]:
    """Each signal's ranking of `keys`, and each window list's scores (search.windows): a window list ranks by its
    model's scores until its windows are read, computed once for both."""
    out: dict[str, list[Key]] = {}
    scored: dict[str, np.ndarray] = {}
    window_scores: dict[str, np.ndarray] = {}
    for name in weights:
        base = window_list(name)
        scores = scored.get(base) if base else None
        if scores is None:
            scores = _signal_scores(base or name, query, keys, indexes)
        if scores is not None:
            scored[base or name] = scores
            out[name] = ranking_from_scores(keys, scores)
            if base:
                window_scores[name] = scores
    return out, window_scores


def _signal_scores(name: str, query: Query, keys: Sequence[Key], indexes: SearchIndexes) -> np.ndarray | None:
    """Scores of `keys` under one signal, NaN where it does not rank a key; None when the
    signal cannot run. Lexical signals do not rank chunks they do not match at all."""
    vec = query.vectors.get(name)
    if name == EXACT:
        refs = reference_tokens(query.tokens)
        if indexes.bm25 is None or not len(indexes.bm25) or not refs:
            return None
        return _no_match_as_nan(indexes.bm25.score_keys(refs, keys))
    if name == MAIL:  # the messages in the direction the question asks (search.correspondents)
        return mail_scores(indexes.bm25, query.correspondents, keys) if indexes.bm25 is not None else None
    if name in (BM25, UNNAMED):
        tokens = query.tokens if name == BM25 else query.unnamed
        if indexes.bm25 is None or not len(indexes.bm25) or not tokens:
            return None
        return _no_match_as_nan(indexes.bm25.score_keys(tokens, keys))
    dense = indexes.dense.get(name)
    if dense is not None and len(dense) and isinstance(vec, np.ndarray):
        return dense.score_keys(vec, keys)
    sparse = indexes.sparse.get(name)
    if sparse is not None and len(sparse) and isinstance(vec, SparseVector):
        return _no_match_as_nan(sparse.score_keys(vec, keys))
    return None


def _keyword_lead(query: Query, rankings: Mapping[str, Sequence[Key]], indexes: SearchIndexes,
                  ratio: float) -> Key | None:
    """BM25's clear first (fuse.clear_lead), if any."""
    ranking = rankings.get(BM25, ())
    if ratio <= 0 or len(ranking) < 2 or indexes.bm25 is None:
        return None
    return clear_lead(ranking, indexes.bm25.score_keys(query.tokens, list(ranking[:2])).tolist(), ratio)


def _no_match_as_nan(scores: np.ndarray) -> np.ndarray:
    return np.where(scores > 0, scores, np.nan)


def _ranks_of(key: Key, positions: Mapping[str, Mapping[Key, int]]) -> Mapping[str, int]:
    return MappingProxyType({name: pos[key] for name, pos in positions.items() if key in pos})
