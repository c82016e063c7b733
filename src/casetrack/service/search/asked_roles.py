"""The legal roles a search question asks for (search.roles), read by meaning with E7: the roles'
descriptions are embedded once per process, the question's vector is matched against them."""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping

import numpy as np

from casetrack.embed import EmbedderPool
from casetrack.embed.specs import ASKED_ROLES_MODEL
from casetrack.errors import CaseTrackError
from casetrack.index.tokenize import tokenize
from casetrack.search.pipeline import QueryInput, signal
from casetrack.search.roles import RoleMatcher, description_texts
from casetrack.search.scope import Scope

log = logging.getLogger(__name__)


class AskedRoles:
    def __init__(self, pool: EmbedderPool) -> None:
        self._pool = pool
        self._roles: RoleMatcher | None = None  # the roles' description vectors, made once
        self._roles_lock = threading.Lock()

    def asked(self, text: str, vectors: Mapping[str, QueryInput], scope: Scope | None) -> dict[str, float]:
        """The legal roles the query asks for and how strongly (search.roles), by E7; {} without E7. The words that
        name a document are left out first: "the governing law clause of the Ebix co-branding agreement" asks for
        governing law, and the name, which says nothing about which clause, would outweigh it. (Ranking passages
        by that vector too, as one more RRF list, helped paraphrases but cost questions about the document itself:
        docs/benchmarks.md.)"""
        query = vectors.get(signal(ASKED_ROLES_MODEL))
        if not isinstance(query, np.ndarray):
            return {}
        if scope is not None:
            rest = " ".join(w for w in text.split() if scope.name_words.isdisjoint(tokenize(w)))
            if rest and rest != text:
                try:
                    query = np.asarray(self._pool.get(ASKED_ROLES_MODEL).embed_query(rest), dtype=np.float32)
                except CaseTrackError as exc:
                    log.warning("Query embedding with %s failed: %s", ASKED_ROLES_MODEL, exc.message)
        matcher = self.matcher()
        return matcher.asked(query) if matcher is not None else {}

    def matcher(self) -> RoleMatcher | None:
        """The roles' description vectors, embedded by E7 the first time they are needed (~1 s); None when E7
        cannot run."""
        with self._roles_lock:
            if self._roles is None and ASKED_ROLES_MODEL in self._pool.available():
                try:
                    texts = description_texts()
                    self._roles = RoleMatcher.of(np.asarray(self._pool.get(ASKED_ROLES_MODEL).embed_documents(
                        [text for _, text in texts])), texts)
                except CaseTrackError as exc:
                    log.warning("Role descriptions not embedded: %s", exc.message)
            return self._roles
