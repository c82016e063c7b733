"""What a search weighs beside each passage's own matches (issue 21), gathered from the case's indexes:

* the query's tokens without the words that name documents (pipeline.UNNAMED), so a named contract's clauses
  are ranked by what is asked, not by how often they repeat the contract's name;
* a prior per passage: the strength with which the query names its document (search.scope) and whether it
  plays the legal role the query asks for (chunk.roles, search.roles), both weighed by the pipeline config;
* the passages holding a reference the query cites (index.references), and those of a document the query
  names by its number when it cites something (the statute "NC Gen Stat 163-230.2" for "G.S. 163-230.2":
  a statute does not cite itself), ranked first;
* the named documents' passages, taken as candidates whatever recall finds. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field

from casetrack.chunk.roles import role_term
from casetrack.index.bm25 import Bm25Index
from casetrack.index.postings import Key
from casetrack.index.references import QueryReference
from casetrack.index.segmented import SegmentedBm25
from casetrack.search.pipeline import PipelineConfig
from casetrack.search.scope import Scope

MOST_PASSAGES = 0.5  # a word in more than this share of a named document's passages does not rank them
NAMED_INCLUDED = 500  # passages of a named document taken as candidates whatever recall finds

Prior = Callable[[Key], float]


@dataclass(frozen=True, slots=True)
class Evidence:
    unnamed: list[str] = field(default_factory=list)
    prior: Prior | None = None
    first: set[Key] = field(default_factory=set)
    include: list[Key] = field(default_factory=list)


def evidence(scope: Scope | None, tokens: Sequence[str], references: Sequence[QueryReference],
             roles: Mapping[str, float],
             bm25: Bm25Index | SegmentedBm25, chunks_of: Callable[[str], Sequence[Key]],
             allowed: Set[Key] | None, config: PipelineConfig) -> Evidence:
    """The evidence for one query: `references` are what it cites (index.references), `roles` the roles it asks
    for with how strongly (search.roles); `chunks_of(document id)` gives a document's live chunks (asked only of
    the documents the query names, so a search never walks the whole case); `allowed` is a document filter."""
    first: set[Key] = set()
    for ref in references:
        holding = set(bm25.keys_holding(ref.term))
        if not holding and len(ref.written) >= 2:  # cited in words the graph could not read as a citation
            holding = set.intersection(*(set(bm25.keys_holding(t)) for t in ref.written))
        first |= holding
    if references and scope is not None:  # the document that is the reference cited ("G.S. 163-230.2")
        first |= {key for doc in scope.by_identifier for key in chunks_of(doc)}
    if allowed is not None:
        first &= set(allowed)
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
    tagged: dict[Key, float] = {}
    for role, how in roles.items():
        for key in bm25.keys_holding(role_term(role)):
            tagged[key] = max(tagged.get(key, 0.0), how)
    if not (strength and config.name_weight) and not (tagged and config.role_weight):
        return Evidence(unnamed, None, first, include)

    def prior(key: Key) -> float:
        named_weight = config.name_weight * strength.get(key, 0.0)
        return named_weight + config.role_weight * tagged.get(key, 0.0)

    return Evidence(unnamed, prior, first, include)
