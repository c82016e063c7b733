"""The embedder pool: which models this process may use, what state each is in, and
which stay loaded (memory tiers, LRU unloading under memory pressure).

A missing or broken model never takes the server down: `status()` answers per embedder
(ready / not downloaded, with the command that fetches it / failed, with the reason /
disabled by the licence tier) and `get()` raises ModelUnavailable saying the same.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import casetrack.embed.hub as hub
import casetrack.embed.memory as memory
import casetrack.embed.sources as sources
from casetrack.config import MemoryMode
from casetrack.embed.engine import DocumentEmbeddings, OnnxEmbedder, QueryEmbedding
from casetrack.embed.pooling import Float32Array
from casetrack.embed.specs import MODELS, LicenseTier, ModelSpec, get_spec, models_for_tier
from casetrack.errors import UPGRADE_URL, ModelUnavailable

log = logging.getLogger(__name__)


class State(StrEnum):
    READY = "ready"
    NOT_DOWNLOADED = "not_downloaded"
    FAILED = "failed"
    DISABLED = "disabled"


@dataclass(frozen=True, slots=True)
class EmbedderStatus:
    model_id: str
    name: str
    kind: str
    state: State
    loaded: bool
    source: str | None  # "local" / "packaged" when ready
    detail: str
    fix: str | None  # what to run to change the state, when something can be done


class PooledEmbedder:
    """An `Embedder` whose calls go through the pool, so it can keep memory within the mode."""

    def __init__(self, pool: EmbedderPool, inner: OnnxEmbedder) -> None:
        self._pool = pool
        self._inner = inner

    @property
    def spec(self) -> ModelSpec:
        return self._inner.spec

    @property
    def files(self) -> tuple[Path, Path]:
        """The model's ONNX file and tokenizer: what its vectors are a function of, beside the text."""
        return self._inner.model_path, self._inner.tokenizer_path

    def embed_documents(self, texts: Sequence[str]) -> DocumentEmbeddings:
        self._pool._before_use(self._inner)
        try:
            return self._inner.embed_documents(texts)
        finally:
            self._pool._after_use(self._inner)

    def embed_windows(self, texts: Sequence[str]) -> tuple[Float32Array, list[Float32Array | None]]:
        self._pool._before_use(self._inner)
        try:
            return self._inner.embed_windows(texts)
        finally:
            self._pool._after_use(self._inner)

    def embed_query(self, text: str) -> QueryEmbedding:
        self._pool._before_use(self._inner)
        try:
            return self._inner.embed_query(text)
        finally:
            self._pool._after_use(self._inner)


