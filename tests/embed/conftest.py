"""Tiny stand-ins for the real models: a WordPiece tokenizer.json and ONNX graphs with the
exact input/output signatures of each model kind, plus their NumPy reference."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

from casetrack.embed.specs import MODELS, ModelSpec

SPECIALS = ["[PAD]", "[unused0]", "[unused1]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = [
    ".",
    ",",
    ";",
    "!",
    "?",
    "(",
    ")",
    "the",
    "a",
    "of",
    "to",
    "and",
    "in",
    "on",
    "is",
    "was",
    "by",
    "for",
    "breach",
    "duty",
    "violation",
    "fiduciary",
    "obligation",
    "lease",
    "commences",
    "march",
    "1",
    "court",
    "held",
    "that",
    "party",
    "shall",
    "agreement",
    "term",
    "terminate",
    "notice",
    "days",
    "section",
    "4",
    "2",
    "contract",
    "##s",
    "##ed",
    "##ing",
    "represent",
    "this",
    "sentence",
    "searching",
    "relevant",
    "passages",
    ":",
    "payment",
    "confidential",
    "information",
]
VOCAB = {token: i for i, token in enumerate(SPECIALS + WORDS)}
MAX_POSITIONS = 600


def write_tokenizer(path: Path) -> Path:
    """A BERT-uncased-style tokenizer.json that, like the packaged MiniLM one, truncates and pads to a fixed size."""
    tok = Tokenizer(models.WordPiece(VOCAB, unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", VOCAB["[CLS]"]), ("[SEP]", VOCAB["[SEP]"])]
    )
    tok.enable_truncation(max_length=8)  # the trap: a tokenizer file that truncates...
    tok.enable_padding(length=16, pad_id=0, pad_token="[PAD]")  # ...and pads to a fixed length
    tok.save(str(path))
    return path


@dataclasses.dataclass
class TinyModel:
    """Weights of a tiny 'transformer': h = (E[ids] + P[pos] + T[type]) * (1 + mask); then every token
    gets the masked mean of h added (a crude attention, so [CLS] depends on the text and padding
    must be masked); then an optional head."""

    embeddings: np.ndarray
    positions: np.ndarray
    types: np.ndarray
    head: np.ndarray | None

    def hidden(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        h = self.embeddings[ids] + self.positions[: ids.shape[1]][None] + self.types[np.zeros_like(ids)]
        m = mask.astype(np.float32)[..., None]
        h = h * (1.0 + m)
        h = h + (h * m).sum(axis=1, keepdims=True) / m.sum(axis=1, keepdims=True)
        return (h @ self.head if self.head is not None else h).astype(np.float32)


def build_graph(
    path: Path,
    *,
    dim: int,
    head_dim: int | None = None,
    token_type_ids: bool = True,
    output: str = "last_hidden_state",
    minilm_l3_outputs: bool = False,
    seed: int = 0,
) -> TinyModel:
    """Write a graph taking input_ids, attention_mask [, token_type_ids] (int64, batch x seq).

    `minilm_l3_outputs` reproduces the packaged paraphrase-MiniLM-L3 graph: outputs `output` and `463`
    echo the inputs, `onnx::Shape_422` holds token states and `461` their masked mean (unnormalised)."""
    rng = np.random.default_rng(seed)
    model = TinyModel(
        rng.normal(size=(len(VOCAB), dim)).astype(np.float32),
        rng.normal(scale=0.5, size=(MAX_POSITIONS, dim)).astype(np.float32),
        rng.normal(scale=0.1, size=(2, dim)).astype(np.float32),
        rng.normal(size=(dim, head_dim)).astype(np.float32) if head_dim else None,
    )
    inits = [
        numpy_helper.from_array(model.embeddings, "E"),
        numpy_helper.from_array(model.positions, "P"),
        numpy_helper.from_array(model.types, "T"),
        numpy_helper.from_array(np.array([0], dtype=np.int64), "zero"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "one"),
        numpy_helper.from_array(np.array([2], dtype=np.int64), "two"),
        numpy_helper.from_array(np.array(1.0, dtype=np.float32), "fone"),
    ]
    nodes = [
        helper.make_node("Gather", ["E", "input_ids"], ["emb"]),
        helper.make_node("Shape", ["input_ids"], ["shape"]),
        helper.make_node("Slice", ["shape", "one", "two"], ["seqlen"]),
        helper.make_node("Slice", ["P", "zero", "seqlen", "zero"], ["pos"]),
        helper.make_node("Add", ["emb", "pos"], ["h0"]),
    ]
    inputs = [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
        helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"]),
    ]
    if token_type_ids:
        inputs.append(helper.make_tensor_value_info("token_type_ids", TensorProto.INT64, ["batch", "sequence"]))
        nodes.append(helper.make_node("Gather", ["T", "token_type_ids"], ["typ"]))
    else:  # the type-0 row is still part of the model, just not an input
        nodes.append(helper.make_node("Gather", ["T", "zero"], ["typ"]))
    nodes += [
        helper.make_node("Add", ["h0", "typ"], ["h1"]),
        helper.make_node("Cast", ["attention_mask"], ["maskf"], to=TensorProto.FLOAT),
        helper.make_node("Add", ["maskf", "fone"], ["scale"]),
        helper.make_node("Unsqueeze", ["scale", "two"], ["scale3"]),
        helper.make_node("Mul", ["h1", "scale3"], ["h2"]),
        helper.make_node("Unsqueeze", ["maskf", "two"], ["mask3"]),
        helper.make_node("Mul", ["h2", "mask3"], ["h2m"]),
        helper.make_node("ReduceSum", ["h2m", "one"], ["ctxsum"], keepdims=1),
        helper.make_node("ReduceSum", ["mask3", "one"], ["ctxcount"], keepdims=1),
        helper.make_node("Div", ["ctxsum", "ctxcount"], ["ctx"]),
        helper.make_node("Add", ["h2", "ctx"], ["h3"]),
    ]
    width = dim
    if model.head is not None:
        inits.append(numpy_helper.from_array(model.head, "W"))
        nodes.append(helper.make_node("MatMul", ["h3", "W"], [output]))
        width = model.head.shape[1]
    else:
        nodes.append(helper.make_node("Identity", ["h3"], [output]))
    outputs = [helper.make_tensor_value_info(output, TensorProto.FLOAT, ["batch", "sequence", width])]
    if minilm_l3_outputs:
        nodes += [
            helper.make_node("Identity", ["input_ids"], ["output"]),
            helper.make_node("Identity", ["attention_mask"], ["463"]),
            helper.make_node("Mul", [output, "mask3"], ["masked"]),
            helper.make_node("ReduceSum", ["masked", "one"], ["summed"], keepdims=0),
            helper.make_node("ReduceSum", ["maskf", "one"], ["count"], keepdims=1),
            helper.make_node("Div", ["summed", "count"], ["461"]),
        ]
        outputs = [
            helper.make_tensor_value_info("output", TensorProto.INT64, ["batch", "sequence"]),
            helper.make_tensor_value_info("463", TensorProto.INT64, ["batch", "sequence"]),
            outputs[0],
            helper.make_tensor_value_info("461", TensorProto.FLOAT, ["batch", width]),
        ]
    graph = helper.make_graph(nodes, "tiny", inputs, outputs, inits)
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    proto.ir_version = 8
    onnx.checker.check_model(proto)
    onnx.save(proto, str(path))
    return model


def tiny_spec(model_id: str, **changes: object) -> ModelSpec:
    return dataclasses.replace(MODELS[model_id], **changes)  # type: ignore[arg-type]


@pytest.fixture
def tokenizer_path(tmp_path: Path) -> Path:
    return write_tokenizer(tmp_path / "tokenizer.json")


def encode_reference(text: str, max_tokens: int, marker: str | None = None) -> list[int]:
    """What the engine should feed for `text`: [CLS] [marker] wordpieces... [SEP], truncated."""
    tok = Tokenizer(models.WordPiece(VOCAB, unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    ids = tok.encode(text, add_special_tokens=False).ids
    head = [VOCAB["[CLS]"]] + ([VOCAB[marker]] if marker else [])
    room = max_tokens - len(head) - 1
    return [*head, *ids[:room], VOCAB["[SEP]"]]


def l2(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=-1, keepdims=True)
