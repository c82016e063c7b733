"""Byte encodings of embeddings. One tag byte says which kind follows, so a reader never
needs to know which embedder wrote a vector:
  b"D" dense:  float32[dim]
  b"S" sparse: u32 n, u32[n] token ids, float32[n] weights (SPLADE)
  b"T" tokens: u32 rows, u32 dim, float32[rows*dim] (ColBERT)"""

from __future__ import annotations

import struct
from typing import Union

import numpy as np
import numpy.typing as npt

Dense = npt.NDArray[np.float32]
Sparse = tuple[npt.NDArray[np.uint32], npt.NDArray[np.float32]]
VectorValue = Union[Dense, Sparse]  # noqa: UP007 - a runtime alias; `|` on these generics fails at import


def encode_vector(value: VectorValue) -> bytes:
    if isinstance(value, tuple):
        indices, weights = value
        n = len(indices)
        return b"S" + struct.pack("<I", n) + np.asarray(indices, "<u4").tobytes() + np.asarray(weights, "<f4").tobytes()
    array = np.asarray(value, dtype="<f4")
    if array.ndim == 1:
        return b"D" + array.tobytes()
    rows, dim = array.shape
    return b"T" + struct.pack("<II", rows, dim) + array.tobytes()


def decode_vector(raw: bytes) -> VectorValue:
    tag, body = raw[:1], memoryview(raw)[1:]
    if tag == b"D":
        return np.frombuffer(body, dtype="<f4").astype(np.float32)
    if tag == b"S":
        (n,) = struct.unpack_from("<I", body)
        indices = np.frombuffer(body, dtype="<u4", count=n, offset=4).astype(np.uint32)
        weights = np.frombuffer(body, dtype="<f4", count=n, offset=4 + 4 * n).astype(np.float32)
        return indices, weights
    if tag == b"T":
        rows, dim = struct.unpack_from("<II", body)
        return np.frombuffer(body, dtype="<f4", offset=8).reshape(rows, dim).astype(np.float32)
    raise ValueError(f"unknown vector encoding tag {tag!r}")
