"""Text -> token ids, and token ids -> padded batches.

The tokenizer file only contributes the WordPiece vocabulary and normalisation:
truncation and padding stored in a tokenizer.json are switched off (the packaged
MiniLM tokenizer pads and truncates everything to 128 tokens), and the special
tokens, ColBERT markers, windows and padding are assembled here so that every
model kind is handled the same way.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from tokenizers import Tokenizer

from casetrack.embed.specs import ModelSpec
from casetrack.errors import ModelUnavailable


@dataclass(frozen=True, slots=True)
class Encoded:
    """One forward-pass input: `ids` with special tokens; the first `attend` of them get attention 1."""

    ids: tuple[int, ...]
    attend: int
    weight: float = 1.0  # share of the text this window covers (windows are averaged by it)

    def __len__(self) -> int:
        return len(self.ids)


@dataclass(frozen=True, slots=True)
class Batch:
    order: tuple[int, ...]  # positions, in the caller's list of Encoded, of the rows of this batch
    input_ids: NDArray[np.int64]
    attention_mask: NDArray[np.int64]


def _token_id(tokenizer: Tokenizer, token: str, model_id: str) -> int:
    found = tokenizer.token_to_id(token)
    if found is None:
        raise ModelUnavailable(model_id, f"its tokenizer has no {token} token", "Re-download or re-import the model.")
    return int(found)


class TextEncoder:
    """Turns texts into `Encoded` sequences for one model spec."""

    def __init__(self, tokenizer: Tokenizer, spec: ModelSpec) -> None:
        tokenizer.no_truncation()
        tokenizer.no_padding()
        self._tokenizer = tokenizer
        self.spec = spec
        self.cls_id = _token_id(tokenizer, "[CLS]", spec.id)
        self.sep_id = _token_id(tokenizer, "[SEP]", spec.id)
        self.pad_id = _token_id(tokenizer, "[PAD]", spec.id)
        self.mask_id = _token_id(tokenizer, "[MASK]", spec.id)
        self.query_marker = _token_id(tokenizer, spec.query_marker, spec.id) if spec.query_marker else None
        self.document_marker = _token_id(tokenizer, spec.document_marker, spec.id) if spec.document_marker else None
        punctuation = (tokenizer.token_to_id(ch) for ch in string.punctuation)
        self.skip_ids: frozenset[int] = (
            frozenset(i for i in punctuation if i is not None) if spec.skip_punctuation else frozenset()
        )

    @classmethod
    def from_file(cls, path: Path, spec: ModelSpec) -> TextEncoder:
        """Raises ModelUnavailable when the file is not a tokenizer."""
        try:
            tokenizer = Tokenizer.from_file(str(path))
        except Exception as exc:
            raise ModelUnavailable(
                spec.id, f"its tokenizer {path} could not be read ({exc})", f"Run `{spec.fetch_command}` again."
            ) from exc
        return cls(tokenizer, spec)

    def _content(self, texts: Sequence[str]) -> list[list[int]]:
        return [enc.ids for enc in self._tokenizer.encode_batch(list(texts), add_special_tokens=False)]

    def _wrap(self, content: Sequence[int], marker: int | None) -> tuple[int, ...]:
        head = (self.cls_id,) if marker is None else (self.cls_id, marker)
        return (*head, *content, self.sep_id)

    def documents(self, texts: Sequence[str]) -> list[list[Encoded]]:
        """Per text, the windows to run: one window (truncated) unless the spec asks for overlapping windows."""
        spec = self.spec
        marker = self.document_marker
        room = spec.max_tokens - (3 if marker is not None else 2)
        stride = room - spec.window_overlap
        out: list[list[Encoded]] = []
        for content in self._content(texts):
            if spec.window_overlap <= 0 or len(content) <= room:
                ids = self._wrap(content[:room], marker)
                out.append([Encoded(ids, len(ids))])
                continue
            windows: list[Encoded] = []
            start = 0
            while len(windows) < spec.max_windows:
                piece = content[start : start + room]
                ids = self._wrap(piece, marker)
                windows.append(Encoded(ids, len(ids), weight=float(len(piece))))
                if start + room >= len(content):
                    break
                start += stride
            out.append(windows)
        return out

    def query(self, text: str) -> Encoded:
        """A query: the spec's prefix, its own length limit, and ColBERT's [MASK] padding (attention 0)."""
        spec = self.spec
        marker = self.query_marker
        limit = spec.query_max_tokens or spec.max_tokens
        room = limit - (3 if marker is not None else 2)
        ids = self._wrap(self._content([spec.query_prefix + text])[0][:room], marker)
        attend = len(ids)
        if spec.query_pad_to > len(ids):
            ids = ids + (self.mask_id,) * (spec.query_pad_to - len(ids))
        return Encoded(ids, attend)


def plan_batches(
    lengths: Sequence[int], batch_tokens: int, max_batch: int, *, by_length: bool = True
) -> list[list[int]]:
    """Group indices so rows x longest row <= batch_tokens. Longest-first (the default)
    makes each batch pad little; `by_length=False` keeps input order (for comparison)."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i], reverse=True) if by_length else range(len(lengths))
    batches: list[list[int]] = []
    current: list[int] = []
    width = 0
    for index in order:
        grown = max(width, lengths[index])
        if current and (len(current) + 1 > max_batch or (len(current) + 1) * grown > batch_tokens):
            batches.append(current)
            current = []
            grown = lengths[index]
        current.append(index)
        width = grown
    if current:
        batches.append(current)
    return batches


def pad_batch(items: Sequence[Encoded], order: Sequence[int], pad_id: int) -> Batch:
    """Right-pad the selected sequences to the longest one; attention 1 on each row's first `attend` tokens."""
    width = max(len(items[i]) for i in order)
    ids = np.full((len(order), width), pad_id, dtype=np.int64)
    mask = np.zeros((len(order), width), dtype=np.int64)
    for row, index in enumerate(order):
        item = items[index]
        ids[row, : len(item)] = item.ids
        mask[row, : item.attend] = 1
    return Batch(tuple(order), ids, mask)
