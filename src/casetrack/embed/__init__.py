"""Embedders: model specs as data, the ONNX Runtime engine, model sources and the pool.

    pool = EmbedderPool(settings.models_dir, tier=LicenseTier.FREE, memory_mode=settings.memory_mode)
    pool.status()                                  # per embedder: ready / not downloaded / failed / disabled
    vectors = pool.get("E7").embed_documents(chunks)   # float32 (n, 384), L2-normalised
    query = pool.get("E1").embed_query("breach of duty")

Model management for the CLI: `status`, `download`, `import_models`, `verify`.
"""

from casetrack.embed.engine import DocumentEmbeddings, Embedder, OnnxEmbedder, QueryEmbedding, default_threads
from casetrack.embed.hub import DownloadProgress, HubSettings, ProgressCallback, download
from casetrack.embed.memory import MemoryPlan
from casetrack.embed.pool import EmbedderPool, EmbedderStatus, State, status
from casetrack.embed.pooling import SparseVector
from casetrack.embed.sources import Outcome, Source, import_models, verify
from casetrack.embed.specs import MODELS, Kind, LicenseTier, ModelSpec, get_spec, models_for_tier

__all__ = [
    "MODELS",
    "DocumentEmbeddings",
    "DownloadProgress",
    "Embedder",
    "EmbedderPool",
    "EmbedderStatus",
    "HubSettings",
    "Kind",
    "LicenseTier",
    "MemoryPlan",
    "ModelSpec",
    "OnnxEmbedder",
    "Outcome",
    "ProgressCallback",
    "QueryEmbedding",
    "Source",
    "SparseVector",
    "State",
    "default_threads",
    "download",
    "get_spec",
    "import_models",
    "models_for_tier",
    "status",
    "verify",
]
