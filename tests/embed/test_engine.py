"""The engine against NumPy references, on tiny graphs with each real model's signature."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from casetrack.embed import engine
from casetrack.embed.encoding import TextEncoder, plan_batches
from casetrack.embed.engine import Embedder, OnnxEmbedder
from casetrack.embed.pooling import SparseVector
from casetrack.errors import InvalidInput, ModelUnavailable

from .conftest import VOCAB, build_graph, encode_reference, l2, tiny_spec

TEXTS = [
    "Breach of duty.",
    "The court held that the party shall terminate the agreement on notice of 2 days, section 4.2!",
    "lease",
    "violation of fiduciary obligation; the lease commences on March 1 (section 4).",
    "",
    "contracts terminated; payment of confidential information",
]


def reference_dense(model, text: str, max_tokens: int, pooling: str, marker: str | None = None) -> np.ndarray:
    ids = np.array([encode_reference(text, max_tokens, marker)])
    hidden = model.hidden(ids, np.ones_like(ids))[0]
    return l2(hidden[0] if pooling == "cls" else hidden.mean(axis=0))


@pytest.fixture
def e1(tmp_path: Path, tokenizer_path: Path):
    model = build_graph(tmp_path / "e1.onnx", dim=384)
    return model, OnnxEmbedder(tiny_spec("E1", max_tokens=12), tmp_path / "e1.onnx", tokenizer_path, threads=1)


@pytest.fixture
def e7(tmp_path: Path, tokenizer_path: Path):
    model = build_graph(tmp_path / "e7.onnx", dim=384, seed=1)
    spec = tiny_spec("E7", max_tokens=10, window_overlap=0)
    return model, OnnxEmbedder(spec, tmp_path / "e7.onnx", tokenizer_path, threads=1)


def test_cls_embeddings_match_the_numpy_reference_and_are_unit_length(e1) -> None:
    model, embedder = e1
    vectors = embedder.embed_documents(TEXTS)
    assert isinstance(vectors, np.ndarray) and vectors.dtype == np.float32 and vectors.shape == (len(TEXTS), 384)
    expected = np.stack([reference_dense(model, t, 12, "cls") for t in TEXTS])
    np.testing.assert_allclose(vectors, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-6)


def test_mean_pooling_uses_the_real_attention_mask_not_the_tokenizer_padding(e7) -> None:
    model, embedder = e7
    vectors = embedder.embed_documents(TEXTS)
    expected = np.stack([reference_dense(model, t, 10, "mean") for t in TEXTS])
    np.testing.assert_allclose(vectors, expected, rtol=1e-5, atol=1e-6)


def test_the_tokenizer_files_own_truncation_and_padding_are_ignored(tokenizer_path: Path) -> None:
    encoder = TextEncoder.from_file(tokenizer_path, tiny_spec("E1", max_tokens=40))
    (windows,) = encoder.documents([TEXTS[1]])
    assert list(windows[0].ids) == encode_reference(TEXTS[1], 40)
    assert len(windows[0].ids) > 16  # the file says truncate to 8 and pad to 16
    assert windows[0].attend == len(windows[0].ids)


def test_documents_are_truncated_to_the_models_length(e1) -> None:
    model, embedder = e1
    long_text = " ".join(["breach of duty"] * 50)
    (vector,) = embedder.embed_documents([long_text])
    np.testing.assert_allclose(vector, reference_dense(model, long_text, 12, "cls"), rtol=1e-5, atol=1e-6)


def test_queries_get_the_bge_prefix_and_documents_do_not(e1) -> None:
    model, embedder = e1
    query = embedder.embed_query("breach of duty")
    prefix = embedder.spec.query_prefix
    assert prefix.startswith("Represent this sentence")
    spec40 = tiny_spec("E1", max_tokens=40)
    embedder40 = OnnxEmbedder(spec40, embedder.model_path, embedder.tokenizer_path)
    np.testing.assert_allclose(
        embedder40.embed_query("breach of duty"),
        reference_dense(model, prefix + "breach of duty", 40, "cls"),
        rtol=1e-5,
        atol=1e-6,
    )
    assert query.shape == (384,)
    assert not np.allclose(query, embedder.embed_documents(["breach of duty"])[0])


def test_sorted_batches_give_the_same_vectors_as_input_order_and_one_by_one(tmp_path: Path, tokenizer_path) -> None:
    build_graph(tmp_path / "m.onnx", dim=384, seed=3)
    texts = TEXTS * 5
    results = []
    for by_length, batch_tokens in ((True, 64), (False, 64), (True, 100_000)):
        spec = tiny_spec("E7", max_tokens=30, window_overlap=0, batch_tokens=batch_tokens, max_batch=7)
        embedder = OnnxEmbedder(spec, tmp_path / "m.onnx", tokenizer_path, sort_by_length=by_length)
        results.append(embedder.embed_documents(texts))
    singles = np.stack([embedder.embed_documents([t])[0] for t in texts])
    for other in [*results[1:], singles]:
        np.testing.assert_allclose(results[0], other, rtol=1e-5, atol=1e-6)


def test_a_long_document_is_embedded_a_slice_at_a_time_with_the_same_vectors(
    tmp_path: Path, tokenizer_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Texts are tokenized and run EMBED_SLICE at a time (memory that does not grow with a document's length);
    every kind of model gives what one pass over all the texts gives, in order."""
    texts = TEXTS * 5
    build_graph(tmp_path / "d.onnx", dim=384)
    dense = OnnxEmbedder(tiny_spec("E7", max_tokens=30, window_overlap=0), tmp_path / "d.onnx", tokenizer_path)
    build_graph(tmp_path / "s.onnx", dim=16, head_dim=len(VOCAB), output="logits", seed=5)
    sparse = OnnxEmbedder(tiny_spec("E6", dim=len(VOCAB), sparse_top_k=6), tmp_path / "s.onnx", tokenizer_path)
    whole = [dense.embed_documents(texts), sparse.embed_documents(texts)]
    monkeypatch.setattr(engine, "EMBED_SLICE", 4)
    sliced = [dense.embed_documents(texts), sparse.embed_documents(texts)]
    assert isinstance(sliced[0], np.ndarray) and sliced[0].shape == (len(texts), 384)
    np.testing.assert_allclose(whole[0], sliced[0], rtol=1e-5, atol=1e-6)
    assert isinstance(sliced[1], list) and len(sliced[1]) == len(texts)
    for one, other in zip(whole[1], sliced[1], strict=True):
        assert list(one.indices) == list(other.indices)
        np.testing.assert_allclose(one.values, other.values, rtol=1e-5)


