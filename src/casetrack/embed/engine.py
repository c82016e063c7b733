"""The ONNX Runtime embedder: one lazily created session per model, behind a narrow interface.

`embed_documents(texts)` returns, by model kind:
  * dense (E1, E7, E8, E11): float32 array (n, dim), rows L2-normalised;
  * sparse (E6): list of `SparseVector` (uint32 ids ascending, float32 weights);
  * ColBERT (E12): list of float32 arrays (tokens, dim), rows L2-normalised.
`embed_query(text)` returns one item of the same kind ((dim,) for dense).

Sessions are created on first use under a lock, with the CPU memory arena off (an
arena keeps the peak of the largest batch for the life of the process) and a bounded
number of padded tokens per batch. Callers on an event loop run these methods in a
worker thread: they block for the duration of the inference.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
import onnxruntime as ort
import psutil

from casetrack import cancel
from casetrack.embed.encoding import Encoded, TextEncoder, pad_batch, plan_batches
from casetrack.embed.native_heap import return_large_blocks
from casetrack.embed.pooling import (
    Float32Array,
    SparseVector,
    average_windows,
    cls_pool,
    colbert_tokens,
    l2_normalize,
    mean_pool,
    splade_pool,
    top_k_sparse,
)
from casetrack.embed.specs import Kind, ModelSpec
from casetrack.errors import InternalError, InvalidInput, ModelUnavailable

log = logging.getLogger(__name__)

DocumentEmbeddings = Float32Array | list[SparseVector] | list[Float32Array]
QueryEmbedding = Float32Array | SparseVector

_TEXT_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
# Texts tokenized and embedded at a time by embed_documents (each slice planned into batches of batch_tokens).
EMBED_SLICE = 256


@runtime_checkable
class Embedder(Protocol):
    """What the index and search layers need from any embedder (a fake one in tests)."""

    @property
    def spec(self) -> ModelSpec: ...

    def embed_documents(self, texts: Sequence[str]) -> DocumentEmbeddings: ...

    def embed_windows(self, texts: Sequence[str]) -> tuple[Float32Array, list[Float32Array | None]]: ...

    def embed_query(self, text: str) -> QueryEmbedding: ...


TOKENIZE_SLICE = 64  # chunks tokenised at a time: a cancelled ingest stops between two slices


def default_threads() -> int:
    """Intra-op threads: the physical cores, minus one for the rest of the server on 4+ cores."""
    physical = psutil.cpu_count(logical=False) or psutil.cpu_count() or 1
    return physical - 1 if physical >= 4 else physical


def session_options(threads: int | None = None) -> ort.SessionOptions:
    options = ort.SessionOptions()
    options.enable_cpu_mem_arena = False
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.intra_op_num_threads = threads or default_threads()
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # errors only: ORT's warnings go to stderr, never to the MCP stream
    return options


class OnnxEmbedder:
    """An `Embedder` over one ONNX graph and its tokenizer. Nothing is loaded until first use."""

    def __init__(
        self,
        spec: ModelSpec,
        model_path: Path,
        tokenizer_path: Path,
        *,
        threads: int | None = None,
        sort_by_length: bool = True,
    ) -> None:
        self._spec = spec
        self.model_path = model_path
        self.tokenizer_path = tokenizer_path
        self.threads = threads
        self.sort_by_length = sort_by_length
        self.last_used = 0.0
        self._lock = threading.Lock()
        self._session: ort.InferenceSession | None = None
        self._encoder: TextEncoder | None = None
        self._inputs: tuple[str, ...] = ()
        self._output = ""

    @property
    def spec(self) -> ModelSpec:
        return self._spec

    @property
    def loaded(self) -> bool:
        return self._session is not None

    def load(self) -> None:
        """Create the session and tokenizer if not yet done. Raises ModelUnavailable if either is unusable."""
        with self._lock:
            if self._session is not None:
                return
            spec = self._spec
            started = time.perf_counter()
            return_large_blocks()  # each batch's activations go back to the system after it (native_heap.py)
            encoder = TextEncoder.from_file(self.tokenizer_path, spec)
            try:
                session = ort.InferenceSession(
                    str(self.model_path), sess_options=session_options(self.threads), providers=["CPUExecutionProvider"]
                )
            except Exception as exc:
                raise ModelUnavailable(
                    spec.id, f"ONNX Runtime could not load {self.model_path} ({exc})", f"Run `{spec.fetch_command}`."
                ) from exc
            self._inputs, self._output = _check_signature(spec, session)
            self._encoder = encoder
            self._session = session
            log.info("loaded %s (%s) in %.2fs", spec.id, self.model_path, time.perf_counter() - started)

    def unload(self) -> None:
        """Drop the session; the next call loads it again. Calls already running keep their reference."""
        with self._lock:
            self._session = None
            self._encoder = None

    def embed_documents(self, texts: Sequence[str]) -> DocumentEmbeddings:
        """Embed chunks. Raises InvalidInput for a bare string, ModelUnavailable if the model cannot load."""
        if self._spec.kind is Kind.SPARSE or self._spec.kind is Kind.COLBERT:  # a list, one item per text
            return [item for part in self._slices(texts) for item in part[0]]  # type: ignore[return-value]
        return self.embed_windows(texts)[0]

    def embed_windows(self, texts: Sequence[str]) -> tuple[Float32Array, list[Float32Array | None]]:
        """A dense model's chunk vectors (as `embed_documents`) and, per text, the vectors of the windows
        it was read in when it is longer than one (their weighted mean is the chunk vector), else None.
        A passage's best window is what search compares a question with beside the whole passage
        (pipeline.BEST_WINDOW): one sentence in a long passage is lost in the mean of its windows."""
        parts = self._slices(texts)
        if not parts:
            return np.zeros((0, self._spec.dim), dtype=np.float32), []
        return np.concatenate([vectors for vectors, _ in parts]), [w for _, windows in parts for w in windows]

    def _slices(self, texts: Sequence[str]) -> list[tuple[DocumentEmbeddings, list[Float32Array | None]]]:
        if isinstance(texts, str) or not all(isinstance(t, str) for t in texts):
            raise InvalidInput("embed_documents takes a list of strings, not a single string.")
        session, encoder = self._ready()
        # A slice at a time: a document's token ids all at once cost ~50 bytes a token (a 3,000-page PDF's
        # ~1.5 million tokens per 1,500 pages: ~150 MB); a slice's are a few MB, and its batches are as full.
        return [self._embed_slice(session, encoder, texts[start:start + EMBED_SLICE])
                for start in range(0, len(texts), EMBED_SLICE)]

    def _embed_slice(self, session: ort.InferenceSession, encoder: TextEncoder,
                     texts: Sequence[str]) -> tuple[DocumentEmbeddings, list[Float32Array | None]]:
        per_text: list[list[Encoded]] = []
        for start in range(0, len(texts), TOKENIZE_SLICE):
            cancel.checkpoint()  # tokenising hundreds of chunks at once took seconds on a busy laptop
            per_text.extend(encoder.documents(texts[start:start + TOKENIZE_SLICE]))
        flat = [window for windows in per_text for window in windows]
        outputs = self._forward(session, encoder, flat, query=False)
        kind = self._spec.kind
        if kind is Kind.SPARSE or kind is Kind.COLBERT:
            return outputs, []  # one window per text for these kinds
        dense = np.stack(outputs) if outputs else np.zeros((0, self._spec.dim), dtype=np.float32)
        if len(flat) == len(per_text):
            return dense, [None] * len(per_text)
        result = np.empty((len(per_text), self._spec.dim), dtype=np.float32)
        kept: list[Float32Array | None] = []
        start = 0
        for row, windows in enumerate(per_text):
            stop = start + len(windows)
            weights = np.array([w.weight for w in windows], dtype=np.float64)
            result[row] = dense[start] if len(windows) == 1 else average_windows(dense[start:stop], weights)
            kept.append(None if len(windows) == 1 else dense[start:stop].copy())
            start = stop
        return result, kept

    def embed_query(self, text: str) -> QueryEmbedding:
        """Embed one search query (with the spec's query prefix / markers). Raises as embed_documents."""
        if not isinstance(text, str):
            raise InvalidInput("embed_query takes a string.")
        session, encoder = self._ready()
        return self._forward(session, encoder, [encoder.query(text)], query=True)[0]

    def _ready(self) -> tuple[ort.InferenceSession, TextEncoder]:
        self.last_used = time.monotonic()
        session, encoder = self._session, self._encoder
        if session is None or encoder is None:
            self.load()
            session, encoder = self._session, self._encoder
        assert session is not None and encoder is not None
        return session, encoder

    def _forward(self, session: ort.InferenceSession, encoder: TextEncoder, items: list[Encoded], *, query: bool):
        spec = self._spec
        results: list = [None] * len(items)
        if not items:
            return results
        plan = plan_batches([len(i) for i in items], spec.batch_tokens, spec.max_batch, by_length=self.sort_by_length)
        for order in plan:
            cancel.checkpoint()  # a batch takes ~1 s: a cancelled ingest stops within one
            batch = pad_batch(items, order, encoder.pad_id)
            feed = {"input_ids": batch.input_ids, "attention_mask": batch.attention_mask}
            if "token_type_ids" in self._inputs:
                feed["token_type_ids"] = np.zeros_like(batch.input_ids)
            try:
                (hidden,) = session.run([self._output], {k: v for k, v in feed.items() if k in self._inputs})
            except Exception as exc:
                raise InternalError(f"{spec.id} inference failed on a batch of {len(order)} ({exc})") from exc
            hidden = np.asarray(hidden, dtype=np.float32)
            if hidden.ndim != 3 or hidden.shape[-1] != spec.dim:
                raise ModelUnavailable(
                    spec.id,
                    f"its output has shape {hidden.shape}, expected (batch, seq, {spec.dim})",
                    spec.fetch_command,
                )
            if spec.kind is Kind.SPARSE:
                pooled = splade_pool(hidden, batch.attention_mask)
                for row, index in enumerate(order):
                    results[index] = top_k_sparse(pooled[row], spec.sparse_top_k)
            elif spec.kind is Kind.COLBERT:
                skip = frozenset() if query else encoder.skip_ids
                for row, index in enumerate(order):
                    results[index] = colbert_tokens(hidden[row], batch.input_ids[row], len(items[index]), skip)
            else:
                pooled = cls_pool(hidden) if spec.kind is Kind.DENSE_CLS else mean_pool(hidden, batch.attention_mask)
                pooled = l2_normalize(pooled)
                for row, index in enumerate(order):
                    results[index] = pooled[row]
        return results


def _check_signature(spec: ModelSpec, session: ort.InferenceSession) -> tuple[tuple[str, ...], str]:
    """The graph's text inputs and the output to read; ModelUnavailable if the graph is not what the spec says."""
    inputs = tuple(i.name for i in session.get_inputs())
    unknown = [name for name in inputs if name not in _TEXT_INPUTS]
    fix = f"Run `{spec.fetch_command}` to replace it."
    if unknown or "input_ids" not in inputs:
        raise ModelUnavailable(spec.id, f"its graph takes inputs {list(inputs)}, not BERT-style token ids", fix)
    outputs = {o.name: o for o in session.get_outputs()}
    name = next((n for n in spec.outputs if n in outputs), None)
    if name is None:
        raise ModelUnavailable(spec.id, f"its graph has none of the outputs {list(spec.outputs)}", fix)
    shape = outputs[name].shape
    width = shape[-1] if shape else None
    if len(shape) != 3 or (isinstance(width, int) and width != spec.dim):
        raise ModelUnavailable(spec.id, f"its output {name} has shape {shape}, expected (batch, seq, {spec.dim})", fix)
    return inputs, name