class EmbedderPool:
    """Lazily creates one OnnxEmbedder per model. `tier` is the one place the licence tier is read."""

    def __init__(
        self,
        models_dir: Path,
        *,
        tier: LicenseTier = LicenseTier.FREE,
        memory_mode: MemoryMode | str | None = None,
        threads: int | None = None,
        hub_settings: hub.HubSettings | None = None,
        auto_download: bool = False,
        progress: hub.ProgressCallback | None = None,
        probe: memory.MemoryProbe = memory.system_memory,
    ) -> None:
        self.models_dir = models_dir
        self.tier = tier
        self.plan = memory.decide(memory_mode, probe)
        self.threads = threads
        self.hub_settings = hub_settings or hub.HubSettings()
        self.auto_download = auto_download
        self.progress = progress
        self._probe = probe
        self._enabled = models_for_tier(tier)
        free = models_for_tier(LicenseTier.FREE)
        self.resident = memory.resident_models(self.plan.mode, self._enabled, free)
        self._embedders: dict[str, OnnxEmbedder] = {}
        self._failures: dict[str, str] = {}
        self._lock = threading.RLock()

    @property
    def mode(self) -> MemoryMode:
        return self.plan.mode

    def status(self) -> list[EmbedderStatus]:
        """One status per registered embedder (cheap: sizes are checked, digests are not)."""
        return [self._status(spec) for spec in MODELS.values()]

    def available(self) -> tuple[str, ...]:
        """The ids that can embed right now (ready under this licence tier)."""
        return tuple(s.model_id for s in self.status() if s.state is State.READY)

    def ready(self, model_id: str) -> bool:
        """Whether `model_id` can embed right now, as `available` says, but without looking for the files of a
        model already loaded: every search asks, and looking costs ~1 ms a model (a packaged model's
        distribution is found by scanning the installed packages)."""
        spec = get_spec(model_id)
        with self._lock:
            embedder = self._embedders.get(spec.id)
        if embedder is not None and embedder.loaded and spec.id in self._enabled and spec.id not in self._failures:
            return True
        return self._status(spec).state is State.READY

    def get(self, model_id: str) -> PooledEmbedder:
        """The embedder for `model_id`; its model loads on first use.

        Raises InvalidInput (unknown id) or ModelUnavailable (disabled, not downloaded, failed)."""
        spec = get_spec(model_id)
        if spec.id not in self._enabled:
            raise ModelUnavailable(spec.id, f"{spec.name} is part of CaseTrack Pro", f"Upgrade: {UPGRADE_URL}")
        with self._lock:
            embedder = self._embedders.get(spec.id)
            if embedder is None:
                embedder = self._create(spec)
        return PooledEmbedder(self, embedder)

    def preload(self) -> dict[str, str | None]:
        """Load the models this memory mode keeps resident; per id, None or why it could not load.

        Blocking: call it from a worker thread at start-up."""
        outcome: dict[str, str | None] = {}
        for model_id in self.resident:
            try:
                self.get(model_id)._inner.load()
            except ModelUnavailable as exc:
                self._failures[model_id] = exc.message
                outcome[model_id] = exc.message
            else:
                outcome[model_id] = None
        return outcome

    def unload(self, model_id: str | None = None) -> None:
        """Unload one model (or all). They load again on next use."""
        with self._lock:
            for key, embedder in self._embedders.items():
                if model_id is None or key == get_spec(model_id).id:
                    embedder.unload()

    def refresh(self, model_id: str | None = None) -> None:
        """Forget what was resolved (after download/import/verify) so files are looked up again."""
        with self._lock:
            for key in [k for k in self._embedders if model_id is None or k == get_spec(model_id).id]:
                self._embedders.pop(key).unload()
            for key in [k for k in self._failures if model_id is None or k == get_spec(model_id).id]:
                del self._failures[key]

    def relieve_pressure(self) -> list[str]:
        """Under 1 GiB available, unload loaded Pro models, least recently used first. Returns their ids."""
        unloaded: list[str] = []
        with self._lock:
            pro = [e for e in self._embedders.values() if e.loaded and e.spec.tier is LicenseTier.PRO]
            for embedder in sorted(pro, key=lambda e: e.last_used):
                if not memory.under_pressure(self._probe):
                    break
                embedder.unload()
                unloaded.append(embedder.spec.id)
        if unloaded:
            log.warning("low memory: unloaded %s", ", ".join(unloaded))
        return unloaded

    def _create(self, spec: ModelSpec) -> OnnxEmbedder:
        try:
            found = sources.find(spec, self.models_dir, deep=True)
            if found is None and self.auto_download:
                hub.fetch(spec, self.models_dir, self.hub_settings, self.progress)
                found = sources.find(spec, self.models_dir, deep=True)
        except ModelUnavailable as exc:
            self._failures[spec.id] = exc.message
            raise
        if found is None:
            raise ModelUnavailable(spec.id, "it has not been downloaded", f"Run `{spec.fetch_command}`.")
        log.info("%s: using %s", spec.id, found.detail)
        embedder = OnnxEmbedder(spec, found.model_path, found.tokenizer_path, threads=self.threads)
        self._embedders[spec.id] = embedder
        self._failures.pop(spec.id, None)
        return embedder

    def _before_use(self, embedder: OnnxEmbedder) -> None:
        if embedder.loaded:
            return
        with self._lock:
            if self.plan.mode is MemoryMode.CONSTRAINED:
                for other in self._embedders.values():
                    if other is not embedder and other.spec.id not in self.resident:
                        other.unload()
            self.relieve_pressure()
        try:
            embedder.load()
        except ModelUnavailable as exc:
            self._failures[embedder.spec.id] = exc.message
            raise

    def _after_use(self, embedder: OnnxEmbedder) -> None:
        if self.plan.mode is MemoryMode.CONSTRAINED and embedder.spec.id not in self.resident:
            embedder.unload()

    def _status(self, spec: ModelSpec) -> EmbedderStatus:
        def make(state: State, detail: str, fix: str | None, source: str | None = None, loaded: bool = False):
            return EmbedderStatus(spec.id, spec.name, spec.kind.value, state, loaded, source, detail, fix)

        if spec.id not in self._enabled:
            return make(State.DISABLED, f"disabled: {spec.name} is part of CaseTrack Pro", f"Upgrade: {UPGRADE_URL}")
        failure = self._failures.get(spec.id)
        if failure is not None:
            return make(State.FAILED, failure, spec.fetch_command)
        try:
            found = sources.find(spec, self.models_dir, deep=False)
        except ModelUnavailable as exc:
            return make(State.FAILED, exc.message, spec.fetch_command)
        if found is None:
            return make(State.NOT_DOWNLOADED, "not downloaded", spec.fetch_command)
        embedder = self._embedders.get(spec.id)
        return make(State.READY, found.detail, None, found.source.value, embedder is not None and embedder.loaded)


def status(models_dir: Path, tier: LicenseTier = LicenseTier.FREE) -> list[EmbedderStatus]:
    """`casetrack models status`: each embedder's state without loading anything."""
    return EmbedderPool(models_dir, tier=tier).status()