def test_batches_respect_the_token_budget_and_cover_every_text_once() -> None:
    lengths = [5, 40, 12, 40, 3, 7, 33, 1, 18]
    plan = plan_batches(lengths, batch_tokens=80, max_batch=3)
    assert sorted(i for batch in plan for i in batch) == list(range(len(lengths)))
    for batch in plan:
        assert len(batch) <= 3 and len(batch) * max(lengths[i] for i in batch) <= 80
    assert [lengths[b[0]] for b in plan] == sorted((lengths[b[0]] for b in plan), reverse=True)


def test_long_text_is_embedded_as_overlapping_windows_averaged_and_renormalised(tmp_path, tokenizer_path) -> None:
    model = build_graph(tmp_path / "m.onnx", dim=384, seed=4)
    spec = tiny_spec("E7", max_tokens=10, window_overlap=3, max_windows=3)
    embedder = OnnxEmbedder(spec, tmp_path / "m.onnx", tokenizer_path)
    text = "the court held that the party shall terminate the agreement on notice of 2 days section 4 " * 2
    content = encode_reference(text, 1000)[1:-1]
    assert len(content) > 8 + 5 + 5
    windows = [content[0:8], content[5:13], content[10:18]]  # 8 per window, stride 5, at most 3
    vectors, weights = [], []
    for piece in windows:
        ids = np.array([[VOCAB["[CLS]"], *piece, VOCAB["[SEP]"]]])
        vectors.append(l2(model.hidden(ids, np.ones_like(ids))[0].mean(axis=0)))
        weights.append(len(piece))
    expected = l2(np.average(np.stack(vectors), axis=0, weights=weights))
    (vector,) = embedder.embed_documents([text])
    np.testing.assert_allclose(vector, expected, rtol=1e-5, atol=1e-6)
    short = embedder.embed_documents(["breach of duty"])[0]
    np.testing.assert_allclose(short, reference_dense(model, "breach of duty", 10, "mean"), rtol=1e-5, atol=1e-6)


def test_splade_weights_are_max_of_log1p_relu_over_real_tokens_keeping_the_top_k(tmp_path, tokenizer_path) -> None:
    vocab = len(VOCAB)
    model = build_graph(tmp_path / "s.onnx", dim=16, head_dim=vocab, output="logits", seed=5)
    spec = tiny_spec("E6", dim=vocab, sparse_top_k=6, batch_tokens=40)
    embedder = OnnxEmbedder(spec, tmp_path / "s.onnx", tokenizer_path)
    result = embedder.embed_documents(TEXTS)
    assert isinstance(result, list) and len(result) == len(TEXTS)
    for text, sparse in zip(TEXTS, result, strict=True):
        assert isinstance(sparse, SparseVector)
        assert sparse.indices.dtype == np.uint32 and sparse.values.dtype == np.float32
        ids = np.array([encode_reference(text, 512)])
        full = np.log1p(np.maximum(model.hidden(ids, np.ones_like(ids))[0], 0)).max(axis=0)
        top = np.sort(np.argsort(full)[-6:])
        assert list(sparse.indices) == list(top) == sorted(sparse.indices)
        np.testing.assert_allclose(sparse.values, full[top], rtol=1e-5)
    query = embedder.embed_query("breach of duty")
    assert isinstance(query, SparseVector) and 0 < len(query.indices) <= 6


