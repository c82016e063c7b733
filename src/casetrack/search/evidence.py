"""What a search weighs beside each passage's own matches (issue 21), gathered from the case's indexes:

* the query's tokens without the words that name documents (pipeline.UNNAMED), so a named contract's clauses
  are ranked by what is asked, not by how often they repeat the contract's name;
* a prior per passage: the strength with which the query names its document (search.scope) and whether it
  plays the legal role the query asks for (chunk.roles, search.roles; by the classifier's probability when it
  has one; less outside the documents the query names), both weighed by the pipeline config;
* the passages holding a reference the query cites (index.references), a paragraph it asks for by number
  ("¶ 12", "paragraph 12") or a transcript's page and line ("Dep. 17:19"), and those of a document the query
  names by its number when it cites something (the statute "NC Gen Stat 163-230.2" for "G.S. 163-230.2": a
  statute does not cite itself), ranked first;
* the named documents' passages, taken as candidates whatever recall finds. Pure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field

import numpy as np

from casetrack.chunk.pinpoints import pin_terms
from casetrack.chunk.roles.tagging import role_term
from casetrack.index.bm25 import Bm25Index
from casetrack.index.postings import Key
from casetrack.index.references import QueryReference
from casetrack.index.segmented import SegmentedBm25
from casetrack.index.tokenize import paragraph_terms
from casetrack.search.pipeline import PipelineConfig
from casetrack.search.scope import Scope

MOST_PASSAGES = 0.5  # a word in more than this share of a named document's passages does not rank them
NAMED_INCLUDED = 500  # passages of a named document taken as candidates whatever recall finds
REFERENCE_HOLDERS = 500  # passages holding a cited reference taken as candidates, the best by BM25 first

# A passage not tagged with the clause type asked for is lifted by how likely the classifier found it to be one
# (issue 34): nothing at LIKELY_FROM (the least probability ingest keeps), in full at LIKELY_FULL (the classifier's
# tagging threshold, docs/clause_model.md), in between by log-odds. Only the fused first `fuse_keep` candidates are
# read: a passage further down is not lifted into the results by a prior of at most `role_weight`.
LIKELY_FROM = 0.01
LIKELY_FULL = 0.09
# A question that names a document asks about that document: a passage elsewhere playing the role asked for is
# lifted this much less ("the non-compete in the Lucid agreement" is not answered by another contract's
# non-compete). 0.5 and 0 scored alike on all seven sets, 1 (no difference) worse on eval-dev and heldout with
# the third session's artefact (docs/benchmarks.md, "Clause rules"); 0.5 keeps some lift for a name misread.
OUTSIDE = 0.5

Prior = Callable[[Sequence[Key]], Sequence[float]]  # per key, in the keys' order
Likelihoods = Callable[[Sequence[Key]], Sequence[Mapping[str, float]]]  # per key, clause type -> probability


@dataclass(frozen=True, slots=True)
class Evidence:
    unnamed: list[str] = field(default_factory=list)
    prior: Prior | None = None
    first: set[Key] = field(default_factory=set)
    include: list[Key] = field(default_factory=list)


def evidence(scope: Scope | None, tokens: Sequence[str], references: Sequence[QueryReference],
             roles: Mapping[str, float],
             bm25: Bm25Index | SegmentedBm25, chunks_of: Callable[[str], Sequence[Key]],
             allowed: Set[Key] | None, config: PipelineConfig, likelihoods: Likelihoods | None = None) -> Evidence:
    """The evidence for one query: `references` are what it cites (index.references), `roles` the roles it asks
    for with how strongly (search.roles); `chunks_of(document id)` gives a document's live chunks (asked only of
    the documents the query names, so a search never walks the whole case); `allowed` is a document filter;
    `likelihoods(keys)` each passage's clause types with their probabilities (LIKELY_FROM)."""
    first: set[Key] = set()
    for ref in references:
        # Only the best holders become candidates: a precedent a big case cites on thousands of pages would
        # otherwise make every one of them a candidate every signal must score.
        first.update(bm25.best_holding([ref.term], tokens, REFERENCE_HOLDERS, allowed))
        if not bm25.df(ref.term) and len(ref.written) >= 2:  # cited in words the graph could not read as one
            first.update(bm25.best_holding(list(dict.fromkeys(ref.written)), tokens, REFERENCE_HOLDERS, allowed))
    for term in (*paragraph_terms(tokens), *pin_terms(tokens)):
        # a pleading's paragraph asked for by number ("¶ 12", "paragraph 12") or a transcript's page and line
        # ("Dep. 17:19"): the passages that hold or cite it, first (chunk.pinpoints)
        first.update(bm25.best_holding([term], tokens, REFERENCE_HOLDERS, allowed))
    if references and scope is not None:  # the document that is the reference cited ("G.S. 163-230.2")
        identified = {key for doc in scope.by_identifier for key in chunks_of(doc)}
        first |= identified if allowed is None else identified & set(allowed)
    unnamed: list[str] = []
    include: list[Key] = []
    strength: Mapping[Key, float] = {}  # chunk -> how strongly the query names its document
    if scope is not None:
        unnamed = [t for t in tokens if t not in scope.name_words]
        named: list[Key] = [key for doc in scope.documents for key in chunks_of(doc)]
        # Words nearly every passage of the document holds ("parties" in a contract) rank nothing in it: a query
        # with no other words is about the document itself ("who are the parties to it"), and its name's words
        # are the answer.
        if all(bm25.share_holding(t, named) > MOST_PASSAGES for t in unnamed):
            unnamed = []
        strength = {key: how for doc, how in scope.strength.items() for key in chunks_of(doc)}
        include = named[:NAMED_INCLUDED]
    if likelihoods is None:  # without them, a role no passage is tagged with lifts none
        roles = {role: how for role, how in roles.items() if bm25.df(role_term(role))}
    if not (strength and config.name_weight) and not (roles and config.role_weight):
        return Evidence(unnamed, None, first, include)

    def prior(keys: Sequence[Key]) -> list[float]:
        """What is known of each passage beyond its matches: asked of the candidates only, so a role half the
        case plays is never listed whole."""
        held = bm25.holds_each([role_term(role) for role in roles], keys)
        holds = {role: h.tolist() for role, h in zip(roles, held, strict=True)}
        tagged = np.max([np.where(h, how, 0.0) for h, how in zip(held, roles.values(), strict=True)],
                        axis=0, initial=0.0).tolist() if roles else [0.0] * len(keys)
        if likelihoods is not None and roles:  # nothing to read for a question asking no clause type
            # a passage the classifier scored (tagged or not) by how likely it is the clause asked for; a role
            # found by keywords (no probability) lifts in full
            for i, types in enumerate(likelihoods(keys[: config.fuse_keep])):
                tagged[i] = max((how * (likely(types[role]) if role in types else float(holds[role][i]))
                                 for role, how in roles.items()), default=0.0)
        return [config.name_weight * strength.get(key, 0.0)
                + config.role_weight * tag * (1.0 if not strength or key in strength else OUTSIDE)
                for key, tag in zip(keys, tagged, strict=True)]

    return Evidence(unnamed, prior, first, include)


def likely(probability: float) -> float:
    """How fully a passage of this probability of being a clause plays it: 0 up to LIKELY_FROM, 1 from
    LIKELY_FULL, in between by log-odds."""
    if probability <= LIKELY_FROM:
        return 0.0
    if probability >= LIKELY_FULL:
        return 1.0
    return float((_logit(probability) - _logit(LIKELY_FROM)) / (_logit(LIKELY_FULL) - _logit(LIKELY_FROM)))


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))
