"""find_entity: the passages that name an entity, then the few that search ranks close to them.

The context graph knows every mention the extraction recorded (a citation in any of its forms,
a party under its defined term, a name in a signature block), so those chunks come first, even
ones a search for the words would rank low or miss. Only when the graph knows nothing by that
name do passages holding its words count as mentions. Related passages are search results
scoring near the best."""

from __future__ import annotations

import re
from dataclasses import dataclass

from casetrack.domain import Case
from casetrack.service.cases.cases import CaseService
from casetrack.service.distribution.licensing import Licence, require_pro
from casetrack.service.graph.case_graph import GraphService, Node
from casetrack.service.search.query import SearchHit, SearchService
from casetrack.store import documents as docstore

# Search scores are scaled to the best hit; below half of it a "related" passage is mostly noise
# (measured on eval-dev: a rule cited once drew 15 unrelated passages scoring 0.19-0.23).
RELATED_MIN_SCORE = 0.5


@dataclass(frozen=True, slots=True)
class EntityPassages:
    matched: list[Node]  # what the context graph took the entity to be
    mentions: list[SearchHit]  # passages that name it: the graph's mentions, or its words when the graph knows none
    related: list[SearchHit]  # passages that do not, scoring close to the best
    searched: frozenset[str]  # chunk ids search ranked; the others came from the graph alone
    naming: int = 0  # passages that name it in all, of which `mentions` are the first top_k


class EntitySearch:
    def __init__(self, cases: CaseService, graph: GraphService, search: SearchService,
                 licence: Licence | None = None) -> None:
        self._cases = cases
        self._graph = graph
        self._search = search
        self._licence = licence

    def find(self, case: Case, entity: str, entity_type: str = "any", top_k: int = 20) -> EntityPassages:
        """Raises ProFeature on the Free tier (when built with a licence), InvalidInput for an empty entity."""
        if self._licence is not None:
            require_pro(self._licence, "find_entity")
        response = self._search.search(case, entity, min(top_k, 50))  # also validates the query
        nodes = self._graph.lookup(self._graph.graph(case), entity, entity_type)
        hits = {h.chunk.id: h for h in response.hits}
        named = _chunks_by_mentions(nodes)
        if not nodes:  # the graph does not know it: passages holding its words are the mentions
            needle = mention_pattern(entity)
            named = {h.chunk.id: 1 for h in response.hits if needle.search(h.chunk.text)}
        # When the graph does know it, the same words elsewhere may name someone else (another
        # contract's "Distributor"): those passages stay related, not mentions.
        mentions: list[SearchHit] = []
        wanted = list(named)[:top_k]
        with self._cases.store(case).reader() as db:
            for chunk_id in wanted:
                hit = hits.get(chunk_id)
                chunk = hit.chunk if hit is not None else docstore.load_chunk(db, chunk_id)
                if chunk is not None:
                    mentions.append(hit or SearchHit(chunk, 0.0, {}))
        shown = {h.chunk.id for h in mentions}
        best = max((h.score for h in response.hits), default=0.0)
        related = [h for h in response.hits
                   if h.chunk.id not in shown and h.score >= RELATED_MIN_SCORE * best]
        return EntityPassages(nodes, mentions, related[: max(0, top_k - len(mentions))], frozenset(hits),
                              max(len(named), len(mentions)))


def _chunks_by_mentions(nodes: list[Node]) -> dict[str, int]:
    """Chunk ids holding a mention of any of `nodes`, most mentions first (then reading order)."""
    counts: dict[str, int] = {}
    order: dict[str, tuple[str, int, int]] = {}
    for node in nodes:
        for m in node.mentions:
            if m.chunk_id:
                counts[m.chunk_id] = counts.get(m.chunk_id, 0) + 1
                order.setdefault(m.chunk_id, (m.document_name, m.page, m.char_start))
    return {c: counts[c] for c in sorted(counts, key=lambda c: (-counts[c], order[c]))}


def mention_pattern(entity: str) -> re.Pattern[str]:
    """Words of the entity in order, with any punctuation or spacing between ("42 USC 1983" ~ "42 U.S.C. § 1983")."""
    words = [re.escape(w) for w in re.findall(r"\w+", entity)]
    if not words:
        return re.compile(r"(?!x)x")
    joined = r"[\W_]*".join(r"\.?".join(w) if len(w) <= 4 and w.isalpha() else w for w in words)
    return re.compile(joined, re.IGNORECASE)