def test_colbert_documents_get_the_marker_and_lose_punctuation_vectors(tmp_path, tokenizer_path) -> None:
    model = build_graph(tmp_path / "c.onnx", dim=32, head_dim=96, output="contextual", token_type_ids=False, seed=6)
    embedder = OnnxEmbedder(tiny_spec("E12"), tmp_path / "c.onnx", tokenizer_path)
    text = "Breach of duty; the court held (section 4)."
    (doc,) = embedder.embed_documents([text])
    ids = np.array([encode_reference(text, 512, marker="[unused1]")])
    assert ids[0, 1] == VOCAB["[unused1]"]
    hidden = model.hidden(ids, np.ones_like(ids))[0]
    keep = [i for i, t in enumerate(ids[0]) if t not in {VOCAB[p] for p in ".,;!?()"}]
    assert doc.shape == (len(keep), 96) and len(keep) < ids.shape[1]
    np.testing.assert_allclose(doc, l2(hidden[keep]), rtol=1e-5, atol=1e-6)


def test_colbert_queries_get_the_marker_and_are_padded_with_mask_to_32(tmp_path, tokenizer_path) -> None:
    model = build_graph(tmp_path / "c.onnx", dim=32, head_dim=96, output="contextual", token_type_ids=False, seed=7)
    embedder = OnnxEmbedder(tiny_spec("E12"), tmp_path / "c.onnx", tokenizer_path)
    query = embedder.embed_query("breach of duty?")
    real = encode_reference("breach of duty?", 32, marker="[unused0]")
    ids = np.array([real + [VOCAB["[MASK]"]] * (32 - len(real))])
    mask = np.array([[1] * len(real) + [0] * (32 - len(real))])
    assert query.shape == (32, 96)
    np.testing.assert_allclose(query, l2(model.hidden(ids, mask)[0]), rtol=1e-5, atol=1e-6)
    long_query = embedder.embed_query(" ".join(["duty"] * 80))
    assert long_query.shape == (32, 96)


def test_the_packaged_minilm_l3_graph_is_read_from_its_token_states_output(tmp_path, tokenizer_path) -> None:
    build_graph(tmp_path / "l3.onnx", dim=384, token_type_ids=False, output="onnx::Shape_422", minilm_l3_outputs=True)
    embedder = OnnxEmbedder(tiny_spec("E8"), tmp_path / "l3.onnx", tokenizer_path)
    vectors = embedder.embed_documents(TEXTS)
    import onnxruntime as ort

    raw = ort.InferenceSession(str(tmp_path / "l3.onnx"), providers=["CPUExecutionProvider"])
    for text, vector in zip(TEXTS, vectors, strict=True):
        ids = np.array([encode_reference(text, 128)])
        (pooled,) = raw.run(["461"], {"input_ids": ids, "attention_mask": np.ones_like(ids)})
        np.testing.assert_allclose(vector, l2(pooled[0]), rtol=1e-5, atol=1e-6)


def test_an_engine_is_an_embedder_and_loads_only_on_first_use(e7) -> None:
    _model, embedder = e7
    assert isinstance(embedder, Embedder)
    assert not embedder.loaded
    assert embedder.embed_documents([]).shape == (0, 384)
    assert embedder.loaded
    embedder.unload()
    assert not embedder.loaded
    embedder.embed_query("lease")
    assert embedder.loaded


def test_a_bare_string_is_refused(e7) -> None:
    with pytest.raises(InvalidInput):
        e7[1].embed_documents("breach of duty")


def test_a_graph_with_the_wrong_width_or_a_corrupt_file_is_unavailable_not_a_crash(tmp_path, tokenizer_path) -> None:
    build_graph(tmp_path / "narrow.onnx", dim=16)
    with pytest.raises(ModelUnavailable, match=r"E1.*expected"):
        OnnxEmbedder(tiny_spec("E1"), tmp_path / "narrow.onnx", tokenizer_path).embed_query("x")
    (tmp_path / "junk.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelUnavailable, match="could not load"):
        OnnxEmbedder(tiny_spec("E1"), tmp_path / "junk.onnx", tokenizer_path).load()
    build_graph(tmp_path / "ok.onnx", dim=384)
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(ModelUnavailable, match="tokenizer"):
        OnnxEmbedder(tiny_spec("E1"), tmp_path / "ok.onnx", tmp_path / "bad.json").load()
