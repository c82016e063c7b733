"""compare_documents (tool spec 2.14, Pro): what two documents each say about one topic, found by
searching each on its own so neither crowds the other out."""

from __future__ import annotations

from dataclasses import dataclass

from casetrack.domain import Case
from casetrack.service.distribution.licensing import Licence, require_pro
from casetrack.service.search.query import SearchResponse, SearchService


@dataclass(frozen=True, slots=True)
class Comparison:
    topic: str
    sides: tuple[SearchResponse, SearchResponse]  # document A's passages, document B's


class Comparer:
    def __init__(self, search: SearchService, licence: Licence) -> None:
        self._search, self._licence = search, licence

    def compare(self, case: Case, document_a: str, document_b: str, topic: str, top_k_per_document: int
                ) -> Comparison:
        """Raises ProFeature on the Free tier, NotFound for an unknown document, InvalidInput for a bad topic."""
        require_pro(self._licence, "compare_documents")
        a = self._search.search(case, topic, top_k_per_document, document_a)
        b = self._search.search(case, topic, top_k_per_document, document_b)
        return Comparison(topic, (a, b))
