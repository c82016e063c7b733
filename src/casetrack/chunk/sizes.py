"""Chunk sizes per document type, as data.

Sizes are in approximate tokens (PRD 06 §6.2: (chars + 3) // 4), so a size of N
tokens is 4·N characters. Every size stays within the PRD's 100..1000 bounds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from casetrack.domain import DocumentType

CHARS_PER_TOKEN = 4


def count_tokens(text: str) -> int:
    """The PRD's fast approximation; the real tokenizer runs only at embedding time."""
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


@dataclass(frozen=True, slots=True)
class ChunkSizes:
    target: int  # tokens a chunk aims for
    overlap: int  # tokens repeated from the end of the previous chunk on the same page
    min: int  # no chunk is smaller, except the only chunk of a short page
    max: int  # no chunk is larger, ever

    def __post_init__(self) -> None:
        # These keep the greedy splitter able to progress and to avoid tiny tails.
        if not (0 < self.min <= self.target <= self.max and 0 <= self.overlap < self.target):
            raise ValueError(f"chunk sizes out of order: {self}")
        if self.max < 2 * self.min or self.max - self.min <= 2 * self.overlap:
            raise ValueError(f"max too small for min and overlap: {self}")

    @property
    def target_chars(self) -> int:
        return self.target * CHARS_PER_TOKEN

    @property
    def overlap_chars(self) -> int:
        return self.overlap * CHARS_PER_TOKEN

    @property
    def min_chars(self) -> int:
        return self.min * CHARS_PER_TOKEN

    @property
    def max_chars(self) -> int:
        return self.max * CHARS_PER_TOKEN


DEFAULT_SIZES = ChunkSizes(target=500, overlap=50, min=100, max=1000)

# Testimony reads as narrative: bigger chunks, more overlap, so a question stays with
# its answer. Pleadings and statutes are cited paragraph by paragraph: smaller chunks
# make a hit point at the right allegation or subsection. Contracts sit between:
# a clause with its sub-clauses is often 400-700 tokens.
SIZES: Mapping[DocumentType, ChunkSizes] = MappingProxyType(
    {
        DocumentType.DEPOSITION: ChunkSizes(target=800, overlap=150, min=150, max=1000),
        DocumentType.PLEADING: ChunkSizes(target=350, overlap=40, min=100, max=700),
        DocumentType.STATUTE: ChunkSizes(target=350, overlap=40, min=100, max=700),
        DocumentType.CONTRACT: ChunkSizes(target=650, overlap=75, min=100, max=1000),
    }
)


def sizes_for(document_type: DocumentType) -> ChunkSizes:
    """The sizes for a type; types without their own rule use DEFAULT_SIZES."""
    return SIZES.get(document_type, DEFAULT_SIZES)
