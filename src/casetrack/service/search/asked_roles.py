"""The legal roles a search question asks for (search.roles), read by meaning with E7: the roles'
descriptions are embedded once and kept on disk, the question's vector is matched against them."""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from casetrack.embed import EmbedderPool
from casetrack.embed.specs import ASKED_ROLES_MODEL
from casetrack.errors import CaseTrackError
from casetrack.index.tokenize import tokenize
from casetrack.search.pipeline import QueryInput, signal
from casetrack.search.roles import RoleMatcher, description_texts
from casetrack.search.scope import Scope

log = logging.getLogger(__name__)

CACHE_FOLDER = "derived"  # in the models folder: vectors computed from the models' files and CaseTrack's own texts


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
        """The roles' description vectors, embedded by E7 the first time they are needed (~1 s of E7, which a cold
        `casetrack search` would pay every time) and kept on disk for the next process (`_remembered`); None when
        E7 cannot run."""
        with self._roles_lock:
            if self._roles is None and ASKED_ROLES_MODEL in self._pool.available():
                try:
                    texts = description_texts()
                    embedder = self._pool.get(ASKED_ROLES_MODEL)
                    self._roles = RoleMatcher.of(_remembered(
                        self._pool.models_dir / CACHE_FOLDER, embedder.files, [text for _, text in texts],
                        lambda wanted: np.asarray(embedder.embed_documents(wanted), dtype=np.float32)), texts)
                except CaseTrackError as exc:
                    log.warning("Role descriptions not embedded: %s", exc.message)
            return self._roles


def _remembered(folder: Path, model_files: Sequence[Path], texts: Sequence[str],
                embed: Callable[[Sequence[str]], np.ndarray]) -> np.ndarray:
    """`embed(texts)`, kept in `folder` under a digest of the texts and of the model's files (path, size, time
    changed): a new model or taxonomy is a new file. A file that cannot be read or written is embedded again."""
    digest = hashlib.sha256()
    for path in model_files:
        stat = path.stat()
        digest.update(f"{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    digest.update("\0".join(texts).encode())
    path = folder / f"role-vectors-{digest.hexdigest()[:32]}.npy"
    try:
        kept = np.load(path, allow_pickle=False)
        if kept.dtype == np.float32 and kept.ndim == 2 and len(kept) == len(texts) and np.isfinite(kept).all():
            return kept
    except (OSError, ValueError):
        pass
    vectors = embed(texts)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}")
        with partial.open("wb") as out:
            np.save(out, vectors)
        os.replace(partial, path)
    except OSError as exc:  # a read-only data folder: the vectors are made again next time
        log.debug("Role vectors not kept in %s: %s", folder, exc)
    return vectors
